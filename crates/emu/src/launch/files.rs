//! Buffer files: `DIR/<name>.in.bin` initial contents read back, and `.in.bin`/`.out.bin` files
//! written so that none is ever seen half-written.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::error::LaunchError;
use super::spec::BufferSpec;

/// Which of a buffer's two files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferFile {
    /// `<name>.in.bin`: initial contents (`--inputs`, `--write-inputs`).
    Input,
    /// `<name>.out.bin`: contents after the last launch (`--out`).
    Output,
}

impl BufferFile {
    /// The file name for buffer `name`: `<name>.in.bin` or `<name>.out.bin`.
    pub fn file_name(self, name: &str) -> String {
        match self {
            BufferFile::Input => format!("{name}.in.bin"),
            BufferFile::Output => format!("{name}.out.bin"),
        }
    }

    /// The path of buffer `name`'s file in `dir`.
    pub fn path(self, dir: &Path, name: &str) -> PathBuf {
        dir.join(self.file_name(name))
    }
}

/// Buffer `buffer`'s initial contents from `dir/<name>.in.bin`: `Ok(None)` when there is no
/// such file, `Ok(Some(bytes))` when there is one of exactly the buffer's size, an error when
/// its size differs or it cannot be read.
pub fn read_input(dir: &Path, buffer: &BufferSpec) -> Result<Option<Vec<u8>>, LaunchError> {
    check_name(dir, &buffer.name)?;
    let path = BufferFile::Input.path(dir, &buffer.name);
    let file_error = |message: String| LaunchError::File {
        path: path.clone(),
        message,
    };
    let meta = match fs::metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(file_error(format!("cannot read: {e}"))),
    };
    if !meta.is_file() {
        return Err(file_error("is not a regular file".into()));
    }
    let expected = buffer.size_bytes()?;
    let wrong_size = |actual: u64| {
        file_error(format!(
            "{actual} bytes, but buffer {:?} is {expected} bytes ({} x {})",
            buffer.name, buffer.count, buffer.elem
        ))
    };
    if meta.len() != expected {
        return Err(wrong_size(meta.len()));
    }
    let bytes = fs::read(&path).map_err(|e| file_error(format!("cannot read: {e}")))?;
    // The file may have changed since its size was looked at.
    if bytes.len() as u64 != expected {
        return Err(wrong_size(bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// Buffer `buffer`'s initial contents: from `inputs/<name>.in.bin` when `inputs` is given and
/// the file exists, else generated from its `init`.
pub fn initial_contents(
    buffer: &BufferSpec,
    inputs: Option<&Path>,
) -> Result<Vec<u8>, LaunchError> {
    if let Some(dir) = inputs {
        if let Some(bytes) = read_input(dir, buffer)? {
            return Ok(bytes);
        }
    }
    buffer.generate()
}

/// Writes `<name>.in.bin` or `<name>.out.bin` in `dir` (created if missing) for every
/// `(name, bytes)` of `buffers`, so that nothing is ever half-written: every file is first
/// written in full (and synced) to a temporary file in `dir`, and only when all of them are
/// written are they renamed into place, each rename replacing its file atomically. On an error
/// the temporary files are removed; files already renamed stay (complete).
pub fn write_buffer_files(
    dir: &Path,
    which: BufferFile,
    buffers: &[(&str, &[u8])],
) -> Result<(), LaunchError> {
    for (name, _) in buffers {
        check_name(dir, name)?;
    }
    fs::create_dir_all(dir).map_err(|e| LaunchError::File {
        path: dir.to_path_buf(),
        message: format!("cannot create the directory: {e}"),
    })?;
    let mut temps: Vec<(PathBuf, PathBuf)> = Vec::with_capacity(buffers.len());
    let result = (|| {
        for (name, bytes) in buffers {
            let target = which.path(dir, name);
            let temp = write_temp(dir, &which.file_name(name), bytes)?;
            temps.push((temp, target));
        }
        for (temp, target) in &temps {
            fs::rename(temp, target).map_err(|e| LaunchError::File {
                path: target.clone(),
                message: format!("cannot rename {} into place: {e}", temp.display()),
            })?;
        }
        Ok(())
    })();
    if result.is_err() {
        for (temp, _) in &temps {
            // Renamed ones are gone already; the rest must not be left behind.
            let _ = fs::remove_file(temp);
        }
    }
    result
}

/// Writes one file atomically (see [`write_buffer_files`]).
pub fn write_file_atomic(path: &Path, bytes: &[u8]) -> Result<(), LaunchError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| LaunchError::File {
            path: path.to_path_buf(),
            message: "is not a file path".into(),
        })?;
    let temp = write_temp(dir, &name, bytes)?;
    fs::rename(&temp, path).map_err(|e| {
        let _ = fs::remove_file(&temp);
        LaunchError::File {
            path: path.to_path_buf(),
            message: format!("cannot rename into place: {e}"),
        }
    })
}

/// Writes `bytes` to a new, uniquely named hidden file next to where `file_name` goes, synced
/// to disk; returns its path. A partial file is removed.
fn write_temp(dir: &Path, file_name: &str, bytes: &[u8]) -> Result<PathBuf, LaunchError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = dir.join(format!(".{file_name}.{}.{n}.tmp", std::process::id()));
    let file_error = |e: io::Error| LaunchError::File {
        path: temp.clone(),
        message: format!("cannot write: {e}"),
    };
    // create_new: a file of that name that is not ours is never touched.
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(file_error)?;
    if let Err(e) = f.write_all(bytes).and_then(|()| f.sync_all()) {
        drop(f);
        let _ = fs::remove_file(&temp);
        return Err(file_error(e));
    }
    Ok(temp)
}

/// Refuses a buffer name that would put its file outside `dir`.
fn check_name(dir: &Path, name: &str) -> Result<(), LaunchError> {
    if name.is_empty() || name.contains(['/', '\\', '\0']) {
        return Err(LaunchError::File {
            path: dir.to_path_buf(),
            message: format!("{name:?} cannot name a buffer file"),
        });
    }
    Ok(())
}
