//! The table generator: parses and checks the `.tbl` files and writes `generated.rs`.
//!
//! The format is described in `crates/isa/tables/README.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{bail, Context, Result};

/// Encodings a row may name, with the Rust variant each maps to.
const ENCODINGS: &[(&str, &str)] = &[
    ("SOP2", "Sop2"),
    ("SOPK", "Sopk"),
    ("SOP1", "Sop1"),
    ("SOPC", "Sopc"),
    ("SOPP", "Sopp"),
    ("SMRD", "Smrd"),
    ("SMEM", "Smem"),
    ("VOP1", "Vop1"),
    ("VOP2", "Vop2"),
    ("VOPC", "Vopc"),
    ("VOP3", "Vop3"),
    ("VOP3P", "Vop3p"),
    ("VINTRP", "Vintrp"),
    ("DS", "Ds"),
    ("MUBUF", "Mubuf"),
    ("MTBUF", "Mtbuf"),
    ("MIMG", "Mimg"),
    ("EXP", "Exp"),
    ("FLAT", "Flat"),
    ("GLOBAL", "Global"),
    ("SCRATCH", "Scratch"),
];

const ROLES: &[(&str, &str)] = &[
    ("sdst", "Sdst"),
    ("ssrc0", "Ssrc0"),
    ("ssrc1", "Ssrc1"),
    ("simm16", "Simm16"),
    ("sdata", "Sdata"),
    ("sbase", "Sbase"),
    ("soffset", "Soffset"),
    ("offset", "Offset"),
    ("vdst", "Vdst"),
    ("src0", "Src0"),
    ("src1", "Src1"),
    ("src2", "Src2"),
    ("addr", "Addr"),
    ("data0", "Data0"),
    ("data1", "Data1"),
    ("vdata", "Vdata"),
    ("vaddr", "Vaddr"),
    ("srsrc", "Srsrc"),
    ("ssamp", "Ssamp"),
    ("saddr", "Saddr"),
    ("attr", "Attr"),
    ("chan", "Chan"),
    ("vsrc", "Vsrc"),
    ("tgt", "Tgt"),
    ("src3", "Src3"),
    ("k", "K"),
];

const TYPES: &[(&str, &str)] = &[
    ("b16", "B16"),
    ("b32", "B32"),
    ("b64", "B64"),
    ("b96", "B96"),
    ("b128", "B128"),
    ("b160", "B160"),
    ("b192", "B192"),
    ("b256", "B256"),
    ("b512", "B512"),
    ("b1024", "B1024"),
    ("f16", "F16"),
    ("f32", "F32"),
    ("f64", "F64"),
    ("bf16", "Bf16"),
    ("i16", "I16"),
    ("i32", "I32"),
    ("i64", "I64"),
    ("u16", "U16"),
    ("u32", "U32"),
    ("u64", "U64"),
    ("v2f16", "V2F16"),
    ("v2i16", "V2I16"),
    ("v2u16", "V2U16"),
    ("v2bf16", "V2Bf16"),
    ("v2f32", "V2F32"),
];

/// gfx9-generation processors a `+cpus=` list may name.
const GFX9_CPUS: &[&str] = &["gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"];

const GENS: usize = 7;

/// One parsed table row.
#[derive(Debug)]
struct Row {
    file: String,
    line: usize,
    encoding: &'static str,
    mnemonic: String,
    opcodes: [Option<u16>; GENS],
    operands: Vec<(&'static str, &'static str)>,
    flags: Vec<String>,
    /// Flags given a value (`+name=value`), with the value.
    flag_args: Vec<(String, String)>,
    cpus: Vec<String>,
}

fn lookup(table: &'static [(&'static str, &'static str)], key: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

fn parse_row(file: &str, line_no: usize, line: &str) -> Result<Row> {
    let where_ = || format!("{file}:{line_no}");
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.len() < 2 + GENS {
        bail!(
            "{}: expected ENC MNEMONIC and {GENS} opcode columns",
            where_()
        );
    }
    let encoding = ENCODINGS
        .iter()
        .find(|(k, _)| *k == tokens[0])
        .map(|(k, _)| *k)
        .with_context(|| format!("{}: unknown encoding '{}'", where_(), tokens[0]))?;
    let mnemonic = tokens[1].to_string();
    if !mnemonic
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        bail!("{}: malformed mnemonic '{mnemonic}'", where_());
    }
    let mut opcodes = [None; GENS];
    for (i, tok) in tokens[2..2 + GENS].iter().enumerate() {
        if *tok != "-" {
            let v: u16 = tok
                .parse()
                .with_context(|| format!("{}: opcode column {} is '{tok}'", where_(), i + 1))?;
            if v == u16::MAX {
                bail!("{}: opcode {v} is reserved", where_());
            }
            opcodes[i] = Some(v);
        }
    }
    let mut operands = Vec::new();
    let mut flags = Vec::new();
    let mut flag_args = Vec::new();
    let mut cpus = Vec::new();
    for tok in &tokens[2 + GENS..] {
        if let Some(flag) = tok.strip_prefix('+') {
            if let Some(list) = flag.strip_prefix("cpus=") {
                for cpu in list.split(',') {
                    if !GFX9_CPUS.contains(&cpu) {
                        bail!("{}: +cpus names '{cpu}', not a gfx9 processor", where_());
                    }
                    cpus.push(cpu.to_string());
                }
            } else {
                let (name, arg) = match flag.split_once('=') {
                    Some((n, a)) => (n, Some(a)),
                    None => (flag, None),
                };
                let word = |t: &str| {
                    !t.is_empty()
                        && t.bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
                };
                if !word(name) || arg.is_some_and(|a| !a.split(',').all(word)) {
                    bail!("{}: malformed flag '+{flag}'", where_());
                }
                flags.push(name.to_string());
                if let Some(a) = arg {
                    flag_args.push((name.to_string(), a.to_string()));
                }
            }
        } else if let Some((role, ty)) = tok.split_once(':') {
            let role = lookup(ROLES, role)
                .with_context(|| format!("{}: unknown operand role '{role}'", where_()))?;
            let ty = lookup(TYPES, ty)
                .with_context(|| format!("{}: unknown operand type '{ty}'", where_()))?;
            if !flags.is_empty() {
                bail!("{}: operand '{tok}' after flags", where_());
            }
            operands.push((role, ty));
        } else {
            bail!("{}: '{tok}' is neither ROLE:TYPE nor +FLAG", where_());
        }
    }
    if opcodes.iter().all(Option::is_none) {
        bail!("{}: '{mnemonic}' exists on no generation", where_());
    }
    Ok(Row {
        file: file.to_string(),
        line: line_no,
        encoding,
        mnemonic,
        opcodes,
        operands,
        flags,
        flag_args,
        cpus,
    })
}

fn read_rows(dir: &Path) -> Result<Vec<Row>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tbl"))
        .collect();
    files.sort();
    let mut rows = Vec::new();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if !line.is_empty() {
                rows.push(parse_row(&name, i + 1, line)?);
            }
        }
    }
    Ok(rows)
}

/// Checks that no two rows claim one opcode of one encoding on one processor. The only rows
/// that may share a gfx9 opcode are those whose `+cpus=` lists are disjoint.
fn check_unique(rows: &[Row]) -> Result<()> {
    let mut seen: BTreeMap<(&str, usize, u16), Vec<&Row>> = BTreeMap::new();
    for row in rows {
        // A `+e64=N` row also claims VOP3 opcode N from gfx8 on.
        let e64: Option<u16> = row
            .flag_args
            .iter()
            .find(|(f, _)| f == "e64")
            .and_then(|(_, a)| a.parse().ok());
        for (g, op) in row.opcodes.iter().enumerate() {
            if let Some(op) = op {
                seen.entry((row.encoding, g, *op)).or_default().push(row);
                if let (Some(n), true) = (e64, g >= 2) {
                    seen.entry(("VOP3", g, n)).or_default().push(row);
                }
            }
        }
    }
    for ((enc, g, op), list) in &seen {
        for (i, a) in list.iter().enumerate() {
            for b in &list[i + 1..] {
                let cpus_disjoint = !a.cpus.is_empty()
                    && !b.cpus.is_empty()
                    && a.cpus.iter().all(|c| !b.cpus.contains(c));
                let told_apart = *g == 3 && cpus_disjoint;
                if !told_apart {
                    bail!(
                        "{}:{} and {}:{}: {} opcode {} is used by both '{}' and '{}' on generation column {}",
                        a.file, a.line, b.file, b.line, enc, op, a.mnemonic, b.mnemonic, g + 1
                    );
                }
            }
        }
    }
    Ok(())
}

/// `v_add_f32` -> `VAddF32`; a part that starts with a digit stays joined to the previous one.
fn variant_name(mnemonic: &str) -> String {
    let mut out = String::new();
    for part in mnemonic.split('_').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            out.push(c.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    out
}

fn const_name(flag: &str) -> String {
    flag.to_ascii_uppercase()
}

/// Parses every table file in `dir`, checks it, and returns the generated Rust source.
pub fn generate(dir: &Path) -> Result<String> {
    let rows = read_rows(dir)?;
    check_unique(&rows)?;
    let flags: BTreeSet<&str> = rows
        .iter()
        .flat_map(|r| r.flags.iter().map(String::as_str))
        .collect();
    if flags.len() > 128 {
        bail!("{} distinct flags; at most 128 fit", flags.len());
    }
    let flag_bit: BTreeMap<&str, usize> = flags.iter().enumerate().map(|(i, f)| (*f, i)).collect();

    let mut out = String::new();
    out.push_str(
        "// @generated by `cargo xtask gen-tables` from crates/isa/tables/*.tbl. Do not edit.\n\n",
    );
    out.push_str("use crate::encoding::Encoding;\n");
    out.push_str(
        "use crate::table::{DataType as T, InstrDef, OperandDef, Role as R, NO_OPCODE as X};\n\n",
    );
    // One enum variant per distinct mnemonic, so that layers which act per operation (the
    // emulator's semantics) name rows through the compiler rather than through strings.
    let mnemonics: BTreeSet<&str> = rows.iter().map(|r| r.mnemonic.as_str()).collect();
    out.push_str("/// Every distinct mnemonic of the table, as an enum: `v_add_f32` is `Mnemonic::VAddF32`.\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n");
    out.push_str("pub enum Mnemonic {\n");
    for m in &mnemonics {
        writeln!(out, "    /// `{m}`").unwrap();
        writeln!(out, "    {},", variant_name(m)).unwrap();
    }
    out.push_str("}\n\n");
    out.push_str("impl Mnemonic {\n    /// The mnemonic as written in the table files.\n    pub const fn name(self) -> &'static str {\n        match self {\n");
    for m in &mnemonics {
        writeln!(out, "            Mnemonic::{} => {m:?},", variant_name(m)).unwrap();
    }
    out.push_str("        }\n    }\n}\n\n");
    out.push_str(
        "/// Flag bits of [`InstrDef::flags`], one per `+flag` used in the table files.\n",
    );
    out.push_str("pub mod flags {\n");
    for (flag, bit) in &flag_bit {
        writeln!(out, "    /// `+{flag}` in the table files.").unwrap();
        writeln!(
            out,
            "    pub const {}: u128 = 1 << {bit};",
            const_name(flag)
        )
        .unwrap();
    }
    out.push_str("}\n\n");
    out.push_str("macro_rules! op {\n    ($r:ident $t:ident) => {\n        OperandDef { role: R::$r, ty: T::$t }\n    };\n}\n\n");
    writeln!(
        out,
        "/// Every instruction of every target: one entry per table row."
    )
    .unwrap();
    writeln!(out, "pub static INSTRUCTIONS: &[InstrDef] = &[").unwrap();
    for row in &rows {
        let enc = lookup(ENCODINGS, row.encoding).unwrap_or("Sop2");
        let ops: Vec<String> = row
            .opcodes
            .iter()
            .map(|o| o.map_or_else(|| "X".to_string(), |v| v.to_string()))
            .collect();
        let operands: Vec<String> = row
            .operands
            .iter()
            .map(|(r, t)| format!("op!({r} {t})"))
            .collect();
        let flag_expr = if row.flags.is_empty() {
            "0".to_string()
        } else {
            row.flags
                .iter()
                .map(|f| format!("flags::{}", const_name(f)))
                .collect::<Vec<_>>()
                .join(" | ")
        };
        let cpus: Vec<String> = row.cpus.iter().map(|c| format!("{c:?}")).collect();
        let args: Vec<String> = row
            .flag_args
            .iter()
            .map(|(f, a)| format!("(flags::{}, {a:?})", const_name(f)))
            .collect();
        writeln!(
            out,
            "    InstrDef {{ mnemonic: {:?}, op: Mnemonic::{}, encoding: Encoding::{enc}, opcodes: [{}], operands: &[{}], flags: {flag_expr}, flag_args: &[{}], cpus: &[{}] }},",
            row.mnemonic,
            variant_name(&row.mnemonic),
            ops.join(", "),
            operands.join(", "),
            args.join(", "),
            cpus.join(", ")
        )
        .unwrap();
    }
    out.push_str("];\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_well_formed_row_parses() {
        let r = parse_row(
            "t.tbl",
            1,
            "SOP2 s_add_u32 0 0 0 0 0 0 0 sdst:b32 ssrc0:b32 ssrc1:b32 +foo",
        )
        .unwrap();
        assert_eq!(r.operands.len(), 3);
        assert_eq!(r.flags, vec!["foo".to_string()]);
        assert_eq!(r.opcodes[6], Some(0));
    }

    #[test]
    fn an_e64_opcode_may_not_collide_with_a_vop3_row() {
        let a = parse_row("a.tbl", 1, "VINTRP v_x 0 0 0 0 0 - - vdst:f32 +e64=624").unwrap();
        let b = parse_row("b.tbl", 2, "VOP3 v_y - - 624 624 624 - - vdst:f32").unwrap();
        let err = check_unique(&[a, b]).unwrap_err().to_string();
        assert!(err.contains("VOP3 opcode 624"), "{err}");
    }

    #[test]
    fn malformed_rows_are_rejected_with_their_position() {
        for bad in [
            "SOP9 s_x 0 0 0 0 0 0 0",
            "SOP2 s_x 0 0 0 0 0 0",
            "SOP2 s_x 0 0 0 0 0 0 z",
            "SOP2 s_x 0 0 0 0 0 0 0 sdst:b33",
            "SOP2 s_x 0 0 0 0 0 0 0 zz:b32",
            "SOP2 s_x - - - - - - -",
            "SOP2 s_x 0 0 0 0 0 0 0 +cpus=gfx1100",
        ] {
            let err = parse_row("t.tbl", 7, bad).unwrap_err().to_string();
            assert!(err.starts_with("t.tbl:7"), "{bad}: {err}");
        }
    }
}
