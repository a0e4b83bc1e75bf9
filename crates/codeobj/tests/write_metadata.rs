//! `.amdgpu_metadata` YAML to the `NT_AMDGPU_METADATA` note, compared byte for byte with the
//! `.note` section llvm-mc-19 writes for the same block:
//! - every block of every clang `-S` file of the kernel corpus;
//! - the hand-written blocks of `tests/data/metadata_cases.yaml-list` (scalar typing, key
//!   order, encodings, verifier rejections).
//!
//! Skipped with a note when LLVM 19 is not installed.

mod corpus;

use std::process::Command;

use corpus::*;
use gcnkit_codeobj::write::metadata_note_from_yaml;

/// The YAML text of each `.amdgpu_metadata` block of an assembly text.
fn metadata_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if t == ".amdgpu_metadata" {
            current = Some(String::new());
        } else if t == ".end_amdgpu_metadata" {
            out.extend(current.take());
        } else if let Some(c) = current.as_mut() {
            c.push_str(line);
            c.push('\n');
        }
    }
    out
}

#[test]
fn corpus_metadata_notes_match_llvm_mc() {
    if skip_without_llvm("corpus_metadata_notes_match_llvm_mc") {
        return;
    }
    let (mut compared, mut agreed) = (0, 0);
    let mut failures = Vec::new();
    for sample in samples() {
        let text = std::fs::read_to_string(&sample.asm).unwrap();
        let blocks = metadata_blocks(&text);
        let object = std::fs::read(&sample.object).unwrap();
        let expected = section_bytes(&object, ".note");
        compared += 1;
        let ours = match blocks.as_slice() {
            [one] => metadata_note_from_yaml(one).map_err(|e| e.to_string()),
            _ => Err(format!("{} metadata blocks", blocks.len())),
        };
        if ours.as_ref().ok() == expected.as_ref() {
            agreed += 1;
        } else {
            failures.push(format!(
                "{}: {:?}",
                sample.asm.display(),
                ours.map(|b| b.len())
            ));
        }
    }
    println!("metadata notes: {compared} .amdgpu_metadata blocks compared with llvm-mc's .note, {agreed} identical");
    for f in failures.iter().take(10) {
        println!("  {f}");
    }
    assert!(failures.is_empty(), "{} notes differ", failures.len());
    assert!(
        compared > 400 || samples().is_empty(),
        "too few blocks compared"
    );
}

/// llvm-mc's `.note` for one block, or `Err` when it reports invalid metadata.
fn llvm_note(dir: &std::path::Path, i: usize, yaml: &str) -> Result<Vec<u8>, String> {
    let s = dir.join(format!("m{i}.s"));
    let o = dir.join(format!("m{i}.o"));
    std::fs::write(
        &s,
        format!(".amdgpu_metadata\n{yaml}.end_amdgpu_metadata\n"),
    )
    .unwrap();
    let out = Command::new(llvm_tool("llvm-mc").unwrap())
        .args(["-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj"])
        .arg(&s)
        .arg("-o")
        .arg(&o)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        assert!(
            stderr.contains("error: invalid HSA metadata"),
            "unexpected llvm-mc failure: {stderr}"
        );
        return Err("invalid HSA metadata".into());
    }
    Ok(section_bytes(&std::fs::read(&o).unwrap(), ".note").expect(".note section"))
}

#[test]
fn hand_written_metadata_matches_llvm_mc() {
    if skip_without_llvm("hand_written_metadata_matches_llvm_mc") {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("metadata-hand");
    std::fs::create_dir_all(&dir).unwrap();
    let data = include_str!("data/metadata_cases.txt");
    let cases: Vec<&str> = data.split("\n=== ").skip(1).collect();
    let (mut agreed, mut rejected) = (0, 0);
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let (title, yaml) = case.split_once('\n').unwrap_or((case, ""));
        let yaml = format!("{}\n", yaml.trim_end());
        let theirs = llvm_note(&dir, i, &yaml);
        let ours = metadata_note_from_yaml(&yaml).map_err(|e| e.llvm_message().to_string());
        rejected += usize::from(theirs.is_err());
        if ours == theirs {
            agreed += 1;
        } else {
            failures.push(format!(
                "{title}: gcnkit {ours:02x?}\n    llvm-mc {theirs:02x?}"
            ));
        }
    }
    println!(
        "hand-written metadata blocks: {} compared with llvm-mc ({rejected} rejected by it), {agreed} agreed",
        cases.len()
    );
    for f in &failures {
        println!("  {f}");
    }
    assert!(
        failures.is_empty(),
        "{} metadata cases differ",
        failures.len()
    );
}
