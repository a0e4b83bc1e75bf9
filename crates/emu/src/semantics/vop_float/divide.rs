//! The division helpers v_div_scale, v_div_fmas and v_div_fixup (precision notes §9).

use super::soft::{self, F32, RNE};
use super::*;

// ---------------------------------------------------------------------------------------
// Division helpers (precision notes §9).

/// True when the exact quotient `|n / d|` (both finite nonzero) is below 2^`t`.
fn quotient_below(n: f64, d: f64, t: i32) -> bool {
    let norm = |x: f64| {
        let (_, m, e) = soft::decompose(x);
        let len = 64 - m.leading_zeros() as i32;
        (m << (64 - len), e + len - 1)
    };
    let ((mn, en), (md, ed)) = (norm(n), norm(d));
    // n/d = (mn/md) * 2^(en-ed) with mn/md in (1/2, 2).
    let k = t - (en - ed);
    match k {
        k if k >= 1 => true,
        k if k <= -1 => false,
        _ => mn < md,
    }
}

/// v_div_scale (§9.1): returns the scaled (or passed-through) src0 and the VCC bit.
fn div_scale_lane(f: Fmt, s0: u64, s1: u64, s2: u64) -> (u64, bool) {
    let (big, scale, tiny) = if f == F32 {
        (96, 64, 23)
    } else {
        (768, 128, 53)
    };
    let (v0, v1, v2) = (f.to_f64(s0), f.to_f64(s1), f.to_f64(s2));
    let scaled = |n: i32| soft::ldexp(f, v0, n, RNE);
    if v1 == 0.0 || v2 == 0.0 {
        return (f.default_nan(), false);
    }
    let (e1, e2) = (f.exp_field(s1) as i32, f.exp_field(s2) as i32);
    let finite = v1.is_finite() && v2.is_finite();
    // |1/S1| is denormal when |S1| > 2^(bias-1).
    let rcp_tiny = f.to_f64(fabs(f, s1)) > soft::pow2(f.bias() - 1);
    let quot_tiny = finite && quotient_below(v2, v1, 1 - f.bias());
    if e2 - e1 >= big {
        (if v0 == v1 { scaled(scale) } else { s0 }, true)
    } else if f.is_denorm(s1) {
        (scaled(scale), false)
    } else if rcp_tiny && quot_tiny {
        (if v0 == v1 { scaled(-scale) } else { s0 }, true)
    } else if rcp_tiny {
        (scaled(-scale), false)
    } else if quot_tiny {
        (if v0 == v2 { scaled(scale) } else { s0 }, true)
    } else if e2 <= tiny {
        (scaled(scale), false)
    } else {
        (s0, false)
    }
}

pub(super) fn div_scale<const B: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let b = read(w, op, env, 1, B);
    let c = read(w, op, env, 2, B);
    let mut r = [0u64; LANES];
    let mut vcc = 0u64;
    for l in 0..LANES {
        let (d, v) = div_scale_lane(f, a[l], b[l], c[l]);
        r[l] = d;
        vcc |= (v as u64) << l;
    }
    let mask = write_mask(w, op);
    put(w, op, &r, B);
    w.set_sreg64(op.sdst, vcc & mask);
    Ok(Flow::Next)
}

/// v_div_fmas (§9.2): a fused multiply-add whose exact result is scaled by 2^±64 (f64:
/// 2^±128) in the lanes where VCC is set, upward when |src2| >= 2, then rounded once.
/// Input denormals are never flushed.
pub(super) fn div_fmas<const B: u8>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let f = fmt_of(B);
    let a = read(w, op, env, 0, B);
    let b = read(w, op, env, 1, B);
    let c = read(w, op, env, 2, B);
    let vcc = w.vcc();
    let x = Fp {
        din: true,
        ..Fp::new(w.mode, f)
    };
    let scale = if f == F32 { 64 } else { 128 };
    let r: [u64; LANES] = std::array::from_fn(|l| {
        if vcc >> l & 1 == 0 {
            return ffma(f, a[l], b[l], c[l], x);
        }
        let n = if f.exp_field(c[l]) as i32 > f.bias() {
            scale
        } else {
            -scale
        };
        let (va, vb, vc) = (f.to_f64(a[l]), f.to_f64(b[l]), f.to_f64(c[l]));
        let r = soft::fma_scaled(f, va, vb, vc, n, x.rm);
        let r = if f.is_nan(r) {
            nan_result(f, &[a[l], b[l], c[l]])
        } else {
            r
        };
        x.outp(f, r)
    });
    put(w, op, &r, B);
    Ok(Flow::Next)
}

/// v_div_fixup (§9.3): src0 = quotient estimate, src1 = denominator, src2 = numerator.
pub(super) fn div_fixup_lane(f: Fmt, q: u64, d: u64, n: u64) -> u64 {
    let neg = f.is_neg(d) != f.is_neg(n);
    if f.is_nan(n) {
        return f.quieted(n);
    }
    if f.is_nan(d) {
        return f.quieted(d);
    }
    if f.is_zero(d) && f.is_zero(n) {
        return f.default_nan();
    }
    if f.is_inf(d) && f.is_inf(n) {
        return f.default_nan();
    }
    if f.is_zero(d) || f.is_inf(n) {
        return f.inf(neg);
    }
    if f.is_inf(d) || f.is_zero(n) {
        return f.zero(neg);
    }
    // Quotients below half the smallest denormal round to zero (f16 has no such clause).
    let under = match f.frac {
        23 => Some(-150),
        52 => Some(-1075),
        _ => None,
    };
    if let Some(u) = under {
        if (f.exp_field(n) as i32) - (f.exp_field(d) as i32) < u {
            return f.zero(neg);
        }
    }
    if f.is_nan(q) {
        return f.inf(neg);
    }
    fabs(f, q) | f.zero(neg)
}
