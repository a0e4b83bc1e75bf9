//! MessagePack bytes exactly as LLVM's `msgpack::Document::writeToBlob` writes them: maps
//! sorted by key (a `std::map` ordered by node kind, then value), integers and lengths in
//! their shortest form, `str8` for strings of 32–255 bytes, and floats written as nil (LLVM
//! 19's writer has no case for them).

use std::cmp::Ordering;

use super::yaml_doc::{Doc, Node};

/// LLVM's `msgpack::Type` order: Int, UInt, Nil, Boolean, Float, String, Binary, Array, Map,
/// Extension (YAML gives no Nil, Binary or Extension).
fn kind_rank(n: Node) -> u8 {
    match n {
        Node::Int(_) => 0,
        Node::UInt(_) => 1,
        Node::Bool(_) => 3,
        Node::Float(_) => 4,
        Node::Str(_) => 5,
        Node::Array(_) => 7,
        Node::Map(_) => 8,
    }
}

/// LLVM's `DocNode` `operator<` for scalar keys.
fn key_order(d: &Doc, a: Node, b: Node) -> Ordering {
    match (a, b) {
        (Node::UInt(x), Node::UInt(y)) => x.cmp(&y),
        (Node::Int(x), Node::Int(y)) => x.cmp(&y),
        (Node::Bool(x), Node::Bool(y)) => x.cmp(&y),
        (Node::Float(x), Node::Float(y)) => x.total_cmp(&y),
        (Node::Str(x), Node::Str(y)) => d.str(x).as_bytes().cmp(d.str(y).as_bytes()),
        _ => kind_rank(a).cmp(&kind_rank(b)),
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

/// Appends the document in LLVM's encoding, every map sorted by key as LLVM's `std::map`
/// orders it; a key equal to an earlier one replaces its value (LLVM assigns into the same
/// map slot).
pub(crate) fn write_doc(out: &mut Vec<u8>, d: &Doc) {
    // The sorted entry order of every open map, innermost last; reused so that writing
    // allocates nothing per map.
    let mut scratch = Vec::with_capacity(256);
    write_node(out, d, d.root, &mut scratch);
}

/// Appends node `i`. The recursion is as deep as the document, which the parser limits to
/// [`super::yaml_doc::MAX_DEPTH`].
fn write_node(out: &mut Vec<u8>, d: &Doc, i: u32, scratch: &mut Vec<u32>) {
    match d.nodes[i as usize] {
        Node::UInt(u) => write_uint(out, u),
        Node::Int(v) => write_int(out, v),
        Node::Bool(b) => out.push(if b { 0xc3 } else { 0xc2 }),
        Node::Str(s) => {
            let bytes = d.str(s).as_bytes();
            write_len(out, bytes.len(), Some((0xa0, 31)), [0xd9, 0xda, 0xdb]);
            out.extend_from_slice(bytes);
        }
        Node::Array(s) => {
            write_len(out, s.len as usize, Some((0x90, 15)), [0, 0xdc, 0xdd]);
            for &k in d.kids_of(s, false) {
                write_node(out, d, k, scratch);
            }
        }
        Node::Map(s) => {
            let kids = d.kids_of(s, true);
            let key = |e: u32| d.nodes[kids[2 * e as usize] as usize];
            // Metadata that LLVM wrote has its keys in order already: then there is nothing
            // to sort and no equal keys to merge.
            if (1..s.len).all(|e| key_order(d, key(e - 1), key(e)) == Ordering::Less) {
                write_len(out, s.len as usize, Some((0x80, 15)), [0, 0xde, 0xdf]);
                for &k in kids {
                    write_node(out, d, k, scratch);
                }
                return;
            }
            let base = scratch.len();
            scratch.extend(0..s.len);
            // A stable sort keeps equal keys in input order, so the last one's value wins.
            scratch[base..].sort_by(|&a, &b| key_order(d, key(a), key(b)));
            let end = scratch.len();
            let distinct = 1
                + (base + 1..end)
                    .filter(|&j| {
                        key_order(d, key(scratch[j - 1]), key(scratch[j])) != Ordering::Equal
                    })
                    .count();
            write_len(out, distinct, Some((0x80, 15)), [0, 0xde, 0xdf]);
            let mut j = base;
            while j < end {
                // The first key of a run of equal keys, the last value.
                let first = scratch[j];
                while j + 1 < end
                    && key_order(d, key(scratch[j]), key(scratch[j + 1])) == Ordering::Equal
                {
                    j += 1;
                }
                let last = scratch[j];
                write_node(out, d, kids[2 * first as usize], scratch);
                write_node(out, d, kids[2 * last as usize + 1], scratch);
                j += 1;
            }
            scratch.truncate(base);
        }
        // Floats come out as nil: LLVM 19's writer has no case for them.
        Node::Float(_) => out.push(0xc0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::yaml_doc::parse_yaml;

    fn encode(yaml: &str) -> Vec<u8> {
        let mut out = Vec::new();
        write_doc(&mut out, &parse_yaml(yaml).unwrap());
        out
    }

    #[test]
    fn keys_sort_by_kind_then_value() {
        let out = encode("b: 1\n2: x\ntrue: x\n-1: x\nB: x\n");
        let mut expected = vec![0x85];
        for key in [&[0xff][..], &[0x02], &[0xc3], &[0xa1, b'B'], &[0xa1, b'b']] {
            expected.extend(key);
            expected.extend(if key == [0xa1, b'b'] {
                &[0x01][..]
            } else {
                &[0xa1, b'x']
            });
        }
        assert_eq!(out, expected);
    }

    #[test]
    fn equal_typed_keys_keep_the_last_value() {
        assert_eq!(encode("0x10: 1\n16: 2\n"), [0x81, 0x10, 0x02]);
        assert_eq!(encode("{}"), [0x80]);
    }

    #[test]
    fn integers_and_strings_use_the_shortest_encoding() {
        let mut out = Vec::new();
        write_uint(&mut out, 127);
        write_uint(&mut out, 128);
        write_int(&mut out, -33);
        write_int(&mut out, -200);
        assert_eq!(out, [0x7f, 0xcc, 0x80, 0xd0, 0xdf, 0xd1, 0xff, 0x38]);
        let s = encode(&"x".repeat(40));
        assert_eq!(&s[..2], &[0xd9, 40]);
        assert_eq!(encode("1.5"), [0xc0]);
    }
}
