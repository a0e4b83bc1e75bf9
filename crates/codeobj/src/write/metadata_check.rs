//! LLVM 19's `AMDGPU::HSAMD::V3::MetadataVerifier` in its lenient mode (the one llvm-mc
//! uses for `.amdgpu_metadata`): required keys, scalar kinds, enumerated strings and array
//! lengths of the keys it knows; other keys pass untouched. Like LLVM, a string found where
//! another kind is expected is re-typed from its text, and the re-typed value is what gets
//! written (this only matters for explicitly tagged scalars such as `!!int 5`).

use rmpv::Value;

use super::yaml_doc::typed_scalar;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Int,
    UInt,
    Bool,
    Str,
}

fn kind_of(v: &Value) -> Option<Kind> {
    Some(match v {
        Value::Integer(i) if i.as_u64().is_some() => Kind::UInt,
        Value::Integer(_) => Kind::Int,
        Value::Boolean(_) => Kind::Bool,
        Value::String(_) => Kind::Str,
        _ => return None,
    })
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Map(_))
}

/// `verifyScalar`: the node has (or, from a string, can be re-typed to) kind `want`, and its
/// string value (for `Str`) is one of `allowed` when given.
fn scalar(v: &mut Value, want: Kind, allowed: Option<&[&str]>) -> bool {
    if !is_scalar(v) {
        return false;
    }
    if kind_of(v) != Some(want) {
        let Value::String(s) = v else { return false };
        let retyped = typed_scalar(s.as_str().unwrap_or(""));
        if kind_of(&retyped) != Some(want) {
            return false;
        }
        *v = retyped;
    }
    match (allowed, v.as_str()) {
        (Some(list), Some(s)) => list.contains(&s),
        (Some(_), None) => false,
        (None, _) => true,
    }
}

fn integer(v: &mut Value) -> bool {
    scalar(v, Kind::UInt, None) || scalar(v, Kind::Int, None)
}

fn array(v: &mut Value, size: Option<usize>, each: impl Fn(&mut Value) -> bool) -> bool {
    let Value::Array(items) = v else { return false };
    if size.is_some_and(|n| items.len() != n) {
        return false;
    }
    items.iter_mut().all(each)
}

/// `verifyEntry`: the string key `key` of a map, if present, passes `check`.
fn entry(
    map: &mut [(Value, Value)],
    key: &str,
    required: bool,
    check: impl Fn(&mut Value) -> bool,
) -> bool {
    match map.iter_mut().find(|(k, _)| k.as_str() == Some(key)) {
        Some((_, v)) => check(v),
        None => !required,
    }
}

fn int_entry(map: &mut [(Value, Value)], key: &str, required: bool) -> bool {
    entry(map, key, required, integer)
}

fn str_entry(
    map: &mut [(Value, Value)],
    key: &str,
    required: bool,
    allowed: Option<&[&str]>,
) -> bool {
    entry(map, key, required, |v| scalar(v, Kind::Str, allowed))
}

fn bool_entry(map: &mut [(Value, Value)], key: &str) -> bool {
    entry(map, key, false, |v| scalar(v, Kind::Bool, None))
}

const VALUE_KINDS: &[&str] = &[
    "by_value",
    "global_buffer",
    "dynamic_shared_pointer",
    "sampler",
    "image",
    "pipe",
    "queue",
    "hidden_block_count_x",
    "hidden_block_count_y",
    "hidden_block_count_z",
    "hidden_group_size_x",
    "hidden_group_size_y",
    "hidden_group_size_z",
    "hidden_remainder_x",
    "hidden_remainder_y",
    "hidden_remainder_z",
    "hidden_global_offset_x",
    "hidden_global_offset_y",
    "hidden_global_offset_z",
    "hidden_grid_dims",
    "hidden_none",
    "hidden_printf_buffer",
    "hidden_hostcall_buffer",
    "hidden_heap_v1",
    "hidden_default_queue",
    "hidden_completion_action",
    "hidden_multigrid_sync_arg",
    "hidden_dynamic_lds_size",
    "hidden_private_base",
    "hidden_shared_base",
    "hidden_queue_ptr",
];
const ADDRESS_SPACES: &[&str] = &[
    "private", "global", "constant", "local", "generic", "region",
];
const ACCESSES: &[&str] = &["read_only", "write_only", "read_write"];
const LANGUAGES: &[&str] = &[
    "OpenCL C",
    "OpenCL C++",
    "HCC",
    "HIP",
    "OpenMP",
    "Assembler",
];

fn kernel_arg(v: &mut Value) -> bool {
    let Value::Map(m) = v else { return false };
    str_entry(m, ".name", false, None)
        && str_entry(m, ".type_name", false, None)
        && int_entry(m, ".size", true)
        && int_entry(m, ".offset", true)
        && str_entry(m, ".value_kind", true, Some(VALUE_KINDS))
        && int_entry(m, ".pointee_align", false)
        && str_entry(m, ".address_space", false, Some(ADDRESS_SPACES))
        && str_entry(m, ".access", false, Some(ACCESSES))
        && str_entry(m, ".actual_access", false, Some(ACCESSES))
        && [".is_const", ".is_restrict", ".is_volatile", ".is_pipe"]
            .iter()
            .all(|k| bool_entry(m, k))
}

fn kernel(v: &mut Value) -> bool {
    let Value::Map(m) = v else { return false };
    let ints3 = |v: &mut Value| array(v, Some(3), integer);
    str_entry(m, ".name", true, None)
        && str_entry(m, ".symbol", true, None)
        && str_entry(m, ".language", false, Some(LANGUAGES))
        && entry(m, ".language_version", false, |v| {
            array(v, Some(2), integer)
        })
        && entry(m, ".args", false, |v| array(v, None, kernel_arg))
        && entry(m, ".reqd_workgroup_size", false, ints3)
        && entry(m, ".workgroup_size_hint", false, ints3)
        && str_entry(m, ".vec_type_hint", false, None)
        && str_entry(m, ".device_enqueue_symbol", false, None)
        && int_entry(m, ".kernarg_segment_size", true)
        && int_entry(m, ".group_segment_fixed_size", true)
        && int_entry(m, ".private_segment_fixed_size", true)
        && bool_entry(m, ".uses_dynamic_stack")
        && int_entry(m, ".workgroup_processor_mode", false)
        && [
            ".kernarg_segment_align",
            ".wavefront_size",
            ".sgpr_count",
            ".vgpr_count",
        ]
        .iter()
        .all(|k| int_entry(m, k, true))
        && int_entry(m, ".max_flat_workgroup_size", true)
        && [
            ".sgpr_spill_count",
            ".vgpr_spill_count",
            ".uniform_work_group_size",
        ]
        .iter()
        .all(|k| int_entry(m, k, false))
}

/// True if LLVM accepts `root` as code-object v3+ metadata (re-typing strings as it does).
pub(crate) fn verify(root: &mut Value) -> bool {
    let Value::Map(m) = root else { return false };
    entry(m, "amdhsa.version", true, |v| array(v, Some(2), integer))
        && entry(m, "amdhsa.printf", false, |v| {
            array(v, None, |s| scalar(s, Kind::Str, None))
        })
        && entry(m, "amdhsa.kernels", true, |v| array(v, None, kernel))
}
