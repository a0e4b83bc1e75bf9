//! Parameter interpolation: VINTRP `v_interp_p1_f32`, `v_interp_p2_f32`, `v_interp_mov_f32`
//! (gfx6–gfx908, and their VOP3 `_e64` forms on gfx8–gfx908) and the VOP3-only
//! `v_interp_p1ll_f16`, `v_interp_p1lv_f16`, `v_interp_p2_f16` (gfx8–gfx908) and
//! `v_interp_p2_legacy_f16` (gfx9, gfx908).
//!
//! The parameters come from LDS as docs/emulator.md ("Interpolation") lays out, after CLRX's
//! GcnInstrsVintrp.md and the manuals' "Interpolation" sections (Southern Islands §12,
//! GCN3/Vega "Vector Parameter Interpolation"): M0[15:0] is the byte address of the parameter
//! block, M0[30:16] the new-primitive mask (bit b: quad b+1 starts a new primitive; quad 0
//! always does). Quad q's primitive is the number of mask bits below bit q, NUMPRIM the
//! number of set bits plus one, and the twelve dwords of attribute A of primitive P start at
//! dword `12 * (A * NUMPRIM + P)`: P0.c at `2c`, P10.c at `2c + 1`, P20.c at `8 + c` for
//! channel c (x, y, z, w = 0..3). A read past the work-group's LDS gives 0, as other LDS reads.
//!
//! Arithmetic: `p1` is `P10 * I + P0`, `p2` is `P20 * J + D`, executed as V_MAD_F32 (the
//! manuals: "SQ translates to V_MAD_F32"): product and sum each rounded to f32, denormals
//! flushed like every mad. The f16 forms read 16-bit parameters (the high halves with `high`)
//! converted exactly to f32, compute the same mad in f32; `p2_f16` rounds the sum to f16
//! (with MODE's f16 rounding and denormal fields) and writes the low half
//! (high half zeroed), or on gfx9 with op_sel[3] the high half (low kept). The rounding and
//! denormal modes are MODE's, through the VALU's own V_MAD_F32 and V_CVT_F16_F32.

use gcnkit_isa::{Encoding, Field, Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{BuildContext, Op, Src};
use crate::semantics::valu::{raw32, src32, write16, write32};
use crate::semantics::vop_float::{f32_to_f16, mad_f32};
use crate::wave::{sreg, Lanes, Wave, LANES};

/// Bits of `op.imm`: attr [5:0], chan [7:6], high [8] (the VOP3 src0 layout); `op.imm2` is
/// the parameter of `v_interp_mov_f32` (0 p10, 1 p20, 2 p0).
pub fn select(inst: &Instruction, op: &mut Op, _ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let mnemonic = inst.def().op;
    let f = |field| inst.field(field);
    let vop3 = inst.encoding == Encoding::Vop3;
    match mnemonic {
        M::VInterpP1F32 | M::VInterpP2F32 | M::VInterpMovF32 if vop3 => {
            op.imm = (f(Field::Src0) & 0x1ff) as i64;
            let s1 = f(Field::Src1);
            if mnemonic == M::VInterpMovF32 {
                op.imm2 = (s1 & 0xff) as i64;
            } else {
                op.src[1] = Src::Vreg((s1 & 0xff) as u16);
            }
            op.vdst = f(Field::Vdst) as u16;
        }
        M::VInterpP1F32 | M::VInterpP2F32 | M::VInterpMovF32 => {
            op.imm = (f(Field::Attr) | f(Field::AttrChan) << 6) as i64;
            if mnemonic == M::VInterpMovF32 {
                op.imm2 = f(Field::Vsrc) as i64;
            } else {
                op.src[1] = Src::Vreg(f(Field::Vsrc) as u16);
            }
            op.vdst = f(Field::Vdst) as u16;
        }
        M::VInterpP1llF16 | M::VInterpP1lvF16 | M::VInterpP2F16 | M::VInterpP2LegacyF16 => {
            op.imm = (f(Field::Src0) & 0x1ff) as i64;
        }
        _ => return None,
    }
    Some(match mnemonic {
        M::VInterpP1F32 => p1_f32,
        M::VInterpP2F32 => p2_f32,
        M::VInterpMovF32 => mov_f32,
        M::VInterpP1llF16 => p1ll_f16,
        M::VInterpP1lvF16 => p1lv_f16,
        // gfx9's p2_f16 honours op_sel[3]; gfx8's p2_f16 and gfx9's p2_legacy_f16 have none
        // set by any assembler (write16 then writes the low half).
        _ => p2_f16,
    })
}

/// Which parameter dword a lane reads.
#[derive(Clone, Copy)]
enum Param {
    P0,
    P10,
    P20,
}

/// The dword of `param` for every lane (by its quad's primitive).
fn params(w: &Wave, env: &Env<'_>, op: &Op, param: Param) -> Lanes {
    let m0 = w.s[sreg::M0 as usize];
    let base = (m0 & 0xffff) as usize;
    let mask = (m0 >> 16) & 0x7fff;
    let nprim = mask.count_ones() as usize + 1;
    let attr = (op.imm & 0x3f) as usize;
    let chan = (op.imm >> 6 & 3) as usize;
    let k = match param {
        Param::P0 => 2 * chan,
        Param::P10 => 2 * chan + 1,
        Param::P20 => 8 + chan,
    };
    let mut out = [0u32; LANES];
    for (q, quad) in out.chunks_mut(4).enumerate() {
        let prim = (mask & ((1u32 << q) - 1)).count_ones() as usize;
        let a = base + 4 * (12 * (attr * nprim + prim) + k);
        let v = env
            .lds
            .get(a..a + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        quad.fill(v);
    }
    out
}

/// V_MAD_F32 under the wave's MODE: `a * b + c`, product and sum each rounded to f32 with
/// MODE's rounding mode, denormals flushed.
#[inline]
fn mad(w: &Wave, a: f32, b: f32, c: f32) -> f32 {
    f32::from_bits(mad_f32(w.mode, a.to_bits(), b.to_bits(), c.to_bits()))
}

#[inline]
fn half(x: u32, high: bool) -> f32 {
    let h = if high { x >> 16 } else { x } as u16;
    half::f16::from_bits(h).to_f32()
}

fn high(op: &Op) -> bool {
    op.imm >> 8 & 1 != 0
}

fn p1_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let i = src32(w, op, env, 1);
    let p0 = params(w, env, op, Param::P0);
    let p10 = params(w, env, op, Param::P10);
    let r: Lanes = std::array::from_fn(|l| {
        mad(
            w,
            f32::from_bits(p10[l]),
            f32::from_bits(i[l]),
            f32::from_bits(p0[l]),
        )
        .to_bits()
    });
    write32(w, op, &r);
    Ok(Flow::Next)
}

fn p2_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let j = src32(w, op, env, 1);
    let d = w.v[op.vdst as usize];
    let p20 = params(w, env, op, Param::P20);
    let r: Lanes = std::array::from_fn(|l| {
        mad(
            w,
            f32::from_bits(p20[l]),
            f32::from_bits(j[l]),
            f32::from_bits(d[l]),
        )
        .to_bits()
    });
    write32(w, op, &r);
    Ok(Flow::Next)
}

fn mov_f32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let param = match op.imm2 {
        0 => Param::P10,
        1 => Param::P20,
        2 => Param::P0,
        p => {
            return Err(Fault::Unsupported(format!(
                "v_interp_mov_f32 with parameter select {p} (p10 0, p20 1, p0 2)"
            )))
        }
    };
    let r = params(w, env, op, param);
    write32(w, op, &r);
    Ok(Flow::Next)
}

fn p1ll_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let hi = high(op);
    let i = src32(w, op, env, 1);
    let p0 = params(w, env, op, Param::P0);
    let p10 = params(w, env, op, Param::P10);
    let r: Lanes = std::array::from_fn(|l| {
        mad(w, half(p10[l], hi), f32::from_bits(i[l]), half(p0[l], hi)).to_bits()
    });
    write32(w, op, &r);
    Ok(Flow::Next)
}

/// The f16 P0 of `v_interp_p1lv_f16` from src2's low or high half, with abs/neg on its sign.
fn src2_half(w: &Wave, op: &Op, env: &Env<'_>) -> [f32; LANES] {
    let v = raw32(w, env, op.src[2]);
    let hi = high(op);
    let abs = op.inst.field(Field::Abs) >> 2 & 1 != 0;
    let neg = op.inst.field(Field::Neg) >> 2 & 1 != 0;
    std::array::from_fn(|l| {
        let mut x = half(v[l], hi);
        if abs {
            x = x.abs();
        }
        if neg {
            x = -x;
        }
        x
    })
}

fn p1lv_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let hi = high(op);
    let i = src32(w, op, env, 1);
    let p0 = src2_half(w, op, env);
    let p10 = params(w, env, op, Param::P10);
    let r: Lanes =
        std::array::from_fn(|l| mad(w, half(p10[l], hi), f32::from_bits(i[l]), p0[l]).to_bits());
    write32(w, op, &r);
    Ok(Flow::Next)
}

fn p2_f16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let hi = high(op);
    let j = src32(w, op, env, 1);
    let d = src32(w, op, env, 2);
    let p20 = params(w, env, op, Param::P20);
    let r: [u16; LANES] = std::array::from_fn(|l| {
        let s = mad(
            w,
            half(p20[l], hi),
            f32::from_bits(j[l]),
            f32::from_bits(d[l]),
        );
        f32_to_f16(w.mode, s.to_bits())
    });
    write16(w, op, &r);
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    //! Expected values worked by hand from the layout above (CLRX GcnInstrsVintrp.md, the
    //! V_INTERP_* descriptions of the GCN3/Vega manuals): parameters are small binary
    //! fractions, so every product and sum is exact.

    use crate::wave::sreg;

    const M0: usize = sreg::M0 as usize;

    /// Puts the twelve parameter dwords of `attr`, primitive `prim` (of `nprim`), at `base`.
    fn put(lds: &mut [u8], base: usize, nprim: usize, attr: usize, prim: usize, d: [u32; 12]) {
        for (k, x) in d.iter().enumerate() {
            let a = base + 4 * (12 * (attr * nprim + prim) + k);
            lds[a..a + 4].copy_from_slice(&x.to_le_bytes());
        }
    }

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    /// Attribute 1, channel y (c = 1): P0 at dword 2, P10 at 3, P20 at 9. Two primitives:
    /// new-primitive mask bit 1 (quad 2 = lanes 8..11 starts primitive 1), so NUMPRIM = 2
    /// and quads 0–1 read primitive 0, quads 2–15 primitive 1.
    fn layout(lds: &mut [u8]) {
        let mut p = [0u32; 12];
        p[2] = f(1.0); // P0.y
        p[3] = f(2.0); // P10.y
        p[9] = f(4.0); // P20.y
        put(lds, 0x100, 2, 1, 0, p);
        p[2] = f(-3.0);
        p[3] = f(0.5);
        p[9] = f(0.25);
        put(lds, 0x100, 2, 1, 1, p);
    }

    #[test]
    fn p1_p2_and_mov_read_the_primitive_of_their_quad() {
        for mcpu in ["gfx600", "gfx700", "gfx803", "gfx900", "gfx908"] {
            let src = "v_interp_p1_f32 v2, v0, attr1.y
                v_interp_p2_f32 v2, v1, attr1.y
                v_interp_mov_f32 v3, p0, attr1.y
                v_interp_mov_f32 v4, p10, attr1.y
                v_interp_mov_f32 v5, p20, attr1.y";
            let mut lds = vec![0u8; 65536];
            layout(&mut lds);
            let r = run_with_lds(mcpu, src, &lds, |w| {
                w.s[M0] = 0x100 | 1 << (16 + 1);
                w.v[0] = [f(0.5); 64]; // I
                w.v[1] = [f(2.0); 64]; // J
            });
            for l in 0..64 {
                let (p0, p10, p20) = if l < 8 {
                    (1.0, 2.0, 4.0)
                } else {
                    (-3.0, 0.5, 0.25)
                };
                // p1: P10 * 0.5 + P0; p2: + P20 * 2.
                let want = p10 * 0.5 + p0 + p20 * 2.0;
                assert_eq!(r.v[2][l], f(want), "{mcpu} lane {l}");
                assert_eq!(r.v[3][l], f(p0), "{mcpu} lane {l}");
                assert_eq!(r.v[4][l], f(p10), "{mcpu} lane {l}");
                assert_eq!(r.v[5][l], f(p20), "{mcpu} lane {l}");
            }
        }
    }

    /// Runs `src` with `lds` as the LDS contents.
    fn run_with_lds(
        mcpu: &str,
        src: &str,
        lds: &[u8],
        setup: impl FnOnce(&mut crate::wave::Wave),
    ) -> crate::wave::Wave {
        let lds = lds.to_vec();
        let r = crate::semantics::ds::harness::run(mcpu, src, lds.len(), |w, _, l| {
            l.copy_from_slice(&lds);
            setup(w);
        })
        .unwrap();
        r.wave
    }

    #[test]
    fn e64_forms_apply_source_and_output_modifiers() {
        let mut lds = vec![0u8; 65536];
        layout(&mut lds);
        // -|I| = -0.5: P10 * -0.5 + P0; mul:2 doubles; clamp to [0, 1].
        let w = run_with_lds(
            "gfx900",
            "v_interp_p1_f32_e64 v2, -|v0|, attr1.y mul:2\n\
             v_interp_p1_f32_e64 v3, v0, attr1.y clamp\n\
             v_interp_mov_f32_e64 v4, p20, attr1.y",
            &lds,
            |w| {
                w.s[M0] = 0x100 | 1 << 17;
                w.v[0] = [f(0.5); 64];
            },
        );
        assert_eq!(w.v[2][0], f((2.0 * -0.5 + 1.0) * 2.0)); // 0
        assert_eq!(w.v[2][8], f((0.5 * -0.5 - 3.0) * 2.0)); // -6.5
        assert_eq!(w.v[3][0], f(1.0)); // 2 clamped
        assert_eq!(w.v[3][8], f(0.0)); // -2.75 clamped
        assert_eq!(w.v[4][8], f(0.25));
    }

    /// f16 parameters: low halves hold one set, high halves another (`high` selects).
    #[test]
    fn f16_forms_read_halves_and_p2_writes_f16() {
        let h = |x: f32| half::f16::from_f32(x).to_bits() as u32;
        let mut lds = vec![0u8; 65536];
        let mut p = [0u32; 12];
        // attr 0, chan x: P0 at 0, P10 at 1, P20 at 8. One primitive (mask 0).
        p[0] = h(1.0) | h(8.0) << 16;
        p[1] = h(2.0) | h(-4.0) << 16;
        p[8] = h(0.5) | h(16.0) << 16;
        put(&mut lds, 0, 1, 0, 0, p);
        for mcpu in ["gfx803", "gfx900", "gfx908"] {
            let p2 = if mcpu == "gfx803" {
                "v_interp_p2_f16 v6, v1, attr0.x, v2 high\nv_interp_p2_f16 v7, v1, attr0.x, v2"
            } else {
                "v_interp_p2_f16 v6, v1, attr0.x, v2 high\nv_interp_p2_legacy_f16 v7, v1, attr0.x, v2"
            };
            let src = format!(
                "v_interp_p1ll_f16 v3, v0, attr0.x\n\
                 v_interp_p1ll_f16 v4, v0, attr0.x high\n\
                 v_interp_p1lv_f16 v5, v0, attr0.x, v8 high\n{p2}"
            );
            let w = run_with_lds(mcpu, &src, &lds, |w| {
                w.s[M0] = 0;
                w.v[0] = [f(0.25); 64]; // I
                w.v[1] = [f(0.5); 64]; // J
                w.v[2] = [f(3.0); 64]; // D for p2
                w.v[8] = [h(10.0) << 16 | h(-1.0); 64]; // P0 for p1lv (high: 10)
                w.v[6] = [0xffff_ffff; 64];
            });
            assert_eq!(w.v[3][5], f(2.0 * 0.25 + 1.0), "{mcpu}"); // 1.5
            assert_eq!(w.v[4][5], f(-4.0 * 0.25 + 8.0), "{mcpu}"); // 7
            assert_eq!(w.v[5][5], f(-4.0 * 0.25 + 10.0), "{mcpu}"); // 9
            assert_eq!(w.v[6][5], h(16.0 * 0.5 + 3.0), "{mcpu}"); // 11, high half zeroed
            assert_eq!(w.v[7][5], h(0.5 * 0.5 + 3.0), "{mcpu}"); // 3.25
        }
    }

    #[test]
    fn reads_past_the_lds_give_zero() {
        let w = run_with_lds(
            "gfx900",
            "v_interp_mov_f32 v1, p0, attr32.w",
            &[0u8; 1024],
            |w| {
                w.s[M0] = 0xff00;
                w.v[1] = [7; 64];
            },
        );
        assert_eq!(w.v[1][0], 0);
    }

    /// The mad follows MODE.FP_ROUND (bits 1:0 for f32: 0 nearest even, 1 toward +inf, 2
    /// toward -inf, 3 toward zero; Vega ISA "MODE"): P0 = 1.0 (dword 0), P10 = 1.0 (dword 1),
    /// I = 2^-24, so P10 * I + P0 = 1 + 2^-24, halfway between 1.0 and 1 + 2^-23.
    #[test]
    fn interpolation_rounds_as_mode_says() {
        let mut lds = [0u8; 64];
        lds[0..4].copy_from_slice(&1.0f32.to_bits().to_le_bytes());
        lds[4..8].copy_from_slice(&1.0f32.to_bits().to_le_bytes());
        for (round, want) in [
            (0u32, 0x3f80_0000u32),
            (1, 0x3f80_0001),
            (2, 0x3f80_0000),
            (3, 0x3f80_0000),
        ] {
            let w = run_with_lds("gfx900", "v_interp_p1_f32 v2, v0, attr0.x", &lds, |w| {
                w.s[M0] = 0;
                w.v[0] = [0x3380_0000; 64];
                w.mode.bits = (w.mode.bits & !3) | round;
            });
            assert_eq!(w.v[2][0], want, "FP_ROUND {round}");
        }
    }
}
