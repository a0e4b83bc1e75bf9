//! `gcn asm`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;

use gcnkit_asm::program::{self, elf, FileLoader, FsLoader, NoIncludes, Options, Program};
use gcnkit_disasm::{print_instruction, PrintContext};
use gcnkit_isa::Target;

use crate::input::{read_input, Input};

/// Arguments of `gcn asm`.
#[derive(Args)]
#[command(after_help = "Examples:
  gcn asm --mcpu=gfx900 --show-encoding kernel.s   print each instruction with its bytes
  gcn asm --mcpu=gfx90a -c kernel.s -o kernel.o    write an ELF relocatable object
  gcn asm kernel.s -o kernel.co                    write a loadable code object (target from
                                                   the source's .amdgcn_target)
  echo 's_mov_b32 s0, 1' | gcn asm --mcpu=gfx942 --show-encoding -")]
pub struct AsmArgs {
    /// Input: an assembly source file, or `-` for standard input.
    pub input: PathBuf,
    /// Target processor, as llvm-mc takes it (gfx900, tahiti, bonaire, fiji, gfx90a,
    /// gfx942, ...). Without it the source must name its target with `.amdgcn_target`.
    #[arg(long)]
    pub mcpu: Option<String>,
    /// Target features, as llvm-mc takes them (+xnack,-sramecc).
    #[arg(long)]
    pub mattr: Option<String>,
    /// Print each instruction with its encoding, as `llvm-mc -show-encoding` does (the
    /// default when no output file is given).
    #[arg(long = "show-encoding")]
    pub show_encoding: bool,
    /// With -o: write an ELF relocatable object (as `llvm-mc -filetype=obj`) instead of a
    /// finished code object.
    #[arg(short = 'c')]
    pub relocatable: bool,
    /// Output file: a loadable code object (laid out as `ld.lld -shared` lays it out), or
    /// with -c a relocatable object.
    #[arg(short = 'o')]
    pub output: Option<PathBuf>,
    /// Directories searched by `.include` after the including file's own.
    #[arg(short = 'I')]
    pub include: Vec<PathBuf>,
    /// Threads that assemble instructions ahead (default: one per core, for files of
    /// 1 MiB or more; 1 for none). The output is the same for any number.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Runs `gcn asm`.
pub fn run(args: &AsmArgs) -> Result<ExitCode> {
    let target = match &args.mcpu {
        Some(mcpu) => Some(Target::parse(mcpu, args.mattr.as_deref())?),
        None if args.mattr.is_some() => bail!("--mattr needs --mcpu"),
        None => None,
    };
    if args.relocatable && args.output.is_none() {
        bail!("-c needs -o FILE");
    }
    let (name, input) = read_source(&args.input)?;
    let text = std::str::from_utf8(&input)
        .with_context(|| format!("cannot read '{name}': not UTF-8 text"))?;
    let listing = args.show_encoding || args.output.is_none();
    let options = Options {
        target,
        record_instructions: listing,
        threads: args.threads.unwrap_or(0),
        ..Options::default()
    };
    let loader: Box<dyn FileLoader> = if args.input.as_os_str() == "-" && args.include.is_empty() {
        Box::new(NoIncludes)
    } else {
        Box::new(FsLoader {
            include_dirs: args.include.clone(),
        })
    };
    let program = match program::assemble(&name, text, &options, loader.as_ref()) {
        Ok(p) => p,
        Err(failed) => {
            eprint!("{failed}");
            return Ok(ExitCode::from(1));
        }
    };
    for w in &program.warnings {
        eprintln!("{w}");
    }
    if listing {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        write_listing(&program, &mut out).context("writing the listing")?;
        out.flush().context("writing the listing")?;
    }
    if let Some(path) = &args.output {
        let mut bytes = elf::write_relocatable(&program);
        if !args.relocatable {
            // A finished code object, laid out as `ld.lld -shared` lays out the object.
            bytes = gcnkit_codeobj::link::link_shared(&bytes)
                .with_context(|| format!("linking '{}'", path.display()))?;
        }
        std::fs::write(path, bytes)
            .with_context(|| format!("cannot write '{}'", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The file name for messages, and the file's bytes (mapped, for a large file).
fn read_source(path: &Path) -> Result<(String, Input)> {
    let name = if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    Ok((name, read_input(path)?))
}

/// Column at which llvm-mc starts the `; encoding:` comment (counting the tab as one).
const ENCODING_COLUMN: usize = 40;

/// Writes the `-show-encoding` listing: one line per instruction, its text as LLVM prints
/// it, then `; encoding: [...]`, with `A`, `B`, ... for bytes a fixup fills in and a note
/// line per fixup.
pub fn write_listing(program: &Program, out: &mut dyn Write) -> std::io::Result<()> {
    let mut section = usize::MAX;
    let mut text = String::new();
    for inst in &program.instructions {
        if inst.section != section {
            section = inst.section;
            writeln!(out, "\t.section\t{}", program.sections[section].name)?;
        }
        text.clear();
        instruction_text(program, inst, &mut text);
        let pad = ENCODING_COLUMN.saturating_sub(text.len());
        write!(out, "\t{text}{:pad$}; encoding: [", "")?;
        for (i, b) in inst.bytes.iter().enumerate() {
            if i > 0 {
                write!(out, ",")?;
            }
            match inst.fixups.iter().position(|(r, _)| r.contains(&i)) {
                Some(k) => write!(out, "{}", (b'A' + k as u8) as char)?,
                None => write!(out, "0x{b:02x}")?,
            }
        }
        writeln!(out, "]")?;
        for (k, (range, expr)) in inst.fixups.iter().enumerate() {
            writeln!(
                out,
                "{:40};   fixup {} - offset: {}, value: {expr}",
                "",
                (b'A' + k as u8) as char,
                range.start
            )?;
        }
    }
    Ok(())
}

/// The text llvm-mc prints for an instruction: the disassembler's text for its bytes, with
/// the label or expression of a fixup where the bytes hold a placeholder.
fn instruction_text(program: &Program, inst: &program::RecordedInstruction, out: &mut String) {
    let label = inst
        .fixups
        .first()
        .and_then(|(_, note)| note.split(", kind: ").next());
    let branch = gcnkit_isa::decode(&program.target, &inst.bytes)
        .ok()
        .filter(|i| i.def().has(gcnkit_isa::flags::BRANCH));
    let ctx = PrintContext {
        target: &program.target,
        branch_label: if branch.is_some() { label } else { None },
    };
    let printed = gcnkit_isa::decode(&program.target, &inst.bytes)
        .ok()
        .filter(|i| print_instruction(i, &ctx, out).is_ok());
    // Operands that a fixup fills in (other than branch targets) are shown as written.
    if printed.is_none() || (branch.is_none() && !inst.fixups.is_empty()) {
        out.clear();
        out.push_str(&inst.source.split_whitespace().collect::<Vec<_>>().join(" "));
    }
}
