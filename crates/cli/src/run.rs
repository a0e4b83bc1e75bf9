//! `gcn run`: run a launch description on a code object with the emulator, exactly as
//! `docs/launch-spec.md` specifies: buffers created and initialised, launches in order,
//! `<name>.out.bin` for every output (every buffer with `--dump-all`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use gcnkit_emu::launch::{initial_contents, write_buffer_files, BufferFile, LaunchDescription};
use gcnkit_emu::runner::run_description;
use gcnkit_emu::LaunchOptions;

/// Arguments of `gcn run`.
#[derive(Args)]
pub struct RunArgs {
    /// The launch description (JSON).
    pub launch: PathBuf,
    /// The code object: an AMDGPU ELF code object, an offload bundle or a HIP fat binary.
    #[arg(long, value_name = "FILE")]
    pub code_object: PathBuf,
    /// Directory for `<name>.out.bin` files.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Start buffers from `DIR/<name>.in.bin` where such a file exists.
    #[arg(long, value_name = "DIR")]
    pub inputs: Option<PathBuf>,
    /// Write every buffer's initial contents to `DIR/<name>.in.bin`.
    #[arg(long, value_name = "DIR")]
    pub write_inputs: Option<PathBuf>,
    /// Write every buffer, not only the outputs.
    #[arg(long)]
    pub dump_all: bool,
    /// Print statistics as one JSON object on standard output.
    #[arg(long)]
    pub json: bool,
    /// The processor whose code object to take from a bundle or fat binary.
    #[arg(long)]
    pub mcpu: Option<String>,
    /// Worker threads for work-groups (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Instructions a wave may execute before the run stops with an error.
    #[arg(long, default_value_t = 100_000_000)]
    pub max_instructions: u64,
}

/// Runs `gcn run`.
pub fn run(args: &RunArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.launch)
        .with_context(|| format!("cannot read '{}'", args.launch.display()))?;
    let desc =
        LaunchDescription::parse(&text).with_context(|| format!("'{}'", args.launch.display()))?;
    let code = std::fs::read(&args.code_object)
        .with_context(|| format!("cannot read '{}'", args.code_object.display()))?;
    let options = LaunchOptions {
        threads: args.threads,
        max_instructions: args.max_instructions,
    };
    // The initial contents are written before anything runs, so that another runner can
    // start from the same bytes even when a launch here fails.
    if let Some(dir) = &args.write_inputs {
        let mut inputs = Vec::with_capacity(desc.buffers.len());
        for b in &desc.buffers {
            inputs.push((
                b.name.as_str(),
                initial_contents(b, args.inputs.as_deref())?,
            ));
        }
        let files: Vec<(&str, &[u8])> = inputs.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        write_buffer_files(dir, BufferFile::Input, &files)?;
    }
    let result = run_description(
        &desc,
        &code,
        args.mcpu.as_deref(),
        args.inputs.as_deref(),
        options,
    )
    .with_context(|| {
        format!(
            "running '{}' on '{}'",
            args.launch.display(),
            args.code_object.display()
        )
    })?;
    if let Some(dir) = &args.out {
        let files: Vec<(&str, &[u8])> = result
            .buffers
            .iter()
            .filter(|(n, _)| args.dump_all || desc.output(n).is_some())
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        write_buffer_files(dir, BufferFile::Output, &files)?;
    }
    if args.json {
        let t = result.totals();
        let per_launch: Vec<_> = desc
            .launches
            .iter()
            .zip(&result.launches)
            .map(|(l, s)| {
                json!({
                    "kernel": l.kernel,
                    "workgroups": s.workgroups,
                    "waves": s.waves,
                    "wave_instructions": s.wave_instructions,
                    "exec_seconds": s.exec_seconds,
                    "exports": exports_json(&s.exports),
                })
            })
            .collect();
        let rate = if t.exec_seconds > 0.0 {
            t.wave_instructions as f64 / t.exec_seconds
        } else {
            0.0
        };
        let out = json!({
            "launches": result.launches.len(),
            "workgroups": t.workgroups,
            "waves": t.waves,
            "wave_instructions": t.wave_instructions,
            "exec_seconds": t.exec_seconds,
            "wave_instructions_per_second": rate,
            "exports": t.exports.count,
            "per_launch": per_launch,
        });
        println!("{out}");
    }
    Ok(ExitCode::SUCCESS)
}

/// A launch's exports for `--json`: `count` (every `exp` that ran) and `records` (at most
/// `gcnkit_emu::exports::MAX_EXPORT_RECORDS`, in dispatch order), each with the work-group,
/// wave, target (name and TGT number), EN, the flags, EXEC, the lanes of EXEC and per lane
/// the four dwords sent (docs/emulator.md, "Exports").
fn exports_json(e: &gcnkit_emu::exports::Exports) -> serde_json::Value {
    let records: Vec<_> = e
        .records
        .iter()
        .map(|x| {
            let r = &x.record;
            let lanes: Vec<u32> = (0..64).filter(|l| r.exec >> l & 1 != 0).collect();
            json!({
                "workgroup": x.workgroup,
                "wave": x.wave,
                "target": r.target_name(),
                "tgt": r.target,
                "en": r.en,
                "compr": r.compr,
                "done": r.done,
                "vm": r.vm,
                "exec": format!("{:#018x}", r.exec),
                "lanes": lanes,
                "data": r.data,
            })
        })
        .collect();
    json!({ "count": e.count, "records": records })
}
