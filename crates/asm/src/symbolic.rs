//! Symbolic operands: `hwreg(...)`, `sendmsg(...)`, `s_waitcnt` counters, `swizzle(...)`,
//! `gpr_idx(...)`, buffer formats and export targets, with their names per generation.

use std::ops::Range;

use gcnkit_isa::constants::{buf_num_format_name, BUF_DATA_FORMATS};
use gcnkit_isa::symbolic::{hwreg_id, message_id, message_op};
use gcnkit_isa::Gen;

use crate::error::AsmError;
use crate::operand::{Arg, StructField};

fn arg_span(a: &Arg) -> Range<usize> {
    match a {
        Arg::Ident(r) | Arg::Str(r) => r.clone(),
        _ => 0..0,
    }
}

fn arg_int(a: &Arg, whole: &Range<usize>) -> Result<i64, AsmError> {
    match a {
        Arg::Int(v) => Ok(*v),
        _ => Err(AsmError::new(
            nonempty(arg_span(a), whole),
            "expected absolute expression",
        )),
    }
}

fn nonempty(r: Range<usize>, whole: &Range<usize>) -> Range<usize> {
    if r.is_empty() {
        whole.clone()
    } else {
        r
    }
}

/// `hwreg(NAME_OR_ID[, offset, size])` → simm16.
pub fn hwreg(src: &str, gen: Gen, args: &[Arg], span: &Range<usize>) -> Result<u32, AsmError> {
    let first = args.first().ok_or_else(|| {
        AsmError::new(
            span.clone(),
            "expected a register name or an absolute expression",
        )
    })?;
    let id = match first {
        Arg::Ident(r) => {
            let name = &src[r.clone()];
            match name.strip_prefix("HW_REG_").and_then(|n| hwreg_id(gen, n)) {
                Some(Ok(id)) => id,
                Some(Err(())) => {
                    return Err(AsmError::new(
                        r.clone(),
                        "invalid hardware register: not supported on this GPU",
                    ))
                }
                None => {
                    return Err(AsmError::new(
                        r.clone(),
                        "expected a register name or an absolute expression",
                    ))
                }
            }
        }
        a => {
            let v = arg_int(a, span)?;
            if !(0..64).contains(&v) {
                return Err(AsmError::new(
                    span.clone(),
                    "invalid hardware register: only 6-bit values are legal",
                ));
            }
            v as u32
        }
    };
    let (offset, size) = match args.len() {
        1 => (0, 32),
        3 => (arg_int(&args[1], span)?, arg_int(&args[2], span)?),
        _ => return Err(AsmError::new(span.clone(), "expected a comma")),
    };
    if !(0..32).contains(&offset) {
        return Err(AsmError::new(
            span.clone(),
            "invalid bit offset: only 5-bit values are legal",
        ));
    }
    if !(1..=32).contains(&size) {
        return Err(AsmError::new(
            span.clone(),
            "invalid bitfield width: only values from 1 to 32 are legal",
        ));
    }
    Ok(id | (offset as u32) << 6 | (size as u32 - 1) << 11)
}

/// `{id: ID, offset: OFFSET, size: SIZE}` → simm16: any subset of the fields, in any order
/// (missing ones are 0, 0 and 32); the values are numbers (llvm-mc-19 takes no register
/// names here).
pub fn hwreg_struct(src: &str, fields: &[StructField]) -> Result<u32, AsmError> {
    const NAMES: [&str; 3] = ["id", "offset", "size"];
    let mut values: [Option<&StructField>; 3] = [None; 3];
    for f in fields {
        let Some(i) = NAMES.iter().position(|&n| n == &src[f.name.clone()]) else {
            return Err(AsmError::new(f.name.clone(), "unknown field"));
        };
        if values[i].is_some() {
            return Err(AsmError::new(f.name.clone(), "duplicate field"));
        }
        values[i] = Some(f);
    }
    let field =
        |i: usize, default: i64, range: std::ops::RangeInclusive<i64>, msg: &str| match values[i] {
            None => Ok(default),
            Some(f) if range.contains(&f.value) => Ok(f.value),
            Some(f) => Err(AsmError::new(f.value_span.clone(), msg.to_string())),
        };
    let id = field(
        0,
        0,
        0..=63,
        "invalid hardware register: only 6-bit values are legal",
    )?;
    let offset = field(
        1,
        0,
        0..=31,
        "invalid bit offset: only 5-bit values are legal",
    )?;
    let size = field(
        2,
        32,
        1..=32,
        "invalid bitfield width: only values from 1 to 32 are legal",
    )?;
    Ok(id as u32 | (offset as u32) << 6 | (size as u32 - 1) << 11)
}

/// `sendmsg(MSG[, OP[, STREAM]])` → simm16.
pub fn sendmsg(src: &str, gen: Gen, args: &[Arg], span: &Range<usize>) -> Result<u32, AsmError> {
    let first = args.first().ok_or_else(|| {
        AsmError::new(
            span.clone(),
            "expected a message name or an absolute expression",
        )
    })?;
    let (id, named) = match first {
        Arg::Ident(r) => match message_id(gen, &src[r.clone()]) {
            Some(Ok(id)) => (id, true),
            Some(Err(())) => {
                return Err(AsmError::new(
                    r.clone(),
                    "specified message id is not supported on this GPU",
                ))
            }
            None => {
                return Err(AsmError::new(
                    r.clone(),
                    "expected a message name or an absolute expression",
                ))
            }
        },
        a => (arg_int(a, span)? as u32, false),
    };
    let op = match args.get(1) {
        Some(Arg::Ident(r)) => message_op(gen, id, &src[r.clone()]).ok_or_else(|| {
            AsmError::new(
                r.clone(),
                "expected an operation name or an absolute expression",
            )
        })?,
        Some(a) => arg_int(a, span)? as u32,
        None if named && (id == 2 || id == 15) => {
            return Err(AsmError::new(span.clone(), "missing message operation"))
        }
        None => 0,
    };
    let stream = match args.get(2) {
        Some(a) => arg_int(a, span)? as u32,
        None => 0,
    };
    if named && id != 2 && id != 3 && id != 15 && args.len() > 1 {
        return Err(AsmError::new(
            span.clone(),
            "message does not support operations",
        ));
    }
    if named && stream != 0 && (id == 15 || !(1..=3).contains(&op)) {
        return Err(AsmError::new(
            span.clone(),
            "message operation does not support streams",
        ));
    }
    if id > 15 || op > 7 || stream > 3 {
        let msg = if stream > 3 {
            "invalid message stream id"
        } else if op > 7 {
            "invalid operation id"
        } else {
            "invalid message id"
        };
        return Err(AsmError::new(span.clone(), msg));
    }
    Ok(id | op << 4 | stream << 8)
}

/// The waitcnt field layout of a generation: (vmcnt max, whole default).
pub fn waitcnt_default(gen: Gen) -> u32 {
    if gen.is_gfx9_family() {
        0xcf7f
    } else {
        0x0f7f
    }
}

/// Applies one counter `name(value)` to a waitcnt word. `span` covers the counter,
/// `value_span` its value (where llvm-mc reports a value out of range).
pub fn waitcnt_counter(
    gen: Gen,
    word: u32,
    name: &str,
    value: i64,
    span: &Range<usize>,
    value_span: &Range<usize>,
) -> Result<u32, AsmError> {
    let (base, sat) = match name.strip_suffix("_sat") {
        Some(b) => (b, true),
        None => (name, false),
    };
    let max: i64 = match base {
        "vmcnt" if gen.is_gfx9_family() => 63,
        "vmcnt" => 15,
        "expcnt" => 7,
        "lgkmcnt" => 15,
        _ => {
            return Err(AsmError::new(
                span.clone(),
                format!("invalid counter name {name}"),
            ));
        }
    };
    let v = if value > max || value < 0 {
        if !sat {
            return Err(AsmError::new(
                value_span.clone(),
                format!("too large value for {name}"),
            ));
        }
        if value < 0 {
            0
        } else {
            max
        }
    } else {
        value
    } as u32;
    Ok(match base {
        "vmcnt" => (word & !0xc00f) | (v & 0xf) | ((v >> 4) & 3) << 14,
        "expcnt" => (word & !0x70) | v << 4,
        _ => (word & !0xf00) | v << 8,
    })
}

/// `swizzle(MODE, ...)` → the ds_swizzle_b32 offset.
pub fn swizzle(src: &str, args: &[Arg], span: &Range<usize>) -> Result<u32, AsmError> {
    let mode = match args.first() {
        Some(Arg::Ident(r)) => &src[r.clone()],
        _ => return Err(AsmError::new(span.clone(), "expected a swizzle mode")),
    };
    let int = |i: usize, lo: i64, hi: i64, what: &str| -> Result<u32, AsmError> {
        let a = args
            .get(i)
            .ok_or_else(|| AsmError::new(span.clone(), "expected a comma"))?;
        let v = arg_int(a, span)?;
        if v < lo || v > hi {
            return Err(AsmError::new(span.clone(), what.to_string()));
        }
        Ok(v as u32)
    };
    let v = match mode {
        "QUAD_PERM" => {
            let mut v = 0x8000;
            for i in 0..4 {
                v |= int(i + 1, 0, 3, "expected a 2-bit lane id")? << (2 * i);
            }
            v
        }
        "SWAP" => 0x1f | int(1, 1, 16, "expected a power of two from 1 to 16")? << 10,
        "REVERSE" => 0x1f | (int(1, 2, 32, "expected a power of two from 2 to 32")? - 1) << 10,
        "BROADCAST" => {
            let group = int(1, 2, 32, "expected a power of two from 2 to 32")?;
            let lane = int(
                2,
                0,
                group as i64 - 1,
                "lane id must be in the interval [0,group size - 1]",
            )?;
            (0x20 - group) | lane << 5
        }
        "BITMASK_PERM" => bitmask_perm(src, args, span)?,
        _ => return Err(AsmError::new(span.clone(), "expected a swizzle mode")),
    };
    Ok(v)
}

fn bitmask_perm(src: &str, args: &[Arg], span: &Range<usize>) -> Result<u32, AsmError> {
    let Some(Arg::Str(r)) = args.get(1) else {
        return Err(AsmError::new(span.clone(), "expected a 5-character mask"));
    };
    let text = src[r.clone()].trim_matches('"');
    if text.len() != 5 {
        return Err(AsmError::new(r.clone(), "expected a 5-character mask"));
    }
    let (mut and, mut or, mut xor) = (0, 0, 0);
    for (i, c) in text.bytes().enumerate() {
        let bit = 1 << (4 - i);
        match c {
            b'0' => {}
            b'1' => or |= bit,
            b'p' => and |= bit,
            b'i' => {
                and |= bit;
                xor |= bit;
            }
            _ => return Err(AsmError::new(r.clone(), "invalid mask")),
        }
    }
    Ok(and | or << 5 | xor << 10)
}

/// `gpr_idx(SRC0,SRC1,SRC2,DST)` → the 4-bit mode mask.
pub fn gpr_idx(src: &str, args: &[Arg], span: &Range<usize>) -> Result<u32, AsmError> {
    let mut mask = 0;
    for a in args {
        let bit = match a {
            Arg::Ident(r) => match &src[r.clone()] {
                "SRC0" => 1,
                "SRC1" => 2,
                "SRC2" => 4,
                "DST" => 8,
                _ => return Err(AsmError::new(r.clone(), "expected a VGPR index mode")),
            },
            _ => return Err(AsmError::new(span.clone(), "expected a VGPR index mode")),
        };
        if mask & bit != 0 {
            return Err(AsmError::new(arg_span(a), "duplicate VGPR index mode"));
        }
        mask |= bit;
    }
    Ok(mask)
}

/// The number format named `name` on `gen`.
pub fn num_format(gen: Gen, name: &str) -> Option<u32> {
    (0..8).find(|&n| buf_num_format_name(gen, n) == Some(name))
}

/// The data format named `name`.
pub fn data_format(name: &str) -> Option<u32> {
    BUF_DATA_FORMATS
        .iter()
        .position(|&n| n == name)
        .map(|i| i as u32)
}

/// The export target named `name`: `mrt0..7`, `mrtz`, `null`, `pos0..3`, `param0..31`.
pub fn exp_target(name: &str) -> Option<u32> {
    let num = |p: &str, max: u32| -> Option<u32> {
        let rest = name.strip_prefix(p)?;
        if rest.is_empty() || (rest.len() > 1 && rest.starts_with('0')) {
            return None;
        }
        rest.parse().ok().filter(|&n| n <= max)
    };
    match name {
        "mrtz" => Some(8),
        "null" => Some(9),
        _ => num("mrt", 7)
            .or_else(|| num("pos", 3).map(|n| n + 12))
            .or_else(|| num("param", 31).map(|n| n + 32)),
    }
}
