//! Vector compares (VOPC and their VOP3 forms): `v_cmp_*`, `v_cmpx_*` (which also write
//! EXEC), the gfx6/gfx7 signalling `v_cmps_*`/`v_cmpsx_*` (the same results: signalling only
//! changes which NaNs raise an exception, and exceptions are not reported), and
//! `v_cmp_class_*`.
//!
//! The predicate and operand type come from the table row's name (`v_cmp{x}_{pred}_{type}`),
//! parsed once when the instruction is decoded. The result has a bit per lane of EXEC; lanes
//! outside EXEC get 0.

use gcnkit_isa::{Instruction, Mnemonic as M};

use crate::exec::{Env, ExecFn, Fault, Flow};
use crate::program::{BuildContext, Op};
use crate::semantics::valu::{pack_lanes, src16, src32, src64, write_mask};
use crate::wave::Wave;

/// Compare predicates, by their index in the ISA's opcode order (F, LT, EQ, LE, GT, LG/NE,
/// GE, O, U, NGE, NLG, NGT, NLE, NEQ, NLT, TRU/T).
#[derive(Clone, Copy)]
enum Pred {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    Tru,
}

fn pred(name: &str) -> Option<Pred> {
    Some(match name {
        "f" => Pred::F,
        "lt" => Pred::Lt,
        "eq" => Pred::Eq,
        "le" => Pred::Le,
        "gt" => Pred::Gt,
        "lg" | "ne" => Pred::Lg,
        "ge" => Pred::Ge,
        "o" => Pred::O,
        "u" => Pred::U,
        "nge" => Pred::Nge,
        "nlg" => Pred::Nlg,
        "ngt" => Pred::Ngt,
        "nle" => Pred::Nle,
        "neq" => Pred::Neq,
        "nlt" => Pred::Nlt,
        "tru" | "t" => Pred::Tru,
        _ => return None,
    })
}

/// Float compare: ordered predicates are false on NaN, the `n*` ones true. The comparisons
/// are written out as the ISA defines them: `a < b || a > b` is not `a != b` when a NaN is
/// involved, and `!(a >= b)` is not `a < b`.
#[inline(always)]
#[allow(clippy::double_comparisons, clippy::neg_cmp_op_on_partial_ord)]
fn fcmp(p: Pred, a: f64, b: f64) -> bool {
    match p {
        Pred::F => false,
        Pred::Lt => a < b,
        Pred::Eq => a == b,
        Pred::Le => a <= b,
        Pred::Gt => a > b,
        Pred::Lg => a < b || a > b,
        Pred::Ge => a >= b,
        Pred::O => !a.is_nan() && !b.is_nan(),
        Pred::U => a.is_nan() || b.is_nan(),
        Pred::Nge => !(a >= b),
        Pred::Nlg => !(a < b || a > b),
        Pred::Ngt => !(a > b),
        Pred::Nle => !(a <= b),
        Pred::Neq => !(a == b),
        Pred::Nlt => !(a < b),
        Pred::Tru => true,
    }
}

#[inline(always)]
fn icmp<T: Ord>(p: Pred, a: T, b: T) -> bool {
    match p {
        Pred::F => false,
        Pred::Lt => a < b,
        Pred::Eq => a == b,
        Pred::Le => a <= b,
        Pred::Gt => a > b,
        Pred::Lg => a != b,
        Pred::Ge => a >= b,
        Pred::Tru => true,
        _ => false,
    }
}

/// The semantic function for `inst`, if it is a compare. The predicate goes in `op.imm`.
pub fn select(inst: &Instruction, op: &mut Op, ctx: &BuildContext<'_>) -> Option<ExecFn> {
    let _ = ctx;
    let def = inst.def();
    if def.encoding != gcnkit_isa::Encoding::Vopc {
        return None;
    }
    let name = def.mnemonic;
    let rest = name.strip_prefix("v_cmp")?;
    let (x, rest) = match rest {
        r if r.starts_with("sx_") => (true, &r[3..]),
        r if r.starts_with("s_") => (false, &r[2..]),
        r if r.starts_with("x_") => (true, &r[2..]),
        r if r.starts_with('_') => (false, &r[1..]),
        _ => return None,
    };
    let (p, ty) = rest.rsplit_once('_')?;
    if p == "class" {
        return Some(match (ty, x) {
            ("f16", false) => class_f16::<false>,
            ("f16", true) => class_f16::<true>,
            ("f32", false) => class_f32::<false>,
            ("f32", true) => class_f32::<true>,
            ("f64", false) => class_f64::<false>,
            ("f64", true) => class_f64::<true>,
            _ => return None,
        });
    }
    let p = pred(p)?;
    op.imm = p as i64;
    let _ = M::VCmpClassF32;
    Some(match (ty, x) {
        ("f16", false) => cmp_f16::<false>,
        ("f16", true) => cmp_f16::<true>,
        ("f32", false) => cmp_f32::<false>,
        ("f32", true) => cmp_f32::<true>,
        ("f64", false) => cmp_f64::<false>,
        ("f64", true) => cmp_f64::<true>,
        ("i16", false) => cmp_i16::<false>,
        ("i16", true) => cmp_i16::<true>,
        ("u16", false) => cmp_u16::<false>,
        ("u16", true) => cmp_u16::<true>,
        ("i32", false) => cmp_i32::<false>,
        ("i32", true) => cmp_i32::<true>,
        ("u32", false) => cmp_u32::<false>,
        ("u32", true) => cmp_u32::<true>,
        ("i64", false) => cmp_i64::<false>,
        ("i64", true) => cmp_i64::<true>,
        ("u64", false) => cmp_u64::<false>,
        ("u64", true) => cmp_u64::<true>,
        _ => return None,
    })
}

fn pred_of(op: &Op) -> Pred {
    const ALL: [Pred; 16] = [
        Pred::F,
        Pred::Lt,
        Pred::Eq,
        Pred::Le,
        Pred::Gt,
        Pred::Lg,
        Pred::Ge,
        Pred::O,
        Pred::U,
        Pred::Nge,
        Pred::Nlg,
        Pred::Ngt,
        Pred::Nle,
        Pred::Neq,
        Pred::Nlt,
        Pred::Tru,
    ];
    ALL[(op.imm as usize) & 15]
}

/// Writes the compare result: to the mask destination, and to EXEC for `v_cmpx`.
#[inline(always)]
fn finish<const X: bool>(w: &mut Wave, op: &Op, bits: u64) -> Result<Flow, Fault> {
    let mask = bits & write_mask(w, op);
    w.set_sreg64(op.sdst, mask);
    if X {
        w.set_exec(mask);
    }
    Ok(Flow::Next)
}

/// [`collect`] with the predicate fixed per loop: each arm passes a constant, so after
/// inlining every loop tests one comparison instead of matching the predicate per lane.
#[inline(always)]
fn collect_pred(p: Pred, f: impl Fn(Pred, usize) -> bool) -> u64 {
    match p {
        Pred::F => 0,
        Pred::Lt => collect(|l| f(Pred::Lt, l)),
        Pred::Eq => collect(|l| f(Pred::Eq, l)),
        Pred::Le => collect(|l| f(Pred::Le, l)),
        Pred::Gt => collect(|l| f(Pred::Gt, l)),
        Pred::Lg => collect(|l| f(Pred::Lg, l)),
        Pred::Ge => collect(|l| f(Pred::Ge, l)),
        Pred::O => collect(|l| f(Pred::O, l)),
        Pred::U => collect(|l| f(Pred::U, l)),
        Pred::Nge => collect(|l| f(Pred::Nge, l)),
        Pred::Nlg => collect(|l| f(Pred::Nlg, l)),
        Pred::Ngt => collect(|l| f(Pred::Ngt, l)),
        Pred::Nle => collect(|l| f(Pred::Nle, l)),
        Pred::Neq => collect(|l| f(Pred::Neq, l)),
        Pred::Nlt => collect(|l| f(Pred::Nlt, l)),
        Pred::Tru => collect(|l| f(Pred::Tru, l)),
    }
}

#[inline(always)]
fn collect(f: impl Fn(usize) -> bool) -> u64 {
    pack_lanes(&std::array::from_fn(f))
}

fn cmp_f16<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, b, p) = (src16(w, op, env, 0), src16(w, op, env, 1), pred_of(op));
    let h = |x: u16| half::f16::from_bits(x).to_f64();
    finish::<X>(w, op, collect_pred(p, |p, l| fcmp(p, h(a[l]), h(b[l]))))
}
fn cmp_f32<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, b, p) = (src32(w, op, env, 0), src32(w, op, env, 1), pred_of(op));
    let f = |x: u32| f32::from_bits(x) as f64;
    finish::<X>(w, op, collect_pred(p, |p, l| fcmp(p, f(a[l]), f(b[l]))))
}
fn cmp_f64<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, b, p) = (src64(w, op, env, 0), src64(w, op, env, 1), pred_of(op));
    finish::<X>(
        w,
        op,
        collect_pred(p, |p, l| {
            fcmp(p, f64::from_bits(a[l]), f64::from_bits(b[l]))
        }),
    )
}
fn cmp_i16<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, b, p) = (src16(w, op, env, 0), src16(w, op, env, 1), pred_of(op));
    finish::<X>(
        w,
        op,
        collect_pred(p, |p, l| icmp(p, a[l] as i16, b[l] as i16)),
    )
}
fn cmp_u16<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, b, p) = (src16(w, op, env, 0), src16(w, op, env, 1), pred_of(op));
    finish::<X>(w, op, collect_pred(p, |p, l| icmp(p, a[l], b[l])))
}
fn cmp_i32<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, b, p) = (src32(w, op, env, 0), src32(w, op, env, 1), pred_of(op));
    finish::<X>(
        w,
        op,
        collect_pred(p, |p, l| icmp(p, a[l] as i32, b[l] as i32)),
    )
}
fn cmp_u32<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, b, p) = (src32(w, op, env, 0), src32(w, op, env, 1), pred_of(op));
    finish::<X>(w, op, collect_pred(p, |p, l| icmp(p, a[l], b[l])))
}
fn cmp_i64<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, b, p) = (src64(w, op, env, 0), src64(w, op, env, 1), pred_of(op));
    finish::<X>(
        w,
        op,
        collect_pred(p, |p, l| icmp(p, a[l] as i64, b[l] as i64)),
    )
}
fn cmp_u64<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, b, p) = (src64(w, op, env, 0), src64(w, op, env, 1), pred_of(op));
    finish::<X>(w, op, collect_pred(p, |p, l| icmp(p, a[l], b[l])))
}

/// The class bit of a value (Vega ISA V_CMP_CLASS: 0 signalling NaN, 1 quiet NaN,
/// 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf), from its
/// sign, exponent and mantissa fields.
#[inline(always)]
fn class_bit(sign: bool, exp_all_ones: bool, exp_zero: bool, mant_zero: bool, quiet: bool) -> u32 {
    if exp_all_ones {
        if mant_zero {
            if sign {
                2
            } else {
                9
            }
        } else if quiet {
            1
        } else {
            0
        }
    } else if exp_zero {
        match (mant_zero, sign) {
            (true, true) => 5,
            (true, false) => 6,
            (false, true) => 4,
            (false, false) => 7,
        }
    } else if sign {
        3
    } else {
        8
    }
}

fn class_f16<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, m) = (src16(w, op, env, 0), src32(w, op, env, 1));
    finish::<X>(
        w,
        op,
        collect(|l| {
            let x = a[l];
            let e = (x >> 10) & 0x1f;
            let bit = class_bit(
                x >> 15 != 0,
                e == 0x1f,
                e == 0,
                x & 0x3ff == 0,
                x & 0x200 != 0,
            );
            m[l] >> bit & 1 != 0
        }),
    )
}
fn class_f32<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, m) = (src32(w, op, env, 0), src32(w, op, env, 1));
    finish::<X>(
        w,
        op,
        collect(|l| {
            let x = a[l];
            let e = (x >> 23) & 0xff;
            let bit = class_bit(
                x >> 31 != 0,
                e == 0xff,
                e == 0,
                x & 0x7f_ffff == 0,
                x & 0x40_0000 != 0,
            );
            m[l] >> bit & 1 != 0
        }),
    )
}
fn class_f64<const X: bool>(w: &mut Wave, op: &Op, env: &mut Env<'_>) -> Result<Flow, Fault> {
    let (a, m) = (src64(w, op, env, 0), src32(w, op, env, 1));
    finish::<X>(
        w,
        op,
        collect(|l| {
            let x = a[l];
            let e = (x >> 52) & 0x7ff;
            let mant = x & ((1 << 52) - 1);
            let bit = class_bit(
                x >> 63 != 0,
                e == 0x7ff,
                e == 0,
                mant == 0,
                x & (1 << 51) != 0,
            );
            m[l] >> bit & 1 != 0
        }),
    )
}

#[cfg(test)]
mod tests {
    use crate::testing::{run, splat};

    #[test]
    fn compare_writes_vcc_for_active_lanes_only() {
        let r = run("gfx900", "v_cmp_lt_i32 vcc, v0, 0", |w, _| {
            w.v[0] = std::array::from_fn(|l| if l % 2 == 0 { -1i32 as u32 } else { 1 });
            w.set_exec(0xff);
        })
        .unwrap();
        assert_eq!(r.wave.vcc(), 0x55);
    }

    #[test]
    fn cmpx_writes_exec() {
        let r = run("gfx803", "v_cmpx_gt_u32 s[2:3], v0, 3", |w, _| {
            w.v[0] = std::array::from_fn(|l| l as u32);
        })
        .unwrap();
        assert_eq!(r.wave.exec(), !0xfu64);
        assert_eq!(r.wave.sreg64(2), !0xfu64);
    }

    #[test]
    fn unordered_predicates_are_true_on_nan_and_ordered_false() {
        let r = run(
            "gfx900",
            "v_cmp_neq_f32 s[0:1], v0, v0\nv_cmp_eq_f32 s[2:3], v0, v0",
            |w, _| {
                w.v[0] = splat(f32::NAN.to_bits());
            },
        )
        .unwrap();
        assert_eq!(r.wave.sreg64(0), u64::MAX);
        assert_eq!(r.wave.sreg64(2), 0);
    }

    #[test]
    fn class_distinguishes_denormals_and_signed_zeros() {
        // mask 0x20 = bit 5 (-0); 0x80 = bit 7 (+denormal), given in v1 (a VOP3 form
        // takes no literal).
        let r = run(
            "gfx900",
            "v_cmp_class_f32 s[0:1], v0, 32\nv_cmp_class_f32 s[2:3], v0, v1",
            |w, _| {
                w.v[0] = std::array::from_fn(|l| if l == 0 { 0x8000_0000 } else { 1 });
                w.v[1] = splat(0x80);
            },
        )
        .unwrap();
        assert_eq!(r.wave.sreg64(0), 1);
        assert_eq!(r.wave.sreg64(2), !1u64);
    }
}
