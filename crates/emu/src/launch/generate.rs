//! A buffer's initial contents, generated exactly as the launch format defines them, so that
//! every runner starts from the same bytes.

use std::cmp::Ordering;

use super::convert::{
    float_bits, float_of, int_bits, int_of, number_bits, read_bits, INT_MAX, INT_MIN,
};
use super::error::{buffer_path, child, item, LaunchError};
use super::spec::{BufferSpec, Init};
use super::types::Scalar;

/// Output number `i` (from 0) of splitmix64 started from `seed`, by the format's formula:
/// `z = seed + (i + 1) * 0x9E3779B97F4A7C15; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
/// z = (z ^ (z >> 27)) * 0x94D049BB133111EB; x_i = z ^ (z >> 31)`, all modulo 2^64.
pub fn splitmix64(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An `init` checked and reduced to what the generating loop needs.
enum Plan {
    Zeros,
    Fill(u64),
    /// Integer types: `start + step * i` modulo 2^64, then modulo 2^bits.
    IotaInt {
        start: u64,
        step: u64,
    },
    /// Float types: `start + step * i` in float64 (a multiply, then an add: no fused
    /// multiply-add), then rounded to the element type.
    IotaFloat {
        start: f64,
        step: f64,
    },
    /// `span` is `hi - lo + 1`; `None` stands for 2^64, where `x mod span` is `x`.
    RandInt {
        lo: i128,
        span: Option<u64>,
        seed: u64,
    },
    RandFloat {
        lo: f64,
        hi: f64,
        seed: u64,
    },
}

impl BufferSpec {
    /// The number of scalars, `count * lanes`; an error when it overflows 64 bits.
    pub fn scalar_count(&self) -> Result<u64, LaunchError> {
        self.count
            .checked_mul(u64::from(self.elem.lanes))
            .ok_or_else(|| self.too_large())
    }

    /// The size in bytes, `count * sizeof(type)` with no padding; an error when it overflows
    /// 64 bits.
    pub fn size_bytes(&self) -> Result<u64, LaunchError> {
        self.count
            .checked_mul(u64::from(self.elem.size_bytes()))
            .ok_or_else(|| self.too_large())
    }

    /// The initial contents as the format defines them: `init` over the flat array of
    /// `count * lanes` scalars, then `sorted`, then `set`; little-endian, `size_bytes()` long.
    ///
    /// Errors name the field at fault (`buffers.x.init.value`, `buffers.x.set[2]`), or the
    /// buffer when its size cannot be allocated.
    pub fn generate(&self) -> Result<Vec<u8>, LaunchError> {
        let at = buffer_path(&self.name);
        let plan = self.plan()?;
        self.check_set(&child(&at, "set"))?;
        let size = self.byte_len()?;
        let s = self.elem.scalar;
        let ss = s.size_bytes() as usize;
        let n = size / ss;
        let mut out: Vec<u8> = Vec::new();
        out.try_reserve_exact(size)
            .map_err(|_| LaunchError::invalid(&at, format!("cannot allocate {size} bytes")))?;
        let push = |out: &mut Vec<u8>, bits: u64| out.extend_from_slice(&bits.to_le_bytes()[..ss]);
        match plan {
            Plan::Zeros => out.resize(size, 0),
            Plan::Fill(bits) => (0..n).for_each(|_| push(&mut out, bits)),
            Plan::IotaInt { start, step } => {
                for i in 0..n as u64 {
                    push(&mut out, start.wrapping_add(step.wrapping_mul(i)));
                }
            }
            Plan::IotaFloat { start, step } => {
                for i in 0..n {
                    // Float types only: the conversion cannot fail.
                    push(
                        &mut out,
                        float_bits(s, start + step * i as f64).unwrap_or(0),
                    );
                }
            }
            Plan::RandInt { lo, span, seed } => {
                for i in 0..n as u64 {
                    let x = splitmix64(seed, i);
                    let r = span.map_or(x, |span| x % span);
                    push(&mut out, int_bits(s, lo + i128::from(r)));
                }
            }
            Plan::RandFloat { lo, hi, seed } => {
                let double = s == Scalar::Double;
                for i in 0..n as u64 {
                    let x = splitmix64(seed, i);
                    let u = if double {
                        (x >> 11) as f64 * 2f64.powi(-53)
                    } else {
                        (x >> 40) as f64 * 2f64.powi(-24)
                    };
                    let v = lo + (hi - lo) * u;
                    let bits = float_bits(s, v).map_err(|e| {
                        LaunchError::invalid(child(&at, "init"), format!("scalar {i}: {e}"))
                    })?;
                    push(&mut out, bits);
                }
            }
        }
        if self.sorted {
            sort_ascending(s, &mut out).map_err(|m| LaunchError::invalid(&at, m))?;
        }
        for e in &self.set {
            // Checked above: the index is in range and the value converts.
            let bits = number_bits(s, e.value).unwrap_or(0);
            let start = e.index as usize * ss;
            out[start..start + ss].copy_from_slice(&bits.to_le_bytes()[..ss]);
        }
        Ok(out)
    }

    /// Everything `generate` checks, without generating: the size, the `init` fields and the
    /// `set` entries (reported under `set_at`, where the description wrote them).
    pub(crate) fn check(&self, set_at: &str) -> Result<(), LaunchError> {
        self.byte_len()?;
        self.plan()?;
        self.check_set(set_at)
    }

    /// The size as a `usize`, for allocating.
    fn byte_len(&self) -> Result<usize, LaunchError> {
        self.scalar_count()?;
        usize::try_from(self.size_bytes()?).map_err(|_| self.too_large())
    }

    fn too_large(&self) -> LaunchError {
        LaunchError::invalid(
            buffer_path(&self.name),
            format!(
                "{} elements of {} do not fit in memory",
                self.count, self.elem
            ),
        )
    }

    fn check_set(&self, set_at: &str) -> Result<(), LaunchError> {
        let n = self.scalar_count()?;
        for (k, e) in self.set.iter().enumerate() {
            let at = item(set_at, k);
            if e.index >= n {
                return Err(LaunchError::invalid(
                    at,
                    format!(
                        "index {} is out of range: the buffer has {n} scalars",
                        e.index
                    ),
                ));
            }
            number_bits(self.elem.scalar, e.value).map_err(|m| LaunchError::invalid(at, m))?;
        }
        Ok(())
    }

    /// Checks `init` against the element type and reduces it to a [`Plan`].
    fn plan(&self) -> Result<Plan, LaunchError> {
        let s = self.elem.scalar;
        let at = child(&buffer_path(&self.name), "init");
        let field = |f: &str, m: String| LaunchError::invalid(child(&at, f), m);
        let int_field = |f: &str, v: i128| {
            if (INT_MIN..=INT_MAX).contains(&v) {
                Ok(v)
            } else {
                Err(field(f, format!("{v} is outside the 64-bit integer range")))
            }
        };
        Ok(match self.init {
            Init::Zeros => Plan::Zeros,
            Init::Fill { value } => {
                Plan::Fill(number_bits(s, value).map_err(|m| field("value", m))?)
            }
            Init::Iota { start, step } if s.is_float() => Plan::IotaFloat {
                start: start.to_f64(),
                step: step.to_f64(),
            },
            Init::Iota { start, step } => {
                // The format computes integer iota in int64, so it takes integers only.
                let int = |f: &str, n: super::convert::Number| {
                    n.to_int()
                        .map(|v| v as u128 as u64)
                        .map_err(|m| field(f, format!("{m} (iota over {s} is computed in int64)")))
                };
                Plan::IotaInt {
                    start: int("start", start)?,
                    step: int("step", step)?,
                }
            }
            Init::RandInt { lo, hi, seed } => {
                let lo = int_field("lo", lo)?;
                let hi = int_field("hi", hi)?;
                if hi < lo {
                    return Err(field("hi", format!("{hi} is less than lo ({lo})")));
                }
                let span = hi - lo + 1;
                if span > 1 << 64 {
                    return Err(LaunchError::invalid(
                        at,
                        format!("lo..=hi ({lo}..={hi}) holds more than 2^64 values"),
                    ));
                }
                Plan::RandInt {
                    lo,
                    span: u64::try_from(span).ok(),
                    seed,
                }
            }
            Init::RandFloat { lo, hi, seed } => {
                if !lo.is_finite() {
                    return Err(field("lo", format!("{lo} is not finite")));
                }
                if !hi.is_finite() {
                    return Err(field("hi", format!("{hi} is not finite")));
                }
                if !(hi - lo).is_finite() {
                    return Err(LaunchError::invalid(at, "hi - lo overflows float64"));
                }
                Plan::RandFloat { lo, hi, seed }
            }
        })
    }
}

/// Sorts the scalars of `bytes` ascending by value, stably: integers as signed or unsigned
/// numbers; floats numerically with -0 and +0 equal (so they keep their order) and NaNs last,
/// which is what a stable numeric sort (`numpy.sort(kind="stable")`) gives.
fn sort_ascending(s: Scalar, bytes: &mut [u8]) -> Result<(), String> {
    let ss = s.size_bytes() as usize;
    let mut v: Vec<u64> = Vec::new();
    v.try_reserve_exact(bytes.len() / ss)
        .map_err(|_| "cannot allocate memory to sort the buffer".to_string())?;
    v.extend(bytes.chunks_exact(ss).map(read_bits));
    if s.is_float() {
        v.sort_by(|&a, &b| numeric_order(float_of(s, a), float_of(s, b)));
    } else {
        v.sort_by_key(|&b| int_of(s, b));
    }
    for (chunk, bits) in bytes.chunks_exact_mut(ss).zip(v) {
        chunk.copy_from_slice(&bits.to_le_bytes()[..ss]);
    }
    Ok(())
}

/// Ascending numeric order with every NaN after every number.
fn numeric_order(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (false, false) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
    }
}
