//! Buffer files of launch descriptions: `<name>.in.bin` read back with its size checked, and
//! `.in.bin`/`.out.bin` files written without leaving partial or temporary files behind.

use std::fs;
use std::path::{Path, PathBuf};

use gcnkit_emu::launch::{
    initial_contents, read_input, write_buffer_files, write_file_atomic, BufferFile,
    LaunchDescription, LaunchError,
};

/// A fresh, empty directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gcnkit-launch-{}-{test}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Buffers `a` (3 uints from 7, 12 bytes) and `b` (2 shorts, zeros, 4 bytes).
fn description() -> LaunchDescription {
    LaunchDescription::parse(
        r#"{"buffers": {"a": {"type": "uint", "count": 3, "init": {"kind": "iota", "start": 7}},
                        "b": {"type": "short", "count": 2}},
            "launches": [], "outputs": {"a": {"kind": "exact"}}}"#,
    )
    .unwrap()
}

#[test]
fn written_inputs_read_back() {
    let dir = scratch("read-back");
    let d = description();
    let a = d.buffers[0].generate().unwrap();
    assert_eq!(a, [7, 0, 0, 0, 8, 0, 0, 0, 9, 0, 0, 0]);
    write_buffer_files(&dir, BufferFile::Input, &[("a", &a)]).unwrap();
    assert_eq!(listing(&dir), ["a.in.bin"]);
    assert_eq!(read_input(&dir, &d.buffers[0]), Ok(Some(a.clone())));
    // No file: generate instead.
    assert_eq!(read_input(&dir, &d.buffers[1]), Ok(None));
    assert_eq!(initial_contents(&d.buffers[1], Some(&dir)), Ok(vec![0; 4]));
    // A file takes precedence over init.
    fs::write(dir.join("b.in.bin"), [1, 2, 3, 4]).unwrap();
    assert_eq!(
        initial_contents(&d.buffers[1], Some(&dir)),
        Ok(vec![1, 2, 3, 4])
    );
    assert_eq!(initial_contents(&d.buffers[1], None), Ok(vec![0; 4]));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_input_of_the_wrong_size_is_an_error() {
    let dir = scratch("wrong-size");
    let d = description();
    fs::write(dir.join("a.in.bin"), [0; 11]).unwrap();
    let e = read_input(&dir, &d.buffers[0]).unwrap_err();
    assert_eq!(
        e,
        LaunchError::File {
            path: dir.join("a.in.bin"),
            message: r#"11 bytes, but buffer "a" is 12 bytes (3 x uint)"#.into(),
        }
    );
    assert!(initial_contents(&d.buffers[0], Some(&dir)).is_err());
    // A directory in the file's place is refused too.
    fs::create_dir(dir.join("b.in.bin")).unwrap();
    assert!(read_input(&dir, &d.buffers[1]).is_err());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn outputs_replace_old_files_and_leave_no_temporaries() {
    let dir = scratch("outputs").join("made/by/the/writer");
    write_buffer_files(
        &dir,
        BufferFile::Output,
        &[("a", b"old"), ("b", b"old too")],
    )
    .unwrap();
    write_buffer_files(
        &dir,
        BufferFile::Output,
        &[("a", b"new"), ("b", b"new too")],
    )
    .unwrap();
    assert_eq!(listing(&dir), ["a.out.bin", "b.out.bin"]);
    assert_eq!(fs::read(dir.join("a.out.bin")).unwrap(), b"new");
    assert_eq!(fs::read(dir.join("b.out.bin")).unwrap(), b"new too");
    write_file_atomic(&dir.join("single.bin"), b"xyz").unwrap();
    assert_eq!(fs::read(dir.join("single.bin")).unwrap(), b"xyz");
    assert_eq!(listing(&dir), ["a.out.bin", "b.out.bin", "single.bin"]);
    fs::remove_dir_all(scratch("outputs")).unwrap();
}

#[test]
fn a_failed_write_changes_nothing() {
    let dir = scratch("failed");
    fs::write(dir.join("a.out.bin"), b"before").unwrap();
    // The second file cannot be renamed into place (a directory is there), so the first is
    // not replaced either, and no temporary file stays.
    fs::create_dir(dir.join("b.out.bin")).unwrap();
    fs::write(dir.join("b.out.bin").join("keep"), b"").unwrap();
    let r = write_buffer_files(&dir, BufferFile::Output, &[("b", b"x"), ("a", b"after")]);
    assert!(r.is_err());
    assert_eq!(fs::read(dir.join("a.out.bin")).unwrap(), b"before");
    assert_eq!(listing(&dir), ["a.out.bin", "b.out.bin"]);
    // Names that would leave the directory are refused before anything is written.
    let r = write_buffer_files(&dir, BufferFile::Output, &[("a", b"after"), ("../x", b"x")]);
    assert!(matches!(r, Err(LaunchError::File { .. })));
    assert_eq!(fs::read(dir.join("a.out.bin")).unwrap(), b"before");
    fs::remove_dir_all(&dir).unwrap();
}
