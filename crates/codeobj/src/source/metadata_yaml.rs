//! The metadata note's MessagePack tree as the YAML of an `.amdgpu_metadata` block that
//! the assembler converts back into the same tree.
//!
//! The assembler types every scalar from its text whatever its quoting (see
//! [`crate::write`]): a string such as `"1"`, `"true"`, `"0x10"`, `"1.5"`, `" 5"` or `""`
//! would come back as a number, a boolean, or (for floats and the empty string) nil. Such a
//! string is written with a tag the converter keeps as a string ([`STRING_TAG`]). Which
//! strings need it is decided conservatively ([`reads_as_string`]: a string that starts like
//! a word and is not one of YAML's boolean or C's float words); an unneeded tag does no harm,
//! and the caller checks the whole document against the converter anyway. What YAML
//! cannot carry is refused with a reason, and the caller keeps the note as bytes:
//! floats (LLVM 19's writer turns them into nil), binary and extension values, strings that
//! are not UTF-8, and map keys that are strings looking like numbers or booleans (keys are
//! typed from their text alone, tags ignored). Nil is written as `0.0`, a float, which
//! LLVM's writer turns into nil.

use rmpv::Value;

/// The tag that keeps a scalar a string. LLVM's own spelling is `!str`, but gcnkit's
/// converter reads `!str` like `!!str` (typed from its text), while both read any other
/// local tag as a plain string; `!string` is understood the same way by both.
pub const STRING_TAG: &str = "!string";

/// The YAML document (from `---` to `...`) for `root`, or why it cannot be written.
pub fn metadata_yaml(root: &Value) -> Result<String, String> {
    let mut out = String::from("---\n");
    match root {
        Value::Map(m) if !m.is_empty() => {
            for line in map_lines(m)? {
                out.push_str(&line);
                out.push('\n');
            }
        }
        _ => return Err("the metadata root is not a map".into()),
    }
    out.push_str("...\n");
    Ok(out)
}

/// The lines of a node that is written on lines of its own (a non-empty map or array),
/// relative to its indentation.
fn block_lines(v: &Value) -> Result<Vec<String>, String> {
    match v {
        Value::Map(m) => map_lines(m),
        Value::Array(items) => {
            let mut lines = Vec::new();
            for item in items {
                if is_inline(item) {
                    lines.push(format!("- {}", scalar(item)?));
                    continue;
                }
                for (i, l) in block_lines(item)?.into_iter().enumerate() {
                    lines.push(format!("{}{l}", if i == 0 { "- " } else { "  " }));
                }
            }
            Ok(lines)
        }
        _ => Ok(vec![scalar(v)?]),
    }
}

fn map_lines(entries: &[(Value, Value)]) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for (k, v) in entries {
        let key = key(k)?;
        if is_inline(v) {
            lines.push(format!("{key}: {}", scalar(v)?));
        } else {
            lines.push(format!("{key}:"));
            lines.extend(block_lines(v)?.into_iter().map(|l| format!("  {l}")));
        }
    }
    Ok(lines)
}

/// Scalars and empty containers go on the line of their key or dash.
fn is_inline(v: &Value) -> bool {
    match v {
        Value::Map(m) => m.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => true,
    }
}

/// A map key: typed from its text alone, so it must type back to itself untagged.
fn key(k: &Value) -> Result<String, String> {
    let text = match k {
        Value::String(s) => {
            let s = s
                .as_str()
                .ok_or("a map key is a string that is not UTF-8")?;
            if !reads_as_string(s) {
                return Err(format!(
                    "the map key {s:?} may be read back as a number or boolean (keys cannot be tagged)"
                ));
            }
            quoted_if_needed(s)
        }
        Value::Integer(_) | Value::Boolean(_) => scalar(k)?,
        other => return Err(format!("a map key of kind {other:?} has no YAML form")),
    };
    Ok(text)
}

/// The text of an inline node.
fn scalar(v: &Value) -> Result<String, String> {
    Ok(match v {
        Value::Integer(i) => i.to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::Nil => "0.0".to_string(),
        Value::String(s) => {
            let s = s.as_str().ok_or("a string is not UTF-8")?;
            let text = quoted_if_needed(s);
            if reads_as_string(s) {
                text
            } else {
                format!("{STRING_TAG} {}", double_quoted(s))
            }
        }
        Value::Map(m) if m.is_empty() => "{}".to_string(),
        Value::Array(a) if a.is_empty() => "[]".to_string(),
        Value::F32(_) | Value::F64(_) => {
            return Err("a float value (LLVM writes floats as nil)".into())
        }
        Value::Binary(_) => return Err("a binary value".into()),
        Value::Ext(..) => return Err("an extension value".into()),
        Value::Map(_) | Value::Array(_) => unreachable!("containers are not inline"),
    })
}

/// True if LLVM's typing (unsigned, signed, boolean, `strtod` float, else string) surely
/// leaves `s` a string: it starts with a letter or `_` (or `.` and a letter), and is not a
/// boolean word (`y`, `no`, `On`...) or a float word (`inf`, `nan`...) in any capitalisation.
pub fn reads_as_string(s: &str) -> bool {
    let b = s.as_bytes();
    let starts_like_word = match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => true,
        Some(b'.') => b
            .get(1)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_'),
        _ => false,
    };
    let lower = s.to_ascii_lowercase();
    const WORDS: [&str; 11] = [
        "y", "n", "yes", "no", "on", "off", "true", "false", "inf", "infinity", "nan",
    ];
    starts_like_word && !WORDS.contains(&lower.as_str()) && !lower.starts_with("nan(")
}

/// `s` as a plain scalar when YAML reads that back unchanged, else single-quoted (or
/// double-quoted when it holds characters single quotes cannot carry).
fn quoted_if_needed(s: &str) -> String {
    if is_plain_safe(s) {
        s.to_string()
    } else if s.chars().all(|c| !c.is_control()) {
        format!("'{}'", s.replace('\'', "''"))
    } else {
        double_quoted(s)
    }
}

/// Conservative: characters that mean nothing to a YAML block scanner, no leading or
/// trailing space.
fn is_plain_safe(s: &str) -> bool {
    let first = s.chars().next();
    first.is_some_and(|c| c.is_ascii_alphanumeric() || "_.$".contains(c))
        && !s.ends_with(' ')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.$-+/()<>=^;, ".contains(c))
}

fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
