//! `gcn`: the gcnkit command-line tool.

use gcnkit_cli::{asm, disasm, info, run};

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// gcnkit: tools for AMD GCN and CDNA machine code.
#[derive(Parser)]
#[command(name = "gcn", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble LLVM-syntax AMDGPU assembly: an encoding listing, or an ELF relocatable
    /// object with -c.
    Asm(asm::AsmArgs),
    /// Disassemble an AMDGPU code object, relocatable object, raw machine code or hex bytes.
    Disasm(disasm::DisasmArgs),
    /// Show what a code object, offload bundle or HIP fat binary holds: target, kernels,
    /// descriptors, metadata, symbols.
    Info(info::InfoArgs),
    /// Run the kernels of a launch description on the CPU with the emulator, and write the
    /// output buffers.
    Run(run::RunArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Asm(args) => asm::run(&args),
        Command::Disasm(args) => disasm::run(&args),
        Command::Info(args) => info::run(&args),
        Command::Run(args) => run::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gcn: error: {e:#}");
            ExitCode::from(1)
        }
    }
}
