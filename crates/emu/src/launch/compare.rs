//! Output comparison: a buffer's final bytes against the reference's, under the tolerance the
//! description gives.
//!
//! Rules for each scalar pair (expected `e`, actual `a`):
//! - `exact`: the bytes are identical (so +0 and -0 differ, and NaNs must have the same bits).
//! - `ulp`: for floats, both are mapped to ordered integers (sign and magnitude to two's
//!   complement, so +0 and -0 are both 0 and adjacent floats differ by 1, infinities included)
//!   and the difference must be at most `max_ulp`; a NaN passes only against a NaN (any
//!   payload). For integer types the distance is `|a - e|` between the integer values.
//! - `rel`: `|a - e| <= atol + rtol * |e|` in float64; a NaN passes only against a NaN and an
//!   infinity only against the same infinity. For integer types `a` and `e` are the integer
//!   values (the difference taken exactly, then as a float64).
//!
//! `compare: multiset` sorts the elements of both arrays first (see [`compare`]), then applies
//! the rules pair by pair; `compare: sum` compares the float64 sums (see [`compare`]).

use super::convert::{float_of, int_of, read_bits, value_of};
use super::types::{ElemType, Scalar};

/// What an output must meet: the per-element rule, the comparison mode, and a free comment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tolerance {
    /// The per-element rule.
    pub kind: ToleranceKind,
    /// Element by element, as multisets, or by sum.
    pub compare: CompareMode,
    /// The description's `comment`, if any (why this tolerance).
    pub comment: Option<String>,
}

/// The per-element rule of a tolerance (`kind` in the description).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum ToleranceKind {
    /// `exact`: identical bytes.
    #[default]
    Exact,
    /// `ulp`: at most `max_ulp` units in the last place apart.
    Ulp {
        /// The largest distance allowed.
        max_ulp: u64,
    },
    /// `rel`: `|actual - expected| <= atol + rtol * |expected|`.
    Rel {
        /// The relative part.
        rtol: f64,
        /// The absolute part.
        atol: f64,
    },
}

/// How the two arrays are paired up (`compare` in the description).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CompareMode {
    /// Scalar `i` against scalar `i` (the default).
    #[default]
    Elementwise,
    /// Both arrays sorted first, for outputs whose element order is not deterministic.
    Multiset,
    /// The two float64 sums only.
    Sum,
}

/// The outcome of [`compare`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparison {
    /// Scalars compared: those of the expected array (for `sum`, the scalars it sums).
    pub elements: u64,
    /// Scalars that failed the rule (for `sum`, 0 or 1), counting every scalar that only one
    /// of the two arrays has.
    pub mismatches: u64,
    /// The first mismatches, at most [`MAX_REPORTED`].
    pub first_mismatches: Vec<Mismatch>,
    /// The largest ulp distance seen between two non-NaN values (integer types: the largest
    /// `|a - e|`), whatever the rule; for `sum`, between the sums as the rule measures it.
    pub max_ulp_seen: Option<u64>,
    /// The largest `|a - e|` seen between two finite values, whatever the rule.
    pub max_abs_error: Option<f64>,
    /// Set when the two arrays differ in length or are not whole elements; such a comparison
    /// never passes.
    pub length_mismatch: Option<LengthMismatch>,
}

/// How many mismatches a [`Comparison`] lists.
pub const MAX_REPORTED: usize = 10;

impl Comparison {
    /// Whether the output meets its tolerance: no mismatch and equal, whole lengths.
    pub fn passed(&self) -> bool {
        self.mismatches == 0 && self.length_mismatch.is_none()
    }
}

/// One failing scalar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The flat scalar index (element `index / lanes`, lane `index % lanes`); for `multiset`
    /// the index in sorted order, for `sum` 0.
    pub index: u64,
    /// The expected value, printed (`1.5 (0x3fc00000)`, `-1 (0xff)`; `missing` when the
    /// expected array is shorter).
    pub expected: String,
    /// The actual value, printed the same way.
    pub actual: String,
}

/// The byte lengths of two arrays that cannot be compared one to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthMismatch {
    /// The expected array's length in bytes.
    pub expected_bytes: u64,
    /// The actual array's length in bytes.
    pub actual_bytes: u64,
}

/// Compares `actual` with `expected`, two little-endian arrays of `elem`, under `tol`.
///
/// - Elementwise: scalar `i` against scalar `i`.
/// - Multiset: the elements (whole vectors) of each array are sorted lexicographically by
///   lane, each lane by IEEE total order for floats (`-NaN < -inf < ... < -0 < +0 < ... < inf <
///   NaN`) and by value for integers, then compared scalar by scalar. Sorting whole vectors keeps
///   the lanes of an element together (a queue of `uint2` key/value pairs stays paired).
/// - Sum: each array's scalars are converted to float64 (integers rounded to nearest even),
///   sorted by total order and added in that order starting from +0, so that any permutation
///   of the same values gives the same sum to the bit. The rule then applies to the two sums:
///   `exact`: equal as numbers (+0 equal to -0, NaN to NaN); `rel`: as for elements, on the
///   sums; `ulp`: `|a - e|` measured in units in the last place *of the element's scalar type*
///   at the expected sum, `ulp(e) = 2^(max(floor(log2|e|), emin) - (p - 1))` with `p` = 11, 24,
///   53 and `emin` = -14, -126, -1022 for half, float and double (no upper exponent limit, so a
///   half sum beyond 65504 is still measured), and 1 for integer types; it must be at most
///   `max_ulp` (and NaN matches only NaN, an infinity only the same infinity). A float64 ulp
///   of the sum would be far too fine for float data: one float ulp in one element moves the
///   float64 sum by about 2^29 of its ulps.
///
/// Arrays of different lengths, or with a trailing partial element, are compared as far as
/// whole elements go and reported in [`Comparison::length_mismatch`]; scalars only one array
/// has count as mismatches (except for `sum`).
pub fn compare(tol: &Tolerance, elem: ElemType, expected: &[u8], actual: &[u8]) -> Comparison {
    let esz = elem.size_bytes().max(1) as usize;
    let mut out = Comparison::default();
    let whole = |bytes: &[u8]| bytes.len() / esz * esz;
    if expected.len() != actual.len() || whole(expected) != expected.len() {
        out.length_mismatch = Some(LengthMismatch {
            expected_bytes: expected.len() as u64,
            actual_bytes: actual.len() as u64,
        });
    }
    let expected = &expected[..whole(expected)];
    let actual = &actual[..whole(actual)];
    match tol.compare {
        CompareMode::Elementwise => pairwise(tol.kind, elem.scalar, expected, actual, &mut out),
        CompareMode::Multiset => {
            let e = sorted_elements(elem, expected);
            let a = sorted_elements(elem, actual);
            pairwise(tol.kind, elem.scalar, &e, &a, &mut out);
        }
        CompareMode::Sum => sums(tol.kind, elem.scalar, expected, actual, &mut out),
    }
    out
}

/// Scalar `i` of `expected` against scalar `i` of `actual`.
fn pairwise(kind: ToleranceKind, s: Scalar, expected: &[u8], actual: &[u8], out: &mut Comparison) {
    let ss = s.size_bytes() as usize;
    let n = (expected.len() / ss) as u64;
    let mut a_all = actual.chunks_exact(ss).map(read_bits);
    out.elements = n;
    for (index, e) in (0u64..).zip(expected.chunks_exact(ss).map(read_bits)) {
        match a_all.next() {
            Some(a) => {
                if !check_pair(kind, s, e, a, out) {
                    out.mismatch(index, format_scalar(s, e), format_scalar(s, a));
                }
            }
            None => out.mismatch(index, format_scalar(s, e), "missing".into()),
        }
    }
    for (index, a) in (n..).zip(a_all) {
        out.mismatch(index, "missing".into(), format_scalar(s, a));
    }
}

impl Comparison {
    fn mismatch(&mut self, index: u64, expected: String, actual: String) {
        self.mismatches += 1;
        if self.first_mismatches.len() < MAX_REPORTED {
            self.first_mismatches.push(Mismatch {
                index,
                expected,
                actual,
            });
        }
    }

    fn saw_ulp(&mut self, d: u64) {
        self.max_ulp_seen = Some(self.max_ulp_seen.map_or(d, |m| m.max(d)));
    }

    fn saw_abs(&mut self, d: f64) {
        self.max_abs_error = Some(self.max_abs_error.map_or(d, |m| m.max(d)));
    }
}

/// Applies `kind` to one scalar pair, recording the distances seen.
fn check_pair(kind: ToleranceKind, s: Scalar, e: u64, a: u64, out: &mut Comparison) -> bool {
    if s.is_float() {
        let (ev, av) = (float_of(s, e), float_of(s, a));
        if !ev.is_nan() && !av.is_nan() {
            out.saw_ulp(ulp_distance(s, e, a));
        }
        if ev.is_finite() && av.is_finite() {
            out.saw_abs((av - ev).abs());
        }
        match kind {
            ToleranceKind::Exact => e == a,
            ToleranceKind::Ulp { max_ulp } => match (ev.is_nan(), av.is_nan()) {
                (false, false) => ulp_distance(s, e, a) <= max_ulp,
                (nan_e, nan_a) => nan_e && nan_a,
            },
            ToleranceKind::Rel { rtol, atol } => rel_ok(ev, av, rtol, atol),
        }
    } else {
        let (ev, av) = (int_of(s, e), int_of(s, a));
        let diff = ev.abs_diff(av);
        out.saw_ulp(u64::try_from(diff).unwrap_or(u64::MAX));
        out.saw_abs(diff as f64);
        match kind {
            ToleranceKind::Exact => e == a,
            ToleranceKind::Ulp { max_ulp } => diff <= u128::from(max_ulp),
            ToleranceKind::Rel { rtol, atol } => diff as f64 <= atol + rtol * (ev as f64).abs(),
        }
    }
}

/// The `rel` rule on two float64 values.
fn rel_ok(e: f64, a: f64, rtol: f64, atol: f64) -> bool {
    if e.is_nan() || a.is_nan() {
        return e.is_nan() && a.is_nan();
    }
    if e.is_infinite() || a.is_infinite() {
        return e == a;
    }
    (a - e).abs() <= atol + rtol * e.abs()
}

/// Float scalar bits as an ordered integer: sign and magnitude turned into two's complement,
/// so +0 and -0 are both 0 and consecutive floats (infinities included) are 1 apart.
fn ordered(s: Scalar, bits: u64) -> i64 {
    let sign_bit = 1u64 << (s.bits() - 1);
    let magnitude = (bits & (sign_bit - 1)) as i64;
    if bits & sign_bit != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// The ulp distance between two non-NaN float scalars of type `s`.
fn ulp_distance(s: Scalar, e: u64, a: u64) -> u64 {
    // At most 2 * (2^63 - 1), which fits a u64.
    (i128::from(ordered(s, e)) - i128::from(ordered(s, a))).unsigned_abs() as u64
}

/// A key sorting scalars by IEEE total order (floats: -0 before +0, NaNs at the ends by sign)
/// or by value (integers).
fn total_key(s: Scalar, bits: u64) -> i128 {
    if !s.is_float() {
        return int_of(s, bits);
    }
    let sign_bit = 1u64 << (s.bits() - 1);
    let magnitude = i128::from(bits & (sign_bit - 1));
    if bits & sign_bit != 0 {
        -magnitude - 1
    } else {
        magnitude
    }
}

/// `bytes`' elements sorted lexicographically by the total-order keys of their lanes.
fn sorted_elements(elem: ElemType, bytes: &[u8]) -> Vec<u8> {
    let s = elem.scalar;
    let ss = s.size_bytes() as usize;
    let lanes = elem.lanes.max(1) as usize;
    let esz = ss * lanes;
    let keys: Vec<i128> = bytes
        .chunks_exact(ss)
        .map(|c| total_key(s, read_bits(c)))
        .collect();
    let mut order: Vec<usize> = (0..bytes.len() / esz).collect();
    order.sort_by(|&x, &y| keys[x * lanes..(x + 1) * lanes].cmp(&keys[y * lanes..(y + 1) * lanes]));
    let mut out = Vec::with_capacity(bytes.len());
    for i in order {
        out.extend_from_slice(&bytes[i * esz..(i + 1) * esz]);
    }
    out
}

/// The float64 sum of `bytes`' scalars, added in total order from +0.
fn sum(s: Scalar, bytes: &[u8]) -> f64 {
    let ss = s.size_bytes() as usize;
    let mut v: Vec<f64> = bytes
        .chunks_exact(ss)
        .map(|c| value_of(s, read_bits(c)))
        .collect();
    v.sort_by(f64::total_cmp);
    v.into_iter().fold(0.0, |acc, x| acc + x)
}

/// `compare: sum`.
fn sums(kind: ToleranceKind, s: Scalar, expected: &[u8], actual: &[u8], out: &mut Comparison) {
    out.elements = (expected.len() / s.size_bytes() as usize) as u64;
    let (e, a) = (sum(s, expected), sum(s, actual));
    let both_nan = e.is_nan() && a.is_nan();
    let either_nan = e.is_nan() || a.is_nan();
    let scaled = if either_nan || e.is_infinite() || a.is_infinite() {
        None
    } else {
        Some((a - e).abs() / type_ulp(s, e))
    };
    if let Some(d) = scaled {
        // Saturating float-to-int conversion; a fractional distance counts as the next unit.
        out.saw_ulp(d.ceil() as u64);
        out.saw_abs((a - e).abs());
    }
    let pass = match kind {
        ToleranceKind::Exact => e == a || both_nan,
        ToleranceKind::Ulp { max_ulp } => match scaled {
            Some(d) => d <= max_ulp as f64,
            None => both_nan || (!either_nan && e == a),
        },
        ToleranceKind::Rel { rtol, atol } => rel_ok(e, a, rtol, atol),
    };
    if !pass {
        out.mismatch(0, format!("sum {e:?}"), format!("sum {a:?}"));
    }
}

/// One unit in the last place of scalar type `s` at the magnitude of `x` (1 for integers),
/// with the exponent bounded below by the type's smallest normal exponent and not above.
fn type_ulp(s: Scalar, x: f64) -> f64 {
    let (p, emin) = match s {
        Scalar::Half => (11, -14),
        Scalar::Float => (24, -126),
        Scalar::Double => (53, -1022),
        _ => return 1.0,
    };
    let e = (((x.to_bits() >> 52) & 0x7FF) as i32 - 1023).max(emin);
    pow2(e - (p - 1))
}

/// 2^k as a float64, for k within -1074 ..= 1023.
fn pow2(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

/// A scalar printed for a mismatch report: the value, then its bits in hex.
pub(crate) fn format_scalar(s: Scalar, bits: u64) -> String {
    let digits = s.size_bytes() as usize * 2;
    match s {
        // Each in its own precision: the shortest decimal that reads back to the same value.
        Scalar::Half => format!("{:?} (0x{bits:0digits$x})", float_of(s, bits) as f32),
        Scalar::Float => format!("{:?} (0x{bits:0digits$x})", f32::from_bits(bits as u32)),
        Scalar::Double => format!("{:?} (0x{bits:0digits$x})", f64::from_bits(bits)),
        _ => format!("{} (0x{bits:0digits$x})", int_of(s, bits)),
    }
}
