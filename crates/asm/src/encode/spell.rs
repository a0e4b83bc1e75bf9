//! The "did you mean" list llvm-mc appends to `invalid instruction`.
//!
//! LLVM's generated `AMDGPUMnemonicSpellCheck` walks the matcher table of the default asm
//! variant (sorted bytewise by mnemonic), skips rows the target lacks, and lists every distinct
//! mnemonic within edit distance 2 of the word, where the edit distance counts insertions and
//! deletions only (a replacement costs 2). The word is the mnemonic with its `_e32`, `_e64`,
//! `_dpp`, `_sdwa` or `_e64_dpp` suffix removed. The default variant holds the SOP, SMEM,
//! VOP1/VOP2/VOPC (32-bit form), VINTRP and memory rows; VOP3- and VOP3P-only instructions
//! live in other variants and are never offered (`v_mad_f3` gets no suggestion).

use std::sync::OnceLock;

use gcnkit_isa::{mnemonic_aliases, Encoding, Gen, InstrDef, InstrId, Processor, INSTRUCTIONS};

/// The largest edit distance LLVM offers a candidate at.
const MAX_EDIT: usize = 2;

/// The suffixes LLVM's `parseMnemonicSuffix` removes, in the order it tries them.
const SUFFIXES: [&str; 5] = ["_e64_dpp", "_e64", "_e32", "_dpp", "_sdwa"];

/// Default-variant mnemonics the rule above misses, with the generations LLVM offers them on:
/// `v_readlane_b32`/`v_writelane_b32` stay VOP2 pseudos in LLVM where only their VOP3
/// encoding exists (gfx8+). Aliases ([`mnemonic_aliases`]) are offered on their generations
/// whatever the variant of their instruction (gfx940's old MFMA names too).
const EXTRA: [(&str, &[Gen]); 2] = [
    ("v_readlane_b32", &Gen::ALL),
    ("v_writelane_b32", &Gen::ALL),
];

/// Every mnemonic with its rows, sorted bytewise as LLVM's matcher table is.
fn sorted_mnemonics() -> &'static [(&'static str, &'static [InstrId])] {
    static LIST: OnceLock<Vec<(&'static str, &'static [InstrId])>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut v: Vec<_> = super::mnemonic_map()
            .iter()
            .map(|(m, rows)| (*m, rows.as_slice()))
            .collect();
        let extra = EXTRA.iter().map(|(m, _)| *m);
        for m in extra.chain(mnemonic_aliases().iter().map(|a| a.alias)) {
            if !super::mnemonic_map().contains_key(m) && !v.iter().any(|(x, _)| *x == m) {
                v.push((m, &[]));
            }
        }
        v.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        v
    })
}

/// True if LLVM's default asm variant has `def` for `processor`.
fn in_default_variant(def: &InstrDef, processor: &Processor) -> bool {
    def.exists_on(processor) && !matches!(def.encoding, Encoding::Vop3 | Encoding::Vop3p)
}

/// True if LLVM offers `m` (with table rows `rows`) on `processor`.
fn offered(m: &str, rows: &[InstrId], processor: &Processor) -> bool {
    rows.iter()
        .any(|&id| in_default_variant(&INSTRUCTIONS[id as usize], processor))
        || EXTRA
            .iter()
            .any(|(x, gens)| *x == m && gens.contains(&processor.gen))
        || gcnkit_isa::mnemonic_alias(m, processor.gen).is_some()
}

/// The message for an unknown mnemonic `word` (already lower-case): `invalid instruction`,
/// followed by LLVM's candidates, if any, in LLVM's order.
pub(crate) fn invalid_instruction(word: &str, processor: &Processor) -> String {
    let word = SUFFIXES
        .iter()
        .find_map(|s| word.strip_suffix(s))
        .unwrap_or(word);
    let mut msg = String::from("invalid instruction");
    let mut first = true;
    for &(m, rows) in sorted_mnemonics() {
        if m.len().abs_diff(word.len()) > MAX_EDIT
            || !indel_within(word.as_bytes(), m.as_bytes(), MAX_EDIT)
            || !offered(m, rows, processor)
        {
            continue;
        }
        msg.push_str(if first { ", did you mean: " } else { ", " });
        msg.push_str(m);
        first = false;
    }
    if !first {
        msg.push('?');
    }
    msg
}

/// True if `a` becomes `b` with at most `k` single-byte insertions and deletions.
fn indel_within(a: &[u8], b: &[u8], k: usize) -> bool {
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[common..], &b[common..]);
    if a.is_empty() || b.is_empty() {
        return a.len() + b.len() <= k;
    }
    k > 0 && (indel_within(&a[1..], b, k - 1) || indel_within(a, &b[1..], k - 1))
}

#[cfg(test)]
mod tests {
    use super::indel_within;

    #[test]
    fn indel_distance_counts_a_replacement_as_two() {
        assert!(indel_within(b"s_nopp", b"s_nop", 1));
        assert!(indel_within(b"s_nopp", b"ds_nop", 2));
        assert!(!indel_within(b"s_nopp", b"ds_nop", 1));
        assert!(indel_within(b"abc", b"abd", 2));
        assert!(!indel_within(b"abc", b"abd", 1));
        assert!(!indel_within(b"s_bogus", b"s_nop", 2));
        assert!(indel_within(b"", b"ab", 2));
        assert!(!indel_within(b"", b"abc", 2));
    }
}
