//! `cargo xtask <command>`: developer commands.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the repository root")
        .to_path_buf()
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = repo_root();
    match args.first().map(String::as_str) {
        Some("gen-tables") => {
            let code = xtask::tablegen::generate(&root.join("crates/isa/tables"))?;
            let out = root.join("crates/isa/src/generated.rs");
            std::fs::write(&out, code).with_context(|| format!("writing {}", out.display()))?;
            println!("wrote {}", out.display());
            Ok(())
        }
        Some("check-tables") => {
            let code = xtask::tablegen::generate(&root.join("crates/isa/tables"))?;
            let out = root.join("crates/isa/src/generated.rs");
            let current = std::fs::read_to_string(&out).unwrap_or_default();
            if current != code {
                bail!(
                    "{} is out of date: run `cargo xtask gen-tables`",
                    out.display()
                );
            }
            println!("generated code is up to date");
            Ok(())
        }
        Some("emu-coverage") => {
            // The README's table: rows of the instruction table with semantics, per generation.
            let list_missing = args.iter().any(|a| a == "--missing");
            println!("| generation | table rows | emulated | share |");
            println!("| --- | ---: | ---: | ---: |");
            let report = gcnkit_emu::coverage::coverage();
            for c in &report {
                println!(
                    "| {} | {} | {} | {:.1}% |",
                    c.gen.name(),
                    c.rows,
                    c.emulated,
                    100.0 * c.emulated as f64 / c.rows.max(1) as f64
                );
            }
            if list_missing {
                for c in &report {
                    println!(
                        "\n{} ({} rows not emulated):",
                        c.gen.name(),
                        c.missing.len()
                    );
                    println!("{}", c.missing.join(" "));
                }
            }
            Ok(())
        }
        _ => bail!("usage: cargo xtask gen-tables | check-tables | emu-coverage [--missing]"),
    }
}
