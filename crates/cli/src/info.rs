//! `gcn info`: what a code object, offload bundle or HIP fat binary holds: target,
//! code-object version, kernels with descriptor fields and metadata, symbols.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::{json, Map, Value as Json};

use gcnkit_codeobj::container::{code_objects_in, Contents, Embedded};
use gcnkit_codeobj::descriptor::KernelDescriptor;
use gcnkit_codeobj::directives::amdhsa_directives;
use gcnkit_codeobj::elf_flags::FeatureState;
use gcnkit_codeobj::kernel_code::AmdKernelCode;
use gcnkit_codeobj::metadata::{ArgMetadata, KernelMetadata};
use gcnkit_codeobj::pgm_rsrc::Rsrc3Gfx90a;
use gcnkit_codeobj::{CodeObjectInfo, KernelInfo};

/// Arguments of `gcn info`.
#[derive(Args)]
pub struct InfoArgs {
    /// Input: an AMDGPU code object or relocatable object, an offload bundle, or a host
    /// binary with offload bundles (HIP fat binary).
    pub input: PathBuf,
    /// Print JSON for machines instead of text.
    #[arg(long)]
    pub json: bool,
    /// One line per code object (target, version, kernel count) instead of the full listing.
    #[arg(long)]
    pub brief: bool,
    /// Also write each code object found into this directory, named
    /// `<index>-<bundle entry id>.co` (or `<index>.co` outside bundles).
    #[arg(long, value_name = "DIR")]
    pub extract: Option<PathBuf>,
}

/// Runs `gcn info` and prints to standard output.
pub fn run(args: &InfoArgs) -> Result<ExitCode> {
    let bytes = std::fs::read(&args.input)
        .with_context(|| format!("cannot read '{}'", args.input.display()))?;
    let out = render(&args.input, &bytes, args.json, args.brief)?;
    if let Some(dir) = &args.extract {
        extract(&args.input, &bytes, dir)?;
    }
    // A closed pipe (`gcn info lib.so | head`) is not an error.
    match std::io::stdout().lock().write_all(out.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// The whole `gcn info` output for `bytes` (read from `path`): text, or JSON with `json`.
/// Errors name the file and, inside containers, which code object is broken.
pub fn render(path: &Path, bytes: &[u8], json: bool, brief: bool) -> Result<String> {
    let name = path.display().to_string();
    let contents = code_objects_in(bytes).with_context(|| format!("'{name}'"))?;
    let buffers: Vec<_> = contents.code_objects.iter().map(|e| e.aligned()).collect();
    let mut infos = Vec::new();
    for (i, (e, data)) in contents.code_objects.iter().zip(&buffers).enumerate() {
        let info =
            CodeObjectInfo::read(data).with_context(|| format!("'{name}': {}", origin(e, i)))?;
        infos.push(info);
    }
    if json {
        let v = contents_json(&name, &contents, &infos, brief);
        return Ok(serde_json::to_string_pretty(&v)? + "\n");
    }
    let mut out = String::new();
    write_contents_text(&mut out, &name, &contents, &infos, brief);
    Ok(out)
}

/// Writes every code object in `bytes` into `dir`; returns the paths written.
pub fn extract(path: &Path, bytes: &[u8], dir: &Path) -> Result<Vec<PathBuf>> {
    let name = path.display().to_string();
    let contents = code_objects_in(bytes).with_context(|| format!("'{name}'"))?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create '{}'", dir.display()))?;
    let mut written = Vec::new();
    for (i, e) in contents.code_objects.iter().enumerate() {
        // Entry ids hold ':' and '+', fine in file names; anything else odd becomes '_'.
        let stem = match &e.entry_id {
            Some(id) => format!(
                "{i:04}-{}",
                id.replace(
                    |c: char| !c.is_ascii_alphanumeric() && !"-_.:+".contains(c),
                    "_"
                )
            ),
            None => format!("{i:04}"),
        };
        let out = dir.join(format!("{stem}.co"));
        std::fs::write(&out, e.data)
            .with_context(|| format!("cannot write '{}'", out.display()))?;
        written.push(out);
    }
    Ok(written)
}

fn origin(e: &Embedded<'_>, index: usize) -> String {
    match (&e.entry_id, e.bundle_index) {
        (Some(id), Some(b)) => format!(
            "code object {} (bundle {b}, entry {id}, offset {:#x})",
            index + 1,
            e.file_offset
        ),
        _ => "code object".to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// Text

fn write_contents_text(
    out: &mut String,
    name: &str,
    contents: &Contents<'_>,
    infos: &[CodeObjectInfo<'_>],
    brief: bool,
) {
    use gcnkit_codeobj::container::ContainerKind as K;
    let many = contents.kind != K::CodeObject;
    if many {
        let kind = if contents.kind == K::Bundle {
            "offload bundle file"
        } else {
            "host binary"
        };
        let _ = writeln!(
            out,
            "{name}: {kind}, {} bundles, {} code objects",
            contents.bundles,
            infos.len()
        );
        for c in &contents.compressed {
            let _ = writeln!(
                out,
                "  compressed bundle at {:#x}: version {}, {}, {} bytes uncompressed (not decompressed)",
                c.offset,
                c.version,
                c.method_name(),
                c.uncompressed_size
            );
        }
    }
    for (i, (e, info)) in contents.code_objects.iter().zip(infos).enumerate() {
        if brief {
            write_brief(out, name, e, i, info);
            continue;
        }
        if many {
            let _ = writeln!(out, "\n=== {} ({} bytes) ===", origin(e, i), e.data.len());
        } else {
            let _ = writeln!(out, "{name}:");
        }
        write_code_object_text(out, info);
    }
}

fn write_brief(
    out: &mut String,
    name: &str,
    e: &Embedded<'_>,
    i: usize,
    info: &CodeObjectInfo<'_>,
) {
    let label = e.entry_id.clone().unwrap_or_else(|| name.to_string());
    let _ = writeln!(
        out,
        "{:>5} {:#012x} {:<44} {:<24} v{} {} kernels",
        i + 1,
        e.file_offset,
        label,
        target_id(info),
        info.code_object_version()
            .map_or("?".into(), |v| v.to_string()),
        info.kernels.len()
    );
}

fn target_id(info: &CodeObjectInfo<'_>) -> String {
    info.header
        .target_id()
        .or_else(|| info.processor.clone())
        .unwrap_or_else(|| format!("unknown (mach {:#x})", info.header.mach))
}

fn feature(state: FeatureState) -> &'static str {
    match state {
        FeatureState::Unsupported => "unsupported",
        FeatureState::Any => "any",
        FeatureState::Off => "off",
        FeatureState::On => "on",
    }
}

fn e_type_name(t: u16) -> &'static str {
    match t {
        1 => "relocatable (ET_REL)",
        2 => "executable (ET_EXEC)",
        3 => "shared object (ET_DYN)",
        _ => "other",
    }
}

fn write_code_object_text(out: &mut String, info: &CodeObjectInfo<'_>) {
    let h = &info.header;
    let _ = writeln!(out, "  target:              {}", target_id(info));
    let version = h
        .code_object_version
        .map_or("unknown".into(), |v| v.to_string());
    let _ = writeln!(
        out,
        "  code object version: {version} (OS ABI {} {}, ABI version {})",
        h.os_abi,
        h.os_abi_name(),
        h.abi_version
    );
    let _ = writeln!(
        out,
        "  e_flags:             {:#x} (mach {:#04x}, xnack {}, sramecc {})",
        h.e_flags,
        h.mach,
        feature(h.xnack),
        feature(h.sramecc)
    );
    let _ = writeln!(out, "  file type:           {}", e_type_name(h.e_type));
    if let Some(md) = &info.metadata {
        let v = md
            .version()
            .map(|v| v.iter().map(u64::to_string).collect::<Vec<_>>().join("."));
        let _ = writeln!(
            out,
            "  metadata version:    {}",
            v.unwrap_or_else(|| "?".into())
        );
        if let Some(t) = md.target() {
            let _ = writeln!(out, "  metadata target:     {t}");
        }
    }
    for note in &info.notes {
        let _ = writeln!(
            out,
            "  note:                {} {} ({} bytes)",
            note.owner,
            note.type_name(),
            note.desc.len()
        );
    }
    let _ = writeln!(out, "  kernels:             {}", info.kernels.len());
    for k in &info.kernels {
        write_kernel_text(out, info, k);
    }
    write_symbols_text(out, info);
}

fn write_kernel_text(out: &mut String, info: &CodeObjectInfo<'_>, k: &KernelInfo) {
    let md = kernel_metadata(info, k);
    let _ = writeln!(out, "\n  kernel {}", k.name);
    let entry = info
        .entry_address(k)
        .map_or("?".into(), |a| format!("{a:#x}"));
    let _ = writeln!(
        out,
        "    symbol {} at {:#x}, code entry {entry}",
        k.symbol.name, k.symbol.addr
    );
    let (lds, scratch, kernarg) = match (&k.descriptor, &k.kernel_code) {
        (Some(d), _) => (
            d.group_segment_fixed_size.into(),
            d.private_segment_fixed_size.into(),
            u64::from(d.kernarg_size),
        ),
        (None, Some(c)) => (
            c.workgroup_group_segment_byte_size.into(),
            c.workitem_private_segment_byte_size.into(),
            c.kernarg_segment_byte_size,
        ),
        _ => (0u64, 0u64, 0u64),
    };
    let _ = writeln!(
        out,
        "    LDS {lds} bytes, scratch {scratch} bytes per work-item, kernarg {kernarg} bytes"
    );
    if let Some(r) = &k.registers {
        let mut line = format!("    allocated: {} VGPRs, {} SGPRs", r.vgprs, r.sgprs);
        if let Some(a) = r.accum_offset {
            let _ = write!(line, ", AGPRs from v{a}");
        } else if let Some(a) = r.agprs {
            let _ = write!(line, ", {a} AGPRs");
        }
        let _ = writeln!(out, "{line}");
    }
    if let Some(m) = &md {
        write_kernel_metadata_text(out, m);
    }
    if let Some(d) = &k.descriptor {
        write_descriptor_text(out, info, d);
    }
    if let Some(c) = &k.kernel_code {
        write_kernel_code_text(out, c);
    }
}

fn kernel_metadata<'m>(info: &'m CodeObjectInfo<'_>, k: &KernelInfo) -> Option<KernelMetadata<'m>> {
    let md = info.metadata.as_ref()?;
    md.kernels().get(k.metadata_index?).copied()
}

fn opt(v: Option<u64>) -> String {
    v.map_or("-".into(), |v| v.to_string())
}

fn write_kernel_metadata_text(out: &mut String, m: &KernelMetadata<'_>) {
    let _ = writeln!(
        out,
        "    metadata: {} VGPRs, {} SGPRs, {} AGPRs, spills {} VGPR / {} SGPR, wavefront size {}, max work-group size {}, kernarg align {}",
        opt(m.vgpr_count()),
        opt(m.sgpr_count()),
        opt(m.agpr_count()),
        opt(m.vgpr_spill_count()),
        opt(m.sgpr_spill_count()),
        opt(m.wavefront_size()),
        opt(m.max_flat_workgroup_size()),
        opt(m.kernarg_segment_align()),
    );
    let args = m.args();
    if args.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "    arguments:\n      {:>6} {:>5}  {:<28} {:<10} {:<11} name",
        "offset", "size", "kind", "space", "access"
    );
    for a in &args {
        write_arg_text(out, a);
    }
}

fn write_arg_text(out: &mut String, a: &ArgMetadata<'_>) {
    let _ = writeln!(
        out,
        "      {:>6} {:>5}  {:<28} {:<10} {:<11} {}",
        opt(a.offset()),
        opt(a.size()),
        a.value_kind().unwrap_or("-"),
        a.address_space().unwrap_or("-"),
        a.access().or(a.actual_access()).unwrap_or("-"),
        a.name().unwrap_or(""),
    );
}

fn write_descriptor_text(out: &mut String, info: &CodeObjectInfo<'_>, d: &KernelDescriptor) {
    let _ = writeln!(
        out,
        "    descriptor: rsrc1 {:#010x}, rsrc2 {:#010x}, rsrc3 {:#010x}, properties {:#06x}, kernarg preload {:#06x}, entry offset {}",
        d.compute_pgm_rsrc1.to_bits().unwrap_or(0),
        d.compute_pgm_rsrc2.to_bits().unwrap_or(0),
        d.compute_pgm_rsrc3,
        d.kernel_code_properties.to_bits().unwrap_or(0),
        d.kernarg_preload.to_bits().unwrap_or(0),
        d.kernel_code_entry_byte_offset
    );
    if d.has_reserved_bits() {
        let _ = writeln!(out, "    warning: reserved descriptor bits are set");
    }
    let _ = writeln!(
        out,
        "      user SGPRs {}",
        d.compute_pgm_rsrc2.user_sgpr_count
    );
    if let Some(gen) = info.gen() {
        for (name, value) in amdhsa_directives(d, gen, info.code_object_version().unwrap_or(5)) {
            let _ = writeln!(out, "      .{name} {value}");
        }
    }
}

fn write_kernel_code_text(out: &mut String, c: &AmdKernelCode) {
    let _ = writeln!(out, "    amd_kernel_code_t:");
    for (name, value) in c.fields() {
        let _ = writeln!(out, "      {name} = {value}");
    }
}

fn write_symbols_text(out: &mut String, info: &CodeObjectInfo<'_>) {
    let _ = writeln!(out, "\n  symbols:");
    for s in info
        .symbols
        .iter()
        .filter(|s| !s.is_meta && !s.name.is_empty())
    {
        let section = s
            .section
            .and_then(|i| info.sections.iter().find(|x| x.index == i))
            .map_or("UND", |x| x.name.as_str());
        let _ = writeln!(
            out,
            "    {:#018x} {:>6} {:<7} {:<6} {:<10} {}",
            s.addr,
            s.size,
            sym_type(s.st_type),
            sym_bind(s.st_bind),
            section,
            s.name
        );
    }
}

fn sym_type(t: u8) -> &'static str {
    match t {
        0 => "NOTYPE",
        1 => "OBJECT",
        2 => "FUNC",
        3 => "SECTION",
        4 => "FILE",
        10 => "AMDGPU_HSA_KERNEL",
        _ => "OTHER",
    }
}

fn sym_bind(b: u8) -> &'static str {
    match b {
        0 => "LOCAL",
        1 => "GLOBAL",
        2 => "WEAK",
        _ => "OTHER",
    }
}

// ---------------------------------------------------------------------------------------
// JSON

fn contents_json(
    name: &str,
    contents: &Contents<'_>,
    infos: &[CodeObjectInfo<'_>],
    brief: bool,
) -> Json {
    use gcnkit_codeobj::container::ContainerKind as K;
    let kind = match contents.kind {
        K::CodeObject => "code object",
        K::Bundle => "offload bundle",
        K::HostBinary => "host binary",
    };
    let objects: Vec<Json> = contents
        .code_objects
        .iter()
        .zip(infos)
        .map(|(e, info)| {
            let mut v = code_object_json(info, brief);
            v["bundle"] = json!(e.bundle_index);
            v["entry_id"] = json!(e.entry_id);
            v["file_offset"] = json!(e.file_offset);
            v["size"] = json!(e.data.len());
            v
        })
        .collect();
    let compressed: Vec<Json> = contents
        .compressed
        .iter()
        .map(|c| json!({"offset": c.offset, "version": c.version, "method": c.method_name(), "uncompressed_size": c.uncompressed_size}))
        .collect();
    json!({"file": name, "kind": kind, "bundles": contents.bundles, "compressed_bundles": compressed, "code_objects": objects})
}

/// One code object as JSON; public so that tests and tools get the same view as `--json`.
pub fn code_object_json(info: &CodeObjectInfo<'_>, brief: bool) -> Json {
    let h = &info.header;
    let mut v = json!({
        "target_id": target_id(info),
        "processor": info.processor,
        "code_object_version": h.code_object_version,
        "os_abi": h.os_abi,
        "abi_version": h.abi_version,
        "e_type": h.e_type,
        "e_flags": h.e_flags,
        "mach": h.mach,
        "xnack": feature(h.xnack),
        "sramecc": feature(h.sramecc),
        "kernel_count": info.kernels.len(),
    });
    if brief {
        return v;
    }
    v["metadata"] = info
        .metadata
        .as_ref()
        .map_or(Json::Null, |m| msgpack_to_json(&m.root));
    v["notes"] = info
        .notes
        .iter()
        .map(|n| json!({"owner": n.owner, "type": n.n_type, "type_name": n.type_name(), "size": n.desc.len()}))
        .collect();
    v["kernels"] = info.kernels.iter().map(|k| kernel_json(info, k)).collect();
    v["symbols"] = info
        .symbols
        .iter()
        .filter(|s| !s.is_meta && !s.name.is_empty())
        .map(|s| json!({"name": s.name, "value": s.addr, "size": s.size, "type": sym_type(s.st_type), "bind": sym_bind(s.st_bind), "section": s.section}))
        .collect();
    v
}

fn kernel_json(info: &CodeObjectInfo<'_>, k: &KernelInfo) -> Json {
    let mut v = json!({
        "name": k.name,
        "symbol": k.symbol.name,
        "address": k.symbol.addr,
        "entry": info.entry_address(k),
    });
    if let Some(r) = &k.registers {
        v["registers"] = json!({"vgprs": r.vgprs, "sgprs": r.sgprs, "agprs": r.agprs, "accum_offset": r.accum_offset});
    }
    if let Some(d) = &k.descriptor {
        v["descriptor"] = descriptor_json(info, d);
    }
    if let Some(c) = &k.kernel_code {
        let fields: Map<String, Json> =
            c.fields().into_iter().map(|(n, x)| (n, json!(x))).collect();
        v["amd_kernel_code_t"] = Json::Object(fields);
    }
    if let Some(m) = kernel_metadata(info, k) {
        v["metadata"] = msgpack_to_json(m.map);
        v["args"] = m
            .args()
            .iter()
            .map(|a| json!({"name": a.name(), "offset": a.offset(), "size": a.size(), "value_kind": a.value_kind(), "address_space": a.address_space(), "access": a.access(), "hidden": a.is_hidden()}))
            .collect();
    }
    v
}

fn fields_json(fields: Vec<(&'static str, u32)>, raw: u64) -> Json {
    let mut m: Map<String, Json> = fields
        .into_iter()
        .map(|(n, x)| (n.to_string(), json!(x)))
        .collect();
    m.insert("raw".into(), json!(raw));
    Json::Object(m)
}

fn descriptor_json(info: &CodeObjectInfo<'_>, d: &KernelDescriptor) -> Json {
    let bits = |r: Result<u32, _>| u64::from(r.unwrap_or(0));
    let mut v = json!({
        "group_segment_fixed_size": d.group_segment_fixed_size,
        "private_segment_fixed_size": d.private_segment_fixed_size,
        "kernarg_size": d.kernarg_size,
        "kernel_code_entry_byte_offset": d.kernel_code_entry_byte_offset,
        "compute_pgm_rsrc1": fields_json(d.compute_pgm_rsrc1.values(), bits(d.compute_pgm_rsrc1.to_bits())),
        "compute_pgm_rsrc2": fields_json(d.compute_pgm_rsrc2.values(), bits(d.compute_pgm_rsrc2.to_bits())),
        "compute_pgm_rsrc3": {"raw": d.compute_pgm_rsrc3},
        "kernel_code_properties": fields_json(d.kernel_code_properties.values(), d.kernel_code_properties.to_bits().map_or(0, u64::from)),
        "kernarg_preload": fields_json(d.kernarg_preload.values(), d.kernarg_preload.to_bits().map_or(0, u64::from)),
        "reserved_bits_set": d.has_reserved_bits(),
    });
    if let Some(gen) = info.gen() {
        if gen.has_unified_agprs() {
            let r3 = Rsrc3Gfx90a::from_bits(d.compute_pgm_rsrc3);
            v["compute_pgm_rsrc3"] = fields_json(r3.values(), u64::from(d.compute_pgm_rsrc3));
        }
        let dirs = amdhsa_directives(d, gen, info.code_object_version().unwrap_or(5));
        let m: Map<String, Json> = dirs
            .into_iter()
            .map(|(n, x)| (format!(".{n}"), json!(x)))
            .collect();
        v["directives"] = Json::Object(m);
    }
    v
}

/// Converts a metadata tree to JSON, keeping map order (serde_json's `preserve_order`).
pub fn msgpack_to_json(v: &rmpv::Value) -> Json {
    use rmpv::Value as V;
    match v {
        V::Nil => Json::Null,
        V::Boolean(b) => json!(b),
        V::Integer(i) => i
            .as_u64()
            .map(|u| json!(u))
            .or_else(|| i.as_i64().map(|s| json!(s)))
            .unwrap_or(Json::Null),
        V::F32(f) => json!(f),
        V::F64(f) => json!(f),
        V::String(s) => json!(String::from_utf8_lossy(s.as_bytes())),
        V::Binary(b) => json!(b),
        V::Array(a) => a.iter().map(msgpack_to_json).collect(),
        V::Map(m) => {
            let obj: Map<String, Json> = m
                .iter()
                .map(|(k, x)| {
                    let key = k.as_str().map_or_else(|| k.to_string(), str::to_string);
                    (key, msgpack_to_json(x))
                })
                .collect();
            Json::Object(obj)
        }
        V::Ext(t, data) => json!({"ext": t, "data": data}),
    }
}
