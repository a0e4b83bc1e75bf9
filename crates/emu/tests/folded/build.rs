//! Building the constant and run-time kernels with clang-19, and reading the folded values
//! from the optimised IR.

use std::path::Path;
use std::process::Command;

use crate::*;

// ---- building ----------------------------------------------------------------------------

pub(crate) fn kernel_sources(ops: &[&Op]) -> (String, String) {
    let mut konst = String::from(PRELUDE);
    let mut rt = String::from(PRELUDE);
    for op in ops {
        let params = ["a", "b", "c"][..op.args.len()].join(", ");
        let mac = format!("#define OP_{}({params}) ({})\n", op.name, op.expr);
        konst.push_str(&mac);
        rt.push_str(&mac);
        konst.push_str(&format!(
            "kernel void k_{}(global {} *out) {{\n  volatile global {} *o = out;\n",
            op.name,
            op.ret.c(),
            op.ret.c()
        ));
        for (i, case) in op.cases.iter().enumerate() {
            let lits: Vec<String> = op.args.iter().zip(case).map(|(t, &v)| t.lit(v)).collect();
            konst.push_str(&format!(
                "  o[{i}] = OP_{}({});\n",
                op.name,
                lits.join(", ")
            ));
        }
        konst.push_str("}\n");
        let ins: Vec<String> = op
            .args
            .iter()
            .enumerate()
            .map(|(j, t)| format!("global const {} *in{j}", t.c()))
            .collect();
        let loads: Vec<String> = (0..op.args.len()).map(|j| format!("in{j}[i]")).collect();
        rt.push_str(&format!(
            "kernel void k_{}(global {} *out, {}) {{\n  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();\n  if (i < {}u) out[i] = OP_{}({});\n}}\n",
            op.name,
            op.ret.c(),
            ins.join(", "),
            op.cases.len(),
            op.name,
            loads.join(", ")
        ));
    }
    (konst, rt)
}

/// The builds compared: every target with IEEE f32 denormals, and gfx6-8 once more as OpenCL
/// builds them by default, flushing f32 denormals (`ftz`).
pub(crate) const CONFIGS: [(&str, bool); 11] = [
    ("gfx600", false),
    ("gfx700", false),
    ("gfx803", false),
    ("gfx900", false),
    ("gfx906", false),
    ("gfx908", false),
    ("gfx90a", false),
    ("gfx942", false),
    ("gfx600", true),
    ("gfx700", true),
    ("gfx803", true),
];

pub(crate) fn clang_flags(mcpu: &str, ftz: bool) -> Vec<String> {
    let mut v: Vec<String> = [
        "-target",
        "amdgcn-amd-amdhsa",
        &format!("-mcpu={mcpu}"),
        "-nogpulib",
        "-O2",
        "-cl-std=CL2.0",
        "-cl-fp32-correctly-rounded-divide-sqrt",
        "-ffp-contract=off",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if !ftz {
        v.extend([
            "-Xclang".to_string(),
            "-fdenormal-fp-math-f32=ieee".to_string(),
        ]);
    }
    v
}

pub(crate) fn run(cmd: &mut Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(20)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

pub(crate) struct Built {
    pub(crate) konst_co: Vec<u8>,
    pub(crate) rt_co: Vec<u8>,
    pub(crate) konst_ir: String,
}

pub(crate) fn build(bin: &Path, mcpu: &str, ftz: bool, konst: &str, rt: &str) -> Built {
    let dir = std::env::temp_dir().join(format!(
        "gcnkit-folded-{}-{mcpu}-{}",
        std::process::id(),
        if ftz { "ftz" } else { "ieee" }
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let flags = clang_flags(mcpu, ftz);
    std::fs::write(dir.join("k.cl"), konst).unwrap();
    std::fs::write(dir.join("r.cl"), rt).unwrap();
    // The constant build: optimised IR (to see what was folded), then code from that IR.
    run(
        Command::new(bin.join("clang"))
            .args(&flags)
            .args(["-x", "cl", "-emit-llvm", "-S"])
            .arg(dir.join("k.cl"))
            .arg("-o")
            .arg(dir.join("k.ll")),
        &format!("clang (constant build, {mcpu})"),
    );
    run(
        Command::new(bin.join("clang"))
            .args([
                "-target",
                "amdgcn-amd-amdhsa",
                &format!("-mcpu={mcpu}"),
                "-nogpulib",
                "-O2",
                "-c",
            ])
            .args(["-x", "ir"])
            .arg(dir.join("k.ll"))
            .arg("-o")
            .arg(dir.join("k.o")),
        &format!("clang (constant build code, {mcpu})"),
    );
    run(
        Command::new(bin.join("clang"))
            .args(&flags)
            .args(["-x", "cl", "-c"])
            .arg(dir.join("r.cl"))
            .arg("-o")
            .arg(dir.join("r.o")),
        &format!("clang (run-time build, {mcpu})"),
    );
    for s in ["k", "r"] {
        run(
            Command::new(bin.join("ld.lld"))
                .arg("-shared")
                .arg(dir.join(format!("{s}.o")))
                .arg("-o")
                .arg(dir.join(format!("{s}.co"))),
            "ld.lld",
        );
    }
    let b = Built {
        konst_co: std::fs::read(dir.join("k.co")).unwrap(),
        rt_co: std::fs::read(dir.join("r.co")).unwrap(),
        konst_ir: std::fs::read_to_string(dir.join("k.ll")).unwrap(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    b
}

/// What the constant build's IR stores for each case of `k_<name>`, in order: `Some(bits)` for
/// a literal, `None` for a value LLVM did not fold. `Err` for poison/undef.
#[allow(clippy::type_complexity)]
pub(crate) fn folded_values(ir: &str, name: &str, ty: Ty) -> Vec<Result<Option<u64>, String>> {
    let head = format!("@k_{name}(");
    let start = ir
        .lines()
        .position(|l| l.starts_with("define") && l.contains(&head))
        .unwrap_or_else(|| panic!("k_{name} not in the constant build's IR"));
    let mut v = Vec::new();
    for l in ir.lines().skip(start + 1) {
        if l.starts_with('}') {
            break;
        }
        let Some(rest) = l.trim().strip_prefix("store volatile ") else {
            continue;
        };
        let mut it = rest.splitn(2, ' ');
        let _ty = it.next().unwrap();
        let val = it.next().unwrap().split(',').next().unwrap().trim();
        v.push(parse_literal(val, ty));
    }
    v
}

pub(crate) fn parse_literal(val: &str, ty: Ty) -> Result<Option<u64>, String> {
    if val.starts_with('%') {
        return Ok(None);
    }
    if val == "poison" || val == "undef" {
        return Err(val.to_string());
    }
    let bits = match ty {
        Ty::U16 | Ty::I16 => val.parse::<i64>().map(|x| x as u16 as u64).ok(),
        Ty::U32 | Ty::I32 => val.parse::<i64>().map(|x| x as u32 as u64).ok(),
        Ty::U64 | Ty::I64 => val
            .parse::<i64>()
            .map(|x| x as u64)
            .ok()
            .or_else(|| val.parse::<u64>().ok()),
        Ty::F16 => val
            .strip_prefix("0xH")
            .and_then(|h| u64::from_str_radix(h, 16).ok()),
        Ty::F32 | Ty::F64 => {
            // LLVM prints float and double constants as the double's hex bits, or in decimal
            // when that is exact.
            let d = if let Some(h) = val.strip_prefix("0x") {
                u64::from_str_radix(h, 16).ok()
            } else {
                val.parse::<f64>().ok().map(f64::to_bits)
            };
            match (ty, d) {
                (Ty::F64, d) => d,
                (_, Some(d)) => Some(f64_bits_to_f32_bits(d)),
                _ => None,
            }
        }
    };
    bits.map(Some)
        .ok_or_else(|| format!("unparsed literal {val}"))
}

/// A float constant printed in double form back to its f32 bits (NaN payloads shifted, not
/// quieted: LLVM prints a float NaN as the double with the same payload bits at the top).
pub(crate) fn f64_bits_to_f32_bits(d: u64) -> u64 {
    let x = f64::from_bits(d);
    if x.is_nan() {
        let sign = (d >> 63) << 31;
        let payload = (d >> 29) & 0x7f_ffff;
        sign | 0x7f80_0000 | payload
    } else {
        (x as f32).to_bits() as u64
    }
}
