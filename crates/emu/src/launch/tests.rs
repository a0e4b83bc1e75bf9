//! Tests of the launch module. Expected values are worked out from the format's text (the
//! arithmetic is shown in comments), never taken from this code's output.

use super::convert::{f64_to_f16_bits, int_bits, number_bits};
use super::*;

/// A one-buffer description around `buffer` (a JSON object), with no launches or outputs.
fn one_buffer(buffer: &str) -> Result<LaunchDescription, LaunchError> {
    LaunchDescription::parse(&format!(
        r#"{{"buffers": {{"b": {buffer}}}, "launches": [], "outputs": {{}}}}"#
    ))
}

fn generated(buffer: &str) -> Vec<u8> {
    let d = one_buffer(buffer).unwrap_or_else(|e| panic!("{buffer}: {e}"));
    d.buffers[0]
        .generate()
        .unwrap_or_else(|e| panic!("{buffer}: {e}"))
}

fn parse_error(json: &str) -> String {
    match LaunchDescription::parse(json) {
        Ok(_) => panic!("accepted: {json}"),
        Err(e) => e.to_string(),
    }
}

fn buffer_error(buffer: &str) -> String {
    match one_buffer(buffer) {
        Ok(_) => panic!("accepted: {buffer}"),
        Err(e) => e.to_string(),
    }
}

fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn i32s(bytes: &[u8]) -> Vec<i32> {
    u32s(bytes).into_iter().map(|u| u as i32).collect()
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn u32_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

// ---- element types ----

#[test]
fn element_types_and_sizes() {
    assert_eq!(
        ElemType::parse("float"),
        Ok(ElemType::scalar(Scalar::Float))
    );
    assert_eq!(
        ElemType::parse("uint2").map(|t| (t.scalar, t.lanes)),
        Ok((Scalar::UInt, 2))
    );
    assert_eq!(ElemType::parse("float4").map(ElemType::size_bytes), Ok(16));
    assert_eq!(ElemType::parse("half16").map(ElemType::size_bytes), Ok(32));
    assert_eq!(ElemType::parse("double8").map(ElemType::size_bytes), Ok(64));
    assert_eq!(ElemType::parse("uchar").map(ElemType::size_bytes), Ok(1));
    for name in [
        "float3", "float1", "int32", "bool", "vec4", "Float", "float04", "", "2",
    ] {
        assert!(ElemType::parse(name).is_err(), "{name} accepted");
    }
    assert!(ElemType::parse("int3")
        .unwrap_err()
        .contains("3-element vectors"));
    for s in Scalar::ALL {
        for lanes in [1, 2, 4, 8, 16] {
            let t = ElemType::vector(s, lanes).unwrap();
            assert_eq!(ElemType::parse(&t.to_string()), Ok(t));
        }
    }
}

// ---- splitmix64 and the generators ----

#[test]
fn splitmix64_seed_0() {
    // z = 0x9E3779B97F4A7C15; z ^= z >> 30 -> 0x9E3779BB07979AF0; * 0xBF58476D1CE4E5B9 ->
    // 0x6F68261B57E7A770; z ^= z >> 27 -> 0x6F682616BAE3641A; * 0x94D049BB133111EB ->
    // 0xE220A838BF5C9DDE; z ^ (z >> 31) -> 0xE220A8397B1DCDAF, the format's check value.
    assert_eq!(splitmix64(0, 0), 0xE220_A839_7B1D_CDAF);
    // The next outputs of the reference splitmix64 sequence from seed 0.
    assert_eq!(splitmix64(0, 1), 0x6E78_9E6A_A1B9_65F4);
    assert_eq!(splitmix64(0, 2), 0x06C4_5D18_8009_454F);
}

#[test]
fn randint_value() {
    // x_0 = 0xE220A8397B1DCDAF = 16294208416658607535 = 11 * 1481291674241691594 + 1, so
    // lo + (x_0 mod (hi - lo + 1)) = -5 + 1 = -4.
    let b = generated(
        r#"{"type": "int", "count": 1, "init": {"kind": "randint", "lo": -5, "hi": 5, "seed": 0}}"#,
    );
    assert_eq!(i32s(&b), [-4]);
    // Full 32-bit range: x_0 mod 2^32 = 0x7B1DCDAF.
    let b = generated(
        r#"{"type": "uint", "count": 1, "init": {"kind": "randint", "lo": 0, "hi": 4294967295, "seed": 0}}"#,
    );
    assert_eq!(u32s(&b), [0x7B1D_CDAF]);
    // hi - lo + 1 = 2^64: x mod 2^64 is x itself.
    let b = generated(
        r#"{"type": "ulong", "count": 1, "init": {"kind": "randint", "lo": 0, "hi": 18446744073709551615, "seed": 0}}"#,
    );
    assert_eq!(b, 0xE220_A839_7B1D_CDAFu64.to_le_bytes());
    // A float buffer receives the integer value: -4.0.
    let b = generated(
        r#"{"type": "float", "count": 1, "init": {"kind": "randint", "lo": -5, "hi": 5, "seed": 0}}"#,
    );
    assert_eq!(b, (-4.0f32).to_le_bytes());
}

#[test]
fn randfloat_value() {
    // u = (x_0 >> 40) * 2^-24 = 0xE220A8 / 2^24 = 14819496 / 16777216.
    // lo + (hi - lo) * u = -1 + 2u = (14819496 - 8388608) / 8388608 = 6430888 * 2^-23, exact in
    // float: in [0.5, 1), so exponent field 126 (0x3F000000) and significand
    // 6430888 * 2 - 2^23 = 4473168 = 0x444150: bits 0x3F444150.
    let b = generated(
        r#"{"type": "float", "count": 1, "init": {"kind": "randfloat", "lo": -1, "hi": 1, "seed": 0}}"#,
    );
    assert_eq!(u32s(&b), [0x3F44_4150]);
    // Into half, u itself: u * 2^11 = 1809.01 rounds to 1809 units of 2^-11 in [0.5, 1), so
    // exponent field 14 and mantissa 1809 - 1024 = 785: (14 << 10) | 785 = 0x3B11.
    let b = generated(
        r#"{"type": "half", "count": 1, "init": {"kind": "randfloat", "lo": 0, "hi": 1, "seed": 0}}"#,
    );
    assert_eq!(b, 0x3B11u16.to_le_bytes());
    // double: u = (x_0 >> 11) * 2^-53 = 0x1C4415072F63B9 * 2^-53, a 53-bit integer, so u is in
    // [0.5, 1) exactly: exponent field 1022, mantissa the low 52 bits.
    let b = generated(
        r#"{"type": "double", "count": 1, "init": {"kind": "randfloat", "lo": 0, "hi": 1, "seed": 0}}"#,
    );
    assert_eq!(b, 0x3FEC_4415_072F_63B9u64.to_le_bytes());
    // A value that needs rounding: 0.1 * u in float64 = 0.08833107948303223, nearest float
    // 0x3DB4E6ED.
    let b = generated(
        r#"{"type": "float", "count": 1, "init": {"kind": "randfloat", "lo": 0, "hi": 0.1, "seed": 0}}"#,
    );
    assert_eq!(u32s(&b), [0x3DB4_E6ED]);
    // Into an integer type: -1 + 2u = 0.7666... rounds to the nearest integer, 1.
    let b = generated(
        r#"{"type": "int", "count": 1, "init": {"kind": "randfloat", "lo": -1, "hi": 1, "seed": 0}}"#,
    );
    assert_eq!(i32s(&b), [1]);
}

#[test]
fn fill_takes_integers_modulo_2_to_the_bits() {
    let ff = |ty: &str, v: &str| {
        generated(&format!(
            r#"{{"type": "{ty}", "count": 2, "init": {{"kind": "fill", "value": {v}}}}}"#
        ))
    };
    assert_eq!(ff("uchar", "-1"), [0xFF, 0xFF]);
    assert_eq!(ff("uchar", "255"), [0xFF, 0xFF]);
    assert_eq!(ff("uchar", "300"), [44, 44]); // 300 - 256
    assert_eq!(ff("char", "255"), [0xFF, 0xFF]);
    assert_eq!(ff("uint", "-1"), ff("uint", "4294967295"));
    assert_eq!(ff("uint", "-1"), [0xFF; 8]);
    assert_eq!(ff("uint", "4294967295.0"), [0xFF; 8]); // an integral JSON float
    assert_eq!(ff("int", "\"0xFFFFFFFF\""), [0xFF; 8]);
    assert_eq!(ff("ulong", "-1"), [0xFF; 16]);
    assert_eq!(ff("short", "70000"), [0x70, 0x11, 0x70, 0x11]); // 70000 - 65536 = 4464 = 0x1170
                                                                // Floats: 1.5 is 0x3FC00000 in float and 0x3E00 in half; 2^24 + 1 ties to even, 2^24.
    assert_eq!(ff("float", "1.5"), f32_bytes(&[1.5, 1.5]));
    assert_eq!(ff("half", "1.5"), [0x00, 0x3E, 0x00, 0x3E]);
    assert_eq!(
        ff("float", "16777217"),
        f32_bytes(&[16777216.0, 16777216.0])
    );
    assert_eq!(ff("float", "\"-inf\""), f32_bytes(&[f32::NEG_INFINITY; 2]));
    assert_eq!(u32s(&ff("float", "\"nan\"")), [0x7FC0_0000; 2]);
    assert_eq!(
        ff("double", "\"0x1.8p1\""),
        [3.0f64.to_le_bytes(), 3.0f64.to_le_bytes()].concat()
    );
}

#[test]
fn fill_refuses_fractions_in_integer_buffers() {
    let e = buffer_error(r#"{"type": "int", "count": 1, "init": {"kind": "fill", "value": 2.5}}"#);
    assert_eq!(
        e,
        "buffers.b.init.value: 2.5 is not an integer (int takes integers only)"
    );
    let e =
        buffer_error(r#"{"type": "uint", "count": 1, "init": {"kind": "fill", "value": 1e30}}"#);
    assert!(
        e.starts_with("buffers.b.init.value: 1000000000000000000000000000000 is outside"),
        "{e}"
    );
    let e =
        buffer_error(r#"{"type": "int", "count": 1, "init": {"kind": "fill", "value": "nan"}}"#);
    assert!(
        e.starts_with("buffers.b.init.value: NaN is not an integer"),
        "{e}"
    );
}

#[test]
fn iota() {
    // float64 start + step * i, then float: 0, 0.5, 1, 1.5.
    let b = generated(
        r#"{"type": "float", "count": 4, "init": {"kind": "iota", "start": 0, "step": 0.5}}"#,
    );
    assert_eq!(b, f32_bytes(&[0.0, 0.5, 1.0, 1.5]));
    // Defaults start 0, step 1.
    let b = generated(r#"{"type": "int", "count": 3, "init": {"kind": "iota"}}"#);
    assert_eq!(i32s(&b), [0, 1, 2]);
    // int64, then modulo 2^8: 254, 255, 256 -> 0.
    let b = generated(r#"{"type": "uchar", "count": 3, "init": {"kind": "iota", "start": 254}}"#);
    assert_eq!(b, [254, 255, 0]);
    // Over the flat array of count * lanes scalars.
    let b = generated(
        r#"{"type": "int2", "count": 2, "init": {"kind": "iota", "start": 10, "step": -3}}"#,
    );
    assert_eq!(i32s(&b), [10, 7, 4, 1]);
    // int64 wraps: 2^63 - 1 + 1 = -2^63.
    let b = generated(
        r#"{"type": "long", "count": 2, "init": {"kind": "iota", "start": 9223372036854775807}}"#,
    );
    assert_eq!(b, [i64::MAX.to_le_bytes(), i64::MIN.to_le_bytes()].concat());
    // Integral floats are integers.
    let b = generated(
        r#"{"type": "int", "count": 2, "init": {"kind": "iota", "start": 1.0, "step": 2e0}}"#,
    );
    assert_eq!(i32s(&b), [1, 3]);
    // A fraction cannot be computed in int64.
    let e = buffer_error(r#"{"type": "int", "count": 4, "init": {"kind": "iota", "step": 0.5}}"#);
    assert_eq!(
        e,
        "buffers.b.init.step: 0.5 is not an integer (iota over int is computed in int64)"
    );
    // half: 0.1 * i in float64, each rounded once: 0.1 -> 0x2E66, 0.2 -> 0x3266, 0.3 -> 0x34CD
    // (0.3 = 1.2 * 2^-2; 0.2 * 1024 = 204.8 -> 205 = 0xCD).
    let b = generated(r#"{"type": "half", "count": 4, "init": {"kind": "iota", "step": 0.1}}"#);
    assert_eq!(b, [0x00, 0x00, 0x66, 0x2E, 0x66, 0x32, 0xCD, 0x34]);
}

#[test]
fn sorted_then_set() {
    // Seed 3: x_0..x_4 mod 10 = 3, 1, 9, 7, 6 (splitmix64 by the format's formula); sorted
    // 1, 3, 6, 7, 9; then scalar 0 = -1 and scalar 4 = 100.
    let b = generated(
        r#"{"type": "int", "count": 5, "init": {"kind": "randint", "lo": 0, "hi": 9, "seed": 3},
            "sorted": true, "set": [[0, -1], [4, 100]]}"#,
    );
    assert_eq!(i32s(&b), [-1, 3, 6, 7, 100]);
    // Without sorted: the generated order, then the set.
    let b = generated(
        r#"{"type": "int", "count": 5, "init": {"kind": "randint", "lo": 0, "hi": 9, "seed": 3},
            "set": [[2, 0]]}"#,
    );
    assert_eq!(i32s(&b), [3, 1, 0, 7, 6]);
    // Also accepted inside init.
    let b = generated(
        r#"{"type": "int", "count": 5, "init": {"kind": "randint", "lo": 0, "hi": 9, "seed": 3,
            "sorted": true, "set": [[0, -1]]}}"#,
    );
    assert_eq!(i32s(&b), [-1, 3, 6, 7, 9]);
    // Signed order for signed types, unsigned for unsigned ones.
    let b = generated(
        r#"{"type": "char", "count": 3, "init": {"kind": "iota", "start": -1}, "sorted": true}"#,
    );
    assert_eq!(b, [0xFF, 0, 1]);
    let b = generated(
        r#"{"type": "uchar", "count": 3, "init": {"kind": "iota", "start": -1}, "sorted": true}"#,
    );
    assert_eq!(b, [0, 1, 0xFF]);
    // Floats numerically.
    let b = generated(
        r#"{"type": "float", "count": 3, "init": {"kind": "iota", "start": 1, "step": -1}, "sorted": true}"#,
    );
    assert_eq!(b, f32_bytes(&[-1.0, 0.0, 1.0]));
}

#[test]
fn set_errors() {
    let e = buffer_error(r#"{"type": "int2", "count": 2, "set": [[4, 1]]}"#);
    assert_eq!(
        e,
        "buffers.b.set[0]: index 4 is out of range: the buffer has 4 scalars"
    );
    let e = buffer_error(r#"{"type": "int", "count": 2, "set": [[0, 1, 2]]}"#);
    assert_eq!(
        e,
        "buffers.b.set[0]: expected an [index, value] pair, found 3 items"
    );
    let e = buffer_error(
        r#"{"type": "int", "count": 2, "init": {"kind": "zeros", "set": [[0, 0.5]]}}"#,
    );
    assert_eq!(
        e,
        "buffers.b.init.set[0]: 0.5 is not an integer (int takes integers only)"
    );
    let e = buffer_error(
        r#"{"type": "int", "count": 2, "sorted": true, "init": {"kind": "zeros", "sorted": false}}"#,
    );
    assert_eq!(e, "buffers.b.sorted: given both here and in buffers.b.init");
}

#[test]
fn buffer_size_and_init_errors() {
    let e = buffer_error(r#"{"type": "double16", "count": 18446744073709551615}"#);
    assert!(
        e.starts_with("buffers.b: 18446744073709551615 elements of double16 do not fit"),
        "{e}"
    );
    let e = buffer_error(r#"{"type": "int", "count": -1}"#);
    assert_eq!(
        e,
        "buffers.b.count: -1 is out of range (0 to 18446744073709551615)"
    );
    let e = buffer_error(
        r#"{"type": "int", "count": 1, "init": {"kind": "randint", "lo": 5, "hi": 4, "seed": 0}}"#,
    );
    assert_eq!(e, "buffers.b.init.hi: 4 is less than lo (5)");
    let e = buffer_error(
        r#"{"type": "long", "count": 1, "init": {"kind": "randint", "lo": -1, "hi": 18446744073709551615, "seed": 0}}"#,
    );
    assert!(e.contains("holds more than 2^64 values"), "{e}");
    let e = buffer_error(
        r#"{"type": "int", "count": 1, "init": {"kind": "randint", "lo": 0, "hi": 1}}"#,
    );
    assert_eq!(e, "buffers.b.init.seed: required field is missing");
    let e = buffer_error(
        r#"{"type": "float", "count": 1, "init": {"kind": "randfloat", "lo": -1e308, "hi": 1e308, "seed": 0}}"#,
    );
    assert_eq!(e, "buffers.b.init: hi - lo overflows float64");
    let e = buffer_error(r#"{"type": "float", "count": 1, "init": {"kind": "foo"}}"#);
    assert!(
        e.starts_with(r#"buffers.b.init.kind: unknown kind "foo""#),
        "{e}"
    );
    let e = buffer_error(r#"{"type": "float3", "count": 1}"#);
    assert!(
        e.starts_with(r#"buffers.b.type: unknown type "float3""#),
        "{e}"
    );
    let e = buffer_error(r#"{"count": 1}"#);
    assert_eq!(e, "buffers.b.type: required field is missing");
    let e = buffer_error(r#"{"type": 4, "count": 1}"#);
    assert_eq!(e, "buffers.b.type: expected a string, found a number");
    // A zero-element buffer is allowed and empty; no init means zeros.
    assert_eq!(
        generated(r#"{"type": "int", "count": 0}"#),
        Vec::<u8>::new()
    );
    assert_eq!(generated(r#"{"type": "short2", "count": 2}"#), [0; 8]);
}

// ---- conversions ----

#[test]
fn half_rounding_is_one_rounding_to_nearest_even() {
    assert_eq!(f64_to_f16_bits(1.0), 0x3C00);
    assert_eq!(f64_to_f16_bits(-2.0), 0xC000);
    // 1 + 2^-11 is half-way between 1 (0x3C00) and 1 + 2^-10 (0x3C01): to even, 0x3C00;
    // 1 + 3 * 2^-11 is half-way between 0x3C01 and 0x3C02: to even, 0x3C02.
    assert_eq!(f64_to_f16_bits(1.0 + 2f64.powi(-11)), 0x3C00);
    assert_eq!(f64_to_f16_bits(1.0 + 3.0 * 2f64.powi(-11)), 0x3C02);
    // Just above the tie: 0x3C01. Rounding to float32 first would land on the tie and give
    // 0x3C00 (what half::f16::from_f64 does).
    assert_eq!(
        f64_to_f16_bits(1.0 + 2f64.powi(-11) + 2f64.powi(-40)),
        0x3C01
    );
    assert_eq!(f64_to_f16_bits(65504.0), 0x7BFF); // the largest half
    assert_eq!(f64_to_f16_bits(65519.99), 0x7BFF);
    assert_eq!(f64_to_f16_bits(65520.0), 0x7C00); // the tie with 2^16 goes to even: infinity
    assert_eq!(f64_to_f16_bits(-1e10), 0xFC00);
    assert_eq!(f64_to_f16_bits(2f64.powi(-24)), 0x0001); // the smallest subnormal
    assert_eq!(f64_to_f16_bits(2f64.powi(-25)), 0x0000); // half of it: tie, to even 0
    assert_eq!(f64_to_f16_bits(2f64.powi(-25) * 1.0001), 0x0001);
    assert_eq!(f64_to_f16_bits(3.0 * 2f64.powi(-25)), 0x0002); // 1.5 units: tie, to even 2
    assert_eq!(f64_to_f16_bits(1023.0 * 2f64.powi(-24)), 0x03FF); // the largest subnormal
    assert_eq!(f64_to_f16_bits(2f64.powi(-14) - 2f64.powi(-26)), 0x0400); // rounds up to normal
    assert_eq!(f64_to_f16_bits(-0.0), 0x8000);
    assert_eq!(f64_to_f16_bits(f64::INFINITY), 0x7C00);
    assert_eq!(f64_to_f16_bits(f64::NAN), 0x7E00);
    assert_eq!(f64_to_f16_bits(std::f64::consts::PI), 0x4248); // 3.140625, 3.142578: nearer
}

#[test]
fn half_rounding_agrees_with_float32_rounding_on_float32_values() {
    // For a value that is a float32 there is only one rounding either way, so half's float32
    // conversion (correct on such inputs) is an independent check over every binade.
    let mut x: u64 = 12345;
    for _ in 0..200_000 {
        x = splitmix64(x, 0);
        let bits = (x >> 32) as u32;
        let f = f32::from_bits(bits);
        if f.is_nan() {
            continue;
        }
        let want = half::f16::from_f32(f).to_bits();
        assert_eq!(f64_to_f16_bits(f64::from(f)), want, "{f:e} ({bits:#010x})");
    }
}

#[test]
fn integers_into_float_types_round_once() {
    // 2^24 + 1 ties to even (2^24); 2^24 + 3 ties to even (2^24 + 4).
    assert_eq!(
        int_bits(Scalar::Float, (1 << 24) + 1),
        u64::from(16777216f32.to_bits())
    );
    assert_eq!(
        int_bits(Scalar::Float, (1 << 24) + 3),
        u64::from(16777220f32.to_bits())
    );
    // 2^53 + 1 into double: tie, to even, 2^53.
    assert_eq!(
        int_bits(Scalar::Double, (1 << 53) + 1),
        9007199254740992f64.to_bits()
    );
    // half: 2049 ties to 2048 (0x6800), 2051 to 2052 (0x6802), 65520 to infinity.
    assert_eq!(int_bits(Scalar::Half, 2049), 0x6800);
    assert_eq!(int_bits(Scalar::Half, 2051), 0x6802);
    assert_eq!(int_bits(Scalar::Half, 65520), 0x7C00);
    assert_eq!(int_bits(Scalar::Half, -(1 << 60)), 0xFC00);
    assert_eq!(number_bits(Scalar::UShort, Number::Int(-1)), Ok(0xFFFF));
}

#[test]
fn numbers_written_as_strings() {
    assert_eq!(Number::parse_str("0xFF"), Some(Number::Int(255)));
    assert_eq!(Number::parse_str("-0x10"), Some(Number::Int(-16)));
    assert_eq!(Number::parse_str("0b101"), Some(Number::Int(5)));
    assert_eq!(Number::parse_str("0o17"), Some(Number::Int(15)));
    assert_eq!(
        Number::parse_str("18446744073709551615"),
        Some(Number::Int(u64::MAX.into()))
    );
    assert_eq!(
        Number::parse_str("18446744073709551616").map(|n| n.to_int().is_err()),
        Some(true)
    );
    assert_eq!(
        Number::parse_str("-0x8000000000000000"),
        Some(Number::Int(i64::MIN.into()))
    );
    assert_eq!(Number::parse_str("-0x8000000000000001"), None);
    assert_eq!(Number::parse_str("1.5"), Some(Number::Float(1.5)));
    assert_eq!(
        Number::parse_str("-inf"),
        Some(Number::Float(f64::NEG_INFINITY))
    );
    assert!(matches!(Number::parse_str("NaN"), Some(Number::Float(f)) if f.is_nan()));
    assert_eq!(Number::parse_str("0x1.8p1"), Some(Number::Float(3.0)));
    assert_eq!(Number::parse_str("0x.8"), Some(Number::Float(0.5)));
    assert_eq!(
        Number::parse_str("-0x1p-1074"),
        Some(Number::Float(-f64::from_bits(1)))
    );
    assert_eq!(Number::parse_str("0x1p-1075"), Some(Number::Float(0.0))); // tie, to even
    assert_eq!(
        Number::parse_str("0x1.8p-1075"),
        Some(Number::Float(f64::from_bits(1)))
    );
    assert_eq!(
        Number::parse_str("0x1.fffffffffffffp1023"),
        Some(Number::Float(f64::MAX))
    );
    assert_eq!(
        Number::parse_str("0x1p1024"),
        Some(Number::Float(f64::INFINITY))
    );
    // 1 + 2^-53 is a tie between 1 and 1 + 2^-52: to even, 1; a bit more rounds up.
    assert_eq!(
        Number::parse_str("0x1.00000000000008p0"),
        Some(Number::Float(1.0))
    );
    assert_eq!(
        Number::parse_str("0x1.000000000000080000000000000000001p0"),
        Some(Number::Float(1.0 + f64::EPSILON))
    );
    for bad in ["", "-", "+-1", "0x", "0xg", "1.2.3", "abc", "0b2"] {
        assert_eq!(Number::parse_str(bad), None, "{bad:?}");
    }
}

// ---- comparison ----

fn tol(kind: ToleranceKind, compare_mode: CompareMode) -> Tolerance {
    Tolerance {
        kind,
        compare: compare_mode,
        comment: None,
    }
}

const FLOAT: ElemType = ElemType::scalar(Scalar::Float);

fn cmp_f32(kind: ToleranceKind, e: &[f32], a: &[f32]) -> Comparison {
    compare(
        &tol(kind, CompareMode::Elementwise),
        FLOAT,
        &f32_bytes(e),
        &f32_bytes(a),
    )
}

#[test]
fn ulp_distances() {
    let ulp = |n| ToleranceKind::Ulp { max_ulp: n };
    let next = f32::from_bits(1.0f32.to_bits() + 1);
    assert!(cmp_f32(ulp(1), &[1.0], &[next]).passed());
    assert!(!cmp_f32(ulp(0), &[1.0], &[next]).passed());
    assert_eq!(cmp_f32(ulp(0), &[1.0], &[next]).max_ulp_seen, Some(1));
    // +0 and -0 are the same ordered integer.
    assert!(cmp_f32(ulp(0), &[0.0], &[-0.0]).passed());
    // Across zero: -tiny, -0/+0, +tiny are 2 apart.
    let tiny = f32::from_bits(1);
    let c = cmp_f32(ulp(1), &[-tiny], &[tiny]);
    assert_eq!((c.passed(), c.max_ulp_seen), (false, Some(2)));
    assert!(cmp_f32(ulp(2), &[-tiny], &[tiny]).passed());
    // -1.0 (0xBF800000) to +1.0 (0x3F800000): 0x3F800000 on each side of zero.
    assert_eq!(
        cmp_f32(ulp(0), &[-1.0], &[1.0]).max_ulp_seen,
        Some(2 * 0x3F80_0000)
    );
    // The largest float and infinity are neighbours.
    assert!(cmp_f32(ulp(1), &[f32::MAX], &[f32::INFINITY]).passed());
    // NaN must match NaN, any payload; a NaN against a number fails whatever the distance.
    let other_nan = f32::from_bits(0x7FC0_0001);
    assert!(cmp_f32(ulp(0), &[f32::NAN], &[other_nan]).passed());
    assert!(!cmp_f32(ulp(u64::MAX), &[f32::NAN], &[1.0]).passed());
    assert!(!cmp_f32(ulp(u64::MAX), &[1.0], &[f32::NAN]).passed());
    // double: the extreme distance does not overflow.
    let d = |v: f64| v.to_le_bytes().to_vec();
    let c = compare(
        &tol(ulp(0), CompareMode::Elementwise),
        ElemType::scalar(Scalar::Double),
        &d(f64::MIN),
        &d(f64::MAX),
    );
    assert_eq!(c.max_ulp_seen, Some(2 * 0x7FEF_FFFF_FFFF_FFFF));
    // half: 1.0 (0x3C00) against 0x3C03.
    let c = compare(
        &tol(ulp(2), CompareMode::Elementwise),
        ElemType::scalar(Scalar::Half),
        &[0x00, 0x3C],
        &[0x03, 0x3C],
    );
    assert_eq!((c.passed(), c.max_ulp_seen), (false, Some(3)));
}

#[test]
fn exact_is_bytewise() {
    assert!(!cmp_f32(ToleranceKind::Exact, &[0.0], &[-0.0]).passed());
    assert!(cmp_f32(ToleranceKind::Exact, &[f32::NAN], &[f32::NAN]).passed());
    assert!(!cmp_f32(
        ToleranceKind::Exact,
        &[f32::NAN],
        &[f32::from_bits(0x7FC0_0001)]
    )
    .passed());
}

#[test]
fn rel_rule() {
    let rel = |rtol, atol| ToleranceKind::Rel { rtol, atol };
    // |1.125 - 1| = 0.125 <= 0 + 0.125 * 1; |1.25 - 1| = 0.25 is not.
    assert!(cmp_f32(rel(0.125, 0.0), &[1.0], &[1.125]).passed());
    assert!(!cmp_f32(rel(0.125, 0.0), &[1.0], &[1.25]).passed());
    // atol carries values near zero.
    assert!(cmp_f32(rel(0.0, 0.5), &[0.0], &[-0.5]).passed());
    assert_eq!(
        cmp_f32(rel(0.0, 0.5), &[0.0], &[-0.5]).max_abs_error,
        Some(0.5)
    );
    assert!(cmp_f32(rel(0.0, 0.0), &[f32::NAN], &[f32::NAN]).passed());
    assert!(!cmp_f32(rel(1e30, 1e30), &[f32::NAN], &[1.0]).passed());
    assert!(cmp_f32(rel(0.0, 0.0), &[f32::INFINITY], &[f32::INFINITY]).passed());
    assert!(!cmp_f32(rel(1e30, 1e30), &[f32::INFINITY], &[f32::MAX]).passed());
    assert!(!cmp_f32(rel(1e30, 1e30), &[f32::INFINITY], &[f32::NEG_INFINITY]).passed());
}

#[test]
fn integer_types_compare_as_numbers() {
    let int = ElemType::scalar(Scalar::Int);
    let ib = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let c = compare(
        &tol(ToleranceKind::Ulp { max_ulp: 1 }, CompareMode::Elementwise),
        int,
        &ib(&[-1]),
        &ib(&[1]),
    );
    assert_eq!((c.passed(), c.max_ulp_seen), (false, Some(2)));
    let c = compare(
        &tol(ToleranceKind::Ulp { max_ulp: 2 }, CompareMode::Elementwise),
        int,
        &ib(&[-1]),
        &ib(&[1]),
    );
    assert!(c.passed());
    // |103 - 100| = 3 <= 0.03 * 100.
    let rel = ToleranceKind::Rel {
        rtol: 0.03,
        atol: 0.0,
    };
    assert!(compare(
        &tol(rel, CompareMode::Elementwise),
        int,
        &ib(&[100]),
        &ib(&[103])
    )
    .passed());
    assert!(!compare(
        &tol(rel, CompareMode::Elementwise),
        int,
        &ib(&[100]),
        &ib(&[104])
    )
    .passed());
    // ulong extremes: 0 against 2^64 - 1.
    let ulong = ElemType::scalar(Scalar::ULong);
    let c = compare(
        &tol(ToleranceKind::Ulp { max_ulp: 0 }, CompareMode::Elementwise),
        ulong,
        &[0; 8],
        &[0xFF; 8],
    );
    assert_eq!(c.max_ulp_seen, Some(u64::MAX));
}

#[test]
fn mismatch_reports() {
    let c = cmp_f32(ToleranceKind::Exact, &[1.0, 2.0, 3.0], &[1.0, 2.5, 3.0]);
    assert_eq!((c.elements, c.mismatches), (3, 1));
    assert_eq!(
        c.first_mismatches,
        [Mismatch {
            index: 1,
            expected: "2.0 (0x40000000)".into(),
            actual: "2.5 (0x40200000)".into()
        }]
    );
    let uchar = ElemType::scalar(Scalar::UChar);
    let c = compare(&Tolerance::default(), uchar, &[0xFF], &[0xFE]);
    assert_eq!(c.first_mismatches[0].expected, "255 (0xff)");
    let c = compare(
        &Tolerance::default(),
        ElemType::scalar(Scalar::Char),
        &[0xFF],
        &[0xFE],
    );
    assert_eq!(c.first_mismatches[0].actual, "-2 (0xfe)");
    // At most MAX_REPORTED listed, all counted.
    let c = cmp_f32(ToleranceKind::Exact, &[0.0; 25], &[1.0; 25]);
    assert_eq!((c.mismatches, c.first_mismatches.len()), (25, MAX_REPORTED));
}

#[test]
fn length_mismatch_never_passes() {
    let c = cmp_f32(ToleranceKind::Exact, &[1.0, 2.0], &[1.0]);
    assert_eq!(
        c.length_mismatch,
        Some(LengthMismatch {
            expected_bytes: 8,
            actual_bytes: 4
        })
    );
    assert_eq!((c.elements, c.mismatches, c.passed()), (2, 1, false));
    assert_eq!(c.first_mismatches[0].actual, "missing");
    // A partial element: compared as far as whole ones go, and flagged.
    let c = compare(&Tolerance::default(), FLOAT, &[0; 5], &[0; 5]);
    assert_eq!((c.mismatches, c.passed()), (0, false));
}

#[test]
fn multiset_sorts_both() {
    let ms = tol(ToleranceKind::Exact, CompareMode::Multiset);
    assert!(compare(
        &ms,
        FLOAT,
        &f32_bytes(&[3.0, 1.0, 2.0]),
        &f32_bytes(&[1.0, 2.0, 3.0])
    )
    .passed());
    // Sorted: 1 1 2 against 1 2 2: one mismatch, at sorted index 1.
    let c = compare(
        &ms,
        FLOAT,
        &f32_bytes(&[1.0, 2.0, 1.0]),
        &f32_bytes(&[2.0, 1.0, 2.0]),
    );
    assert_eq!((c.mismatches, c.first_mismatches[0].index), (1, 1));
    // Total order puts -0 before +0 on both sides, so exact bytes match.
    assert!(compare(
        &ms,
        FLOAT,
        &f32_bytes(&[0.0, -0.0]),
        &f32_bytes(&[-0.0, 0.0])
    )
    .passed());
    assert!(compare(
        &ms,
        FLOAT,
        &f32_bytes(&[f32::NAN, -1.0]),
        &f32_bytes(&[-1.0, f32::NAN])
    )
    .passed());
    // Vectors are sorted as whole elements: the pairs stay together.
    let uint2 = ElemType::vector(Scalar::UInt, 2).unwrap();
    let e = u32_bytes(&[2, 20, 1, 10]);
    assert!(compare(&ms, uint2, &e, &u32_bytes(&[1, 10, 2, 20])).passed());
    assert!(!compare(&ms, uint2, &e, &u32_bytes(&[1, 20, 2, 10])).passed());
    // With a tolerance, the sorted arrays are paired up.
    let ms_ulp = tol(ToleranceKind::Ulp { max_ulp: 1 }, CompareMode::Multiset);
    let next = |v: f32| f32::from_bits(v.to_bits() + 1);
    assert!(compare(
        &ms_ulp,
        FLOAT,
        &f32_bytes(&[2.0, 1.0]),
        &f32_bytes(&[next(1.0), next(2.0)])
    )
    .passed());
}

#[test]
fn sum_compares_float64_sums() {
    let sum = |kind| tol(kind, CompareMode::Sum);
    // 1 + 2 + 3 in any order is 6.
    let c = compare(
        &sum(ToleranceKind::Exact),
        FLOAT,
        &f32_bytes(&[1.0, 2.0, 3.0]),
        &f32_bytes(&[3.0, 1.0, 2.0]),
    );
    assert!(c.passed());
    assert_eq!(c.elements, 3);
    // 6 against 7: |7 - 6| = 1 <= 0.2 * 6 = 1.2 passes rel, fails exact.
    let (e, a) = (f32_bytes(&[1.0, 2.0, 3.0]), f32_bytes(&[1.0, 2.0, 4.0]));
    assert!(compare(
        &sum(ToleranceKind::Rel {
            rtol: 0.2,
            atol: 0.0
        }),
        FLOAT,
        &e,
        &a
    )
    .passed());
    let c = compare(&sum(ToleranceKind::Exact), FLOAT, &e, &a);
    assert_eq!(
        c.first_mismatches,
        [Mismatch {
            index: 0,
            expected: "sum 6.0".into(),
            actual: "sum 7.0".into()
        }]
    );
    // ulp on sums counts float units at the expected sum: ulp_float(6) = 2^(2 - 23) = 2^-21.
    let u = 2f32.powi(-21);
    let a1 = f32_bytes(&[1.0, 2.0, 3.0 + 2.0 * u]); // sum 6 + 2^-20: 2 units
    let c = compare(&sum(ToleranceKind::Ulp { max_ulp: 1 }), FLOAT, &e, &a1);
    assert_eq!((c.passed(), c.max_ulp_seen), (false, Some(2)));
    assert!(compare(&sum(ToleranceKind::Ulp { max_ulp: 2 }), FLOAT, &e, &a1).passed());
    // The order of addition does not matter: 2^53 + 1 + 1 loses both ones added one at a time
    // from the left, but sorting first adds 1 + 1 before 2^53 on both sides.
    let double = ElemType::scalar(Scalar::Double);
    let db = |v: &[f64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let big = 2f64.powi(53);
    assert!(compare(
        &sum(ToleranceKind::Exact),
        double,
        &db(&[big, 1.0, 1.0]),
        &db(&[1.0, 1.0, big])
    )
    .passed());
    // NaN sums must match.
    assert!(compare(
        &sum(ToleranceKind::Exact),
        FLOAT,
        &f32_bytes(&[f32::NAN]),
        &f32_bytes(&[f32::NAN])
    )
    .passed());
    assert!(!compare(
        &sum(ToleranceKind::Rel {
            rtol: 1.0,
            atol: 1.0
        }),
        FLOAT,
        &f32_bytes(&[f32::NAN]),
        &f32_bytes(&[1.0])
    )
    .passed());
    // Integer sums: 1 unit is 1.
    let int = ElemType::scalar(Scalar::Int);
    let ib = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let c = compare(
        &sum(ToleranceKind::Ulp { max_ulp: 1 }),
        int,
        &ib(&[5, -3]),
        &ib(&[5, -1]),
    );
    assert_eq!((c.passed(), c.max_ulp_seen), (false, Some(2)));
}

// ---- parsing ----

/// The example of the launch format's documentation, verbatim.
const SPEC_EXAMPLE: &str = r#"{
 "description": "y = a*x + y over 1000 floats, groups of 64 (the last group is partial)",
 "buffers": {
  "x": {"type": "float", "count": 1000, "init": {"kind": "randfloat", "lo": -1, "hi": 1, "seed": 1}},
  "y": {"type": "float", "count": 1000, "init": {"kind": "iota", "start": 0, "step": 0.5}},
  "hist": {"type": "uint", "count": 16, "init": {"kind": "zeros"}}
 },
 "launches": [
  {"kernel": "saxpy", "global": [1024], "local": [64],
   "args": [{"kind": "scalar", "type": "float", "value": 2.5}, {"kind": "buffer", "name": "x"},
            {"kind": "buffer", "name": "y"}, {"kind": "scalar", "type": "int", "value": 1000}]},
  {"kernel": "histogram", "global": [256], "local": [128],
   "args": [{"kind": "buffer", "name": "y"}, {"kind": "buffer", "name": "hist"},
            {"kind": "local", "bytes": 64, "elem": "uint"}]}
 ],
 "outputs": {
  "y": {"kind": "ulp", "max_ulp": 1, "comment": "fused multiply-add on gfx9+, separate mul and add on gfx6-8"},
  "hist": {"kind": "exact"}
 }
}"#;

#[test]
fn the_format_example() {
    let d = LaunchDescription::parse(SPEC_EXAMPLE).unwrap();
    assert_eq!(
        d.description.as_deref(),
        Some("y = a*x + y over 1000 floats, groups of 64 (the last group is partial)")
    );
    let names: Vec<&str> = d.buffers.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["x", "y", "hist"]);
    assert_eq!(d.buffers[0].elem, FLOAT);
    assert_eq!(d.buffers[0].size_bytes(), Ok(4000));
    assert_eq!(d.buffers[2].init, Init::Zeros);

    assert_eq!(d.launches.len(), 2);
    let l = &d.launches[0];
    assert_eq!((l.kernel.as_str(), l.dims), ("saxpy", 1));
    assert_eq!(
        (l.global, l.local, l.offset),
        ([1024, 1, 1], [64, 1, 1], [0, 0, 0])
    );
    assert_eq!(l.group_counts(), [16, 1, 1]);
    assert_eq!(
        l.args,
        [
            // 2.5 = 0x40200000; 1000 = 0x3E8.
            ArgSpec::Scalar {
                elem: FLOAT,
                bytes: vec![0x00, 0x00, 0x20, 0x40]
            },
            ArgSpec::Buffer { name: "x".into() },
            ArgSpec::Buffer { name: "y".into() },
            ArgSpec::Scalar {
                elem: ElemType::scalar(Scalar::Int),
                bytes: vec![0xE8, 0x03, 0, 0]
            },
        ]
    );
    assert_eq!(
        d.launches[1].args[2],
        ArgSpec::Local {
            bytes: 64,
            elem: Some(ElemType::scalar(Scalar::UInt))
        }
    );

    assert_eq!(d.outputs.len(), 2);
    assert_eq!(d.outputs[0].name, "y");
    assert_eq!(
        d.outputs[0].tolerance.kind,
        ToleranceKind::Ulp { max_ulp: 1 }
    );
    assert_eq!(
        d.outputs[0].tolerance.comment.as_deref(),
        Some("fused multiply-add on gfx9+, separate mul and add on gfx6-8")
    );
    assert_eq!(
        d.output("hist").map(|o| o.tolerance.clone()),
        Some(Tolerance::default())
    );

    // x_0 from seed 1 is 0x910A2DEC89025CC1: u = 0x910A2D / 2^24 = 9505325 / 2^24, and
    // -1 + 2u = 1116717 * 2^-23 = 0.1331230..., exact: exponent field 124, significand
    // 1116717 * 8 - 2^23 = 0x085168, bits 0x3E085168.
    let x = d.buffers[0].generate().unwrap();
    assert_eq!(x.len(), 4000);
    assert_eq!(u32s(&x[..4]), [0x3E08_5168]);
    // y[i] = 0.5 i.
    let y = d.buffers[1].generate().unwrap();
    assert_eq!(&y[..16], f32_bytes(&[0.0, 0.5, 1.0, 1.5]));
    assert_eq!(&y[3996..], f32_bytes(&[499.5]));
}

#[test]
fn order_unknown_keys_and_extras() {
    let d = LaunchDescription::parse(
        r#"{"note": "n", "reference": {"runner": "pocl"}, "reference_note": "r",
            "buffers": {"z": {"type": "int", "count": 1, "x-extra": 1,
                              "init": {"kind": "zeros", "why": "because"}},
                        "a": {"type": "int", "count": 1}, "m": {"type": "int", "count": 1}},
            "launches": [{"kernel": "k", "global": 8, "local": 8, "hint": [1],
                          "args": [{"kind": "buffer", "name": "m", "comment": "c"}]}],
            "outputs": {"m": {"kind": "exact", "who": 1}, "a": {"kind": "rel", "rtol": 0.5, "atol": 1}},
            "future": [1, 2, 3]}"#,
    )
    .unwrap();
    let names: Vec<&str> = d.buffers.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["z", "a", "m"]);
    let outs: Vec<&str> = d.outputs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(outs, ["m", "a"]);
    assert_eq!(d.description, None);
    assert_eq!(d.get("note").and_then(|v| v.as_str()), Some("n"));
    assert_eq!(d.get("reference_note").and_then(|v| v.as_str()), Some("r"));
    assert_eq!(
        d.get("reference")
            .and_then(|v| v.get("runner"))
            .and_then(|v| v.as_str()),
        Some("pocl")
    );
    assert_eq!(d.buffer_index("m"), Some(2));
    assert_eq!(
        d.outputs[1].tolerance.kind,
        ToleranceKind::Rel {
            rtol: 0.5,
            atol: 1.0
        }
    );
    assert_eq!(
        (d.launches[0].global, d.launches[0].local),
        ([8, 1, 1], [8, 1, 1])
    );
}

#[test]
fn launch_shapes() {
    let d = LaunchDescription::parse(
        r#"{"buffers": {}, "outputs": {}, "launches": [
            {"kernel": "k", "global": [100, 30, 2], "local": [16, 8, 1], "offset": [5, 0, 7]},
            {"kernel": "k", "global": [0], "local": [1]}]}"#,
    )
    .unwrap();
    let l = &d.launches[0];
    assert_eq!(
        (l.dims, l.global, l.local, l.offset),
        (3, [100, 30, 2], [16, 8, 1], [5, 0, 7])
    );
    // ceil(100 / 16) = 7, ceil(30 / 8) = 4.
    assert_eq!(l.group_counts(), [7, 4, 2]);
    assert_eq!(d.launches[1].group_counts(), [0, 1, 1]);
    assert!(d.launches[1].args.is_empty());
}

fn launch_error(launch: &str) -> String {
    parse_error(&format!(
        r#"{{"buffers": {{"x": {{"type": "int2", "count": 4}}}}, "outputs": {{}}, "launches": [{launch}]}}"#
    ))
}

#[test]
fn launch_errors() {
    assert_eq!(
        launch_error(r#"{"global": [1], "local": [1]}"#),
        "launches[0].kernel: required field is missing"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "", "global": [1], "local": [1]}"#),
        "launches[0].kernel: the kernel name is empty"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "k", "local": [1]}"#),
        "launches[0].global: required field is missing"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "k", "global": [1, 1, 1, 1], "local": [1, 1, 1, 1]}"#),
        "launches[0].global: expected 1 to 3 dimensions, found 4"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "k", "global": [], "local": []}"#),
        "launches[0].global: expected 1 to 3 dimensions, found 0"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "k", "global": [64], "local": [8, 8]}"#),
        "launches[0].local: 2 dimensions, but global has 1"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "k", "global": [64, 2], "local": [8, 1], "offset": [0]}"#),
        "launches[0].offset: 1 dimensions, but global has 2"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "k", "global": [64, 2], "local": [8, 0]}"#),
        "launches[0].local[1]: must be at least 1"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "k", "global": [-1], "local": [1]}"#),
        "launches[0].global[0]: -1 is out of range (0 to 4294967295)"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "k", "global": [1.5], "local": [1]}"#),
        "launches[0].global[0]: 1.5 is not an integer"
    );
    assert_eq!(
        launch_error(r#"{"kernel": "k", "global": "8", "local": [1]}"#),
        "launches[0].global: expected a list of 1 to 3 integers, found a string"
    );
    let args = |a: &str| {
        launch_error(&format!(
            r#"{{"kernel": "k", "global": [1], "local": [1], "args": [{a}]}}"#
        ))
    };
    assert_eq!(
        args(r#"{"kind": "buffer", "name": "x"}, {"kind": "buffer", "name": "z"}"#),
        r#"launches[0].args[1]: buffer "z" is not defined"#
    );
    assert!(args(r#"{"kind": "image"}"#)
        .starts_with(r#"launches[0].args[0].kind: unknown kind "image""#));
    assert_eq!(
        args(r#"{"name": "x"}"#),
        "launches[0].args[0].kind: required field is missing"
    );
    assert_eq!(
        args(r#"{"kind": "scalar", "type": "uint2", "value": 3}"#),
        "launches[0].args[0].value: uint2 takes 2 values, found 1"
    );
    assert_eq!(
        args(r#"{"kind": "scalar", "type": "int", "value": [1, 2]}"#),
        "launches[0].args[0].value: int takes 1 value, found 2"
    );
    assert_eq!(
        args(r#"{"kind": "scalar", "type": "int2", "value": [1, 2.5]}"#),
        "launches[0].args[0].value[1]: 2.5 is not an integer (int takes integers only)"
    );
    assert_eq!(
        args(r#"{"kind": "scalar", "type": "float", "value": true}"#),
        "launches[0].args[0].value: expected a number, found a boolean"
    );
    assert_eq!(
        args(r#"{"kind": "local"}"#),
        "launches[0].args[0].bytes: required field is missing"
    );
    assert!(args(r#"{"kind": "local", "bytes": 4, "elem": "float3"}"#)
        .starts_with("launches[0].args[0].elem: unknown type"));
}

#[test]
fn scalar_argument_bytes() {
    let d = LaunchDescription::parse(
        r#"{"buffers": {}, "outputs": {}, "launches": [{"kernel": "k", "global": [1], "local": [1], "args": [
            {"kind": "scalar", "type": "uint2", "value": [40, 30]},
            {"kind": "scalar", "type": "char", "value": -1},
            {"kind": "scalar", "type": "half", "value": [1]},
            {"kind": "scalar", "type": "double", "value": 0.1},
            {"kind": "scalar", "type": "ulong", "value": -2}]}]}"#,
    )
    .unwrap();
    let bytes: Vec<Vec<u8>> = d.launches[0]
        .args
        .iter()
        .map(|a| match a {
            ArgSpec::Scalar { bytes, .. } => bytes.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(bytes[0], [40, 0, 0, 0, 30, 0, 0, 0]);
    assert_eq!(bytes[1], [0xFF]);
    assert_eq!(bytes[2], [0x00, 0x3C]);
    assert_eq!(bytes[3], 0.1f64.to_le_bytes());
    assert_eq!(bytes[4], (-2i64).to_le_bytes());
}

#[test]
fn document_and_output_errors() {
    assert_eq!(
        parse_error("[]"),
        "top level: expected an object, found a list"
    );
    assert_eq!(
        parse_error(r#"{"launches": [], "outputs": {}}"#),
        "buffers: required field is missing"
    );
    assert_eq!(
        parse_error(r#"{"buffers": {}, "outputs": {}}"#),
        "launches: required field is missing"
    );
    assert_eq!(
        parse_error(r#"{"buffers": {}, "launches": []}"#),
        "outputs: required field is missing"
    );
    assert_eq!(
        parse_error(r#"{"buffers": [], "launches": [], "outputs": {}}"#),
        "buffers: expected an object, found a list"
    );
    assert_eq!(
        parse_error(r#"{"description": 3, "buffers": {}, "launches": [], "outputs": {}}"#),
        "description: expected a string, found a number"
    );
    let with_output = |o: &str| {
        parse_error(&format!(
            r#"{{"buffers": {{"y": {{"type": "float", "count": 1}}}}, "launches": [], "outputs": {{{o}}}}}"#
        ))
    };
    assert_eq!(
        with_output(r#""q": {"kind": "exact"}"#),
        r#"outputs.q: buffer "q" is not defined"#
    );
    assert_eq!(
        with_output(r#""y": {"kind": "ulp"}"#),
        "outputs.y.max_ulp: required field is missing"
    );
    assert_eq!(
        with_output(r#""y": {"kind": "rel", "rtol": 0.1}"#),
        "outputs.y.atol: required field is missing"
    );
    assert_eq!(
        with_output(r#""y": {"kind": "rel", "atol": 0.1}"#),
        "outputs.y.rtol: required field is missing"
    );
    assert_eq!(
        with_output(r#""y": {"max_ulp": 1}"#),
        "outputs.y.kind: required field is missing"
    );
    assert_eq!(
        with_output(r#""y": {"kind": "rel", "rtol": -1, "atol": 0}"#),
        "outputs.y.rtol: -1 is not a finite number >= 0"
    );
    assert!(with_output(r#""y": {"kind": "close"}"#)
        .starts_with(r#"outputs.y.kind: unknown kind "close""#));
    assert!(with_output(r#""y": {"kind": "exact", "compare": "bag"}"#)
        .starts_with(r#"outputs.y.compare: unknown comparison "bag""#));
    assert_eq!(
        with_output(r#""y": {"kind": "ulp", "max_ulp": -1}"#),
        "outputs.y.max_ulp: -1 is out of range (0 to 18446744073709551615)"
    );
    // Buffer names that are not plain words are quoted in paths, and path-like ones refused.
    let e = parse_error(r#"{"buffers": {"a b": {"type": "int"}}, "launches": [], "outputs": {}}"#);
    assert_eq!(e, r#"buffers["a b"].count: required field is missing"#);
    let e = parse_error(
        r#"{"buffers": {"../x": {"type": "int", "count": 1}}, "launches": [], "outputs": {}}"#,
    );
    assert!(
        e.starts_with(r#"buffers["../x"]: a buffer name must be"#),
        "{e}"
    );
}

#[test]
fn json_syntax_errors_give_line_and_column() {
    let e = LaunchDescription::parse("{\n  \"buffers\": {,\n}").unwrap_err();
    match e {
        LaunchError::Json {
            line,
            column,
            ref message,
        } => {
            assert_eq!((line, column), (2, 15));
            assert!(!message.contains("line"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(e
        .to_string()
        .starts_with("invalid JSON at line 2, column 15: "));
    assert!(matches!(
        LaunchDescription::parse(""),
        Err(LaunchError::Json { .. })
    ));
    // Deep nesting is an error, not a stack overflow.
    let deep = "[".repeat(100_000);
    assert!(matches!(
        LaunchDescription::parse(&deep),
        Err(LaunchError::Json { .. })
    ));
}

// ---- robustness: no panic on any input ----

#[test]
fn mangled_descriptions_give_errors_not_panics() {
    let base = SPEC_EXAMPLE.as_bytes();
    let pieces: [&[u8]; 10] = [
        b"-",
        b"1e400",
        b"\"",
        b"[",
        b"}",
        b"0.5",
        b"99999999999999999999",
        b"\"float3\"",
        b"null",
        b"\xC3\xA9",
    ];
    let mut parsed = 0;
    for round in 0..4000u64 {
        let mut text = base.to_vec();
        for k in 0..1 + round % 3 {
            let x = splitmix64(round, k);
            let at = (x % text.len() as u64) as usize;
            let len = ((x >> 32) % 6) as usize;
            let end = (at + len).min(text.len());
            if x & (1 << 20) != 0 {
                text.splice(at..end, pieces[((x >> 24) % 10) as usize].iter().copied());
            } else {
                text.drain(at..end);
            }
        }
        let Ok(text) = String::from_utf8(text) else {
            continue;
        };
        let Ok(d) = LaunchDescription::parse(&text) else {
            continue;
        };
        parsed += 1;
        for b in &d.buffers {
            if b.size_bytes().is_ok_and(|n| n <= 1 << 20) {
                let bytes = b.generate().expect("a parsed description generates");
                for o in &d.outputs {
                    assert!(compare(&o.tolerance, b.elem, &bytes, &bytes).passed());
                }
            }
        }
    }
    // Some mutations land in places that keep the description valid.
    assert!(parsed > 100, "{parsed}");
}

#[test]
fn compare_takes_any_bytes() {
    let kinds = [
        ToleranceKind::Exact,
        ToleranceKind::Ulp { max_ulp: 3 },
        ToleranceKind::Rel {
            rtol: 1e-3,
            atol: 0.0,
        },
    ];
    let modes = [
        CompareMode::Elementwise,
        CompareMode::Multiset,
        CompareMode::Sum,
    ];
    for (round, s) in (0u64..).zip(Scalar::ALL.into_iter().cycle().take(44)) {
        let elem = ElemType::vector(s, [1, 2, 4, 16][round as usize % 4]).unwrap();
        let bytes =
            |seed: u64, n: u64| -> Vec<u8> { (0..n).map(|i| splitmix64(seed, i) as u8).collect() };
        let e = bytes(round, 64 + round % 7);
        let a = bytes(round + 1000, 64 + round % 5);
        for kind in kinds {
            for mode in modes {
                let t = tol(kind, mode);
                let c = compare(&t, elem, &e, &a);
                assert!(c.first_mismatches.len() <= MAX_REPORTED);
                // Every array equals itself, NaNs included, under every rule.
                let whole = &e[..e.len() / elem.size_bytes() as usize * elem.size_bytes() as usize];
                assert!(
                    compare(&t, elem, whole, whole).passed(),
                    "{elem} {kind:?} {mode:?}"
                );
            }
        }
    }
}
