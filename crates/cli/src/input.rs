//! Reading input files (or standard input for `-`).

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};

/// The bytes of an input file: mapped when it is a regular file (reading a large file into
/// fresh memory costs a page fault per 4 KiB), read otherwise.
pub enum Input {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl std::ops::Deref for Input {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Input::Mapped(m) => m,
            Input::Read(v) => v,
        }
    }
}

pub fn read_input(path: &Path) -> Result<Input> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("reading standard input")?;
        return Ok(Input::Read(buf));
    }
    let cannot = || format!("cannot read '{}'", path.display());
    let file = std::fs::File::open(path).with_context(cannot)?;
    let meta = file.metadata().with_context(cannot)?;
    if meta.is_file() && meta.len() > 0 {
        // SAFETY: the map is read-only and private. Another process truncating the file
        // while gcn runs could fault it, as with any tool that maps its input; nothing is
        // written through the map.
        if let Ok(map) = unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
            return Ok(Input::Mapped(map));
        }
    }
    let mut buf = Vec::new();
    (&file).read_to_end(&mut buf).with_context(cannot)?;
    Ok(Input::Read(buf))
}
