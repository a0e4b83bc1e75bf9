//! Mixed-precision multiply-adds (VOP3P v_mad_mix*/v_fma_mix*).

use super::soft::{self, F16, F32, RNE};
use super::*;

// ---------------------------------------------------------------------------------------
// Mixed precision (VOP3P v_mad_mix*/v_fma_mix*, gfx9+).

/// One mix source: f32, or (op_sel_hi set) the f16 half selected by op_sel converted
/// exactly; neg_hi takes the absolute value, neg_lo negates.
#[inline(always)]
fn mix_src(w: &Wave, op: &Op, env: &Env<'_>, i: usize) -> [f64; LANES] {
    let v = raw32(w, env, op.src[i]);
    let m = &op.mods;
    let half = m.op_sel_hi >> i & 1 != 0;
    let hi = m.op_sel >> i & 1 != 0;
    let abs = m.neg_hi >> i & 1 != 0;
    let neg = m.neg_lo >> i & 1 != 0;
    let x32 = Fp::new(w.mode, F32);
    let x16 = Fp::new(w.mode, F16);
    std::array::from_fn(|l| {
        let mut x = if half {
            let h = if hi { v[l] >> 16 } else { v[l] } & 0xffff;
            F16.to_f64(x16.inp(F16, h as u64))
        } else {
            F32.to_f64(x32.inp(F32, v[l] as u64))
        };
        if abs {
            x = x.abs();
        }
        if neg {
            x = -x;
        }
        x
    })
}

/// `D` selects the result: 0 f32, 1 f16 to the low half, 2 f16 to the high half (the other
/// half kept). `FUSED` is the fma form; the mad form rounds the product first and flushes
/// f32 denormals.
pub(super) fn mix<const D: u8, const FUSED: bool>(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
) -> Result<Flow, Fault> {
    let a = mix_src(w, op, env, 0);
    let b = mix_src(w, op, env, 1);
    let c = mix_src(w, op, env, 2);
    let x32 = Fp::new(w.mode, F32);
    let x32 = if FUSED { x32 } else { x32.ftz() };
    let x16 = Fp::new(w.mode, F16);
    let f32_of = |v: f64| soft::from_f64(F32, v, RNE);
    let r32: [u64; LANES] = std::array::from_fn(|l| {
        let (va, vb, vc) = (f32_of(a[l]), f32_of(b[l]), f32_of(c[l]));
        if FUSED {
            ffma(F32, va, vb, vc, x32)
        } else {
            fmad(F32, va, vb, vc, x32)
        }
    });
    if D == 0 {
        put(w, op, &r32, 32);
        return Ok(Flow::Next);
    }
    let omod = effective_omod(op, x16);
    let mask = write_mask(w, op);
    let old = w.v[op.vdst as usize];
    let r: Lanes = std::array::from_fn(|l| {
        let v = F32.to_f64(r32[l]);
        let h = if v.is_nan() {
            F16.nan_from_f64(v)
        } else {
            x16.outp(F16, soft::from_f64(F16, v, x16.rm))
        };
        let h = out_mods(F16, h, omod, op.mods.clamp, x16) as u32;
        if D == 1 {
            (old[l] & 0xffff_0000) | h
        } else {
            (old[l] & 0xffff) | h << 16
        }
    });
    write32_masked(w, op, &r, mask);
    Ok(Flow::Next)
}
