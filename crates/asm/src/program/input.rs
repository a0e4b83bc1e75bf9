//! Source input: files, the stack of what is being read (files, macro expansions,
//! repetitions), and splitting it into statements with comments removed.

use std::borrow::Cow;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Loads the files named by `.include`.
pub trait FileLoader {
    /// The text of `name`, included from the file `from`; the `String` error is the reason
    /// (e.g. "No such file or directory").
    fn load(&self, name: &str, from: &str) -> Result<(String, String), String>;
}

/// Loads files from the file system: relative to the including file's directory, then each
/// of the include directories in order.
pub struct FsLoader {
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
}

impl FileLoader for FsLoader {
    fn load(&self, name: &str, from: &str) -> Result<(String, String), String> {
        let base = Path::new(from).parent().unwrap_or(Path::new(""));
        let candidates =
            std::iter::once(base.join(name)).chain(self.include_dirs.iter().map(|d| d.join(name)));
        let mut last = String::from("No such file or directory");
        for path in candidates {
            match std::fs::read_to_string(&path) {
                Ok(text) => return Ok((path.display().to_string(), text)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => last = e.to_string(),
            }
        }
        Err(last)
    }
}

/// A loader for sources that may not include anything (tests, fuzzing, standard input
/// without a directory).
pub struct NoIncludes;

impl FileLoader for NoIncludes {
    fn load(&self, _name: &str, _from: &str) -> Result<(String, String), String> {
        Err("includes are not available here".into())
    }
}

/// Source text that frames and locations share: the root file's text, borrowed for the
/// whole run (copying a large file was a measurable part of assembling it), or text made
/// while assembling (included files, macro expansions, repetitions, blocks).
#[derive(Clone, Debug)]
pub(crate) enum Text<'s> {
    /// The text of the file being assembled.
    Root(&'s str),
    /// Text read or made along the way.
    Made(Rc<str>),
}

impl Deref for Text<'_> {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            Text::Root(s) => s,
            Text::Made(s) => s,
        }
    }
}

impl From<String> for Text<'_> {
    fn from(s: String) -> Self {
        Text::Made(Rc::from(s))
    }
}

/// What a frame reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FrameKind {
    /// A source file.
    File,
    /// The expansion of a macro.
    Macro,
    /// The body of `.rept`/`.irp`/`.irpc`, once per repetition.
    Repeat,
}

/// Text being read: a file, or expanded text whose lines map one to one onto lines of a
/// file starting at `first_line`.
pub(crate) struct Frame<'s> {
    pub kind: FrameKind,
    pub text: Text<'s>,
    pub pos: usize,
    /// File index (into the assembler's file list) the lines belong to.
    pub file: u32,
    /// Line number of the next line to read.
    pub line: u32,
    /// Depth of the conditional stack when the frame was entered (`.exitm` returns to it).
    pub cond_depth: usize,
    /// Times the text is read again after this reading (`.rept`), starting each time at
    /// line `first_line`.
    pub repeats_left: u64,
    pub first_line: u32,
}

impl<'s> Frame<'s> {
    pub(crate) fn new(kind: FrameKind, text: Text<'s>, file: u32, line: u32) -> Frame<'s> {
        Frame {
            kind,
            text,
            pos: 0,
            file,
            line,
            cond_depth: 0,
            repeats_left: 0,
            first_line: line,
        }
    }

    /// The next raw line (without its newline), or `None` at the end.
    pub(crate) fn next_raw(&mut self) -> Option<(usize, usize)> {
        if self.pos >= self.text.len() {
            if self.repeats_left == 0 || self.text.is_empty() {
                return None;
            }
            self.repeats_left -= 1;
            self.pos = 0;
            self.line = self.first_line;
        }
        let start = self.pos;
        let end = match memchr::memchr(b'\n', &self.text.as_bytes()[start..]) {
            Some(i) => start + i,
            None => self.text.len(),
        };
        self.pos = end + 1;
        self.line += 1;
        let end = if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        Some((start, end))
    }
}

/// Removes comments from `line`: `;` and `//` to the end of the line, `/* ... */`
/// (`in_block` carries an unterminated block comment over to the next line), and a `#` that
/// starts the line (preprocessor line markers). Strings are kept intact. The result keeps
/// the byte positions of what remains (comments become spaces) so that columns stay right.
pub(crate) fn strip_comments<'l>(line: &'l str, in_block: &mut bool) -> Cow<'l, str> {
    let b = line.as_bytes();
    // Compared byte by byte: `str::trim_start` decodes characters, a tenth of the time of
    // reading a large file.
    let marker = || b.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'#');
    if !*in_block {
        // The common cases need no copy: no comment at all, or a `;` comment after code
        // without strings or slashes.
        match memchr::memchr3(b';', b'/', b'"', b) {
            None if !marker() => return Cow::Borrowed(line),
            Some(i) if b[i] == b';' && !marker() => {
                return Cow::Borrowed(&line[..i]);
            }
            _ => {}
        }
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    if !*in_block
        && b.iter()
            .position(|c| !c.is_ascii_whitespace())
            .map(|p| b[p])
            == Some(b'#')
    {
        return Cow::Borrowed("");
    }
    while i < b.len() {
        if *in_block {
            if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                *in_block = false;
                out.extend_from_slice(b"  ");
                i += 2;
            } else {
                out.push(b' ');
                i += 1;
            }
            continue;
        }
        match b[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.extend_from_slice(&b[start..i]);
            }
            b';' => break,
            b'/' if b.get(i + 1) == Some(&b'/') => break,
            b'/' if b.get(i + 1) == Some(&b'*') => {
                *in_block = true;
                out.extend_from_slice(b"  ");
                i += 2;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    // Only whole ASCII bytes were replaced by spaces, and strings were copied whole.
    Cow::Owned(String::from_utf8(out).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::strip_comments;

    #[test]
    fn comments_of_every_kind_are_removed_and_strings_kept() {
        let mut block = false;
        assert_eq!(strip_comments("s_nop 0 ; x", &mut block), "s_nop 0 ");
        assert_eq!(strip_comments("s_nop 0 // x", &mut block), "s_nop 0 ");
        assert_eq!(
            strip_comments(".ascii \"a;b//c\" ; x", &mut block),
            ".ascii \"a;b//c\" "
        );
        assert_eq!(strip_comments("a /* b */ c", &mut block), "a         c");
        assert_eq!(strip_comments("a /* b", &mut block), "a     ");
        assert!(block);
        assert_eq!(
            strip_comments("still */ s_nop 0", &mut block),
            "         s_nop 0"
        );
        assert!(!block);
        assert_eq!(strip_comments("# 1 \"file.s\"", &mut block), "");
    }
}
