//! Running both builds and comparing them, with the documented differences.

use std::collections::BTreeMap;

use gcnkit_emu::{ArgValue, Device, Grid, LaunchOptions};

use crate::*;

// ---- comparing -------------------------------------------------------------------------

/// Differences between LLVM's folding and the instruction sequence that are documented in
/// docs/emulator-precision.md §13: the reason, or None (a failure). Each rule is narrow: it
/// names the operations, the operands or the result it covers.
pub(crate) fn documented(
    op: &Op,
    mcpu: &str,
    args: &[u64],
    f: u64,
    e: u64,
) -> Option<&'static str> {
    if let Some(lane_op) = op.name.strip_prefix("pk_") {
        // Packed f16: each half on its own, by the f16 rules of the unpacked operation.
        let lane = Op {
            name: lane_op.to_string(),
            ret: Ty::F16,
            args: vec![Ty::F16; op.args.len()],
            expr: String::new(),
            cases: Vec::new(),
            targets: &[],
        };
        let mut why = None;
        for sh in [0, 16] {
            let l = |v: u64| (v >> sh) & 0xffff;
            let la: Vec<u64> = args.iter().map(|&a| l(a)).collect();
            if l(f) != l(e) {
                why = Some(documented(&lane, mcpu, &la, l(f), l(e))?);
            }
        }
        return why;
    }
    let t = op.ret;
    let (quiet, sign, default_nan) = match t {
        Ty::F16 => (0x200u64, 0x8000u64, 0x7e00u64),
        Ty::F32 => (0x40_0000, 0x8000_0000, 0x7fc0_0000),
        Ty::F64 => (1 << 51, 1 << 63, 0x7ff8_0000_0000_0000),
        _ => (0, 0, 0),
    };
    let name = op.name.as_str();
    if t.is_nan(f) && t.is_nan(e) {
        // NaN results: which NaN a folded or executed operation returns is not specified by
        // LLVM (LangRef "Floating-Point Semantics": the payload, quiet bit and sign of a NaN
        // result are unspecified except for fneg/fabs/copysign). Compared as "is NaN" only,
        // and only under these four rules:
        let nan_operand = op.args.iter().zip(args).any(|(&ty, &v)| ty.is_nan(v));
        if f == default_nan && e == default_nan | sign && !nan_operand {
            return Some("§13.1 default NaN: LLVM folds an invalid operation to +qNaN, the hardware's default NaN is -qNaN (§1.3)");
        }
        // The folded value is the unquieted one (LLVM's identity folds), or, for the gfx6
        // expansions that select a NaN input through unchanged, the emulated one.
        let gfx6_pass_through =
            mcpu == "gfx600" && matches!(name, "frexp_mant_f32" | "frexp_mant_f64" | "trunc_f64");
        if f != e && f | quiet == e | quiet && (e & quiet != 0 || gfx6_pass_through) {
            return Some("§13.1 sNaN quieting: equal but for the quiet bit (LLVM's identity folds such as x*1, x+(-0), minnum(qNaN, sNaN) return an sNaN operand unquieted; LLVM's gfx6 frexp/trunc f64 expansions pass a NaN through a select unquieted while the folder quiets it)");
        }
        if (name == "fsub_f64" || name == "sub_f16") && f ^ e == sign {
            return Some("§13.1 NaN sign: f64 a - b is v_add_f64 a, -b (packed f16: v_pk_add_f16 a, -b); the neg modifier flips the sign of a NaN b, LLVM's folder keeps it");
        }
        if name.starts_with("fma_")
            && f == default_nan
            && args.iter().any(|&c| t.is_nan(c) && e == c | quiet)
        {
            return Some("§13.1 fma(0, inf, NaN): LLVM folds the invalid product to the default NaN, the hardware returns the NaN addend quieted");
        }
        return None;
    }
    if name.starts_with("amdgcn_fmed3")
        && args.iter().any(|&a| t.is_nan(a))
        && e == ieee_min(t, ieee_min(t, args[0], args[1]), args[2])
    {
        return Some("§13.2 fmed3 with a NaN operand: LLVM 19 folds it to minnum/maxnum of the other two, the V_MED3 pseudo-code returns min3 of all three");
    }
    if name == "amdgcn_rcp_f32" {
        let denormal = |v: u64| v & 0x7f80_0000 == 0 && v & 0x7f_ffff != 0;
        if denormal(args[0]) || denormal(f) {
            return Some("§13.3 amdgcn.rcp: LLVM folds a correctly rounded 1/x without the instruction's denormal flushing (§2)");
        }
    }
    if name == "amdgcn_trig_preop" {
        let e = (args[0] >> 52) & 0x7ff;
        let shift = 53 * (args[1] & 31) + e.saturating_sub(1077);
        if shift >= 1120 && f == 0 {
            return Some("§13.3 amdgcn.trig.preop: LLVM's 2/pi table has 1184 bits, the hardware's 1201; LLVM folds to +0 once the 53 bits needed run past its table (§6.4)");
        }
    }
    if name == "amdgcn_sin_f32" && args[0] == 0x8000_0000 && f == 0 && e == 0x8000_0000 {
        return Some("§13.3 amdgcn.sin(-0): LLVM folds quarter-turn inputs from a table with +0; the manual gives sin(-0) = -0 (§5)");
    }
    if mcpu == "gfx600" {
        let inf_or_nan = |v: u64| match op.args[0] {
            Ty::F32 => v & 0x7f80_0000 == 0x7f80_0000,
            _ => v & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000,
        };
        if name.starts_with("amdgcn_frexp_") && inf_or_nan(args[0]) {
            return Some("§13.4 gfx6 v_frexp_* of inf/NaN (exponent -1, mantissa NaN, §6.2); LLVM's fold uses the gfx7+ rule");
        }
        if (name == "ceil_f64" || name == "rint_f64") && f == sign && e == 0 {
            return Some("§13.4 gfx6 ceil/rint f64 expansions (no v_ceil_f64/v_rndne_f64): -0 results come out +0");
        }
        if name == "floor_f64"
            && args[0] >> 63 == 1
            && f == 0xbff0_0000_0000_0000
            && e == 0xbfef_ffff_ffff_ffff
        {
            return Some("§13.4 gfx6 floor f64 expansion x - min(fract(x), 1 - 2^-53): tiny negative x gives -(1 - 2^-53)");
        }
    }
    None
}

/// `v_min_f32/f16` in IEEE mode, from the pseudo-code (emulator-precision §7.3, written here
/// again from the manual, not taken from the emulator): an sNaN operand wins quieted, a qNaN
/// loses, -0 is below +0.
pub(crate) fn ieee_min(t: Ty, a: u64, b: u64) -> u64 {
    let (quiet, sign_bit) = match t {
        Ty::F16 => (0x200, 15),
        _ => (0x40_0000, 31),
    };
    let snan = |v: u64| t.is_nan(v) && v & quiet == 0;
    if snan(a) {
        return a | quiet;
    }
    if snan(b) {
        return b | quiet;
    }
    if t.is_nan(a) {
        return b;
    }
    if t.is_nan(b) {
        return a;
    }
    let (x, y) = (fval(t, a), fval(t, b));
    if x == y {
        return if (a >> sign_bit) & 1 == 1 { a } else { b };
    }
    if x < y {
        a
    } else {
        b
    }
}

/// In the flushing mode the folder and the instructions differ wherever an f32 denormal is an
/// operand or a result: LLVM folds some operations with flushing and others without (`x * 1.0`
/// is `x`, the `llvm.amdgcn.*` folds ignore the mode), the instructions flush.
pub(crate) fn f32_denormal_involved(op: &Op, args: &[u64], f: u64, e: u64) -> bool {
    let den = |v: u64| v & 0x7f80_0000 == 0 && v & 0x7f_ffff != 0;
    op.args
        .iter()
        .zip(args)
        .any(|(&t, &v)| t == Ty::F32 && den(v))
        || (op.ret == Ty::F32 && (den(f) || den(e)))
}

#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) ops: usize,
    pub(crate) compared: usize,
    pub(crate) agree: usize,
    pub(crate) not_folded: usize,
    pub(crate) not_folded_ops: BTreeMap<String, usize>,
    pub(crate) documented: BTreeMap<&'static str, usize>,
    pub(crate) failures: Vec<String>,
}

pub(crate) fn read_elems(dev: &Device, addr: u64, ty: Ty, n: usize) -> Vec<u64> {
    let bytes = dev.read(addr, (n * ty.size()) as u64).unwrap();
    bytes
        .chunks_exact(ty.size())
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}

pub(crate) fn fmt_bits(t: Ty, v: u64) -> String {
    match t {
        Ty::F16 | Ty::U16 | Ty::I16 => format!("{v:#06x}"),
        Ty::U32 | Ty::I32 | Ty::F32 => format!("{v:#010x}"),
        _ => format!("{v:#018x}"),
    }
}

pub(crate) fn check_target(mcpu: &str, ftz: bool, ops: &[&Op], built: &Built) -> Tally {
    let mut t = Tally::default();
    let mut dev = Device::new();
    dev.set_options(LaunchOptions {
        threads: 1,
        max_instructions: 10_000_000,
    });
    let km = dev
        .load(&built.konst_co, None)
        .expect("load constant build");
    let rm = dev.load(&built.rt_co, None).expect("load run-time build");
    for op in ops {
        t.ops += 1;
        let n = op.cases.len();
        let folded = folded_values(&built.konst_ir, &op.name, op.ret);
        assert_eq!(folded.len(), n, "{mcpu} {}: stores in the IR", op.name);
        // The constant build, run.
        let kout = dev.allocate((n * op.ret.size()) as u64).unwrap();
        dev.write(kout, &vec![0xa5; n * op.ret.size()]).unwrap();
        if let Err(e) = dev.launch(
            &km,
            &format!("k_{}", op.name),
            &Grid::linear(1, 1),
            &[ArgValue::Bytes(kout.to_le_bytes().to_vec())],
        ) {
            t.failures
                .push(format!("{mcpu} {}: constant build: {e}", op.name));
            continue;
        }
        let kvals = read_elems(&dev, kout, op.ret, n);
        // The run-time build.
        let out = dev.allocate((n * op.ret.size()) as u64).unwrap();
        dev.write(out, &vec![0x5a; n * op.ret.size()]).unwrap();
        let mut args = vec![ArgValue::Bytes(out.to_le_bytes().to_vec())];
        let mut bufs = vec![kout, out];
        for (j, ty) in op.args.iter().enumerate() {
            let mut bytes = Vec::with_capacity(n * ty.size());
            for c in &op.cases {
                bytes.extend_from_slice(&c[j].to_le_bytes()[..ty.size()]);
            }
            let b = dev.allocate(bytes.len() as u64).unwrap();
            dev.write(b, &bytes).unwrap();
            args.push(ArgValue::Bytes(b.to_le_bytes().to_vec()));
            bufs.push(b);
        }
        let groups = n.div_ceil(64) as u32;
        if let Err(e) = dev.launch(
            &rm,
            &format!("k_{}", op.name),
            &Grid::linear(groups * 64, 64),
            &args,
        ) {
            t.failures
                .push(format!("{mcpu} {}: run-time build: {e}", op.name));
            continue;
        }
        let rvals = read_elems(&dev, out, op.ret, n);
        for b in bufs {
            let _ = dev.free(b);
        }
        for (i, case) in op.cases.iter().enumerate() {
            let args_s: Vec<String> = op
                .args
                .iter()
                .zip(case)
                .map(|(ty, &v)| fmt_bits(*ty, v))
                .collect();
            let what = format!("{mcpu} {}({})", op.name, args_s.join(", "));
            let f = match &folded[i] {
                Ok(Some(f)) => *f,
                Ok(None) => {
                    t.not_folded += 1;
                    *t.not_folded_ops.entry(op.name.clone()).or_default() += 1;
                    continue;
                }
                Err(p) => {
                    t.failures.push(format!(
                        "{what}: LLVM folded to {p} (undefined operands in the table)"
                    ));
                    continue;
                }
            };
            t.compared += 1;
            if kvals[i] != f {
                // gfx6/7 have no 16-bit instructions: the backend materialises an f16 constant
                // through f32, which quiets an sNaN (`v_mov_b32 v2, 0x7e01` for IR `0xH7C01`).
                if op.ret == Ty::F16
                    && (mcpu == "gfx600" || mcpu == "gfx700")
                    && op.ret.is_nan(f)
                    && kvals[i] == f | 0x200
                {
                    *t.documented
                        .entry("§13.1 gfx6/7 f16 sNaN constants: the backend stores them quieted")
                        .or_default() += 1;
                    continue;
                }
                t.failures.push(format!(
                    "{what}: the constant build stored {} but its IR says {}",
                    fmt_bits(op.ret, kvals[i]),
                    fmt_bits(op.ret, f)
                ));
                continue;
            }
            let e = rvals[i];
            if e == f {
                t.agree += 1;
            } else if ftz && f32_denormal_involved(op, case, f, e) {
                *t.documented.entry("§13.5 f32 denormals flushed (gfx6-8 default mode): an f32 operand or result is denormal").or_default() += 1;
            } else if let Some(why) = documented(op, mcpu, case, f, e) {
                *t.documented.entry(why).or_default() += 1;
            } else {
                let nan = if op.ret.is_nan(f) && op.ret.is_nan(e) {
                    " (both NaN)"
                } else {
                    ""
                };
                t.failures.push(format!(
                    "{what}: folded {}, emulated {}{nan}",
                    fmt_bits(op.ret, f),
                    fmt_bits(op.ret, e)
                ));
            }
        }
    }
    t
}
