//! `gcn`: the gcnkit command-line tool.

use gcnkit_cli::disasm;

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
    /// Disassemble an AMDGPU code object, relocatable object, raw machine code or hex bytes.
    Disasm(disasm::DisasmArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Disasm(args) => disasm::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gcn: error: {e:#}");
            ExitCode::from(1)
        }
    }
}
