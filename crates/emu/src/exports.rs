//! What `exp` instructions sent: the records a launch hands back.
//!
//! A compute dispatch has no colour, depth, position or parameter buffers behind the export
//! targets, so an export changes nothing the kernel can see; the emulator records it instead,
//! and the launch returns the records ([`crate::LaunchStats::exports`]). docs/emulator.md
//! ("Exports") describes the representation.

/// At most this many records are kept per launch (the first ones in dispatch order: by
/// work-group, then wave, then program order); [`Exports::count`] counts them all.
pub const MAX_EXPORT_RECORDS: usize = 4096;

/// One `exp` as a wave executed it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportRecord {
    /// The TGT field: 0–7 mrt0–7, 8 mrtz, 9 null, 12–15 pos0–3, 32–63 param0–31.
    pub target: u8,
    /// The EN field: bit i enables component i (with `compr`, bits 0–1 the first dword and
    /// bits 2–3 the second).
    pub en: u8,
    /// COMPR: the data are 16-bit pairs, two dwords (VSRC0, VSRC1) instead of four.
    pub compr: bool,
    /// DONE: the last export of its kind for this wave.
    pub done: bool,
    /// VM: EXEC is the valid mask.
    pub vm: bool,
    /// EXEC when the export ran.
    pub exec: u64,
    /// For each lane of `exec`, lowest lane first: the four dwords sent. Without `compr`,
    /// dword i is VSRCi's value when EN bit i is set and 0 otherwise; with `compr`, dword 0
    /// is VSRC0 (components x, y) when EN bit 0 or 1 is set, dword 1 is VSRC1 (z, w) when EN
    /// bit 2 or 3 is set, dwords 2 and 3 are 0.
    pub data: Vec<[u32; 4]>,
}

impl ExportRecord {
    /// The target's assembler name (`mrt0`, `mrtz`, `null`, `pos2`, `param31`).
    pub fn target_name(&self) -> String {
        target_name(self.target).unwrap_or_else(|| format!("invalid_target_{}", self.target))
    }
}

/// The assembler name of export target `t`, or `None` if no generation here defines it.
pub fn target_name(t: u8) -> Option<String> {
    Some(match t {
        0..=7 => format!("mrt{t}"),
        8 => "mrtz".to_string(),
        9 => "null".to_string(),
        12..=15 => format!("pos{}", t - 12),
        32..=63 => format!("param{}", t - 32),
        _ => return None,
    })
}

/// An export with where it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Export {
    /// The work-group's id.
    pub workgroup: [u32; 3],
    /// The wave's index in its work-group.
    pub wave: u32,
    /// What it sent.
    pub record: ExportRecord,
}

/// The exports of one launch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exports {
    /// How many `exp` instructions ran.
    pub count: u64,
    /// The first [`MAX_EXPORT_RECORDS`] of them, in dispatch order.
    pub records: Vec<Export>,
}

impl Exports {
    /// Orders `records` by work-group (x fastest), wave and program order, keeps the first
    /// [`MAX_EXPORT_RECORDS`], and sets the count.
    pub(crate) fn from_unordered(mut records: Vec<(u64, Export)>, count: u64) -> Exports {
        // The sort is stable: records of one wave stay in program order.
        records.sort_by_key(|(g, e)| (*g, e.wave));
        records.truncate(MAX_EXPORT_RECORDS);
        Exports {
            count,
            records: records.into_iter().map(|(_, e)| e).collect(),
        }
    }
}
