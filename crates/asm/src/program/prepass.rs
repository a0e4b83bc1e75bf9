//! A parallel first look at the root file: the work that needs none of the assembler's state
//! is done on every core before the one sequential pass ([`super::state`]) gets there.
//!
//! Most lines of real assembly are instruction statements whose bytes depend only on the
//! target and their own text, or (branches) also on names that have no absolute value. The
//! pre-pass cuts the root file into chunks at line boundaries, and each thread assembles the
//! instruction statements of the chunks it takes with a symbol table that knows nothing,
//! noting every name the encoder asked about. The sequential pass takes a result only where
//! it would assemble the very same text for the same target itself, and every name asked
//! about still has no value: its own work would then give the same bytes and fixups, because
//! the encoder sees the same answers. Every other line, including those the pre-pass could
//! not assemble (their errors are reported by the sequential pass, where it knows the
//! location), goes the ordinary way. The `.amdgpu_metadata` blocks of the root file, whose
//! YAML takes long to convert, are converted on a thread of their own in the same way, and
//! used only if the sequential pass collects exactly the same text.
//!
//! The sequential pass takes part: when the chunk it reaches is not ready it prepares an
//! untaken chunk (the one it needs, if nobody has taken it) instead of waiting.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use memchr::memmem;
use rustc_hash::FxHashMap;

use gcnkit_codeobj::write::{metadata_note_from_yaml, MetadataError};
use gcnkit_isa::Target;

use crate::expr::{Expr, SymbolValues, Variant};
use crate::{assemble_instruction, Encoded};

use super::input::strip_comments;
use crate::lex::is_ident_char;

use super::state::skip_space;

/// Files smaller than this are assembled without a pre-pass (unless threads are asked for):
/// starting threads would cost more than it saves.
const AUTOMATIC_MIN_BYTES: usize = 1 << 20;
/// Chunks per thread: enough that the threads finish close together.
const CHUNKS_PER_THREAD: usize = 16;
/// Bounds on the chunk size in bytes.
const MIN_CHUNK: usize = 4 << 10;
const MAX_CHUNK: usize = 1 << 20;

/// Chunk states.
const UNTAKEN: u8 = 0;
const TAKEN: u8 = 1;

/// How many threads to use for a file of `len` bytes when `threads` were asked for (0: one
/// per core, and only for large files); 1 means no pre-pass.
pub(crate) fn threads_for(threads: usize, len: usize) -> usize {
    match threads {
        0 if len < AUTOMATIC_MIN_BYTES => 1,
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// An instruction statement assembled ahead.
pub(crate) enum Prepared<'t> {
    /// Assembled with no symbol known.
    Statement {
        /// The bytes and fixups.
        enc: Encoded,
        /// The names the encoder asked about; the result holds only while none has a value.
        names: Box<[Box<str>]>,
    },
    /// `MNEMONIC .LABEL`: the encoding of the mnemonic's template with the label in place of
    /// the template's label.
    Labelled {
        /// The template.
        template: Arc<Template>,
        /// The label.
        label: &'t str,
    },
}

/// The encoding of `MNEMONIC .LABEL` for one label, which holds for every label that starts
/// with a dot: such a name is neither a register nor any other operand keyword, so the
/// encoder reads every such statement the same way, asks about the label (and `.`), finds
/// no value, and makes fixups of the plain label alone.
pub(crate) struct Template {
    /// The bytes; the fixups' expressions are the label.
    pub enc: Encoded,
    /// What the encoder asked about, in order.
    pub asked: Box<[Asked]>,
}

/// A name a [`Template`]'s encoding asked about.
#[derive(Clone, Copy)]
pub(crate) enum Asked {
    /// The label.
    Label,
    /// `.`, the statement's address.
    Dot,
}

impl Prepared<'_> {
    /// The names whose value the result depends on (it holds while none has one).
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        let (names, template): (&[Box<str>], _) = match self {
            Prepared::Statement { names, .. } => (names, None),
            Prepared::Labelled { template, label } => (&[], Some((&template.asked, *label))),
        };
        let labelled = template.into_iter().flat_map(|(asked, label)| {
            asked.iter().map(move |a| match a {
                Asked::Label => label,
                Asked::Dot => ".",
            })
        });
        names.iter().map(|n| &**n).chain(labelled)
    }

    /// The bytes and fixups.
    pub(crate) fn encoded(&self) -> Encoded {
        match self {
            Prepared::Statement { enc, .. } => enc.clone(),
            // Built afresh rather than cloned: the template's expressions would only be
            // replaced.
            Prepared::Labelled { template, label } => Encoded {
                bytes: template.enc.bytes,
                len: template.enc.len,
                fixups: template
                    .enc
                    .fixups
                    .iter()
                    .map(|f| crate::Fixup {
                        offset: f.offset,
                        kind: f.kind,
                        expr: Expr::Sym {
                            name: label.to_string(),
                            variant: Variant::None,
                        },
                    })
                    .collect(),
            },
        }
    }

    /// The bytes, if there are no fixups.
    pub(crate) fn plain_bytes(&self) -> Option<&[u8]> {
        let enc = match self {
            Prepared::Statement { enc, .. } => enc,
            Prepared::Labelled { template, .. } => &template.enc,
        };
        enc.fixups.is_empty().then(|| enc.as_bytes())
    }
}

/// A line of a chunk whose statement was assembled ahead.
struct Entry {
    /// Offset of the line's first byte from the start of the chunk.
    offset: u32,
    /// Chunk whose `prepared` holds the result.
    chunk: u32,
    /// Index into that chunk's `prepared`.
    index: u32,
}

/// What the pre-pass found in one chunk.
pub(crate) struct ChunkResult<'t> {
    entries: Vec<Entry>,
    prepared: Vec<Prepared<'t>>,
}

/// A metadata block converted ahead.
struct PreparedMetadata {
    yaml: String,
    note: Result<Vec<u8>, MetadataError>,
}

/// What a thread remembers of the statements it assembled.
#[derive(Default)]
struct Seen<'t> {
    /// By text: where the result is, or that the statement failed.
    statements: FxHashMap<&'t str, Option<(u32, u32)>>,
    /// Branch-like statements `MNEMONIC .LABEL`, by mnemonic: the template, or `None` if
    /// the mnemonic's statements of that form must be assembled one by one.
    templates: FxHashMap<&'t str, Option<Arc<Template>>>,
}

/// The shared state of a pre-pass over one root file.
pub(crate) struct Prepass<'t> {
    text: &'t str,
    target: Target,
    /// Chunk boundaries: chunk `k` is `bounds[k]..bounds[k + 1]`, each starting a line.
    bounds: Vec<usize>,
    states: Vec<AtomicU8>,
    results: Vec<OnceLock<ChunkResult<'t>>>,
    /// Lowest chunk that may still be untaken.
    next: AtomicUsize,
    /// Set when the sequential pass no longer needs anything.
    stop: AtomicBool,
    metadata_taken: AtomicBool,
    metadata: OnceLock<Vec<PreparedMetadata>>,
}

impl<'t> Prepass<'t> {
    /// A pre-pass over `text` for `target` (or the target its `.amdgcn_target` names), cut
    /// into chunks for `threads` threads; `None` when no target can be known ahead.
    pub(crate) fn new(text: &'t str, target: Option<Target>, threads: usize) -> Option<Self> {
        let target = match target {
            Some(t) => t,
            None => target_named_in(text)?,
        };
        let chunk = (text.len() / (threads * CHUNKS_PER_THREAD)).clamp(MIN_CHUNK, MAX_CHUNK);
        let mut bounds = vec![0];
        let mut at = 0;
        while at < text.len() {
            let end = if text.len() - at <= chunk {
                text.len()
            } else {
                match memchr::memchr(b'\n', &text.as_bytes()[at + chunk..]) {
                    Some(i) => at + chunk + i + 1,
                    None => text.len(),
                }
            };
            bounds.push(end);
            at = end;
        }
        let n = bounds.len() - 1;
        Some(Prepass {
            text,
            target,
            bounds,
            states: (0..n).map(|_| AtomicU8::new(UNTAKEN)).collect(),
            results: (0..n).map(|_| OnceLock::new()).collect(),
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            metadata_taken: AtomicBool::new(false),
            metadata: OnceLock::new(),
        })
    }

    /// The target the pre-pass assembled for.
    pub(crate) fn target(&self) -> Target {
        self.target
    }

    /// A helper thread's work: untaken chunks in order until there are none or the
    /// sequential pass has finished. (The metadata blocks have a thread of their own:
    /// [`Prepass::prepare_metadata`].)
    pub(crate) fn work(&self) {
        let mut seen = Seen::default();
        while !self.stop.load(Ordering::Relaxed) {
            let Some(k) = self.take_next() else { break };
            self.prepare(k, &mut seen);
        }
    }

    /// Tells the helpers to stop taking chunks.
    pub(crate) fn finish(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    fn take(&self, k: usize) -> bool {
        self.states[k]
            .compare_exchange(UNTAKEN, TAKEN, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Takes the lowest untaken chunk.
    fn take_next(&self) -> Option<usize> {
        let mut k = self.next.load(Ordering::Relaxed);
        while k < self.states.len() {
            if self.take(k) {
                self.next.fetch_max(k + 1, Ordering::Relaxed);
                return Some(k);
            }
            k += 1;
        }
        None
    }

    /// Assembles the instruction statements of chunk `k`.
    fn prepare(&self, k: usize, seen: &mut Seen<'t>) {
        let (start, end) = (self.bounds[k], self.bounds[k + 1]);
        let chunk = &self.text[start..end];
        let bytes = chunk.as_bytes();
        let mut result = ChunkResult {
            entries: Vec::new(),
            prepared: Vec::new(),
        };
        let mut pos = 0;
        while pos < bytes.len() {
            let line_end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
            let mut line = &chunk[pos..line_end];
            line = line.strip_suffix('\r').unwrap_or(line);
            if let Some(stmt) = instruction_statement(line) {
                let found = match seen.statements.get(stmt) {
                    Some(&found) => found,
                    None => {
                        let labelled = label_operand(stmt);
                        let prepared = match labelled {
                            Some((mnemonic, label)) => {
                                self.assemble_labelled(stmt, mnemonic, label, seen)
                            }
                            None => self.assemble(stmt),
                        };
                        let found = prepared.map(|p| {
                            result.prepared.push(p);
                            (k as u32, result.prepared.len() as u32 - 1)
                        });
                        // Labels are mostly distinct: remembering their statements would cost
                        // more than it saves.
                        if labelled.is_none() {
                            seen.statements.insert(stmt, found);
                        }
                        found
                    }
                };
                if let Some((chunk, index)) = found {
                    result.entries.push(Entry {
                        offset: pos as u32,
                        chunk,
                        index,
                    });
                }
            }
            pos = line_end + 1;
        }
        // Each chunk is prepared once, by the thread that took it.
        let _ = self.results[k].set(result);
    }

    fn assemble(&self, stmt: &str) -> Option<Prepared<'t>> {
        let names = AskedNames::default();
        let enc = assemble_instruction(&self.target, stmt, &names).ok()?;
        let names = names.0.into_inner().into_boxed_slice();
        Some(Prepared::Statement { enc, names })
    }

    /// Assembles `MNEMONIC .LABEL` from the mnemonic's [`Template`], making the template
    /// when the mnemonic is first met in this form.
    fn assemble_labelled(
        &self,
        stmt: &str,
        mnemonic: &'t str,
        label: &'t str,
        seen: &mut Seen<'t>,
    ) -> Option<Prepared<'t>> {
        if let Some(Some(template)) = seen.templates.get(mnemonic) {
            return Some(Prepared::Labelled {
                template: template.clone(),
                label,
            });
        }
        let prepared = self.assemble(stmt);
        if seen.templates.contains_key(mnemonic) {
            return prepared;
        }
        let plain =
            |e: &Expr| matches!(e, Expr::Sym { name, variant: Variant::None } if name == label);
        let template = match &prepared {
            Some(Prepared::Statement { enc, names })
                if names.iter().all(|n| &**n == label || &**n == ".")
                    && enc.fixups.iter().all(|f| plain(&f.expr)) =>
            {
                let asked = names
                    .iter()
                    .map(|n| {
                        if &**n == label {
                            Asked::Label
                        } else {
                            Asked::Dot
                        }
                    })
                    .collect();
                Some(Arc::new(Template {
                    enc: enc.clone(),
                    asked,
                }))
            }
            _ => None,
        };
        seen.templates.insert(mnemonic, template);
        prepared
    }

    /// Converts the `.amdgpu_metadata` blocks of the file, unless another thread has taken
    /// them.
    pub(crate) fn prepare_metadata(&self) {
        if self.metadata_taken.swap(true, Ordering::AcqRel) {
            return;
        }
        let blocks = metadata_blocks(self.text)
            .into_iter()
            .map(|yaml| {
                let note = metadata_note_from_yaml(&yaml);
                PreparedMetadata { yaml, note }
            })
            .collect();
        let _ = self.metadata.set(blocks);
    }

    /// The converted note of a metadata block with text `yaml`, if it was converted ahead.
    pub(crate) fn metadata_note(&self, yaml: &str) -> Option<&Result<Vec<u8>, MetadataError>> {
        self.prepare_metadata();
        self.metadata
            .wait()
            .iter()
            .find(|m| m.yaml == yaml)
            .map(|m| &m.note)
    }
}

/// The sequential pass's view of a pre-pass: a cursor that moves forward through the root
/// file's lines.
pub(crate) struct Reader<'p> {
    pre: &'p Prepass<'p>,
    seen: Seen<'p>,
    /// The chunk of the last line asked about, and the next entry in it to look at.
    chunk: usize,
    entry: usize,
}

impl<'p> Reader<'p> {
    pub(crate) fn new(pre: &'p Prepass<'p>) -> Reader<'p> {
        Reader {
            pre,
            seen: Seen::default(),
            chunk: 0,
            entry: 0,
        }
    }

    /// The pre-pass this reads.
    pub(crate) fn prepass(&self) -> &'p Prepass<'p> {
        self.pre
    }

    /// The statement assembled ahead for the root-file line starting at byte `start`, if
    /// any. Lines must be asked about in increasing order.
    pub(crate) fn at(&mut self, start: usize) -> Option<&'p Prepared<'p>> {
        let pre = self.pre;
        let chunks = pre.results.len();
        while self.chunk < chunks && start >= pre.bounds[self.chunk + 1] {
            self.chunk += 1;
            self.entry = 0;
        }
        if self.chunk >= chunks {
            return None;
        }
        let result = self.ready(self.chunk);
        let offset = (start - pre.bounds[self.chunk]) as u32;
        let entries = &result.entries;
        while self.entry < entries.len() && entries[self.entry].offset < offset {
            self.entry += 1;
        }
        let e = entries.get(self.entry).filter(|e| e.offset == offset)?;
        // The entry's chunk is this one or one its thread finished before.
        let holder = pre.results[e.chunk as usize].get()?;
        holder.prepared.get(e.index as usize)
    }

    /// The result of chunk `k`, preparing chunks meanwhile rather than waiting.
    fn ready(&mut self, k: usize) -> &'p ChunkResult<'p> {
        let pre = self.pre;
        loop {
            if let Some(r) = pre.results[k].get() {
                return r;
            }
            if pre.take(k) {
                pre.prepare(k, &mut self.seen);
            } else if let Some(j) = pre.take_next() {
                pre.prepare(j, &mut self.seen);
            } else {
                return pre.results[k].wait();
            }
        }
    }
}

/// The instruction statement of a raw line, as the sequential pass would see it if no macro
/// has the mnemonic's name; `None` for anything else (labels, directives, assignments) and
/// for whatever is not plainly an instruction statement (comments other than a final `;`
/// comment, strings), which the sequential pass then reads the ordinary way.
fn instruction_statement(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    let pos = skip_space(line, 0);
    if !b.get(pos)?.is_ascii_alphabetic() {
        return None;
    }
    let mut end = pos + 1;
    while end < b.len() && is_ident_char(b[end]) {
        end += 1;
    }
    // `name:` is a label, `name =` an assignment, and `\` only appears in macro bodies.
    if b.get(end) == Some(&b'\\') || matches!(b.get(skip_space(line, end)), Some(b':' | b'=')) {
        return None;
    }
    let cut = match memchr::memchr3(b';', b'/', b'"', b) {
        None => b.len(),
        Some(i) if b[i] == b';' => i,
        Some(_) => return None,
    };
    Some(line[pos..cut].trim_end())
}

/// For a statement `MNEMONIC .LABEL` (one operand, a name that starts with a dot and is
/// followed by a letter, `_`, `$` or `.`), the mnemonic and the label.
fn label_operand(stmt: &str) -> Option<(&str, &str)> {
    let (mnemonic, rest) = stmt.split_once(|c: char| c.is_ascii_whitespace())?;
    let label = rest.trim();
    let b = label.as_bytes();
    let plain = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.');
    (b.len() >= 2
        && b[0] == b'.'
        && (b[1].is_ascii_alphabetic() || matches!(b[1], b'_' | b'$' | b'.'))
        && b.iter().all(plain))
    .then_some((mnemonic, label))
}

/// A symbol table that knows nothing and remembers what it was asked.
#[derive(Default)]
struct AskedNames(std::cell::RefCell<Vec<Box<str>>>);

impl SymbolValues for AskedNames {
    fn value(&self, name: &str) -> Option<i64> {
        let mut names = self.0.borrow_mut();
        if !names.iter().any(|n| &**n == name) {
            names.push(name.into());
        }
        None
    }
}

/// The target the first `.amdgcn_target` line of `text` names.
fn target_named_in(text: &str) -> Option<Target> {
    for at in memmem::find_iter(text.as_bytes(), ".amdgcn_target") {
        let line_start = memchr::memrchr(b'\n', &text.as_bytes()[..at]).map_or(0, |i| i + 1);
        let line_end = memchr::memchr(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |i| at + i);
        let mut in_block = false;
        let line = strip_comments(&text[line_start..line_end], &mut in_block);
        let line = line.trim();
        if let Some(args) = line.strip_prefix(".amdgcn_target") {
            if args.starts_with(|c: char| c.is_ascii_whitespace()) {
                return super::directives::parse_target_id(args).ok();
            }
        }
    }
    None
}

/// The bodies of the `.amdgpu_metadata` blocks of `text`, as the sequential pass collects
/// them: the raw lines up to `.end_amdgpu_metadata`, each with a newline.
fn metadata_blocks(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut blocks = Vec::new();
    let mut from = 0;
    while let Some(i) = memmem::find(&bytes[from..], b".amdgpu_metadata") {
        let at = from + i;
        from = at + 1;
        let line_start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        if !bytes[line_start..at].iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Some(first) = memchr::memchr(b'\n', &bytes[at..]).map(|i| at + i + 1) else {
            break;
        };
        let mut body = String::new();
        let mut pos = first;
        let mut closed = false;
        while pos < bytes.len() {
            let end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
            let mut raw = &text[pos..end];
            raw = raw.strip_suffix('\r').unwrap_or(raw);
            pos = end + 1;
            if super::directives::first_word(raw).eq_ignore_ascii_case(".end_amdgpu_metadata") {
                closed = true;
                break;
            }
            body.push_str(raw);
            body.push('\n');
        }
        if closed {
            from = pos.min(bytes.len());
            blocks.push(body);
        }
    }
    blocks
}
