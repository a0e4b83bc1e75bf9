//! Random assembly statements for the assembler's differential test against llvm-mc-19, and
//! an llvm-mc runner that keeps its error messages.
//!
//! A statement starts as the text gcnkit's disassembler prints for a random encoding of a
//! table row ([`crate::random`]). Random rewrites then change its spelling (suffix dropped,
//! number bases, float spellings, spacing, modifier order, `neg(abs(x))` for `-|x|`, register
//! lists, waitcnt separators, symbolic names as numbers), and in a share of statements a
//! mutation deliberately breaks or changes something (another register class, an
//! out-of-range value, a typo in the mnemonic, a constant where a register was, an extra
//! modifier, a missing operand). No rewrite has to keep the meaning or even the validity of
//! the statement: llvm-mc decides what each statement means, and the assembler must agree.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use gcnkit_disasm::disassemble_one;
use gcnkit_isa::{Encoding, Target, INSTRUCTIONS};

use crate::random::{random_encoding, trim, Rng, VopForm};

/// One generated statement.
#[derive(Clone, Debug)]
pub struct Statement {
    /// The family and form it came from (`VOP2-Sdwa`), for the per-family figures.
    pub key: String,
    /// The statement text.
    pub text: String,
    /// True if a mutation (not only a rewrite) was applied.
    pub mutated: bool,
}

/// Generates statements for every row and form that exists on `target`: `per_form` random
/// encodings each, every one giving a rewritten statement and, half of the time, a mutated
/// one as well.
pub fn statements(target: &Target, rng: &mut Rng, per_form: u64) -> Vec<Statement> {
    let gen = target.gen();
    let mut out = Vec::new();
    for row in INSTRUCTIONS
        .iter()
        .filter(|r| r.exists_on(target.processor))
    {
        let vop = matches!(
            row.encoding,
            Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc
        );
        let forms: &[VopForm] = match (vop, gen.is_si_ci()) {
            (false, _) => &[VopForm::E32],
            (true, true) => &[VopForm::E32, VopForm::E64],
            (true, false) => &[VopForm::E32, VopForm::E64, VopForm::Sdwa, VopForm::Dpp],
        };
        for &form in forms {
            let key = match form {
                VopForm::E32 => row.encoding.name().to_string(),
                f => format!("{}-{f:?}", row.encoding.name()),
            };
            for _ in 0..per_form {
                // Most random words are invalid; a few tries find a printable one.
                let text = (0..8).find_map(|_| {
                    let raw = random_encoding(rng, row, gen, form)?;
                    let bytes = trim(target, &raw);
                    let (text, _) = disassemble_one(target, &bytes).ok()?;
                    (!text.contains("/*")).then_some(text)
                });
                let Some(text) = text else { continue };
                let mut p = Parsed::split(&text);
                rewrite(&mut p, rng);
                out.push(Statement {
                    key: key.clone(),
                    text: p.render(),
                    mutated: false,
                });
                if rng.one_in(2) {
                    mutate(&mut p, rng);
                    if rng.one_in(4) {
                        mutate(&mut p, rng);
                    }
                    out.push(Statement {
                        key: key.clone(),
                        text: p.render(),
                        mutated: true,
                    });
                }
            }
        }
    }
    out
}

/// A statement cut into its mnemonic and items (operands and modifiers), each item with the
/// separator text before it, so that rewrites can change items and separators apart.
#[derive(Clone, Debug)]
struct Parsed {
    mnemonic: String,
    items: Vec<(String, String)>,
}

/// Bare-word modifiers the printer emits.
const FLAG_WORDS: &[&str] = &[
    "glc",
    "slc",
    "sc0",
    "sc1",
    "nt",
    "scc",
    "lds",
    "tfe",
    "offen",
    "idxen",
    "addr64",
    "gds",
    "unorm",
    "da",
    "r128",
    "a16",
    "d16",
    "lwe",
    "clamp",
    "done",
    "compr",
    "vm",
    "high",
    "row_mirror",
    "row_half_mirror",
];

impl Parsed {
    fn split(text: &str) -> Parsed {
        let text = text.trim();
        let (mnemonic, rest) = text.split_once(' ').unwrap_or((text, ""));
        let mut items = Vec::new();
        let (mut sep, mut cur) = (String::from(" "), String::new());
        let mut depth = 0i32;
        for c in rest.chars() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                _ => {}
            }
            if depth == 0 && (c == ',' || c.is_whitespace()) {
                if !cur.is_empty() {
                    items.push((std::mem::take(&mut sep), std::mem::take(&mut cur)));
                }
                sep.push(c);
            } else {
                cur.push(c);
            }
        }
        if !cur.is_empty() {
            items.push((sep, cur));
        }
        Parsed {
            mnemonic: mnemonic.to_string(),
            items,
        }
    }

    fn render(&self) -> String {
        let mut s = self.mnemonic.clone();
        for (sep, item) in &self.items {
            s.push_str(sep);
            s.push_str(item);
        }
        s
    }

    /// Indices of the modifier items.
    fn modifiers(&self) -> Vec<usize> {
        (0..self.items.len())
            .filter(|&i| is_modifier(&self.items[i].1))
            .collect()
    }

    /// Indices of the operand items.
    fn operands(&self) -> Vec<usize> {
        (0..self.items.len())
            .filter(|&i| !is_modifier(&self.items[i].1))
            .collect()
    }
}

fn is_modifier(item: &str) -> bool {
    if FLAG_WORDS.contains(&item) {
        return true;
    }
    let mut depth = 0;
    for c in item.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ':' if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

fn pick<'a, T>(rng: &mut Rng, list: &'a [T]) -> &'a T {
    &list[rng.below(list.len() as u64) as usize]
}

// ---- meaning-keeping rewrites ----

/// Applies spelling rewrites, each with its own probability.
fn rewrite(p: &mut Parsed, rng: &mut Rng) {
    rewrite_suffix(p, rng);
    for i in 0..p.items.len() {
        let item = p.items[i].1.clone();
        let mut new = item.clone();
        if rng.one_in(4) {
            new = respell_numbers(&new, rng);
        }
        if rng.one_in(3) {
            new = respell_float(&new, rng);
        }
        if rng.one_in(2) {
            new = respell_src_mods(&new);
        }
        if rng.one_in(6) {
            new = respell_register(&new, rng);
        }
        if rng.one_in(2) {
            new = respell_symbolic(&new, rng);
        }
        p.items[i].1 = new;
    }
    if rng.one_in(3) {
        shuffle_modifiers(p, rng);
    }
    if rng.one_in(4) {
        drop_default_modifiers(p, rng);
    }
    if p.mnemonic == "s_waitcnt" && rng.one_in(2) {
        respell_waitcnt(p, rng);
    }
    if rng.one_in(4) {
        respell_separators(p, rng);
    }
    // Drawn from a generator of their own, so that the statements (and the figures) of
    // earlier runs stay as they were.
    let mut nested = rng.fork(0x6e65_7374);
    for item in &mut p.items {
        if nested.one_in(8) {
            item.1 = respell_as_nested_expression(&item.1, &mut nested);
        }
    }
    let mut gnu = rng.fork(0x676e_7520);
    for item in &mut p.items {
        if gnu.one_in(12) {
            item.1 = respell_with_gnu_operators(&item.1, &mut gnu);
        }
    }
}

/// Suffixes added to a mnemonic without one (mostly valid for VALU rows).
const ADDED_SUFFIXES: [&str; 5] = ["_e64", "_e32", "_e64", "_sdwa", "_dpp"];
/// Suffixes appended as a mutation.
const WRONG_SUFFIXES: [&str; 6] = ["_e32", "_e64", "_sdwa", "_dpp", "_x2", "_b64"];

fn rewrite_suffix(p: &mut Parsed, rng: &mut Rng) {
    for suffix in ["_e32", "_e64", "_sdwa", "_dpp"] {
        if let Some(base) = p.mnemonic.strip_suffix(suffix) {
            if rng.one_in(2) {
                p.mnemonic = base.to_string();
            }
            return;
        }
    }
    if p.mnemonic.starts_with("v_") && rng.one_in(8) {
        let suffix = *pick(rng, &ADDED_SUFFIXES);
        p.mnemonic.push_str(suffix);
    }
}

/// Rewrites integer tokens in decimal as hex and hex as decimal (not digits that are part of
/// a name such as `v12`, `mrt0`, `BUF_DATA_FORMAT_32`, or of a float).
fn respell_numbers(item: &str, rng: &mut Rng) -> String {
    let b = item.as_bytes();
    let mut out = String::with_capacity(item.len() + 8);
    let mut i = 0;
    while i < b.len() {
        let prev_ok = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if b[i].is_ascii_digit() && prev_ok {
            let start = i;
            let hex = b[i] == b'0' && b.get(i + 1) == Some(&b'x');
            i += if hex { 2 } else { 0 };
            while i < b.len() && (b[i].is_ascii_hexdigit() && hex || b[i].is_ascii_digit()) {
                i += 1;
            }
            let tok = &item[start..i];
            let in_float = b.get(i) == Some(&b'.') || (start > 0 && b[start - 1] == b'.');
            let value = if hex {
                u64::from_str_radix(&tok[2..], 16).ok()
            } else {
                tok.parse::<u64>().ok()
            };
            match value {
                Some(v) if !in_float && rng.one_in(2) => {
                    if hex {
                        out.push_str(&v.to_string());
                    } else {
                        out.push_str(&format!("0x{v:x}"));
                    }
                }
                _ => out.push_str(tok),
            }
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// An integer operand inside parentheses and pairs of negations, a few levels deep or (one
/// time in sixteen) thousands of levels deep: llvm-mc-19 reads up to 10,000 levels, and the
/// assembler folds any depth of them over a constant.
fn respell_as_nested_expression(item: &str, rng: &mut Rng) -> String {
    if !is_plain_int(item) {
        return item.to_string();
    }
    let depth = if rng.one_in(16) {
        1000 + rng.below(2000) as usize
    } else {
        1 + rng.below(8) as usize
    };
    match rng.below(3) {
        0 => format!("{}{item}{}", "(".repeat(depth), ")".repeat(depth)),
        1 => format!("({}{item})", "- - ".repeat(depth)),
        _ => format!("{}{item}{}", "(~(~".repeat(depth), "))".repeat(depth)),
    }
}

/// True if `item` is a plain decimal or hexadecimal integer, with an optional `-`.
fn is_plain_int(item: &str) -> bool {
    let body = item.strip_prefix('-').unwrap_or(item);
    !body.is_empty()
        && (body.bytes().all(|c| c.is_ascii_digit())
            || body
                .strip_prefix("0x")
                .is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit())))
}

/// An integer operand rewritten with the operators llvm-mc takes from GNU as: the bracket
/// expression `[x]`, `<>` (not equal), binary `!` (or-not), and `>>`, a logical shift
/// (`((x << 8) >> 8)` keeps a small positive `x` and turns a negative one into a large
/// positive number, which both assemblers must then refuse alike).
fn respell_with_gnu_operators(item: &str, rng: &mut Rng) -> String {
    if !is_plain_int(item) {
        return item.to_string();
    }
    match rng.below(5) {
        0 => format!("([{item}])"),
        1 => format!("({item} ! -1)"),
        2 => format!("({item} + (3 <> 3))"),
        3 => format!("((({item}) << 8) >> 8)"),
        _ => format!("({item} >> (64 <> 64))"),
    }
}

fn respell_float(item: &str, rng: &mut Rng) -> String {
    let body = item.trim_start_matches('-');
    let is_float = body.contains('.') && body.bytes().all(|c| c.is_ascii_digit() || c == b'.') && {
        body.parse::<f64>().is_ok()
    };
    if !is_float {
        return item.to_string();
    }
    let f: f64 = item.parse().unwrap_or(0.0);
    match rng.below(4) {
        0 => format!("{item}0"),
        1 => format!("{f:e}").replace("e", ".0e"),
        // The bit pattern at single precision: the same value for 32-bit float operands.
        2 => format!("0x{:x}", (f as f32).to_bits()),
        _ if f.fract() == 0.0 => format!("{}", f as i64),
        _ => item.to_string(),
    }
}

/// `-|x|` as `neg(abs(x))`, `|x|` as `abs(x)`, `-v1` as `neg(v1)`.
fn respell_src_mods(item: &str) -> String {
    if let Some(inner) = item.strip_prefix("-|").and_then(|s| s.strip_suffix('|')) {
        return format!("neg(abs({inner}))");
    }
    if let Some(inner) = item.strip_prefix('|').and_then(|s| s.strip_suffix('|')) {
        return format!("abs({inner})");
    }
    if let Some(inner) = item.strip_prefix('-') {
        if inner.starts_with(|c: char| c.is_ascii_alphabetic() || c == '[') {
            return format!("neg({inner})");
        }
    }
    item.to_string()
}

/// A register prefix and its number or range: `v5` → ("v", 5, 5), `s[4:7]` → ("s", 4, 7).
fn register_parts(item: &str) -> Option<(&str, u32, u32)> {
    let prefix_len = ["ttmp", "s", "v", "a"]
        .iter()
        .find(|p| item.starts_with(**p))?
        .len();
    let (prefix, rest) = item.split_at(prefix_len);
    if let Some(range) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (lo, hi) = range.split_once(':')?;
        return Some((prefix, lo.parse().ok()?, hi.parse().ok()?));
    }
    let n = rest.parse().ok()?;
    Some((prefix, n, n))
}

fn respell_register(item: &str, rng: &mut Rng) -> String {
    if item == "vcc" && rng.one_in(2) {
        return "[vcc_lo,vcc_hi]".to_string();
    }
    if item == "exec" && rng.one_in(2) {
        return "[exec_lo,exec_hi]".to_string();
    }
    let Some((prefix, lo, hi)) = register_parts(item) else {
        return item.to_string();
    };
    if lo == hi && rng.one_in(2) {
        return format!("{prefix}[{lo}]");
    }
    if lo == hi {
        return format!("{prefix}[{lo}:{lo}]");
    }
    let regs: Vec<String> = (lo..=hi).map(|n| format!("{prefix}{n}")).collect();
    format!("[{}]", regs.join(","))
}

const HWREG_NAMES: &[(&str, u32)] = &[
    ("HW_REG_MODE", 1),
    ("HW_REG_STATUS", 2),
    ("HW_REG_TRAPSTS", 3),
    ("HW_REG_HW_ID", 4),
    ("HW_REG_GPR_ALLOC", 5),
    ("HW_REG_LDS_ALLOC", 6),
    ("HW_REG_IB_STS", 7),
    ("HW_REG_SH_MEM_BASES", 15),
    ("HW_REG_XCC_ID", 20),
];

const MSG_NAMES: &[(&str, u32)] = &[
    ("MSG_INTERRUPT", 1),
    ("MSG_GS_DONE", 3),
    ("MSG_GS", 2),
    ("MSG_SAVEWAVE", 4),
    ("MSG_STALL_WAVE_GEN", 5),
    ("MSG_HALT_WAVES", 6),
    ("MSG_ORDERED_PS_DONE", 7),
    ("MSG_GS_ALLOC_REQ", 9),
    ("MSG_GET_DOORBELL", 10),
    ("MSG_SYSMSG", 15),
    ("GS_OP_NOP", 0),
    ("GS_OP_CUT", 1),
    ("GS_OP_EMIT_CUT", 3),
    ("GS_OP_EMIT", 2),
    ("SYSMSG_OP_ECC_ERR_INTERRUPT", 1),
    ("SYSMSG_OP_REG_RD", 2),
    ("SYSMSG_OP_HOST_TRAP_ACK", 3),
    ("SYSMSG_OP_TTRACE_PC", 4),
];

/// `hwreg(HW_REG_MODE, 0, 32)` as `hwreg(1, 0, 32)` or `hwreg(HW_REG_MODE)`, message names
/// as numbers.
fn respell_symbolic(item: &str, rng: &mut Rng) -> String {
    let mut s = item.to_string();
    if s.starts_with("hwreg(") && rng.one_in(3) {
        return hwreg_as_struct(&s, rng);
    }
    if let Some(rest) = s
        .strip_prefix('a')
        .filter(|r| r.starts_with(|c: char| c.is_ascii_digit() || c == '['))
    {
        // LLVM's other spelling of the AccVGPR prefix.
        if rng.one_in(3) {
            return format!("acc{rest}");
        }
    }
    if s.starts_with("hwreg(") {
        if s.ends_with(", 0, 32)") && rng.one_in(2) {
            s = s.replace(", 0, 32)", ")");
        }
        if rng.one_in(2) {
            for (name, id) in HWREG_NAMES {
                s = s.replace(name, &id.to_string());
            }
        }
    } else if s.starts_with("sendmsg(") && rng.one_in(2) {
        for (name, id) in MSG_NAMES {
            if rng.one_in(2) {
                s = s.replace(name, &id.to_string());
            }
        }
    }
    s
}

/// `hwreg(NAME_OR_ID, OFFSET, SIZE)` as LLVM 19's structured operand: `{id: N, offset: O,
/// size: S}`, the fields in a random order, those at their default sometimes left out.
fn hwreg_as_struct(item: &str, rng: &mut Rng) -> String {
    let inner = &item["hwreg(".len()..item.len() - 1];
    let args: Vec<&str> = inner.split(',').map(str::trim).collect();
    let id = HWREG_NAMES
        .iter()
        .find(|(name, _)| *name == args[0])
        .map_or_else(|| args[0].to_string(), |(_, id)| id.to_string());
    let offset = args.get(1).copied().unwrap_or("0");
    let size = args.get(2).copied().unwrap_or("32");
    let mut fields: Vec<String> = Vec::new();
    for (name, value, default) in [
        ("id", id.as_str(), "0"),
        ("offset", offset, "0"),
        ("size", size, "32"),
    ] {
        if value != default || !rng.one_in(2) {
            fields.push(format!("{name}: {value}"));
        }
    }
    for k in (1..fields.len()).rev() {
        let j = rng.below(k as u64 + 1) as usize;
        fields.swap(k, j);
    }
    format!("{{{}}}", fields.join(", "))
}

fn shuffle_modifiers(p: &mut Parsed, rng: &mut Rng) {
    let mods = p.modifiers();
    for k in (1..mods.len()).rev() {
        let j = rng.below(k as u64 + 1) as usize;
        let (a, b) = (mods[k], mods[j]);
        let tmp = p.items[a].1.clone();
        p.items[a].1 = p.items[b].1.clone();
        p.items[b].1 = tmp;
    }
}

/// Drops modifiers whose value is llvm-mc's default.
fn drop_default_modifiers(p: &mut Parsed, rng: &mut Rng) {
    const DEFAULTS: &[&str] = &[
        "row_mask:0xf",
        "bank_mask:0xf",
        "dst_sel:DWORD",
        "src0_sel:DWORD",
        "src1_sel:DWORD",
        "dst_unused:UNUSED_PRESERVE",
        "offset:0",
        "op_sel:[0,0]",
        "op_sel:[0,0,0]",
        "op_sel_hi:[1,1]",
        "op_sel_hi:[1,1,1]",
        "dmask:0x1",
    ];
    p.items
        .retain(|(_, item)| !(DEFAULTS.contains(&item.as_str()) && rng.one_in(2)));
}

fn respell_waitcnt(p: &mut Parsed, rng: &mut Rng) {
    let sep = *pick(rng, &[" & ", "&", ", ", ",", "  "]);
    if rng.one_in(2) {
        let n = p.items.len();
        for k in (1..n).rev() {
            let j = rng.below(k as u64 + 1) as usize;
            let tmp = p.items[k].1.clone();
            p.items[k].1 = p.items[j].1.clone();
            p.items[j].1 = tmp;
        }
    }
    for (k, (s, _)) in p.items.iter_mut().enumerate() {
        if k > 0 {
            *s = sep.to_string();
        }
    }
}

fn respell_separators(p: &mut Parsed, rng: &mut Rng) {
    for (k, (sep, _)) in p.items.iter_mut().enumerate() {
        if k == 0 {
            if rng.one_in(3) {
                *sep = pick(rng, &["  ", "\t", " \t "]).to_string();
            }
        } else if sep.contains(',') {
            *sep = pick(rng, &[",", ", ", " ,", " , ", ",  ", ",\t"]).to_string();
        } else if rng.one_in(3) {
            *sep = pick(rng, &["  ", "\t", " "]).to_string();
        }
    }
}

// ---- mutations ----

/// Applies one mutation that may make the statement invalid or change what it means.
fn mutate(p: &mut Parsed, rng: &mut Rng) {
    match rng.below(13) {
        12 => break_symbolic(p, rng),
        0 => mutate_register_class(p, rng),
        1 => mutate_immediate(p, rng),
        2 => mutate_mnemonic(p, rng),
        3 => mutate_operand_count(p, rng),
        4 | 5 => add_modifier(p, rng),
        6 | 7 => replace_with_constant(p, rng),
        8 | 9 => wrap_with_modifier(p, rng),
        10 => replace_with_special(p, rng),
        _ => {
            // vcc and its halves.
            for (_, item) in &mut p.items {
                if item == "vcc" {
                    *item = "vcc_lo".into();
                    return;
                } else if item == "vcc_lo" {
                    *item = "vcc".into();
                    return;
                }
            }
            mutate_register_class(p, rng)
        }
    }
}

/// Wrong `sendmsg(...)` forms: names of other targets, operations and streams a message
/// does not take, missing operations, out-of-range numbers, extra arguments.
const BAD_SENDMSG: &[&str] = &[
    "sendmsg(MSG_GS)",
    "sendmsg(MSG_GS_DONE)",
    "sendmsg(MSG_SYSMSG)",
    "sendmsg(MSG_GS, GS_OP_NOP)",
    "sendmsg(MSG_GS, 0)",
    "sendmsg(MSG_GS_DONE, GS_OP_NOP, 0)",
    "sendmsg(MSG_GS, GS_OP_CUT, 4)",
    "sendmsg(MSG_SYSMSG, 0)",
    "sendmsg(MSG_SYSMSG, 3)",
    "sendmsg(MSG_SYSMSG, SYSMSG_OP_HOST_TRAP_ACK)",
    "sendmsg(MSG_SYSMSG, SYSMSG_OP_REG_RD, 0)",
    "sendmsg(MSG_INTERRUPT, 0)",
    "sendmsg(MSG_INTERRUPT, GS_OP_CUT)",
    "sendmsg(MSG_SAVEWAVE)",
    "sendmsg(MSG_GS_ALLOC_REQ)",
    "sendmsg(MSG_GET_DOORBELL, 1)",
    "sendmsg(MSG_GET_DDID)",
    "sendmsg(MSG_HS_TESSFACTOR)",
    "sendmsg(2, 1, 4)",
    "sendmsg(2, 8)",
    "sendmsg(1, GS_OP_CUT)",
    "sendmsg(15, GS_OP_CUT)",
    "sendmsg(16)",
    "sendmsg(MSG_GS, GS_OP_CUT, 1, 2)",
    "sendmsg()",
];

/// Wrong (and a few right) `swizzle(...)` forms: argument counts, ranges, modes.
const BAD_SWIZZLE: &[&str] = &[
    "offset:swizzle(QUAD_PERM,0,1,2)",
    "offset:swizzle(QUAD_PERM,0,1,2,3,0)",
    "offset:swizzle(QUAD_PERM,0,1,2,4)",
    "offset:swizzle(BITMASK_PERM,\"01pi0\",1)",
    "offset:swizzle(BITMASK_PERM,\"01pi\")",
    "offset:swizzle(BITMASK_PERM)",
    "offset:swizzle(BROADCAST,2,0,1)",
    "offset:swizzle(BROADCAST,3,0)",
    "offset:swizzle(BROADCAST,64,0)",
    "offset:swizzle(BROADCAST,4,4)",
    "offset:swizzle(BROADCAST,32,31)",
    "offset:swizzle(SWAP,1,1)",
    "offset:swizzle(SWAP,3)",
    "offset:swizzle(SWAP,32)",
    "offset:swizzle(SWAP,16)",
    "offset:swizzle(REVERSE)",
    "offset:swizzle(REVERSE,1)",
    "offset:swizzle(REVERSE,6)",
    "offset:swizzle(FFT,1)",
    "offset:swizzle()",
    "offset:65536",
];

/// Breaks a symbolic operand: a wrong sendmsg or swizzle form, or a dangling or doubled
/// separator after s_waitcnt counters.
fn break_symbolic(p: &mut Parsed, rng: &mut Rng) {
    if let Some(i) = p
        .items
        .iter()
        .position(|(_, it)| it.starts_with("sendmsg("))
    {
        p.items[i].1 = pick(rng, BAD_SENDMSG).to_string();
    } else if let Some(i) = p.items.iter().position(|(_, it)| it.contains("swizzle(")) {
        p.items[i].1 = pick(rng, BAD_SWIZZLE).to_string();
    } else if p.items.iter().any(|(_, it)| it.contains("cnt(")) {
        let n = p.items.len();
        match rng.below(3) {
            0 => {
                let tail: &&str = pick(rng, &[",", " &", ", ", "&"]);
                p.items[n - 1].1.push_str(tail)
            }
            _ if n > 1 => {
                p.items[n - 1].0 = pick(rng, &[" && ", " ,, ", " ,& ", " | "]).to_string()
            }
            _ => p.items[0].0 = " & ".to_string(),
        }
    } else {
        mutate_immediate(p, rng)
    }
}

fn random_operand(p: &Parsed, rng: &mut Rng) -> Option<usize> {
    let ops = p.operands();
    (!ops.is_empty()).then(|| *pick(rng, &ops))
}

fn mutate_register_class(p: &mut Parsed, rng: &mut Rng) {
    let Some(i) = random_operand(p, rng) else {
        return;
    };
    let item = p.items[i].1.clone();
    let Some((prefix, lo, hi)) = register_parts(&item) else {
        return replace_with_special(p, rng);
    };
    let (mut lo, mut hi) = (lo, hi);
    let new_prefix = match rng.below(4) {
        0 => *pick(rng, &["s", "v", "a", "ttmp"]),
        1 => {
            hi = if rng.one_in(2) {
                hi + 1
            } else {
                hi.saturating_sub(1).max(lo)
            };
            prefix
        }
        2 => {
            let n = *pick(rng, &[101u32, 102, 103, 104, 105, 255, 256, 15, 16, 1, 3]);
            hi = n + (hi - lo);
            lo = n;
            prefix
        }
        _ => {
            // The next width that exists: 3, 4, 8, 16 registers.
            hi = lo + *pick(rng, &[1u32, 2, 3, 5, 7, 15]);
            prefix
        }
    };
    p.items[i].1 = if lo == hi {
        format!("{new_prefix}{lo}")
    } else {
        format!("{new_prefix}[{lo}:{hi}]")
    };
}

fn mutate_immediate(p: &mut Parsed, rng: &mut Rng) {
    const VALUES: &[&str] = &[
        "-1",
        "0",
        "1",
        "4095",
        "4096",
        "-4096",
        "-4097",
        "8191",
        "0xffff",
        "65535",
        "65536",
        "-32768",
        "-32769",
        "0xfffff",
        "0x100000",
        "0x1fffff",
        "-0x100000",
        "0x7fffffff",
        "0xffffffff",
        "0x100000000",
        "255",
        "256",
        "16",
        "15",
        "63",
        "64",
        "7",
        "8",
    ];
    let mods = p.modifiers();
    let with_value: Vec<usize> = mods
        .into_iter()
        .filter(|&i| {
            p.items[i]
                .1
                .split_once(':')
                .is_some_and(|(_, v)| v.starts_with(|c: char| c.is_ascii_digit() || c == '-'))
        })
        .collect();
    if !with_value.is_empty() && rng.one_in(2) {
        let i = *pick(rng, &with_value);
        let name = p.items[i]
            .1
            .split_once(':')
            .map_or("", |(n, _)| n)
            .to_string();
        p.items[i].1 = format!("{name}:{}", pick(rng, VALUES));
        return;
    }
    let Some(i) = random_operand(p, rng) else {
        return;
    };
    let item = &p.items[i].1;
    if item.starts_with(|c: char| c.is_ascii_digit() || c == '-') || rng.one_in(4) {
        p.items[i].1 = pick(rng, VALUES).to_string();
    }
}

fn mutate_mnemonic(p: &mut Parsed, rng: &mut Rng) {
    let m = &mut p.mnemonic;
    match rng.below(5) {
        0 if m.len() > 3 => {
            let at = 2 + rng.below(m.len() as u64 - 2) as usize;
            m.remove(at);
        }
        1 => {
            let at = 2 + rng.below(m.len() as u64 - 1) as usize;
            let c = (b'a' + rng.below(26) as u8) as char;
            m.insert(at.min(m.len()), c);
        }
        2 => {
            let suffix = *pick(rng, &WRONG_SUFFIXES);
            m.push_str(suffix)
        }
        3 => *m = m.to_ascii_uppercase(),
        _ => {
            // Another generation's spelling.
            for (a, b) in [
                ("v_add_co_u32", "v_add_u32"),
                ("v_add_u32", "v_add_i32"),
                ("v_sub_co_u32", "v_sub_u32"),
                ("_b32", "_b64"),
                ("dword", "dwordx2"),
                ("_f32", "_f16"),
                ("buffer_", "tbuffer_"),
                ("global_", "flat_"),
                ("flat_", "scratch_"),
            ] {
                if m.contains(a) {
                    *m = m.replacen(a, b, 1);
                    return;
                }
            }
        }
    }
}

fn mutate_operand_count(p: &mut Parsed, rng: &mut Rng) {
    let ops = p.operands();
    if rng.one_in(2) {
        if let Some(&last) = ops.last() {
            p.items.remove(last);
        }
    } else if let Some(&last) = ops.last() {
        let item = p.items[last].1.clone();
        p.items.insert(last + 1, (", ".into(), item));
    } else {
        p.items.push((" ".into(), "v1".into()));
    }
}

fn add_modifier(p: &mut Parsed, rng: &mut Rng) {
    const MODS: &[&str] = &[
        "glc",
        "slc",
        "sc0",
        "sc1",
        "nt",
        "scc",
        "lds",
        "tfe",
        "gds",
        "offen",
        "idxen",
        "addr64",
        "clamp",
        "mul:2",
        "mul:4",
        "div:2",
        "mul:3",
        "offset:16",
        "offset:4095",
        "offset:-16",
        "offset0:1",
        "offset1:255",
        "op_sel:[1,0]",
        "op_sel:[0,1,0]",
        "op_sel:[0,0,0,1]",
        "op_sel_hi:[0,1]",
        "op_sel_hi:[0,0,0]",
        "neg_lo:[1,0]",
        "neg_hi:[0,1,1]",
        "dst_sel:WORD_1",
        "src0_sel:BYTE_2",
        "src1_sel:WORD_0",
        "dst_unused:UNUSED_SEXT",
        "dst_unused:UNUSED_PAD",
        "row_shl:1",
        "row_ror:15",
        "wave_shr:1",
        "row_newbcast:3",
        "quad_perm:[1,0,3,2]",
        "row_mask:0x3",
        "bank_mask:0x5",
        "bound_ctrl:0",
        "row_bcast:15",
        "row_mirror",
        "fi:1",
        "dmask:0x7",
        "dmask:0xf",
        "unorm",
        "da",
        "d16",
        "a16",
        "r128",
        "lwe",
        "high",
        "vm",
        "done",
        "compr",
        "format:[BUF_DATA_FORMAT_32]",
        "format:[BUF_NUM_FORMAT_FLOAT,BUF_DATA_FORMAT_16]",
        "format:22",
        "dfmt:4",
        "nfmt:7",
        "dfmt:15 nfmt:2",
        "cbsz:1",
        "abid:2",
        "blgp:3",
        "neg:[1,0,0]",
        "dlc",
        "nv",
    ];
    let sep = if rng.one_in(8) { ", " } else { " " };
    p.items.push((sep.into(), pick(rng, MODS).to_string()));
}

const CONSTANTS: &[&str] = &[
    // Floats that overflow or underflow an operand type, or are exact denormals.
    "1e40",
    "-1e-40",
    "1e-46",
    "6e-08",
    "1.401298464324817e-45",
    "4.9e-324",
    "1e-320",
    ".5",
    "-.5",
    "5.",
    ".5e1",
    "0x1p-1",
    "-0x1.8p1",
    "0",
    "1",
    "-1",
    "64",
    "65",
    "-16",
    "-17",
    "0.5",
    "-0.5",
    "-4.0",
    "1.0",
    "2.0",
    "0.15915494",
    "0.15915494309189532",
    "0x3f800000",
    "0x3c00",
    "0x4400",
    "0xbc00",
    "0x3e22f983",
    "0x3118",
    "0x3fc45f306dc9c882",
    "0x3ff0000000000000",
    "0x1234",
    "0x12345678",
    "0xffffffff",
    "0xfffffff0",
    "-0x80000000",
    "0x80000000",
    "0x7fffffff",
    "0x100000000",
    "0xffffffff00000000",
    "1.5",
    "-3.14",
    "65504.0",
    "100000.0",
    "1.0e-5",
    "lit(1)",
    "lit(1.0)",
    "lit(0x12345678)",
    "1+2",
    "(4*16)",
    "-(2)",
    "~0",
];

fn replace_with_constant(p: &mut Parsed, rng: &mut Rng) {
    let ops = p.operands();
    // Sources, rarely the destination.
    let candidates: Vec<usize> = ops.iter().copied().skip(1).collect();
    let i = if candidates.is_empty() || rng.one_in(10) {
        match ops.first() {
            Some(&i) => i,
            None => return,
        }
    } else {
        *pick(rng, &candidates)
    };
    p.items[i].1 = pick(rng, CONSTANTS).to_string();
}

fn wrap_with_modifier(p: &mut Parsed, rng: &mut Rng) {
    let ops = p.operands();
    let candidates: Vec<usize> = ops.iter().copied().skip(1).collect();
    let Some(&i) = (!candidates.is_empty())
        .then(|| pick(rng, &candidates))
        .or(ops.first())
    else {
        return;
    };
    let forms = [
        "-{}",
        "|{}|",
        "-|{}|",
        "neg({})",
        "abs({})",
        "sext({})",
        "neg(abs({}))",
        "abs(neg({}))",
        "sext(-{})",
        "-sext({})",
        "--{}",
        "| {} |",
        "lit({})",
    ];
    let form = pick(rng, &forms);
    let inner = p.items[i].1.clone();
    p.items[i].1 = form.replace("{}", &inner);
}

fn replace_with_special(p: &mut Parsed, rng: &mut Rng) {
    const SPECIALS: &[&str] = &[
        "vcc",
        "vcc_lo",
        "vcc_hi",
        "exec",
        "exec_lo",
        "exec_hi",
        "m0",
        "flat_scratch",
        "flat_scratch_lo",
        "flat_scratch_hi",
        "xnack_mask",
        "xnack_mask_hi",
        "tba",
        "tma_lo",
        "ttmp0",
        "ttmp[0:1]",
        "ttmp[4:7]",
        "ttmp12",
        "ttmp15",
        "src_shared_base",
        "src_private_limit",
        "src_pops_exiting_wave_id",
        "src_lds_direct",
        "lds_direct",
        "src_scc",
        "src_vccz",
        "src_execz",
        "scc",
        "null",
        "off",
        "s101",
        "s102",
        "s103",
        "s[100:101]",
        "s[102:103]",
        "v255",
        "v[254:255]",
        "a255",
        "a[0:1]",
        "a[1:2]",
        "v[1:2]",
        "s[2:3]",
        "s[1:2]",
        "s[4:7]",
        "s[8:15]",
        "v[0:3]",
        "foo",
    ];
    let Some(i) = random_operand(p, rng) else {
        return;
    };
    p.items[i].1 = pick(rng, SPECIALS).to_string();
}

// ---- known LLVM bugs ----

/// The read-only scalar values that llvm-mc-19 takes as destinations.
const READ_ONLY: &[&str] = &[
    "src_shared_base",
    "src_shared_limit",
    "src_private_base",
    "src_private_limit",
    "src_pops_exiting_wave_id",
    "shared_base",
    "shared_limit",
    "private_base",
    "private_limit",
    "pops_exiting_wave_id",
    "src_vccz",
    "src_execz",
    "src_scc",
    "vccz",
    "execz",
    "scc",
];

/// Names a disagreement that is a documented llvm-mc-19 bug (docs/llvm-differences.md,
/// "Assembler"): a statement llvm-mc assembles to something else than what it says, which
/// gcnkit rejects or (one case) encodes as written. `None` for any other disagreement.
pub fn known_llvm_bug(
    text: &str,
    llvm_accepted: bool,
    gcnkit_accepted: bool,
) -> Option<&'static str> {
    if !llvm_accepted {
        return None;
    }
    // The mnemonic may end at a tab, and be written in capitals.
    let mut p = Parsed::split(&text.trim().replacen('\t', " ", 1));
    p.mnemonic.make_ascii_lowercase();
    let sdwa = p.mnemonic.ends_with("_sdwa")
        || p.items.iter().any(|(_, item)| {
            ["src0_sel:", "src1_sel:", "dst_sel:", "dst_unused:"]
                .iter()
                .any(|c| item.starts_with(c))
        });
    // Where both assemble the statement, to different bytes:
    // A single-precision inline pattern as the class mask of v_cmp_class_f16 / v_cmpx_class_f16
    // in SDWA: llvm-mc encodes another source (0x3f800000 becomes s0).
    // So is a real token whose single-precision bits are an inline integer (the denormals
    // 1.401298464324817e-45 and 2.802596928649634e-45, inline 1 and 2): llvm-mc encodes s0.
    let denormal_integer = |item: &str| {
        let real = !item.starts_with("0x") && item.contains(['.', 'e', 'E']);
        real && item.parse::<f64>().is_ok_and(|f| {
            let s = f as f32;
            f64::from(s) == f && (1..=64).contains(&s.to_bits())
        })
    };
    let float_pattern = p.items.iter().skip(1).any(|(_, item)| {
        parse_int(item).is_some_and(|v| !(-16..=64).contains(&v)) || denormal_integer(item)
    });
    if sdwa && p.mnemonic.contains("class_f16") && float_pattern {
        return Some("FP32 inline pattern as the class mask of an f16 SDWA compare misencoded");
    }
    // gfx90a's `scc` cache-policy bit on the FP64 atomics: llvm-mc takes it and drops it.
    let f64_atomic = ["flat_atomic_", "global_atomic_"]
        .iter()
        .any(|m| p.mnemonic.starts_with(m))
        && p.mnemonic.ends_with("_f64");
    if f64_atomic && p.items.iter().any(|(_, item)| item == "scc") {
        return Some("scc of an FP64 atomic dropped");
    }
    if gcnkit_accepted {
        return None;
    }
    // Where gcnkit rejects the statement:
    // A read-only value as the destination: llvm-mc encodes its number, truncated to 7 bits
    // in SOP/SMEM fields (src_execz becomes m0). The first item is the destination even when
    // it is `scc`, which is also a cache-policy flag.
    if p.items
        .first()
        .is_some_and(|(_, d)| READ_ONLY.contains(&d.as_str()))
    {
        return Some("read-only register accepted as destination");
    }
    // Likewise as the carry-out (the second operand) of a VOP3 carry instruction.
    let carry = ["_co_u32", "v_addc_", "v_subb_", "v_subbrev_", "v_div_scale"]
        .iter()
        .any(|m| p.mnemonic.contains(m));
    if carry
        && p.items
            .get(1)
            .is_some_and(|(_, d)| READ_ONLY.contains(&d.as_str()))
    {
        return Some("read-only register accepted as destination");
    }
    // And as the register s_setreg_b32 writes from, in SOPK's 7-bit field.
    if p.mnemonic == "s_setreg_b32" && p.items.iter().any(|(_, i)| READ_ONLY.contains(&i.as_str()))
    {
        return Some("read-only register accepted as SOPK source");
    }
    // The same values as the SGPR offset of scalar memory, truncated to 7 bits.
    let smem = [
        "s_atc_probe",
        "s_load",
        "s_buffer",
        "s_store",
        "s_atomic",
        "s_scratch",
        "s_dcache_discard",
        "s_atc_probe",
    ]
    .iter()
    .any(|m| p.mnemonic.starts_with(m));
    let read_only_item = p
        .items
        .iter()
        .any(|(_, item)| READ_ONLY.contains(&item.as_str()));
    if smem && read_only_item {
        return Some("read-only register accepted as SMEM offset");
    }
    // And as the SGPR address of global/scratch memory, truncated to 7 bits (src_shared_base
    // becomes vcc_hi); `scc` there is read as that register, not as the cache-policy flag.
    let flat = ["global_", "scratch_"]
        .iter()
        .any(|m| p.mnemonic.to_ascii_lowercase().starts_with(m));
    if flat && read_only_item {
        return Some("read-only register accepted as FLAT scalar address");
    }
    // `abs` on src1 of v_div_scale_f32/f64 (VOP3B, which has no abs bits): llvm-mc drops it
    // where it refuses it on src0 and src2 ("ABS not allowed in VOP3B instructions").
    let abs_src1 = p.items.get(3).is_some_and(|(_, item)| {
        let item = item.strip_prefix('-').unwrap_or(item);
        item.starts_with('|') || item.starts_with("abs(") || item.starts_with("neg(abs(")
    });
    if p.mnemonic.starts_with("v_div_scale_f") && abs_src1 {
        return Some("abs on src1 of a VOP3B instruction dropped");
    }
    // The 7-bit immediate of the scalar probes: llvm-mc checks no range and keeps the low
    // 7 bits.
    let probe_out_of_range = p
        .items
        .first()
        .and_then(|(_, item)| const_expr(item))
        .is_some_and(|v| !(0..128).contains(&v));
    if p.mnemonic.starts_with("s_atc_probe") && probe_out_of_range {
        return Some("probe immediate of more than 7 bits truncated");
    }
    // The 32-bit constant of s_setreg_imm32_b32: llvm-mc checks no range and keeps the low
    // 32 bits.
    // The constant is the last item (a structured hwreg splits into several); `--x` is `x`
    // in an expression, where a real number stands for the bits of its double.
    let imm32_out_of_range = p.items.last().is_some_and(|(_, item)| {
        let real = item
            .strip_prefix("--")
            .filter(|r| !r.starts_with("0x") && r.contains(['.', 'e', 'E']))
            .and_then(|r| r.parse::<f64>().ok());
        if let Some(real) = real {
            return real.to_bits() >> 32 != 0;
        }
        let item = item.strip_prefix("--").unwrap_or(item);
        let digits = item.strip_prefix('-').unwrap_or(item);
        let v = match digits.strip_prefix("0x") {
            Some(h) => i128::from_str_radix(h, 16).ok(),
            None => digits.parse::<i128>().ok(),
        };
        let v = if digits.len() < item.len() {
            v.map(|v| -v)
        } else {
            v
        };
        v.is_some_and(|v| i32::try_from(v).is_err() && u32::try_from(v).is_err())
    });
    if p.mnemonic == "s_setreg_imm32_b32" && imm32_out_of_range {
        return Some("s_setreg_imm32_b32 constant of more than 32 bits truncated");
    }
    // On gfx90a and gfx940 llvm-mc takes a VGPR pair as a 32-bit source of the DPP forms of
    // some VOP1/VOP2 instructions and encodes its first register.
    let dpp = p.mnemonic.ends_with("_dpp")
        || p.items.iter().any(|(_, item)| {
            ["quad_perm:", "row_", "wave_"]
                .iter()
                .any(|c| item.starts_with(c))
        });
    let pair_source = p.items.iter().skip(1).any(|(_, item)| {
        item.strip_prefix("v[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|r| r.split_once(':'))
            .and_then(|(lo, hi)| Some((parse_int(lo)?, parse_int(hi)?)))
            .is_some_and(|(lo, hi)| hi == lo + 1)
    });
    if dpp && pair_source && !p.mnemonic.contains("64") {
        return Some("VGPR pair accepted as a 32-bit DPP source");
    }
    // And the other way round: a single VGPR as the 64-bit source of a DPP f64 instruction
    // (`v_cvt_u32_f64 v24, v2 row_newbcast:3` reads v[2:3]).
    let single_source = p.items.iter().skip(1).any(|(_, item)| {
        item.strip_prefix('v')
            .is_some_and(|n| parse_int(n).is_some())
    });
    if dpp && single_source && p.mnemonic.contains("_f64") {
        return Some("single VGPR accepted as a 64-bit DPP source");
    }
    // A 16-bit integer constant of 0x8000..=0xffff as an SDWA source: llvm-mc encodes the
    // literal code 255, which SDWA cannot follow with a literal.
    let high_half_constant = p
        .items
        .iter()
        .skip(1)
        .any(|(_, item)| parse_int(item).is_some_and(|v| (0x8000..=0xffff).contains(&v)));
    if sdwa && high_half_constant {
        return Some("16-bit constant encoded as the literal code in SDWA");
    }
    // A MIMG dmask above 15: llvm-mc keeps its low 4 bits. The value is an expression that
    // may go on past blanks (`dmask:0x7 -16`) up to the next modifier.
    let dmask_at = p
        .items
        .iter()
        .position(|(_, item)| item.starts_with("dmask:"));
    let big_dmask = dmask_at
        .and_then(|k| {
            let mut e = p.items[k].1["dmask:".len()..].to_string();
            for (sep, item) in &p.items[k + 1..] {
                if is_modifier(item) {
                    break;
                }
                e.push_str(sep);
                e.push_str(item);
            }
            const_expr(&e)
        })
        .is_some_and(|v| !(0..16).contains(&v));
    if p.mnemonic.starts_with("image_") && big_dmask {
        return Some("dmask of more than 4 bits truncated");
    }
    // A MUBUF/MTBUF offset of 4096..=65535: llvm-mc keeps its low 12 bits.
    let buffer = p.mnemonic.starts_with("buffer_") || p.mnemonic.starts_with("tbuffer_");
    let big_offset = p.items.iter().any(|(_, item)| {
        item.strip_prefix("offset:")
            .and_then(parse_int)
            .is_some_and(|v| (4096..0x10000).contains(&v))
    });
    if buffer && big_offset {
        return Some("buffer offset of more than 12 bits truncated");
    }
    // Two encoding suffixes (`v_rcp_f32_e32_e64`): llvm-mc takes the outer one.
    let suffixes = ["_e32", "_e64", "_sdwa", "_dpp"];
    let inner = suffixes.iter().find_map(|sfx| p.mnemonic.strip_suffix(sfx));
    if inner.is_some_and(|m| suffixes.iter().any(|sfx| m.ends_with(sfx))) {
        return Some("two encoding suffixes accepted");
    }
    None
}

/// The value of an item that is a constant expression (`-(2)`, `0x80`), as gcnkit reads it.
fn const_expr(item: &str) -> Option<i64> {
    let mut lex = gcnkit_asm::lex::Lexer::new(item);
    let e = gcnkit_asm::expr::parse_expr(&mut lex, true).ok()?;
    if lex.peek().tok != gcnkit_asm::lex::Tok::Eof {
        return None;
    }
    e.eval(&gcnkit_asm::expr::NoSymbols).ok()
}

/// A decimal or `0x` hexadecimal integer.
fn parse_int(s: &str) -> Option<i64> {
    match s.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

// ---- llvm-mc ----

/// What llvm-mc made of one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LlvmAsm {
    /// The encoding (bytes a fixup patches later read as zero).
    Bytes(Vec<u8>),
    /// The first error message for the statement's line.
    Error(String),
    /// llvm-mc crashed on this statement alone.
    Crashed,
    /// Neither an encoding nor an error (e.g. two instructions); not compared.
    Other,
}

/// Records the first error llvm-mc reports for each statement (on line 2i+1); returns which
/// statements have one.
fn read_errors(stderr: &str, results: &mut [LlvmAsm]) -> Vec<bool> {
    let mut errored = vec![false; results.len()];
    for l in stderr.lines() {
        let Some(rest) = l.strip_prefix("<stdin>:") else {
            continue;
        };
        let mut parts = rest.splitn(3, ':');
        let (Some(line), Some(_col), Some(msg)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let Some(msg) = msg.trim_start().strip_prefix("error: ") else {
            continue;
        };
        let Ok(line) = line.parse::<usize>() else {
            continue;
        };
        let i = (line.saturating_sub(1)) / 2;
        if line % 2 == 1 && i < results.len() && !errored[i] {
            errored[i] = true;
            results[i] = LlvmAsm::Error(msg.to_string());
        }
    }
    errored
}

/// Records the encoding of each statement without an error: the one instruction printed
/// before its sentinel.
fn read_encodings(stdout: &str, errored: &[bool], results: &mut [LlvmAsm]) {
    let mut chunk: Vec<Vec<u8>> = Vec::new();
    let mut i = 0;
    for line in stdout.lines() {
        let Some((inst, enc)) = line.split_once("; encoding: [") else {
            continue;
        };
        if inst.trim() == SENTINEL_TEXT {
            if i < results.len() && !errored[i] && chunk.len() == 1 {
                results[i] = LlvmAsm::Bytes(chunk.pop().unwrap_or_default());
            }
            chunk.clear();
            i += 1;
        } else {
            let bytes = enc
                .split(']')
                .next()
                .unwrap_or("")
                .split(',')
                .map(|b| {
                    // Bytes a fixup fills in later print as `A`.
                    b.trim()
                        .strip_prefix("0x")
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                        .unwrap_or(0)
                })
                .collect();
            chunk.push(bytes);
        }
    }
}

/// The `s_nop 0x5a5a` sentinel after each statement keeps llvm-mc's output aligned with the
/// input: statement i is on input line 2i+1.
const SENTINEL_TEXT: &str = "s_nop 0x5a5a";

/// Assembles each statement with `llvm-mc -show-encoding`, a few thousand per process run.
/// A run that crashes is split in halves until the crashing statements are alone.
pub fn llvm_mc_assemble_each(
    bin: &Path,
    mcpu: &str,
    lines: &[String],
) -> std::io::Result<Vec<LlvmAsm>> {
    const BATCH: usize = 8192;
    crate::isolating_crashes(
        lines,
        BATCH,
        &|batch| assemble_batch(bin, mcpu, batch),
        &|| LlvmAsm::Crashed,
    )
}

fn assemble_batch(
    bin: &Path,
    mcpu: &str,
    lines: &[String],
) -> std::io::Result<Option<Vec<LlvmAsm>>> {
    let mut input = String::with_capacity(lines.len() * 64);
    for l in lines {
        input.push_str(l);
        input.push('\n');
        input.push_str(SENTINEL_TEXT);
        input.push('\n');
    }
    let mut child = Command::new(bin.join("llvm-mc"))
        .args([
            "-triple=amdgcn-amd-amdhsa",
            &format!("-mcpu={mcpu}"),
            "-show-encoding",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output()?;
    let _ = writer.join();
    if output.status.code().is_none() {
        return Ok(None);
    }
    let mut results: Vec<LlvmAsm> = vec![LlvmAsm::Other; lines.len()];
    let errored = read_errors(&String::from_utf8_lossy(&output.stderr), &mut results);
    read_encodings(
        &String::from_utf8_lossy(&output.stdout),
        &errored,
        &mut results,
    );
    Ok(Some(results))
}
