//! Integer and bitwise vector ALU operations (VOP1, VOP2, VOP3): moves, add/sub with and
//! without carry, 24-bit and 32-bit multiplies, shifts, bit-field operations, min/max/med3,
//! 16-bit integer operations and 64-bit shifts. Semantics from the GCN3/Vega ISA manuals'
//! VOP1/VOP2/VOP3 chapters (CLRX GcnInstrsVop1/Vop2/Vop3 pages give the same pseudo-code).

use gcnkit_isa::{Gen, Instruction, Mnemonic as M, Role};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{BuildContext, Op, Src};
use crate::semantics::valu::{
    lane_mask, lane_selects, scalar64, src16, src32, src32_ref, src64, write16, write32, write64,
    write_mask, Lanes64,
};
use crate::wave::{Lanes, Wave, ACC_BASE, LANES};
use crate::{binary32, ternary32, unary32};

/// The semantic function for `inst`, if it is an integer VALU operation.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    let def = inst.def();
    let gen = inst.gen;
    let has_sdst = def.operand(Role::Sdst).is_some();
    Some(match def.op {
        M::VMovB32 => mov_b32,
        M::VAccvgprMovB32 => {
            // AccVGPR to AccVGPR (CDNA2/CDNA3 ISA, VOP1 V_ACCVGPR_MOV_B32; LLVM copies AGPR to
            // AGPR with it): both fields name AccVGPRs although they encode as VGPRs.
            if let Src::Vreg(r) = op.src[0] {
                op.src[0] = Src::Vreg(ACC_BASE + (r % ACC_BASE));
            }
            op.vdst = ACC_BASE + (op.vdst % ACC_BASE);
            mov_b32
        }
        M::VMovB64 => mov_b64,
        M::VNotB32 => not_b32,
        M::VBfrevB32 => bfrev_b32,
        M::VFfbhU32 => ffbh_u32,
        M::VFfblB32 => ffbl_b32,
        M::VFfbhI32 => ffbh_i32,
        M::VNop | M::VClrexcp => nop,
        M::VAndB32 => and_b32,
        M::VOrB32 => or_b32,
        M::VXorB32 => xor_b32,
        M::VXnorB32 => xnor_b32,
        M::VLshlB32 => lshl_b32,
        M::VLshrB32 => lshr_b32,
        M::VAshrI32 => ashr_i32,
        M::VLshlrevB32 => lshlrev_b32,
        M::VLshrrevB32 => lshrrev_b32,
        M::VAshrrevI32 => ashrrev_i32,
        M::VMinI32 => min_i32,
        M::VMaxI32 => max_i32,
        M::VMinU32 => min_u32,
        M::VMaxU32 => max_u32,
        M::VMulI32I24 => mul_i32_i24,
        M::VMulHiI32I24 => mul_hi_i32_i24,
        M::VMulU32U24 => mul_u32_u24,
        M::VMulHiU32U24 => mul_hi_u32_u24,
        M::VMulLoU32 | M::VMulLoI32 => mul_lo_u32,
        M::VMulHiU32 => mul_hi_u32,
        M::VMulHiI32 => mul_hi_i32,
        M::VBcntU32B32 => bcnt_u32_b32,
        M::VBfmB32 => bfm_b32,
        M::VBfeU32 => bfe_u32,
        M::VBfeI32 => bfe_i32,
        M::VBfiB32 => bfi_b32,
        M::VAlignbitB32 => alignbit_b32,
        M::VAlignbyteB32 => alignbyte_b32,
        M::VMin3I32 => min3_i32,
        M::VMin3U32 => min3_u32,
        M::VMax3I32 => max3_i32,
        M::VMax3U32 => max3_u32,
        M::VMed3I32 => med3_i32,
        M::VMed3U32 => med3_u32,
        M::VMadI32I24 => mad_i32_i24,
        M::VMadU32U24 => mad_u32_u24,
        M::VLshlAddU32 => lshl_add_u32,
        M::VAddLshlU32 => add_lshl_u32,
        M::VAdd3U32 => add3_u32,
        M::VLshlOrB32 => lshl_or_b32,
        M::VAndOrB32 => and_or_b32,
        M::VOr3B32 => or3_b32,
        M::VXadU32 => xad_u32,
        M::VPermB32 => perm_b32,
        M::VCndmaskB32 => cndmask_b32,
        // Add/sub with a carry-out (gfx6/7 _i32 names, gfx8 _u32 with sdst, gfx9 _co names).
        M::VAddI32 | M::VAddCoU32 if has_sdst => add_co,
        M::VAddU32 if has_sdst => add_co,
        M::VSubI32 | M::VSubCoU32 if has_sdst => sub_co,
        M::VSubU32 if has_sdst => sub_co,
        M::VSubrevI32 | M::VSubrevCoU32 if has_sdst => subrev_co,
        M::VSubrevU32 if has_sdst => subrev_co,
        M::VAddcU32 | M::VAddcCoU32 => addc,
        M::VSubbU32 | M::VSubbCoU32 => subb,
        M::VSubbrevU32 | M::VSubbrevCoU32 => subbrev,
        // gfx9 carry-less forms (clamp saturates).
        M::VAddU32 => add_u32,
        M::VSubU32 => sub_u32,
        M::VSubrevU32 => subrev_u32,
        M::VAddI32 => add_i32_sat,
        M::VSubI32 => sub_i32_sat,
        // 64-bit shifts: gfx6/7 take (value, count); gfx8+ the reversed forms.
        M::VLshlB64 => lshl_b64,
        M::VLshrB64 => lshr_b64,
        M::VAshrI64 => ashr_i64,
        M::VLshlrevB64 => lshlrev_b64,
        M::VLshrrevB64 => lshrrev_b64,
        M::VAshrrevI64 => ashrrev_i64,
        M::VLshlAddU64 => lshl_add_u64,
        M::VMadU64U32 => mad64::<false>,
        M::VMadI64I32 => mad64::<true>,
        // 16-bit integer operations.
        M::VAddU16 => add_u16,
        M::VSubU16 => sub_u16,
        M::VSubrevU16 => subrev_u16,
        M::VMulLoU16 => mul_lo_u16,
        M::VLshlrevB16 => lshlrev_b16,
        M::VLshrrevB16 => lshrrev_b16,
        M::VAshrrevI16 => ashrrev_i16,
        M::VMaxU16 => max_u16,
        M::VMaxI16 => max_i16,
        M::VMinU16 => min_u16,
        M::VMinI16 => min_i16,
        M::VAddI16 => add_i16,
        M::VSubI16 => sub_i16,
        M::VMadU16 | M::VMadLegacyU16 => mad_u16,
        M::VMadI16 | M::VMadLegacyI16 => mad_i16,
        M::VMadU32U16 => mad_u32_u16,
        M::VMadI32I16 => mad_i32_i16,
        M::VMin3I16 => min3_i16,
        M::VMin3U16 => min3_u16,
        M::VMax3I16 => max3_i16,
        M::VMax3U16 => max3_u16,
        M::VMed3I16 => med3_i16,
        M::VMed3U16 => med3_u16,
        M::VSatPkU8I16 => sat_pk_u8_i16,
        _ => {
            let _ = (gen, Gen::Gfx9);
            return None;
        }
    })
}

fn nop(_: &mut Wave, _: &Op, _: &mut Env<'_>) -> Result<Flow, Fault> {
    Ok(Flow::Next)
}

unary32!(mov_b32, |a, m| a);
unary32!(not_b32, |a, m| !a);
unary32!(bfrev_b32, |a, m| a.reverse_bits());
// ffbh/ffbl: -1 (0xffffffff) when no bit is found.
unary32!(ffbh_u32, |a, m| if a == 0 {
    u32::MAX
} else {
    a.leading_zeros()
});
unary32!(ffbl_b32, |a, m| if a == 0 {
    u32::MAX
} else {
    a.trailing_zeros()
});
// The first bit that differs from the sign bit, counted from the top; -1 for 0 and -1.
unary32!(ffbh_i32, |a, m| {
    let x = if (a as i32) < 0 { !a } else { a };
    if x == 0 {
        u32::MAX
    } else {
        x.leading_zeros()
    }
});

fn mov_b64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src64(w, op, env, 0);
    write64(w, op, &a);
    Ok(Flow::Next)
}

binary32!(and_b32, |a, b, m| a & b);
binary32!(or_b32, |a, b, m| a | b);
binary32!(xor_b32, |a, b, m| a ^ b);
binary32!(xnor_b32, |a, b, m| !(a ^ b));
// Shift counts use the low 5 bits.
binary32!(lshl_b32, |a, b, m| a << (b & 31));
binary32!(lshr_b32, |a, b, m| a >> (b & 31));
binary32!(ashr_i32, |a, b, m| ((a as i32) >> (b & 31)) as u32);
binary32!(lshlrev_b32, |a, b, m| b << (a & 31));
binary32!(lshrrev_b32, |a, b, m| b >> (a & 31));
binary32!(ashrrev_i32, |a, b, m| ((b as i32) >> (a & 31)) as u32);
binary32!(min_i32, |a, b, m| (a as i32).min(b as i32) as u32);
binary32!(max_i32, |a, b, m| (a as i32).max(b as i32) as u32);
binary32!(min_u32, |a, b, m| a.min(b));
binary32!(max_u32, |a, b, m| a.max(b));

#[inline(always)]
fn i24(x: u32) -> i64 {
    ((x << 8) as i32 >> 8) as i64
}
#[inline(always)]
fn u24(x: u32) -> u64 {
    (x & 0xff_ffff) as u64
}
binary32!(mul_i32_i24, |a, b, m| (i24(a) * i24(b)) as u32);
binary32!(mul_hi_i32_i24, |a, b, m| ((i24(a) * i24(b)) >> 32) as u32);
binary32!(mul_u32_u24, |a, b, m| (u24(a) * u24(b)) as u32);
binary32!(mul_hi_u32_u24, |a, b, m| ((u24(a) * u24(b)) >> 32) as u32);
binary32!(mul_lo_u32, |a, b, m| a.wrapping_mul(b));
binary32!(mul_hi_u32, |a, b, m| ((a as u64 * b as u64) >> 32) as u32);
binary32!(
    mul_hi_i32,
    |a, b, m| ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
);
binary32!(bcnt_u32_b32, |a, b, m| a.count_ones().wrapping_add(b));
binary32!(bfm_b32, |a, b, m| (((1u64 << (a & 31)) - 1) as u32)
    << (b & 31));

#[inline(always)]
fn bfe(a: u32, b: u32, c: u32) -> u32 {
    let off = b & 31;
    let width = c & 31;
    if width == 0 {
        0
    } else {
        (a >> off) & (((1u64 << width) - 1) as u32)
    }
}
ternary32!(bfe_u32, |a, b, c, m| bfe(a, b, c));
// Vega ISA 12.8 V_BFE_I32 "D.i = (S0.i >> S1.u[4:0]) & ((1 << S2.u[4:0]) - 1)", the field
// sign-extended. S0.i is shifted arithmetically, so a field reaching past bit 31 takes copies of
// S0's sign, as s_bfe_i32 does (CLRX GcnInstrsVop3.md and LLVM's constant folder: S0.i >> offset
// when offset + width >= 32; e.g. bfe_i32(0x80000000, 28, 8) = 0xfffffff8).
ternary32!(bfe_i32, |a, b, c, m| {
    let off = b & 31;
    let width = c & 31;
    if width == 0 {
        0
    } else {
        let v = (a as i32 as i64) >> off;
        ((v << (64 - width)) >> (64 - width)) as u32
    }
});
ternary32!(bfi_b32, |a, b, c, m| (a & b) | (!a & c));
ternary32!(
    alignbit_b32,
    |a, b, c, m| ((((a as u64) << 32) | b as u64) >> (c & 31)) as u32
);
ternary32!(
    alignbyte_b32,
    |a, b, c, m| ((((a as u64) << 32) | b as u64) >> (8 * (c & 3))) as u32
);
ternary32!(
    min3_i32,
    |a, b, c, m| (a as i32).min(b as i32).min(c as i32) as u32
);
ternary32!(min3_u32, |a, b, c, m| a.min(b).min(c));
ternary32!(
    max3_i32,
    |a, b, c, m| (a as i32).max(b as i32).max(c as i32) as u32
);
ternary32!(max3_u32, |a, b, c, m| a.max(b).max(c));
ternary32!(med3_i32, |a, b, c, m| {
    let (a, b, c) = (a as i32, b as i32, c as i32);
    a.max(b).min(a.min(b).max(c)) as u32
});
ternary32!(med3_u32, |a, b, c, m| a.max(b).min(a.min(b).max(c)));
ternary32!(
    mad_i32_i24,
    |a, b, c, m| (i24(a) * i24(b)).wrapping_add(c as i32 as i64) as u32
);
ternary32!(
    mad_u32_u24,
    |a, b, c, m| (u24(a) * u24(b)).wrapping_add(c as u64) as u32
);
ternary32!(lshl_add_u32, |a, b, c, m| (a << (b & 31)).wrapping_add(c));
ternary32!(add_lshl_u32, |a, b, c, m| a.wrapping_add(b) << (c & 31));
ternary32!(add3_u32, |a, b, c, m| a.wrapping_add(b).wrapping_add(c));
ternary32!(lshl_or_b32, |a, b, c, m| (a << (b & 31)) | c);
ternary32!(and_or_b32, |a, b, c, m| (a & b) | c);
ternary32!(or3_b32, |a, b, c, m| a | b | c);
ternary32!(xad_u32, |a, b, c, m| (a ^ b).wrapping_add(c));

/// v_perm_b32: each result byte picks one of the 8 bytes of {src0, src1} (src1 is bytes
/// 0-3) or a constant, by the selector byte of src2 (Vega ISA, VOP3 V_PERM_B32).
#[inline(always)]
fn perm(a: u32, b: u32, sel: u32) -> u32 {
    let bytes = (a as u64) << 32 | b as u64;
    let mut r = 0u32;
    for i in 0..4 {
        let s = (sel >> (8 * i)) & 0xff;
        let byte = match s {
            0..=7 => (bytes >> (8 * s)) as u8 as u32,
            // Sign bits of the high byte of each 16-bit half.
            8 => ((bytes >> 15) & 1) as u32 * 0xff,
            9 => ((bytes >> 31) & 1) as u32 * 0xff,
            10 => ((bytes >> 47) & 1) as u32 * 0xff,
            11 => ((bytes >> 63) & 1) as u32 * 0xff,
            12 => 0,
            _ => 0xff,
        };
        r |= byte << (8 * i);
    }
    r
}
ternary32!(perm_b32, |a, b, c, m| perm(a, b, c));

fn cndmask_b32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32_ref(w, op, env, 0);
    let b = src32_ref(w, op, env, 1);
    let mask = scalar64(w, env, op.src[2]);
    let take_b = lane_selects(mask);
    let r: Lanes = std::array::from_fn(|l| (b[l] & take_b[l]) | (a[l] & !take_b[l]));
    write32(w, op, &r);
    Ok(Flow::Next)
}

/// Applies a 32-bit add-with-carry over the lanes; the carry-out mask goes to sdst for the
/// lanes of EXEC (the others' bits are 0).
#[inline(always)]
fn carry_op(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
    f: impl Fn(u32, u32, u32) -> (u32, bool),
    with_carry_in: bool,
) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let cin = if with_carry_in {
        scalar64(w, env, op.src[2])
    } else {
        0
    };
    let mut r = [0u32; LANES];
    let mut carry = 0u64;
    for l in 0..LANES {
        let (v, c) = f(a[l], b[l], (cin >> l & 1) as u32);
        r[l] = v;
        carry |= (c as u64) << l;
    }
    let mask = write_mask(w, op);
    write32(w, op, &r);
    w.set_sreg64(op.sdst, carry & mask);
    Ok(Flow::Next)
}

fn add_co(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let clamp = op.mods.clamp;
    carry_op(
        w,
        op,
        env,
        |a, b, _| {
            let (v, c) = a.overflowing_add(b);
            (if clamp && c { u32::MAX } else { v }, c)
        },
        false,
    )
}
fn sub_co(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let clamp = op.mods.clamp;
    carry_op(
        w,
        op,
        env,
        |a, b, _| {
            let (v, c) = a.overflowing_sub(b);
            (if clamp && c { 0 } else { v }, c)
        },
        false,
    )
}
fn subrev_co(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let clamp = op.mods.clamp;
    carry_op(
        w,
        op,
        env,
        |a, b, _| {
            let (v, c) = b.overflowing_sub(a);
            (if clamp && c { 0 } else { v }, c)
        },
        false,
    )
}
fn addc(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    carry_op(
        w,
        op,
        env,
        |a, b, c| {
            let s = a as u64 + b as u64 + c as u64;
            (s as u32, s >> 32 != 0)
        },
        true,
    )
}
fn subb(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    carry_op(
        w,
        op,
        env,
        |a, b, c| {
            let d = a as i64 - b as i64 - c as i64;
            (d as u32, d < 0)
        },
        true,
    )
}
fn subbrev(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    carry_op(
        w,
        op,
        env,
        |a, b, c| {
            let d = b as i64 - a as i64 - c as i64;
            (d as u32, d < 0)
        },
        true,
    )
}

// gfx9's carry-less adds: clamp saturates (unsigned for _u32, signed for _i32).

/// A two-source 32-bit integer operation whose VOP3 clamp bit picks the saturating form.
#[inline(always)]
fn clamped(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
    saturating: fn(u32, u32) -> u32,
    wrapping: fn(u32, u32) -> u32,
) -> Result<Flow, Fault> {
    let f = if op.mods.clamp { saturating } else { wrapping };
    let a = src32(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let r: Lanes = std::array::from_fn(|l| f(a[l], b[l]));
    write32(w, op, &r);
    Ok(Flow::Next)
}
fn add_u32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    clamped(w, op, env, u32::saturating_add, u32::wrapping_add)
}
fn sub_u32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    clamped(w, op, env, u32::saturating_sub, u32::wrapping_sub)
}
fn subrev_u32(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    clamped(
        w,
        op,
        env,
        |a, b| b.saturating_sub(a),
        |a, b| b.wrapping_sub(a),
    )
}
fn add_i32_sat(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    clamped(
        w,
        op,
        env,
        |a, b| (a as i32).saturating_add(b as i32) as u32,
        u32::wrapping_add,
    )
}
fn sub_i32_sat(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    clamped(
        w,
        op,
        env,
        |a, b| (a as i32).saturating_sub(b as i32) as u32,
        u32::wrapping_sub,
    )
}

/// A 64-bit shift whose value is operand `value` and count operand `count` (low 6 bits).
#[inline(always)]
fn shift64(
    w: &mut Wave,
    op: &Op,
    env: &mut Env<'_>,
    value: usize,
    f: impl Fn(u64, u32) -> u64,
) -> Result<Flow, Fault> {
    let v = src64(w, op, env, value);
    let c = src32(w, op, env, 1 - value);
    let r: Lanes64 = std::array::from_fn(|l| f(v[l], c[l] & 63));
    write64(w, op, &r);
    Ok(Flow::Next)
}
fn lshl_b64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    shift64(w, op, env, 0, |v, c| v << c)
}
fn lshr_b64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    shift64(w, op, env, 0, |v, c| v >> c)
}
fn ashr_i64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    shift64(w, op, env, 0, |v, c| ((v as i64) >> c) as u64)
}
fn lshlrev_b64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    shift64(w, op, env, 1, |v, c| v << c)
}
fn lshrrev_b64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    shift64(w, op, env, 1, |v, c| v >> c)
}
fn ashrrev_i64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    shift64(w, op, env, 1, |v, c| ((v as i64) >> c) as u64)
}

/// v_lshl_add_u64 (gfx940): (src0 << src1[2:0]... the count is at most 4) + src2.
fn lshl_add_u64(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src64(w, op, env, 0);
    let b = src32(w, op, env, 1);
    let c = src64(w, op, env, 2);
    let r: Lanes64 = std::array::from_fn(|l| (a[l] << (b[l] & 63)).wrapping_add(c[l]));
    write64(w, op, &r);
    Ok(Flow::Next)
}

/// v_mad_u64_u32 / v_mad_i64_i32: 64-bit result of src0*src1 + src2, with the carry (signed
/// overflow for the _i64 form) per lane in sdst.
fn mad64<const SIGNED: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32_ref(w, op, env, 0);
    let b = src32_ref(w, op, env, 1);
    let c = src64(w, op, env, 2);
    let mut r = [0u64; LANES];
    let mut overflow = [false; LANES];
    for l in 0..LANES {
        // A 32x32-bit product fits 64 bits exactly (signed: |p| <= 2^62), so only the
        // addition can overflow, and 64-bit arithmetic suffices.
        let (v, o) = if SIGNED {
            let (p, o) = (a[l] as i32 as i64 * b[l] as i32 as i64).overflowing_add(c[l] as i64);
            (p as u64, o)
        } else {
            (a[l] as u64 * b[l] as u64).overflowing_add(c[l])
        };
        r[l] = v;
        overflow[l] = o;
    }
    let carry = lane_mask(u64::MAX, |l| overflow[l]);
    let mask = write_mask(w, op);
    write64(w, op, &r);
    w.set_sreg64(op.sdst, carry & mask);
    Ok(Flow::Next)
}

macro_rules! binary16 {
    ($name:ident, |$a:ident, $b:ident, $op:ident| $body:expr) => {
        fn $name(w: &mut Wave, $op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let a = src16(w, $op, env, 0);
            let b = src16(w, $op, env, 1);
            let r: [u16; LANES] = std::array::from_fn(|l| {
                let ($a, $b) = (a[l], b[l]);
                $body
            });
            write16(w, $op, &r);
            Ok(Flow::Next)
        }
    };
}
macro_rules! ternary16 {
    ($name:ident, |$a:ident, $b:ident, $c:ident, $op:ident| $body:expr) => {
        fn $name(w: &mut Wave, $op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
            let a = src16(w, $op, env, 0);
            let b = src16(w, $op, env, 1);
            let c = src16(w, $op, env, 2);
            let r: [u16; LANES] = std::array::from_fn(|l| {
                let ($a, $b, $c) = (a[l], b[l], c[l]);
                $body
            });
            write16(w, $op, &r);
            Ok(Flow::Next)
        }
    };
}
binary16!(add_u16, |a, b, op| if op.mods.clamp {
    a.saturating_add(b)
} else {
    a.wrapping_add(b)
});
binary16!(sub_u16, |a, b, op| if op.mods.clamp {
    a.saturating_sub(b)
} else {
    a.wrapping_sub(b)
});
binary16!(subrev_u16, |a, b, op| if op.mods.clamp {
    b.saturating_sub(a)
} else {
    b.wrapping_sub(a)
});
binary16!(mul_lo_u16, |a, b, op| a.wrapping_mul(b));
binary16!(lshlrev_b16, |a, b, op| b << (a & 15));
binary16!(lshrrev_b16, |a, b, op| b >> (a & 15));
binary16!(ashrrev_i16, |a, b, op| ((b as i16) >> (a & 15)) as u16);
binary16!(max_u16, |a, b, op| a.max(b));
binary16!(max_i16, |a, b, op| (a as i16).max(b as i16) as u16);
binary16!(min_u16, |a, b, op| a.min(b));
binary16!(min_i16, |a, b, op| (a as i16).min(b as i16) as u16);
binary16!(add_i16, |a, b, op| if op.mods.clamp {
    (a as i16).saturating_add(b as i16) as u16
} else {
    a.wrapping_add(b)
});
binary16!(sub_i16, |a, b, op| if op.mods.clamp {
    (a as i16).saturating_sub(b as i16) as u16
} else {
    a.wrapping_sub(b)
});
ternary16!(mad_u16, |a, b, c, op| {
    let v = a as u32 * b as u32 + c as u32;
    if op.mods.clamp {
        v.min(0xffff) as u16
    } else {
        v as u16
    }
});
ternary16!(mad_i16, |a, b, c, op| {
    let v = a as i16 as i32 * b as i16 as i32 + c as i16 as i32;
    if op.mods.clamp {
        v.clamp(i16::MIN as i32, i16::MAX as i32) as u16
    } else {
        v as u16
    }
});
ternary16!(
    min3_i16,
    |a, b, c, op| (a as i16).min(b as i16).min(c as i16) as u16
);
ternary16!(min3_u16, |a, b, c, op| a.min(b).min(c));
ternary16!(
    max3_i16,
    |a, b, c, op| (a as i16).max(b as i16).max(c as i16) as u16
);
ternary16!(max3_u16, |a, b, c, op| a.max(b).max(c));
ternary16!(med3_i16, |a, b, c, op| {
    let (a, b, c) = (a as i16, b as i16, c as i16);
    a.max(b).min(a.min(b).max(c)) as u16
});
ternary16!(med3_u16, |a, b, c, op| a.max(b).min(a.min(b).max(c)));

/// v_mad_u32_u16 / v_mad_i32_i16: 16-bit sources (op_sel picks halves), 32-bit addend.
fn mad_u32_u16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src16(w, op, env, 0);
    let b = src16(w, op, env, 1);
    let c = src32(w, op, env, 2);
    let r: Lanes = std::array::from_fn(|l| {
        let v = a[l] as u64 * b[l] as u64 + c[l] as u64;
        if op.mods.clamp {
            v.min(u32::MAX as u64) as u32
        } else {
            v as u32
        }
    });
    write32(w, op, &r);
    Ok(Flow::Next)
}
fn mad_i32_i16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src16(w, op, env, 0);
    let b = src16(w, op, env, 1);
    let c = src32(w, op, env, 2);
    let r: Lanes = std::array::from_fn(|l| {
        let v = a[l] as i16 as i64 * b[l] as i16 as i64 + c[l] as i32 as i64;
        if op.mods.clamp {
            v.clamp(i32::MIN as i64, i32::MAX as i64) as u32
        } else {
            v as u32
        }
    });
    write32(w, op, &r);
    Ok(Flow::Next)
}

/// v_sat_pk_u8_i16: two signed 16-bit values saturated to unsigned bytes, packed low.
fn sat_pk_u8_i16(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let a = src32(w, op, env, 0);
    let r: [u16; LANES] = std::array::from_fn(|l| {
        let lo = (a[l] as u16 as i16).clamp(0, 255) as u16;
        let hi = ((a[l] >> 16) as u16 as i16).clamp(0, 255) as u16;
        lo | hi << 8
    });
    write16(w, op, &r);
    Ok(Flow::Next)
}

#[cfg(test)]
mod tests {
    use crate::testing::{run, splat};

    #[test]
    fn carry_chain_adds_64_bit_values_across_lanes() {
        // v[0:1] = 0xffffffff_ffffffff + 1 in lane 0; VCC receives the low carry.
        let r = run(
            "gfx900",
            "v_add_co_u32 v4, vcc, v0, v2\nv_addc_co_u32 v5, vcc, v1, v3, vcc",
            |w, _| {
                w.v[0] = splat(u32::MAX);
                w.v[1] = splat(0);
                w.v[2] = splat(1);
                w.v[3] = splat(0);
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[4][0], 0);
        assert_eq!(r.wave.v[5][0], 1);
        assert_eq!(r.wave.vcc(), 0);
    }

    #[test]
    fn shift_counts_use_only_the_low_five_bits() {
        // Vega ISA V_LSHLREV_B32: D = S1 << S0[4:0]; 33 & 31 = 1.
        let r = run("gfx900", "v_lshlrev_b32 v1, 33, v0", |w, _| {
            w.v[0] = splat(3)
        })
        .unwrap();
        assert_eq!(r.wave.v[1][5], 6);
    }

    #[test]
    fn disabled_lanes_keep_their_values() {
        let r = run("gfx803", "v_mov_b32 v1, 7", |w, _| {
            w.set_exec(0b101);
            w.v[1] = splat(9);
        })
        .unwrap();
        assert_eq!(&r.wave.v[1][..4], &[7, 9, 7, 9]);
    }

    #[test]
    fn bfe_takes_offset_and_width_from_the_low_five_bits() {
        // 0xabcd1234 >> 8, 12 bits = 0xd12; signed: bit 11 set -> 0xfffffd12.
        let r = run(
            "gfx900",
            "v_bfe_u32 v1, v0, 8, 12\nv_bfe_i32 v2, v0, 8, 12",
            |w, _| w.v[0] = splat(0xabcd_1234),
        )
        .unwrap();
        assert_eq!(r.wave.v[1][0], 0xd12);
        assert_eq!(r.wave.v[2][0], 0xffff_fd12);
    }

    #[test]
    fn signed_bfe_past_bit_31_takes_copies_of_the_sign() {
        // 0x80000001, offset 4, width 31: the field is bits 34..4; S0.i >> 4 = 0xf8000000, mask
        // 31 bits = 0x78000000, bit 30 set -> 0xf8000000. Unsigned: 0x08000000. Offset 31,
        // width 8: S0.i >> 31 = -1 -> 0xff, sign-extended from bit 7 -> 0xffffffff.
        let r = run(
            "gfx900",
            "v_bfe_i32 v1, v0, 4, 31\nv_bfe_u32 v2, v0, 4, 31\nv_bfe_i32 v3, v0, 31, 8",
            |w, _| w.v[0] = splat(0x8000_0001),
        )
        .unwrap();
        assert_eq!(r.wave.v[1][0], 0xf800_0000);
        assert_eq!(r.wave.v[2][0], 0x0800_0000);
        assert_eq!(r.wave.v[3][0], 0xffff_ffff);
    }

    #[test]
    fn mul_hi_and_24_bit_multiplies_sign_extend() {
        // -2 (24-bit 0xfffffe) * 3 = -6.
        let r = run(
            "gfx900",
            "v_mul_i32_i24 v1, v0, 3\nv_mul_hi_u32 v2, v0, v0",
            |w, _| w.v[0] = splat(0x00ff_fffe),
        )
        .unwrap();
        assert_eq!(r.wave.v[1][0], (-6i32) as u32);
        // 0xfffffe^2 = 0xfffffc000004 -> high dword 0xffff.
        assert_eq!(r.wave.v[2][0], 0xffff);
    }

    #[test]
    fn mad_u64_u32_gives_the_full_product_and_carry() {
        let r = run(
            "gfx900",
            "v_mad_u64_u32 v[2:3], s[0:1], v0, v0, v[4:5]",
            |w, _| {
                w.v[0] = splat(u32::MAX);
                w.v[4] = splat(u32::MAX);
                w.v[5] = splat(u32::MAX);
            },
        )
        .unwrap();
        // (2^32-1)^2 + 2^64-1 = 2^65 - 2^33 ... mod 2^64 = 0xfffffffe_00000000, carry out.
        assert_eq!(r.wave.v[2][0], 0);
        assert_eq!(r.wave.v[3][0], 0xffff_fffe);
        assert_eq!(r.wave.sreg64(0), u64::MAX);
    }

    #[test]
    fn sixteen_bit_results_zero_the_high_half_unless_op_sel_writes_it() {
        let r = run(
            "gfx900",
            "v_add_u16 v1, v0, v0\nv_add_i16 v2, v0, v0 op_sel:[0,0,1]",
            |w, _| {
                w.v[0] = splat(0x0001_8001);
                w.v[1] = splat(0xdead_0000);
                w.v[2] = splat(0x0000_beef);
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[1][0], 0x0002);
        assert_eq!(r.wave.v[2][0], 0x0002_beef);
    }
}

#[cfg(test)]
mod carry_tests {
    use crate::testing::{run, splat};

    #[test]
    fn gfx6_carry_in_from_an_sgpr_pair() {
        let r = run(
            "gfx600",
            "v_add_i32_e64 v9, s[2:3], v1, v15\nv_addc_u32_e64 v10, s[2:3], 0, 0, s[2:3]",
            |w, _| {
                w.v[1] = splat(u32::MAX);
                w.v[15] = splat(1);
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[9][0], 0);
        assert_eq!(r.wave.v[10][0], 1);
    }
}

#[cfg(test)]
mod mulhi_tests {
    use crate::testing::{run, splat};

    /// clang-19's gfx600 code for the high half of a 64x64-bit product (int64_math.cl's
    /// mulhi64), on one pair of inputs whose product's high half is 0x30525c850534395a
    /// (worked with Python's integers).
    #[test]
    fn gfx6_mulhi64_sequence() {
        let src = "v_mul_lo_u32 v14, v10, v9
v_mul_hi_u32 v1, v10, v8
v_mul_hi_u32 v16, v11, v8
v_mul_lo_u32 v5, v11, v9
v_mul_lo_u32 v15, v11, v8
v_mul_hi_u32 v18, v11, v9
v_add_i32_e64 v7, s[0:1], v1, v14
v_mul_hi_u32 v17, v10, v9
v_add_i32_e64 v5, s[0:1], v16, v5
v_add_i32_e64 v9, s[2:3], v1, v15
v_addc_u32_e64 v11, s[0:1], 0, v18, s[0:1]
v_add_i32_e64 v1, s[0:1], v7, v15
v_addc_u32_e64 v10, s[2:3], 0, 0, s[2:3]
v_add_i32_e64 v7, s[0:1], v9, v14
v_addc_u32_e64 v7, s[0:1], 0, v10, s[0:1]
v_add_i32_e64 v5, s[0:1], v5, v17
v_addc_u32_e64 v9, s[0:1], 0, v11, s[0:1]
v_add_i32_e64 v1, s[0:1], v5, v7
v_addc_u32_e64 v2, s[0:1], 0, v9, s[0:1]";
        for cpu in ["gfx600", "gfx700"] {
            let r = run(cpu, src, |w, _| {
                w.v[8] = splat(0xbbc8c9fa);
                w.v[9] = splat(0x98a531fb);
                w.v[10] = splat(0x18b7ac52);
                w.v[11] = splat(0x510a37c4);
            })
            .unwrap();
            assert_eq!(
                (r.wave.v[1][0], r.wave.v[2][0]),
                (0x0534395a, 0x30525c85),
                "{cpu}"
            );
        }
    }
}

#[cfg(test)]
mod carry_pair_tests {
    use crate::testing::{run, splat};

    /// The VOP3B sdst of a carry-out instruction must not be read as abs (a bug once
    /// cleared the sign of src1 whenever sdst was s[2:3]).
    #[test]
    fn carry_out_then_carry_in_through_the_same_pair() {
        let r = run(
            "gfx600",
            "v_add_i32_e64 v7, s[0:1], v9, v14\nv_addc_u32_e64 v7, s[0:1], 0, v10, s[0:1]",
            |w, _| {
                w.v[9] = splat(u32::MAX);
                w.v[14] = splat(1);
            },
        )
        .unwrap();
        assert_eq!(r.wave.v[7][0], 1);
    }
}

#[cfg(test)]
mod mad64_tests {
    use crate::testing::{run, splat};

    /// The destination pair is also the addend: the addend must be read before writing.
    #[test]
    fn mad_u64_u32_with_its_destination_as_addend() {
        for cpu in ["gfx700", "gfx900"] {
            let r = run(
                cpu,
                "v_mad_u64_u32 v[0:1], s[0:1], s2, v2, v[0:1]",
                |w, _| {
                    w.s[2] = 3;
                    w.v[2] = splat(5);
                    w.v[0] = splat(10);
                    w.v[1] = splat(1);
                },
            )
            .unwrap();
            assert_eq!((r.wave.v[0][0], r.wave.v[1][0]), (25, 1), "{cpu}");
        }
    }
}

#[cfg(test)]
mod vop3b_tests {
    use crate::testing::{run, splat};

    /// With vcc (encoding 106, bit 3 set) as the carry-out of a VOP3B add, bit 11 of the
    /// instruction is set: it is not clamp on gfx6/7 nor op_sel on gfx9.
    #[test]
    fn a_vcc_carry_out_is_not_read_as_clamp_or_op_sel() {
        for cpu in ["gfx600", "gfx700", "gfx900"] {
            let text = if cpu == "gfx900" {
                "v_add_co_u32_e64 v1, vcc, v0, v0"
            } else {
                "v_add_i32_e64 v1, vcc, v0, v0"
            };
            let r = run(cpu, text, |w, _| w.v[0] = splat(0x8000_0001)).unwrap();
            assert_eq!(r.wave.v[1][0], 2, "{cpu}");
            assert_eq!(r.wave.vcc(), u64::MAX, "{cpu}");
        }
    }
}
