//! The metadata YAML that `gcn disasm` prints for code objects must convert back, through
//! the assembler's LLVM-exact converter, into the same MessagePack tree: strings that look
//! like numbers, booleans, floats or nothing keep their string kind, quoting survives,
//! integers keep their values. Values YAML cannot carry through LLVM's rules are refused.

use gcnkit_codeobj::source::{metadata_yaml, reads_as_string};
use gcnkit_codeobj::write::metadata_msgpack_from_yaml;
use rmpv::Value;

/// Maps in a canonical order, so that trees compare whatever order LLVM's writer chose.
fn canonical(v: &Value) -> Value {
    match v {
        Value::Map(m) => {
            let mut entries: Vec<(Value, Value)> =
                m.iter().map(|(k, v)| (k.clone(), canonical(v))).collect();
            entries.sort_by_key(|(k, _)| format!("{k:?}"));
            Value::Map(entries)
        }
        Value::Array(a) => Value::Array(a.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// A metadata tree the converter's verifier accepts, with `extra` entries at the top.
fn document(extra: Vec<(Value, Value)>) -> Value {
    let mut entries = vec![
        (Value::from("amdhsa.kernels"), Value::Array(Vec::new())),
        (
            Value::from("amdhsa.target"),
            Value::from("amdgcn-amd-amdhsa--gfx900"),
        ),
        (
            Value::from("amdhsa.version"),
            Value::Array(vec![Value::from(1u64), Value::from(2u64)]),
        ),
    ];
    entries.extend(extra);
    Value::Map(entries)
}

fn round_trip(tree: &Value) -> Value {
    let yaml = metadata_yaml(tree).expect("printable");
    let bytes = metadata_msgpack_from_yaml(&yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    rmpv::decode::read_value(&mut bytes.as_slice()).unwrap()
}

const TRICKY_STRINGS: &[&str] = &[
    "123",
    "-5",
    "0x10",
    "010",
    "08",
    "0b101",
    "0o17",
    "+5",
    "1.5",
    "1e3",
    ".5",
    "1_000",
    "",
    " ",
    " 5",
    "5 ",
    "true",
    "False",
    "Yes",
    "YES",
    "y",
    "n",
    "N",
    "off",
    "On",
    "inf",
    "-inf",
    "Infinity",
    "NaN",
    "nan(1)",
    "0x1p3",
    "~",
    "null",
    ".inf",
    "a: b",
    "a:b",
    "#x",
    "a #b",
    "it's",
    "say \"hi\"",
    "back\\slash",
    "line\nbreak",
    "tab\there",
    "\u{1}",
    "ünïcode",
    "- x",
    "-",
    "[a]",
    "{b}",
    "*p",
    "&a",
    "!t",
    "%x",
    "@x",
    "`x",
    "|",
    ">",
    "?",
    "? x",
    "trailing ",
    ".end_amdgpu_metadata",
    "---",
    "...",
    "int*",
    "__hip_fatbin",
    "float4 __attribute__((ext_vector_type(4)))",
    "amdgcn-amd-amdhsa--gfx90a:xnack+",
];

#[test]
fn strings_that_look_like_other_kinds_stay_strings() {
    let entries: Vec<(Value, Value)> = TRICKY_STRINGS
        .iter()
        .enumerate()
        .map(|(i, s)| (Value::from(format!("k{i}")), Value::from(*s)))
        .collect();
    let tree = document(entries);
    assert_eq!(canonical(&round_trip(&tree)), canonical(&tree));
}

#[test]
fn strings_inside_arrays_and_maps_of_arrays_stay_strings() {
    let list = Value::Array(TRICKY_STRINGS.iter().map(|s| Value::from(*s)).collect());
    let nested = Value::Array(vec![
        list.clone(),
        Value::Array(Vec::new()),
        Value::Map(Vec::new()),
        Value::Map(vec![(Value::from(".name"), Value::from("0"))]),
        Value::Array(vec![Value::Array(vec![Value::from("1")])]),
    ]);
    let tree = document(vec![
        (Value::from("list"), list),
        (Value::from("nested"), nested),
    ]);
    assert_eq!(canonical(&round_trip(&tree)), canonical(&tree));
}

#[test]
fn integers_booleans_and_nil_keep_kind_and_value() {
    let values = [
        Value::from(0u64),
        Value::from(127u64),
        Value::from(128u64),
        Value::from(u64::MAX),
        Value::from(-1i64),
        Value::from(-33i64),
        Value::from(i64::MIN),
        Value::Boolean(true),
        Value::Boolean(false),
        Value::Nil,
    ];
    let entries = values
        .iter()
        .enumerate()
        .map(|(i, v)| (Value::from(format!("v{i}")), v.clone()))
        .collect();
    let keys = vec![
        (Value::from(5u64), Value::from("five")),
        (Value::from(-7i64), Value::from("minus seven")),
        (Value::Boolean(true), Value::from("yes")),
    ];
    let tree = document(vec![
        (Value::from("values"), Value::Map(entries)),
        (Value::from("keys"), Value::Map(keys)),
    ]);
    assert_eq!(canonical(&round_trip(&tree)), canonical(&tree));
}

#[test]
fn values_llvm_yaml_cannot_carry_are_refused() {
    for v in [
        Value::F64(1.5),
        Value::F32(0.0),
        Value::Binary(vec![1, 2]),
        Value::Ext(1, vec![0]),
        // A str2 of two bytes that are not UTF-8.
        rmpv::decode::read_value(&mut &[0xa2, 0xff, 0xfe][..]).unwrap(),
    ] {
        let tree = document(vec![(Value::from("x"), v.clone())]);
        assert!(metadata_yaml(&tree).is_err(), "{v:?}");
    }
    // Keys are typed from their text whatever their tag: a string key "1" would become 1.
    for key in ["1", "true", "", "1.5"] {
        let tree = document(vec![(Value::from(key), Value::Nil)]);
        assert!(metadata_yaml(&tree).is_err(), "key {key:?}");
    }
}

#[test]
fn the_string_test_is_conservative_but_keeps_ordinary_names_plain() {
    for s in [
        ".name",
        "global_buffer",
        "amdhsa.kernels",
        "_Z3fooPf",
        "int*",
    ] {
        assert!(reads_as_string(s), "{s}");
    }
    for s in ["1", "", "no", "NaN", "inf", ".5", " x", "-x", "+x", "0x"] {
        assert!(!reads_as_string(s), "{s}");
    }
    let yaml = metadata_yaml(&document(vec![(Value::from("t"), Value::from("int*"))])).unwrap();
    assert!(yaml.contains("t: 'int*'\n"), "{yaml}");
    let yaml = metadata_yaml(&document(vec![(Value::from("t"), Value::from("12"))])).unwrap();
    assert!(yaml.contains("t: !string \"12\"\n"), "{yaml}");
}
