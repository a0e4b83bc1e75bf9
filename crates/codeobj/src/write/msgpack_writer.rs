//! MessagePack bytes exactly as LLVM's `msgpack::Document::writeToBlob` writes them: maps
//! sorted by key (a `std::map` ordered by node kind, then value), integers and lengths in
//! their shortest form, `str8` for strings of 32–255 bytes, and floats written as nil (LLVM
//! 19's writer has no case for them).

use std::cmp::Ordering;

use rmpv::Value;

use super::yaml_doc::MAX_DEPTH;

/// LLVM's `msgpack::Type` order: Int, UInt, Nil, Boolean, Float, String, Binary, Array, Map,
/// Extension.
fn kind_rank(v: &Value) -> u8 {
    match v {
        Value::Integer(i) if i.as_u64().is_none() => 0,
        Value::Integer(_) => 1,
        Value::Nil => 2,
        Value::Boolean(_) => 3,
        Value::F32(_) | Value::F64(_) => 4,
        Value::String(_) => 5,
        Value::Binary(_) => 6,
        Value::Array(_) => 7,
        Value::Map(_) => 8,
        Value::Ext(..) => 9,
    }
}

fn float(v: &Value) -> f64 {
    match v {
        Value::F32(f) => f64::from(*f),
        Value::F64(f) => *f,
        _ => 0.0,
    }
}

/// LLVM's `DocNode` `operator<` for scalar keys.
fn key_order(a: &Value, b: &Value) -> Ordering {
    let (ra, rb) = (kind_rank(a), kind_rank(b));
    if ra != rb {
        return ra.cmp(&rb);
    }
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => match (x.as_u64(), y.as_u64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => x.as_i64().cmp(&y.as_i64()),
        },
        (Value::Boolean(x), Value::Boolean(y)) => x.cmp(y),
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        _ if ra == 4 => float(a).total_cmp(&float(b)),
        _ => Ordering::Equal,
    }
}

/// Sorts every map by key as LLVM's `std::map` does; a key equal to an earlier one replaces
/// its value (LLVM assigns into the same map slot).
pub(crate) fn sort_maps(v: &mut Value, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err("metadata nested too deeply".into());
    }
    match v {
        Value::Array(items) => items.iter_mut().try_for_each(|i| sort_maps(i, depth + 1)),
        Value::Map(entries) => {
            for (_, val) in entries.iter_mut() {
                sort_maps(val, depth + 1)?;
            }
            // A stable sort keeps equal keys in input order, so the last one wins below.
            entries.sort_by(|a, b| key_order(&a.0, &b.0));
            let mut merged: Vec<(Value, Value)> = Vec::with_capacity(entries.len());
            for (k, val) in entries.drain(..) {
                match merged.last_mut() {
                    Some(last) if key_order(&last.0, &k) == Ordering::Equal => last.1 = val,
                    _ => merged.push((k, val)),
                }
            }
            *entries = merged;
            Ok(())
        }
        _ => Ok(()),
    }
}

fn write_len(out: &mut Vec<u8>, n: usize, fix: Option<(u8, usize)>, wide: [u8; 3]) {
    match fix {
        Some((base, max)) if n <= max => out.push(base | n as u8),
        _ if wide[0] != 0 && n <= 0xff => out.extend([wide[0], n as u8]),
        _ if n <= 0xffff => {
            out.push(wide[1]);
            out.extend((n as u16).to_be_bytes());
        }
        _ => {
            out.push(wide[2]);
            out.extend((n as u32).to_be_bytes());
        }
    }
}

fn write_uint(out: &mut Vec<u8>, u: u64) {
    if u <= 0x7f {
        out.push(u as u8);
    } else if u <= 0xff {
        out.extend([0xcc, u as u8]);
    } else if u <= 0xffff {
        out.push(0xcd);
        out.extend((u as u16).to_be_bytes());
    } else if u <= 0xffff_ffff {
        out.push(0xce);
        out.extend((u as u32).to_be_bytes());
    } else {
        out.push(0xcf);
        out.extend(u.to_be_bytes());
    }
}

fn write_int(out: &mut Vec<u8>, i: i64) {
    if i >= 0 {
        write_uint(out, i as u64);
    } else if i >= -32 {
        out.push(i as u8);
    } else if i >= i64::from(i8::MIN) {
        out.extend([0xd0, i as u8]);
    } else if i >= i64::from(i16::MIN) {
        out.push(0xd1);
        out.extend((i as i16).to_be_bytes());
    } else if i >= i64::from(i32::MIN) {
        out.push(0xd2);
        out.extend((i as i32).to_be_bytes());
    } else {
        out.push(0xd3);
        out.extend(i.to_be_bytes());
    }
}

/// Appends `v` in LLVM's encoding. Depth is bounded by the caller's [`sort_maps`].
pub(crate) fn write_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Integer(i) => match i.as_u64() {
            Some(u) => write_uint(out, u),
            None => write_int(out, i.as_i64().unwrap_or(0)),
        },
        Value::Boolean(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Value::String(s) => {
            write_len(
                out,
                s.as_bytes().len(),
                Some((0xa0, 31)),
                [0xd9, 0xda, 0xdb],
            );
            out.extend(s.as_bytes());
        }
        Value::Array(items) => {
            write_len(out, items.len(), Some((0x90, 15)), [0, 0xdc, 0xdd]);
            items.iter().for_each(|i| write_value(out, i));
        }
        Value::Map(entries) => {
            write_len(out, entries.len(), Some((0x80, 15)), [0, 0xde, 0xdf]);
            for (k, val) in entries {
                write_value(out, k);
                write_value(out, val);
            }
        }
        // Floats (and kinds YAML cannot produce) come out as nil, as in LLVM 19.
        _ => out.push(0xc0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_by_kind_then_value() {
        let mut v = Value::Map(vec![
            (Value::from("b"), Value::from(1u64)),
            (Value::from(2u64), Value::Nil),
            (Value::Boolean(true), Value::Nil),
            (Value::from(-1i64), Value::Nil),
            (Value::from("B"), Value::Nil),
        ]);
        sort_maps(&mut v, 0).unwrap();
        let keys: Vec<_> = v.as_map().unwrap().iter().map(|e| e.0.clone()).collect();
        assert_eq!(
            keys,
            [
                Value::from(-1i64),
                Value::from(2u64),
                Value::Boolean(true),
                Value::from("B"),
                Value::from("b")
            ]
        );
    }

    #[test]
    fn integers_and_strings_use_the_shortest_encoding() {
        let mut out = Vec::new();
        for v in [
            Value::from(127u64),
            Value::from(128u64),
            Value::from(-33i64),
            Value::from(-200i64),
        ] {
            write_value(&mut out, &v);
        }
        assert_eq!(out, [0x7f, 0xcc, 0x80, 0xd0, 0xdf, 0xd1, 0xff, 0x38]);
        let mut s = Vec::new();
        write_value(&mut s, &Value::from("x".repeat(40).as_str()));
        assert_eq!(&s[..2], &[0xd9, 40]);
        let mut f = Vec::new();
        write_value(&mut f, &Value::F64(1.5));
        assert_eq!(f, [0xc0]);
    }
}
