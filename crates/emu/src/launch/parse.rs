//! Reading a launch description from JSON, with every check the format implies and an error
//! that says where.

use serde_json::{Map, Value};

use super::compare::{CompareMode, Tolerance, ToleranceKind};
use super::convert::{number_bits, Number};
use super::error::{buffer_path, child, item, LaunchError};
use super::spec::{ArgSpec, BufferSpec, Init, LaunchDescription, LaunchSpec, OutputSpec, SetEntry};
use super::types::ElemType;

type Result<T> = std::result::Result<T, LaunchError>;

/// HSA's AQL dispatch packet holds each grid size in 32 bits.
const MAX_GLOBAL: u64 = u32::MAX as u64;
/// HSA's AQL dispatch packet holds each work-group size in 16 bits.
const MAX_LOCAL: u64 = u16::MAX as u64;
/// A dynamic LDS size travels as a 32-bit quantity (the group segment size is 32 bits).
const MAX_LOCAL_BYTES: u64 = u32::MAX as u64;

impl LaunchDescription {
    /// Reads a launch description from JSON text.
    ///
    /// Buffers and outputs keep their file order. Unknown keys are ignored anywhere; the
    /// whole document stays available in [`LaunchDescription::raw`]. Everything the format
    /// implies is checked here, so that generating buffers and running launches cannot fail on
    /// the description itself: element types, sizes, `init` fields against the element type,
    /// `set` indices and values, 1 to 3 dimensions with `local` and `offset` matching `global`,
    /// work-group sizes of at least 1, argument kinds, buffer names, and tolerance fields.
    ///
    /// Beyond the letter of the format, and documented here because other runners accept the
    /// same: a number may also be written as a string (`"nan"`, `"-inf"`, `"0xFF"`,
    /// `"0x1.8p1"`, see [`Number::parse_str`]); `global`, `local` and `offset` may be a bare
    /// integer for one dimension; a one-lane scalar argument may be a one-element list;
    /// `init` defaults to zeros and `args` to none; `sorted` and `set` may also be written
    /// inside `init`; `compare` may be `"elementwise"`, the default.
    ///
    /// JSON float literals are converted by serde_json. Unless its `float_roundtrip` feature
    /// is enabled, a literal with more than about 15 significant digits or a decimal exponent
    /// beyond 22 (`3.4028234663852886e+38`, `1e-30`) may come out one float64 ulp off the
    /// correctly rounded value.
    pub fn parse(json: &str) -> Result<LaunchDescription> {
        let raw: Value = serde_json::from_str(json).map_err(|e| {
            let full = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
            LaunchError::Json {
                line: e.line(),
                column: e.column(),
                message,
            }
        })?;
        LaunchDescription::from_value(raw)
    }

    /// Reads a launch description from an already parsed JSON document (see
    /// [`LaunchDescription::parse`]).
    pub fn from_value(raw: Value) -> Result<LaunchDescription> {
        let top = object(&raw, "top level")?;
        let description = match top.get("description") {
            None => None,
            Some(v) => Some(string(v, "description")?.to_string()),
        };

        let buffers_map = object(required(top, "", "buffers")?, "buffers")?;
        let mut buffers = Vec::with_capacity(buffers_map.len());
        for (name, b) in buffers_map {
            buffers.push(parse_buffer(name, b)?);
        }

        let launches_list = array(required(top, "", "launches")?, "launches")?;
        let mut launches = Vec::with_capacity(launches_list.len());
        for (i, l) in launches_list.iter().enumerate() {
            launches.push(parse_launch(l, &item("launches", i), &buffers)?);
        }

        let outputs_map = object(required(top, "", "outputs")?, "outputs")?;
        let mut outputs = Vec::with_capacity(outputs_map.len());
        for (name, t) in outputs_map {
            let at = child("outputs", name);
            if !buffers.iter().any(|b| &b.name == name) {
                return Err(LaunchError::invalid(
                    at,
                    format!("buffer {name:?} is not defined"),
                ));
            }
            outputs.push(OutputSpec {
                name: name.clone(),
                tolerance: parse_tolerance(t, &at)?,
            });
        }

        Ok(LaunchDescription {
            description,
            buffers,
            launches,
            outputs,
            raw,
        })
    }
}

fn parse_buffer(name: &str, v: &Value) -> Result<BufferSpec> {
    let at = buffer_path(name);
    if name.is_empty() || name.contains(['/', '\\', '\0']) {
        return Err(LaunchError::invalid(
            at,
            "a buffer name must be non-empty and contain no '/', '\\' or NUL: it names the \
             files <name>.in.bin and <name>.out.bin",
        ));
    }
    let m = object(v, &at)?;
    let elem = elem_type(required(m, &at, "type")?, &child(&at, "type"))?;
    let count = unsigned(required(m, &at, "count")?, &child(&at, "count"), u64::MAX)?;
    let init_at = child(&at, "init");
    let init_map = match m.get("init") {
        None => None,
        Some(v) => Some(object(v, &init_at)?),
    };
    let init = match init_map {
        None => Init::Zeros,
        Some(im) => parse_init(im, &init_at)?,
    };

    // `sorted` and `set` belong to the buffer; written inside `init` they are taken too.
    let placed = |key: &str| -> Result<Option<(&Value, String)>> {
        let outer = m.get(key);
        let inner = init_map.and_then(|im| im.get(key));
        match (outer, inner) {
            (Some(_), Some(_)) => Err(LaunchError::invalid(
                child(&at, key),
                format!("given both here and in {init_at}"),
            )),
            (Some(v), None) => Ok(Some((v, child(&at, key)))),
            (None, Some(v)) => Ok(Some((v, child(&init_at, key)))),
            (None, None) => Ok(None),
        }
    };
    let sorted = match placed("sorted")? {
        None => false,
        Some((v, sat)) => v
            .as_bool()
            .ok_or_else(|| expected(v, &sat, "true or false"))?,
    };
    let (set, set_at) = match placed("set")? {
        None => (Vec::new(), child(&at, "set")),
        Some((v, sat)) => {
            let mut set = Vec::new();
            for (k, pair) in array(v, &sat)?.iter().enumerate() {
                let pat = item(&sat, k);
                let p = array(pair, &pat)?;
                if p.len() != 2 {
                    return Err(LaunchError::invalid(
                        pat,
                        format!("expected an [index, value] pair, found {} items", p.len()),
                    ));
                }
                let index = unsigned(&p[0], &item(&pat, 0), u64::MAX)?;
                let value = number(&p[1], &item(&pat, 1))?;
                set.push(SetEntry { index, value });
            }
            (set, sat)
        }
    };

    let spec = BufferSpec {
        name: name.to_string(),
        elem,
        count,
        init,
        sorted,
        set,
    };
    spec.check(&set_at)?;
    Ok(spec)
}

fn parse_init(m: &Map<String, Value>, at: &str) -> Result<Init> {
    let kind_at = child(at, "kind");
    let kind = string(required(m, at, "kind")?, &kind_at)?;
    let num = |key: &str| number(required(m, at, key)?, &child(at, key));
    let int = |key: &str| integer(required(m, at, key)?, &child(at, key));
    let seed = || int("seed").map(|s| s as u128 as u64);
    let num_or = |key: &str, default: i128| match m.get(key) {
        None => Ok(Number::Int(default)),
        Some(v) => number(v, &child(at, key)),
    };
    Ok(match kind {
        "zeros" => Init::Zeros,
        "fill" => Init::Fill {
            value: num("value")?,
        },
        "iota" => Init::Iota {
            start: num_or("start", 0)?,
            step: num_or("step", 1)?,
        },
        "randint" => Init::RandInt {
            lo: int("lo")?,
            hi: int("hi")?,
            seed: seed()?,
        },
        "randfloat" => Init::RandFloat {
            lo: num("lo")?.to_f64(),
            hi: num("hi")?.to_f64(),
            seed: seed()?,
        },
        other => {
            return Err(LaunchError::invalid(
                kind_at,
                format!(
                    "unknown kind {other:?} (expected zeros, fill, iota, randint or randfloat)"
                ),
            ))
        }
    })
}

fn parse_launch(v: &Value, at: &str, buffers: &[BufferSpec]) -> Result<LaunchSpec> {
    let m = object(v, at)?;
    let kernel_at = child(at, "kernel");
    let kernel = string(required(m, at, "kernel")?, &kernel_at)?;
    if kernel.is_empty() {
        return Err(LaunchError::invalid(kernel_at, "the kernel name is empty"));
    }

    let global_at = child(at, "global");
    let global = dims(required(m, at, "global")?, &global_at, 0, MAX_GLOBAL)?;
    let n = global.len();
    let same_dims = |list: Vec<u64>, key: &str| {
        if list.len() == n {
            Ok(list)
        } else {
            Err(LaunchError::invalid(
                child(at, key),
                format!("{} dimensions, but global has {n}", list.len()),
            ))
        }
    };
    let local = same_dims(
        dims(required(m, at, "local")?, &child(at, "local"), 1, MAX_LOCAL)?,
        "local",
    )?;
    let offset = match m.get("offset") {
        None => vec![0; n],
        Some(v) => same_dims(dims(v, &child(at, "offset"), 0, u64::MAX)?, "offset")?,
    };

    let mut args = Vec::new();
    if let Some(list) = m.get("args") {
        let args_at = child(at, "args");
        for (i, a) in array(list, &args_at)?.iter().enumerate() {
            args.push(parse_arg(a, &item(&args_at, i), buffers)?);
        }
    }

    let pad =
        |list: &[u64], fill: u64| std::array::from_fn(|d| list.get(d).copied().unwrap_or(fill));
    Ok(LaunchSpec {
        kernel: kernel.to_string(),
        dims: n as u32,
        global: pad(&global, 1),
        local: pad(&local, 1),
        offset: pad(&offset, 0),
        args,
    })
}

/// A list of 1 to 3 integers within `min..=max` (or one bare integer: one dimension).
fn dims(v: &Value, at: &str, min: u64, max: u64) -> Result<Vec<u64>> {
    let list: Vec<&Value> = match v {
        Value::Array(a) => a.iter().collect(),
        _ if v.is_number() => vec![v],
        _ => return Err(expected(v, at, "a list of 1 to 3 integers")),
    };
    if !(1..=3).contains(&list.len()) {
        return Err(LaunchError::invalid(
            at,
            format!("expected 1 to 3 dimensions, found {}", list.len()),
        ));
    }
    let mut out = Vec::with_capacity(list.len());
    for (d, x) in list.into_iter().enumerate() {
        let xat = if v.is_array() {
            item(at, d)
        } else {
            at.to_string()
        };
        let value = unsigned(x, &xat, max)?;
        if value < min {
            return Err(LaunchError::invalid(xat, format!("must be at least {min}")));
        }
        out.push(value);
    }
    Ok(out)
}

fn parse_arg(v: &Value, at: &str, buffers: &[BufferSpec]) -> Result<ArgSpec> {
    let m = object(v, at)?;
    let kind_at = child(at, "kind");
    Ok(match string(required(m, at, "kind")?, &kind_at)? {
        "buffer" => {
            let name = string(required(m, at, "name")?, &child(at, "name"))?;
            if !buffers.iter().any(|b| b.name == name) {
                return Err(LaunchError::invalid(
                    at,
                    format!("buffer {name:?} is not defined"),
                ));
            }
            ArgSpec::Buffer {
                name: name.to_string(),
            }
        }
        "scalar" => {
            let (elem, bytes) = scalar_bytes(m, at)?;
            ArgSpec::Scalar { elem, bytes }
        }
        // An extension of the spec for by-value structs (tests/launch/struct_args/README.md):
        // `size` bytes, zero where no field is written, each field encoded like a scalar.
        "struct" => {
            let size = unsigned(
                required(m, at, "size")?,
                &child(at, "size"),
                MAX_LOCAL_BYTES,
            )?;
            let mut bytes = vec![0u8; size as usize];
            let fields_at = child(at, "fields");
            let fields = match m.get("fields") {
                None => Vec::new(),
                Some(Value::Array(list)) => list.iter().collect(),
                Some(_) => return Err(LaunchError::invalid(fields_at, "must be a list")),
            };
            for (i, f) in fields.into_iter().enumerate() {
                let fat = item(&fields_at, i);
                let fm = object(f, &fat)?;
                let offset = unsigned(required(fm, &fat, "offset")?, &child(&fat, "offset"), size)?;
                let (_, fb) = scalar_bytes(fm, &fat)?;
                let end = offset as usize + fb.len();
                if end > bytes.len() {
                    return Err(LaunchError::invalid(
                        fat,
                        format!("field of {} bytes at offset {offset} ends past the struct's {size} bytes", fb.len()),
                    ));
                }
                bytes[offset as usize..end].copy_from_slice(&fb);
            }
            ArgSpec::Struct { bytes }
        }
        "local" => {
            let bytes = unsigned(
                required(m, at, "bytes")?,
                &child(at, "bytes"),
                MAX_LOCAL_BYTES,
            )?;
            let elem = match m.get("elem") {
                None => None,
                Some(e) => Some(elem_type(e, &child(at, "elem"))?),
            };
            ArgSpec::Local { bytes, elem }
        }
        other => {
            return Err(LaunchError::invalid(
                kind_at,
                format!("unknown kind {other:?} (expected buffer, scalar, local or struct)"),
            ))
        }
    })
}

/// The `type` and `value` of a scalar argument (or struct field) as little-endian bytes.
fn scalar_bytes(m: &serde_json::Map<String, Value>, at: &str) -> Result<(ElemType, Vec<u8>)> {
    let elem = elem_type(required(m, at, "type")?, &child(at, "type"))?;
    let value_at = child(at, "value");
    let value = required(m, at, "value")?;
    let lanes: Vec<(&Value, String)> = match value {
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(i, x)| (x, item(&value_at, i)))
            .collect(),
        _ => vec![(value, value_at.clone())],
    };
    if lanes.len() != elem.lanes as usize {
        let what = if elem.lanes == 1 { "value" } else { "values" };
        return Err(LaunchError::invalid(
            value_at,
            format!("{elem} takes {} {what}, found {}", elem.lanes, lanes.len()),
        ));
    }
    let size = elem.scalar.size_bytes() as usize;
    let mut bytes = Vec::with_capacity(elem.size_bytes() as usize);
    for (x, xat) in lanes {
        let bits = number_bits(elem.scalar, number(x, &xat)?)
            .map_err(|msg| LaunchError::invalid(xat, msg))?;
        bytes.extend_from_slice(&bits.to_le_bytes()[..size]);
    }
    Ok((elem, bytes))
}

fn parse_tolerance(v: &Value, at: &str) -> Result<Tolerance> {
    let m = object(v, at)?;
    let kind_at = child(at, "kind");
    let tol_field = |key: &str| -> Result<f64> {
        let fat = child(at, key);
        let f = number(required(m, at, key)?, &fat)?.to_f64();
        if f.is_finite() && f >= 0.0 {
            Ok(f)
        } else {
            Err(LaunchError::invalid(
                fat,
                format!("{f} is not a finite number >= 0"),
            ))
        }
    };
    let kind = match string(required(m, at, "kind")?, &kind_at)? {
        "exact" => ToleranceKind::Exact,
        "ulp" => ToleranceKind::Ulp {
            max_ulp: unsigned(required(m, at, "max_ulp")?, &child(at, "max_ulp"), u64::MAX)?,
        },
        "rel" => ToleranceKind::Rel {
            rtol: tol_field("rtol")?,
            atol: tol_field("atol")?,
        },
        other => {
            return Err(LaunchError::invalid(
                kind_at,
                format!("unknown kind {other:?} (expected exact, ulp or rel)"),
            ))
        }
    };
    let compare = match m.get("compare") {
        None => CompareMode::Elementwise,
        Some(c) => {
            let cat = child(at, "compare");
            match string(c, &cat)? {
                "elementwise" => CompareMode::Elementwise,
                "multiset" => CompareMode::Multiset,
                "sum" => CompareMode::Sum,
                other => {
                    return Err(LaunchError::invalid(
                        cat,
                        format!("unknown comparison {other:?} (expected multiset or sum)"),
                    ))
                }
            }
        }
    };
    let comment = match m.get("comment") {
        None => None,
        Some(c) => Some(string(c, &child(at, "comment"))?.to_string()),
    };
    Ok(Tolerance {
        kind,
        compare,
        comment,
    })
}

// ---- JSON accessors: each names the place and what it found ----

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn expected(v: &Value, at: &str, what: &str) -> LaunchError {
    LaunchError::invalid(at, format!("expected {what}, found {}", kind_of(v)))
}

fn required<'a>(m: &'a Map<String, Value>, parent: &str, key: &str) -> Result<&'a Value> {
    m.get(key)
        .ok_or_else(|| LaunchError::invalid(child(parent, key), "required field is missing"))
}

fn object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>> {
    v.as_object().ok_or_else(|| expected(v, at, "an object"))
}

fn array<'a>(v: &'a Value, at: &str) -> Result<&'a Vec<Value>> {
    v.as_array().ok_or_else(|| expected(v, at, "a list"))
}

fn string<'a>(v: &'a Value, at: &str) -> Result<&'a str> {
    v.as_str().ok_or_else(|| expected(v, at, "a string"))
}

fn elem_type(v: &Value, at: &str) -> Result<ElemType> {
    ElemType::parse(string(v, at)?).map_err(|m| LaunchError::invalid(at, m))
}

/// A JSON number, or a string that reads as one (see [`Number::parse_str`]).
fn number(v: &Value, at: &str) -> Result<Number> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(Number::Int(i.into()))
            } else if let Some(u) = n.as_u64() {
                Ok(Number::Int(u.into()))
            } else {
                // Without serde_json's arbitrary precision every other number is a float64.
                Ok(Number::Float(n.as_f64().unwrap_or(f64::NAN)))
            }
        }
        Value::String(s) => Number::parse_str(s)
            .ok_or_else(|| LaunchError::invalid(at, format!("{s:?} is not a number"))),
        _ => Err(expected(v, at, "a number")),
    }
}

/// An integer value within -2^63 ..= 2^64 - 1 (integral floats included).
fn integer(v: &Value, at: &str) -> Result<i128> {
    number(v, at)?
        .to_int()
        .map_err(|m| LaunchError::invalid(at, m))
}

/// An integer within `0..=max`.
fn unsigned(v: &Value, at: &str, max: u64) -> Result<u64> {
    let i = integer(v, at)?;
    u64::try_from(i)
        .ok()
        .filter(|&u| u <= max)
        .ok_or_else(|| LaunchError::invalid(at, format!("{i} is out of range (0 to {max})")))
}
