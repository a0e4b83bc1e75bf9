//! `gcn disasm`.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;

use gcnkit_asm::assemble_instruction;
use gcnkit_asm::expr::NoSymbols;
use gcnkit_codeobj::{is_elf, CodeObject};
use gcnkit_disasm::listing::{
    objdump_section_threads, source_section_checked, Diagnostic, Output, Section, Symbol,
};
use gcnkit_disasm::{print_instruction, PrintContext};
use gcnkit_isa::{Instruction, Target};

use crate::input::read_input;
use crate::rebuild::{render_code_object, ET_DYN};
use std::collections::HashMap;

/// ELF `st_type` of a symbol without a type.
const STT_NOTYPE: u8 = 0;

/// Arguments of `gcn disasm`.
#[derive(Args)]
pub struct DisasmArgs {
    /// Input: an AMDGPU ELF file, raw machine code (needs --mcpu), or with --hex lines of
    /// hex bytes. `-` reads standard input.
    pub input: PathBuf,
    /// Target processor, as llvm-mc takes it (gfx900, tahiti, bonaire, fiji, gfx90a, gfx942, ...).
    /// Overrides the target of an ELF file.
    #[arg(long)]
    pub mcpu: Option<String>,
    /// Target features, as llvm-mc takes them (+xnack,-sramecc).
    #[arg(long)]
    mattr: Option<String>,
    /// Input is text: each line holds the bytes of one instruction, e.g. `0x01,0x05,0x00,0x02`
    /// (llvm-mc -disassemble input form); each line prints as one line.
    #[arg(long)]
    hex: bool,
    /// Print exactly what `llvm-objdump -d --mcpu=X FILE` prints.
    #[arg(long = "llvm-objdump")]
    llvm_objdump: bool,
    /// Threads for the llvm-objdump listing (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print at most this many warnings about invalid bytes (0 for none).
    #[arg(long, default_value_t = 20)]
    max_warnings: usize,
}

fn explicit_target(args: &DisasmArgs) -> Result<Option<Target>> {
    match &args.mcpu {
        Some(mcpu) => {
            for f in Target::unknown_features(args.mattr.as_deref().unwrap_or("")) {
                eprintln!("gcn: warning: '{f}' is not a recognized feature for this target (ignoring feature)");
            }
            Ok(Some(Target::parse(mcpu, args.mattr.as_deref())?))
        }
        None if args.mattr.is_some() => bail!("--mattr needs --mcpu"),
        None => Ok(None),
    }
}

/// Runs `gcn disasm`.
pub fn run(args: &DisasmArgs) -> Result<ExitCode> {
    let explicit = explicit_target(args)?;
    let bytes = read_input(&args.input)?;
    let name = args.input.display().to_string();
    if args.hex {
        let target = explicit.context("--hex needs --mcpu")?;
        return run_hex(&target, &bytes, &name);
    }
    let style = if args.llvm_objdump {
        Style::LlvmObjdump
    } else {
        Style::Source
    };
    let mut stdout = std::io::stdout();
    let mut out = Output::streaming(&mut stdout);
    let threads = args.threads.unwrap_or(0);
    let diags = render(&name, &bytes, explicit, style, threads, &mut out)?;
    if let Err(e) = out.finish() {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(e).context("writing output");
        }
    }
    report(&name, &diags, args.max_warnings);
    Ok(ExitCode::SUCCESS)
}

/// How `gcn disasm` lays out its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Assembly source with labels.
    Source,
    /// Exactly `llvm-objdump -d --mcpu=X FILE`.
    LlvmObjdump,
}

/// Disassembles a whole input file (ELF or raw machine code) into `out`.
///
/// In [`Style::Source`], a linked code object comes out as source that rebuilds it
/// (target, symbols, data, kernel descriptors and metadata besides the code; see
/// [`crate::rebuild`]); relocatable objects and raw code as a code listing.
///
/// `name` is used in the llvm-objdump header and in messages; `threads` bounds the threads
/// of the llvm-objdump listing (0: one per core). Returns what is known about bytes that did
/// not decode, each with its section name.
pub fn render(
    name: &str,
    bytes: &[u8],
    explicit: Option<Target>,
    style: Style,
    threads: usize,
    out: &mut Output<'_>,
) -> Result<Vec<(String, Diagnostic)>> {
    let objdump = style == Style::LlvmObjdump;
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let mut diags: Vec<(String, Diagnostic)> = Vec::new();
    if is_elf(bytes) {
        let obj = CodeObject::parse(bytes).with_context(|| format!("'{name}'"))?;
        let target = explicit.unwrap_or(obj.target);
        if !objdump && obj.e_type == ET_DYN {
            // A linked code object: source that rebuilds it, not just its code.
            return render_code_object(name, bytes, &obj, &target, out);
        }
        if objdump {
            out.buf
                .push_str(&format!("\n{name}:\tfile format elf64-amdgpu\n"));
        } else {
            out.buf.push_str(&format!(
                "\t.amdgcn_target \"amdgcn-amd-amdhsa--{}\"\n",
                target.processor.name
            ));
        }
        for sec in obj.sections.iter().filter(|s| s.executable) {
            let symbols = listing_symbols(&obj, sec.index);
            let section = Section {
                name: &sec.name,
                addr: sec.addr,
                bytes: sec.data,
                symbols: &symbols,
            };
            out.buf.push('\n');
            let d = if objdump {
                objdump_section_threads(&target, &section, out, threads)
            } else {
                source_section_checked(&target, &section, out, &mut reassembles(&target))
            };
            diags.extend(d.into_iter().map(|d| (sec.name.clone(), d)));
        }
    } else {
        let target = explicit.with_context(|| {
            format!("'{name}' is not an ELF file; raw machine code needs --mcpu")
        })?;
        let section = Section {
            name: ".text",
            addr: 0,
            bytes,
            symbols: &[],
        };
        let d = if objdump {
            objdump_section_threads(&target, &section, out, threads)
        } else {
            source_section_checked(&target, &section, out, &mut reassembles(&target))
        };
        diags.extend(d.into_iter().map(|d| (".text".to_string(), d)));
    }
    Ok(diags)
}

/// The symbols of section `index` as listing labels.
pub(crate) fn listing_symbols(obj: &CodeObject<'_>, index: usize) -> Vec<Symbol> {
    obj.symbols_in(index)
        .map(|s| Symbol {
            name: s.name.clone(),
            addr: s.addr,
            untyped: s.st_type == STT_NOTYPE,
        })
        .collect()
}

/// Whether the text printed for an instruction assembles back to its bytes (checked once
/// per distinct encoding). Source listings print the others as `.long`, so that the listing
/// always reassembles to the original code.
pub(crate) fn reassembles(target: &Target) -> impl FnMut(&Instruction, &str) -> bool + '_ {
    let mut seen: HashMap<([u8; 12], usize), bool> = HashMap::new();
    move |inst, text| {
        // Branches print labels, which only the whole listing defines; their simm16 always
        // assembles.
        if inst.def().has(gcnkit_isa::flags::BRANCH) {
            return true;
        }
        let (bytes, len) = inst.bytes();
        *seen.entry((bytes, len)).or_insert_with(|| {
            matches!(assemble_instruction(target, text, &NoSymbols),
                Ok(e) if e.as_bytes() == &bytes[..len] && e.fixups.is_empty())
        })
    }
}

fn report(name: &str, diags: &[(String, Diagnostic)], max: usize) {
    for (section, d) in diags.iter().take(max) {
        eprintln!(
            "gcn: warning: {name}: {section} at address 0x{:x}: {}",
            d.addr, d.message
        );
    }
    if diags.len() > max && max > 0 {
        eprintln!(
            "gcn: warning: {name}: {} more invalid words not shown",
            diags.len() - max
        );
    }
}

/// Parses one line of llvm-mc `-disassemble` input: bytes as `0x..` or decimal numbers
/// separated by commas or spaces; `#` and `//` start comments.
fn parse_hex_line(line: &str) -> Result<Vec<u8>, String> {
    let line = line.split('#').next().unwrap_or("");
    let line = line.split("//").next().unwrap_or("");
    let mut bytes = Vec::new();
    for tok in line
        .split(|c: char| c == ',' || c.is_whitespace() || c == '[' || c == ']')
        .filter(|t| !t.is_empty())
    {
        let value = if let Some(hex) = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
            u8::from_str_radix(hex, 16)
        } else {
            tok.parse::<u8>()
        };
        bytes.push(value.map_err(|_| format!("'{tok}' is not a byte value"))?);
    }
    Ok(bytes)
}

fn run_hex(target: &Target, input: &[u8], name: &str) -> Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    let mut text = String::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("{name}:{}: reading input", i + 1))?;
        let bytes = match parse_hex_line(&line) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{name}:{}: error: {e}", i + 1);
                failed = true;
                continue;
            }
        };
        if bytes.is_empty() {
            continue;
        }
        text.clear();
        match gcnkit_isa::decode(target, &bytes) {
            Ok(inst) => {
                let ctx = PrintContext {
                    target,
                    branch_label: None,
                };
                if print_instruction(&inst, &ctx, &mut text).is_err() {
                    eprintln!("{name}:{}: warning: invalid instruction encoding", i + 1);
                    text.clear();
                    text.push_str(&format!(
                        ".long 0x{:08x}",
                        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
                    ));
                } else if (inst.len as usize) < bytes.len() {
                    eprintln!(
                        "{name}:{}: warning: {} bytes after the instruction ignored",
                        i + 1,
                        bytes.len() - inst.len as usize
                    );
                }
            }
            Err(e) => {
                eprintln!("{name}:{}: warning: {e}", i + 1);
                if bytes.len() >= 4 {
                    text.push_str(&format!(
                        ".long 0x{:08x}",
                        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
                    ));
                } else {
                    failed = true;
                    continue;
                }
            }
        }
        writeln!(out, "{text}").context("writing output")?;
    }
    out.flush().ok();
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::parse_hex_line;

    #[test]
    fn hex_lines_accept_llvm_mc_forms() {
        assert_eq!(
            parse_hex_line("0x01,0x05, 0x00 0x02 # c").unwrap(),
            vec![1, 5, 0, 2]
        );
        assert_eq!(parse_hex_line("[0xff,1]").unwrap(), vec![255, 1]);
        assert!(parse_hex_line("0x100").is_err());
        assert!(parse_hex_line("zz").is_err());
    }
}
