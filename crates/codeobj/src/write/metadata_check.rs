//! LLVM 19's `AMDGPU::HSAMD::V3::MetadataVerifier` in its lenient mode (the one llvm-mc
//! uses for `.amdgpu_metadata`): required keys, scalar kinds, enumerated strings and array
//! lengths of the keys it knows; other keys pass untouched. Like LLVM, a string found where
//! another kind is expected is re-typed from its text, and the re-typed value is what gets
//! written (this only matters for explicitly tagged scalars such as `!!int 5`).

use super::yaml_doc::{typed_scalar, Doc, Node, Scalar};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Int,
    UInt,
    Bool,
    Str,
}

fn kind_of(n: Node) -> Option<Kind> {
    Some(match n {
        Node::UInt(_) => Kind::UInt,
        Node::Int(_) => Kind::Int,
        Node::Bool(_) => Kind::Bool,
        Node::Str(_) => Kind::Str,
        _ => return None,
    })
}

/// `verifyScalar`: node `i` has (or, from a string, can be re-typed to) kind `want`, and
/// its string value (for `Str`) is one of `allowed` when given.
fn scalar(d: &mut Doc, i: u32, want: Kind, allowed: Option<&[&str]>) -> bool {
    let n = d.nodes[i as usize];
    if matches!(n, Node::Array(_) | Node::Map(_)) {
        return false;
    }
    if kind_of(n) != Some(want) {
        let Node::Str(s) = n else { return false };
        let retyped = match typed_scalar(d.str(s)) {
            Scalar::UInt(u) => Node::UInt(u),
            Scalar::Int(v) => Node::Int(v),
            Scalar::Bool(b) => Node::Bool(b),
            // A string re-typed is the same string; a float is never wanted.
            Scalar::Float(_) | Scalar::Str => return false,
        };
        if kind_of(retyped) != Some(want) {
            return false;
        }
        d.nodes[i as usize] = retyped;
    }
    match (allowed, d.nodes[i as usize]) {
        (Some(list), Node::Str(s)) => list.contains(&d.str(s)),
        (Some(_), _) => false,
        (None, _) => true,
    }
}

fn integer(d: &mut Doc, i: u32) -> bool {
    scalar(d, i, Kind::UInt, None) || scalar(d, i, Kind::Int, None)
}

fn array(d: &mut Doc, i: u32, size: Option<usize>, each: impl Fn(&mut Doc, u32) -> bool) -> bool {
    let Node::Array(s) = d.nodes[i as usize] else {
        return false;
    };
    if size.is_some_and(|n| s.len as usize != n) {
        return false;
    }
    (0..s.len as usize).all(|k| {
        let item = d.kids[s.start as usize + k];
        each(d, item)
    })
}

/// What the value of a key the verifier knows must be.
#[derive(Clone, Copy)]
enum Check {
    Int,
    Bool,
    /// A string, one of the list when given.
    Str(Option<&'static [&'static str]>),
    /// An array of exactly this many integers.
    Ints(usize),
    /// An array of strings (`amdhsa.printf`).
    Strs,
    /// An array of kernel maps (`amdhsa.kernels`).
    Kernels,
    /// An array of kernel-argument maps (`.args`).
    Args,
}

/// A key the verifier knows in some map: its name, whether it must be present, and what its
/// value must be. LLVM checks key by key (`verifyEntry`); checking entry by entry against a
/// table gives the same verdict in one pass over the map.
struct Rule(&'static str, bool, Check);

fn check(d: &mut Doc, v: u32, c: Check) -> bool {
    match c {
        Check::Int => integer(d, v),
        Check::Bool => scalar(d, v, Kind::Bool, None),
        Check::Str(allowed) => scalar(d, v, Kind::Str, allowed),
        Check::Ints(n) => array(d, v, Some(n), integer),
        Check::Strs => array(d, v, None, |d, s| scalar(d, s, Kind::Str, None)),
        Check::Kernels => array(d, v, None, |d, k| map(d, k, KERNEL)),
        Check::Args => array(d, v, None, |d, a| map(d, a, KERNEL_ARG)),
    }
}

/// `verifyEntry` for every rule: node `i` is a map, each known string key's value passes its
/// check, and every required key is present. Keys are unique (the parser rejects duplicates).
fn map(d: &mut Doc, i: u32, rules: &[Rule]) -> bool {
    let Node::Map(s) = d.nodes[i as usize] else {
        return false;
    };
    let mut required_seen = 0;
    for e in 0..s.len as usize {
        let k = d.kids[s.start as usize + 2 * e];
        let Node::Str(key) = d.nodes[k as usize] else {
            continue;
        };
        let key = d.str(key);
        let Some(rule) = rules.iter().find(|r| r.0 == key) else {
            continue;
        };
        if !check(d, d.kids[s.start as usize + 2 * e + 1], rule.2) {
            return false;
        }
        required_seen += usize::from(rule.1);
    }
    required_seen == rules.iter().filter(|r| r.1).count()
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

/// LLVM's `verifyKernelArgs`.
const KERNEL_ARG: &[Rule] = &[
    Rule(".name", false, Check::Str(None)),
    Rule(".type_name", false, Check::Str(None)),
    Rule(".size", true, Check::Int),
    Rule(".offset", true, Check::Int),
    Rule(".value_kind", true, Check::Str(Some(VALUE_KINDS))),
    Rule(".pointee_align", false, Check::Int),
    Rule(".address_space", false, Check::Str(Some(ADDRESS_SPACES))),
    Rule(".access", false, Check::Str(Some(ACCESSES))),
    Rule(".actual_access", false, Check::Str(Some(ACCESSES))),
    Rule(".is_const", false, Check::Bool),
    Rule(".is_restrict", false, Check::Bool),
    Rule(".is_volatile", false, Check::Bool),
    Rule(".is_pipe", false, Check::Bool),
];

/// LLVM's `verifyKernel`.
const KERNEL: &[Rule] = &[
    Rule(".name", true, Check::Str(None)),
    Rule(".symbol", true, Check::Str(None)),
    Rule(".language", false, Check::Str(Some(LANGUAGES))),
    Rule(".language_version", false, Check::Ints(2)),
    Rule(".args", false, Check::Args),
    Rule(".reqd_workgroup_size", false, Check::Ints(3)),
    Rule(".workgroup_size_hint", false, Check::Ints(3)),
    Rule(".vec_type_hint", false, Check::Str(None)),
    Rule(".device_enqueue_symbol", false, Check::Str(None)),
    Rule(".kernarg_segment_size", true, Check::Int),
    Rule(".group_segment_fixed_size", true, Check::Int),
    Rule(".private_segment_fixed_size", true, Check::Int),
    Rule(".uses_dynamic_stack", false, Check::Bool),
    Rule(".workgroup_processor_mode", false, Check::Int),
    Rule(".kernarg_segment_align", true, Check::Int),
    Rule(".wavefront_size", true, Check::Int),
    Rule(".sgpr_count", true, Check::Int),
    Rule(".vgpr_count", true, Check::Int),
    Rule(".max_flat_workgroup_size", true, Check::Int),
    Rule(".sgpr_spill_count", false, Check::Int),
    Rule(".vgpr_spill_count", false, Check::Int),
    Rule(".uniform_work_group_size", false, Check::Int),
];

/// LLVM's `MetadataVerifier::verify` (the root map).
const ROOT: &[Rule] = &[
    Rule("amdhsa.version", true, Check::Ints(2)),
    Rule("amdhsa.printf", false, Check::Strs),
    Rule("amdhsa.kernels", true, Check::Kernels),
];

/// True if LLVM accepts `d` as code-object v3+ metadata (re-typing strings as it does).
pub(crate) fn verify(d: &mut Doc) -> bool {
    map(d, d.root, ROOT)
}
