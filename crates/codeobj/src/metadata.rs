//! Kernel metadata: MessagePack (code objects v3+) or YAML (v2), as one generic tree with
//! typed accessors on top.
//!
//! The tree is an [`rmpv::Value`], which keeps map order and every key, so metadata gcnkit does
//! not know (newer LLVM keys, vendor keys) survives reading and can be printed or written back.
//! YAML metadata is converted into the same tree; the accessors know both key spellings
//! (`.kernarg_segment_size` in v3+, `CodeProps.KernargSegmentSize` in v2).

use rmpv::Value;

use crate::error::CodeObjectError;

/// Deepest nesting accepted in metadata; real metadata is 4 levels deep. The limit keeps
/// hostile input from exhausting the stack.
const MAX_DEPTH: usize = 64;

/// Which encoding the metadata came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataFormat {
    /// v3+ `NT_AMDGPU_METADATA`, keys like `amdhsa.kernels` and `.name`.
    MessagePack,
    /// v2 `NT_AMD_HSA_METADATA`, keys like `Kernels` and `Name`.
    Yaml,
}

/// The metadata of one code object.
#[derive(Clone, Debug, PartialEq)]
pub struct Metadata {
    /// Encoding it came in (decides the key spelling).
    pub format: MetadataFormat,
    /// The whole tree, in file order.
    pub root: Value,
}

/// Looks `key` up in a map value.
pub fn map_get<'v>(map: &'v Value, key: &str) -> Option<&'v Value> {
    map.as_map()?
        .iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .map(|(_, v)| v)
}

impl Metadata {
    /// Decodes a MessagePack payload; `offset` (the payload's file offset) names it in errors.
    pub fn from_msgpack(bytes: &[u8], offset: u64) -> Result<Metadata, CodeObjectError> {
        let bad = |reason: String| CodeObjectError::Metadata {
            format: "MessagePack",
            offset,
            reason,
        };
        let mut rd = bytes;
        let root = rmpv::decode::read_value_with_max_depth(&mut rd, MAX_DEPTH)
            .map_err(|e| bad(e.to_string()))?;
        if !rd.is_empty() {
            return Err(bad(format!("{} bytes after the end of the map", rd.len())));
        }
        if !root.is_map() {
            return Err(bad("the top level is not a map".into()));
        }
        Ok(Metadata {
            format: MetadataFormat::MessagePack,
            root,
        })
    }

    /// Parses v2 YAML metadata into the same tree.
    pub fn from_yaml(text: &str, offset: u64) -> Result<Metadata, CodeObjectError> {
        let bad = |reason: String| CodeObjectError::Metadata {
            format: "YAML",
            offset,
            reason,
        };
        let yaml: serde_yaml_ng::Value =
            serde_yaml_ng::from_str(text).map_err(|e| bad(e.to_string()))?;
        let root = yaml_to_value(&yaml, 0).ok_or_else(|| bad("nested too deeply".into()))?;
        if !root.is_map() {
            return Err(bad("the top level is not a map".into()));
        }
        Ok(Metadata {
            format: MetadataFormat::Yaml,
            root,
        })
    }

    /// A top-level entry by key.
    pub fn get(&self, key: &str) -> Option<&Value> {
        map_get(&self.root, key)
    }

    /// `amdhsa.version` (v3+) or `Version` (v2), e.g. `[1, 2]` for code object v5.
    pub fn version(&self) -> Option<Vec<u64>> {
        let key = match self.format {
            MetadataFormat::MessagePack => "amdhsa.version",
            MetadataFormat::Yaml => "Version",
        };
        self.get(key)?
            .as_array()?
            .iter()
            .map(Value::as_u64)
            .collect()
    }

    /// `amdhsa.target`, the target id (`amdgcn-amd-amdhsa--gfx90a:xnack+`); v3 and v2 have none.
    pub fn target(&self) -> Option<&str> {
        self.get("amdhsa.target")?.as_str()
    }

    /// The kernels, in file order.
    pub fn kernels(&self) -> Vec<KernelMetadata<'_>> {
        let key = match self.format {
            MetadataFormat::MessagePack => "amdhsa.kernels",
            MetadataFormat::Yaml => "Kernels",
        };
        let Some(list) = self.get(key).and_then(Value::as_array) else {
            return Vec::new();
        };
        list.iter()
            .filter(|v| v.is_map())
            .map(|map| KernelMetadata {
                map,
                format: self.format,
            })
            .collect()
    }
}

fn yaml_to_value(y: &serde_yaml_ng::Value, depth: usize) -> Option<Value> {
    use serde_yaml_ng::Value as Y;
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match y {
        Y::Null => Value::Nil,
        Y::Bool(b) => Value::Boolean(*b),
        Y::Number(n) => {
            if let Some(u) = n.as_u64() {
                Value::from(u)
            } else if let Some(i) = n.as_i64() {
                Value::from(i)
            } else {
                Value::F64(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Y::String(s) => Value::from(s.as_str()),
        Y::Sequence(items) => Value::Array(
            items
                .iter()
                .map(|i| yaml_to_value(i, depth + 1))
                .collect::<Option<_>>()?,
        ),
        Y::Mapping(m) => Value::Map(
            m.iter()
                .map(|(k, v)| Some((yaml_to_value(k, depth + 1)?, yaml_to_value(v, depth + 1)?)))
                .collect::<Option<_>>()?,
        ),
        Y::Tagged(t) => yaml_to_value(&t.value, depth + 1)?,
    })
}

/// A kernel's metadata entry.
#[derive(Clone, Copy, Debug)]
pub struct KernelMetadata<'a> {
    /// The kernel's map, with every key.
    pub map: &'a Value,
    format: MetadataFormat,
}

/// Numeric kernel properties: (v3+ key, v2 key inside `CodeProps`).
macro_rules! kernel_numbers {
    ($( $(#[$doc:meta])* $fn:ident: $v3:literal, $v2:literal; )*) => {
        impl<'a> KernelMetadata<'a> {
            $( $(#[$doc])* pub fn $fn(&self) -> Option<u64> { self.number($v3, $v2) } )*
        }
    };
}

kernel_numbers! {
    /// Static LDS bytes per work-group.
    group_segment_fixed_size: ".group_segment_fixed_size", "GroupSegmentFixedSize";
    /// Static scratch bytes per work-item.
    private_segment_fixed_size: ".private_segment_fixed_size", "PrivateSegmentFixedSize";
    /// Kernarg bytes, hidden arguments included.
    kernarg_segment_size: ".kernarg_segment_size", "KernargSegmentSize";
    /// Kernarg alignment in bytes.
    kernarg_segment_align: ".kernarg_segment_align", "KernargSegmentAlign";
    /// Wavefront size (64 on every gcnkit target).
    wavefront_size: ".wavefront_size", "WavefrontSize";
    /// SGPRs used, including VCC, FLAT_SCRATCH and XNACK_MASK.
    sgpr_count: ".sgpr_count", "NumSGPRs";
    /// VGPRs used.
    vgpr_count: ".vgpr_count", "NumVGPRs";
    /// AGPRs used (gfx908, gfx90a, gfx94x).
    agpr_count: ".agpr_count", "NumAGPRs";
    /// Largest work-group size the kernel supports.
    max_flat_workgroup_size: ".max_flat_workgroup_size", "MaxFlatWorkGroupSize";
    /// SGPRs spilled.
    sgpr_spill_count: ".sgpr_spill_count", "NumSpilledSGPRs";
    /// VGPRs spilled.
    vgpr_spill_count: ".vgpr_spill_count", "NumSpilledVGPRs";
}

impl<'a> KernelMetadata<'a> {
    /// A key of the kernel's map (spelled as in the file).
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        map_get(self.map, key)
    }

    fn number(&self, v3: &str, v2: &str) -> Option<u64> {
        match self.format {
            MetadataFormat::MessagePack => self.get(v3)?.as_u64(),
            MetadataFormat::Yaml => map_get(self.get("CodeProps")?, v2)?.as_u64(),
        }
    }

    fn text(&self, v3: &str, v2: &str) -> Option<&'a str> {
        let key = match self.format {
            MetadataFormat::MessagePack => v3,
            MetadataFormat::Yaml => v2,
        };
        self.get(key)?.as_str()
    }

    /// Source-level kernel name.
    pub fn name(&self) -> Option<&'a str> {
        self.text(".name", "Name")
    }

    /// The descriptor symbol (`name.kd` in v3+; the kernel symbol itself in v2).
    pub fn symbol(&self) -> Option<&'a str> {
        self.text(".symbol", "SymbolName")
    }

    /// Source language (`OpenCL C`, `HIP`).
    pub fn language(&self) -> Option<&'a str> {
        self.text(".language", "Language")
    }

    /// The explicit and hidden arguments, in order. v2 metadata has no offsets; they are
    /// computed from each argument's size and alignment, as the runtime does.
    pub fn args(&self) -> Vec<ArgMetadata<'a>> {
        let key = match self.format {
            MetadataFormat::MessagePack => ".args",
            MetadataFormat::Yaml => "Args",
        };
        let Some(list) = self.get(key).and_then(Value::as_array) else {
            return Vec::new();
        };
        let mut next = 0u64;
        let mut args = Vec::new();
        for map in list.iter().filter(|v| v.is_map()) {
            let mut arg = ArgMetadata {
                map,
                format: self.format,
                computed_offset: None,
            };
            if self.format == MetadataFormat::Yaml {
                let align = arg.align().unwrap_or(1).clamp(1, 1 << 16);
                let offset = next.div_ceil(align).saturating_mul(align);
                arg.computed_offset = Some(offset);
                next = offset.saturating_add(arg.size().unwrap_or(0));
            }
            args.push(arg);
        }
        args
    }
}

/// One kernel argument's metadata entry.
#[derive(Clone, Copy, Debug)]
pub struct ArgMetadata<'a> {
    /// The argument's map, with every key.
    pub map: &'a Value,
    format: MetadataFormat,
    computed_offset: Option<u64>,
}

impl<'a> ArgMetadata<'a> {
    /// A key of the argument's map (spelled as in the file).
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        map_get(self.map, key)
    }

    fn key<'k>(&self, v3: &'k str, v2: &'k str) -> Option<&'a Value> {
        self.get(match self.format {
            MetadataFormat::MessagePack => v3,
            MetadataFormat::Yaml => v2,
        })
    }

    /// Argument name, if the compiler kept it.
    pub fn name(&self) -> Option<&'a str> {
        self.key(".name", "Name")?.as_str()
    }

    /// Source type name (`float*`).
    pub fn type_name(&self) -> Option<&'a str> {
        self.key(".type_name", "TypeName")?.as_str()
    }

    /// Byte offset in the kernarg segment (computed for v2).
    pub fn offset(&self) -> Option<u64> {
        self.computed_offset
            .or_else(|| self.get(".offset")?.as_u64())
    }

    /// Size in bytes.
    pub fn size(&self) -> Option<u64> {
        self.key(".size", "Size")?.as_u64()
    }

    /// Alignment in bytes (v2 only; v3+ gives offsets instead).
    pub fn align(&self) -> Option<u64> {
        self.get("Align")?.as_u64()
    }

    /// Value kind: `global_buffer`, `by_value`, `hidden_block_count_x`, ... (v2: `GlobalBuffer`).
    pub fn value_kind(&self) -> Option<&'a str> {
        self.key(".value_kind", "ValueKind")?.as_str()
    }

    /// Address space of a pointer: `global`, `local`, `constant`, ... (v2: `Global`).
    pub fn address_space(&self) -> Option<&'a str> {
        self.key(".address_space", "AddrSpaceQual")?.as_str()
    }

    /// Declared access: `read_only`, `write_only`, `read_write`.
    pub fn access(&self) -> Option<&'a str> {
        self.key(".access", "AccQual")?.as_str()
    }

    /// Access the compiler proved (`.actual_access`).
    pub fn actual_access(&self) -> Option<&'a str> {
        self.key(".actual_access", "ActualAccQual")?.as_str()
    }

    /// True for hidden arguments (value kinds starting with `hidden_`/`Hidden`).
    pub fn is_hidden(&self) -> bool {
        self.value_kind()
            .is_some_and(|k| k.starts_with("hidden_") || k.starts_with("Hidden"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msgpack(v: &Value) -> Vec<u8> {
        let mut b = Vec::new();
        rmpv::encode::write_value(&mut b, v).unwrap();
        b
    }

    fn sample() -> Value {
        let arg = Value::Map(vec![
            (".name".into(), "out".into()),
            (".offset".into(), 8u64.into()),
            (".size".into(), 8u64.into()),
            (".value_kind".into(), "global_buffer".into()),
            (".address_space".into(), "global".into()),
            (".vendor_thing".into(), true.into()),
        ]);
        let kernel = Value::Map(vec![
            (".name".into(), "k".into()),
            (".symbol".into(), "k.kd".into()),
            (".args".into(), Value::Array(vec![arg])),
            (".kernarg_segment_size".into(), 16u64.into()),
            (".sgpr_count".into(), 11u64.into()),
        ]);
        Value::Map(vec![
            (
                "amdhsa.version".into(),
                Value::Array(vec![1u64.into(), 2u64.into()]),
            ),
            ("amdhsa.kernels".into(), Value::Array(vec![kernel])),
            ("zz.unknown".into(), "kept".into()),
        ])
    }

    #[test]
    fn msgpack_metadata_has_typed_accessors_and_keeps_unknown_keys_in_order() {
        let md = Metadata::from_msgpack(&msgpack(&sample()), 0).unwrap();
        assert_eq!(md.version(), Some(vec![1, 2]));
        let k = md.kernels();
        assert_eq!(k[0].name(), Some("k"));
        assert_eq!(k[0].symbol(), Some("k.kd"));
        assert_eq!(k[0].kernarg_segment_size(), Some(16));
        assert_eq!(k[0].sgpr_count(), Some(11));
        let a = k[0].args();
        assert_eq!(a[0].offset(), Some(8));
        assert_eq!(a[0].address_space(), Some("global"));
        assert_eq!(a[0].get(".vendor_thing"), Some(&Value::Boolean(true)));
        let keys: Vec<_> = md
            .root
            .as_map()
            .unwrap()
            .iter()
            .map(|(k, _)| k.as_str().unwrap())
            .collect();
        assert_eq!(keys, ["amdhsa.version", "amdhsa.kernels", "zz.unknown"]);
        // Re-encoding the tree gives the same bytes: nothing was dropped or reordered.
        assert_eq!(msgpack(&md.root), msgpack(&sample()));
    }

    #[test]
    fn malformed_msgpack_is_a_metadata_error() {
        let mut b = msgpack(&sample());
        b.truncate(b.len() / 2);
        let err = Metadata::from_msgpack(&b, 0x40).unwrap_err();
        assert!(
            matches!(err, CodeObjectError::Metadata { offset: 0x40, .. }),
            "{err}"
        );
        assert!(Metadata::from_msgpack(&[0x01], 0).is_err(), "not a map");
        assert!(
            Metadata::from_msgpack(&[0x80, 0x80], 0).is_err(),
            "trailing bytes"
        );
    }

    #[test]
    fn deeply_nested_msgpack_is_rejected_not_a_stack_overflow() {
        let b = vec![0x91u8; 100_000];
        assert!(Metadata::from_msgpack(&b, 0).is_err());
    }

    #[test]
    fn v2_yaml_metadata_reads_with_computed_offsets() {
        let text = "---\nVersion: [ 1, 0 ]\nKernels:\n  - Name: k\n    SymbolName: 'k@kd'\n    Args:\n      - Name: a\n        Size: 4\n        Align: 4\n        ValueKind: ByValue\n      - Name: p\n        Size: 8\n        Align: 8\n        ValueKind: GlobalBuffer\n        AddrSpaceQual: Global\n    CodeProps:\n      KernargSegmentSize: 16\n      NumSGPRs: 10\n...\n";
        let md = Metadata::from_yaml(text, 0).unwrap();
        assert_eq!(md.version(), Some(vec![1, 0]));
        let k = md.kernels();
        assert_eq!(k[0].name(), Some("k"));
        assert_eq!(k[0].kernarg_segment_size(), Some(16));
        let offsets: Vec<_> = k[0].args().iter().map(|a| a.offset()).collect();
        assert_eq!(offsets, [Some(0), Some(8)]);
        assert_eq!(k[0].args()[1].address_space(), Some("Global"));
    }

    #[test]
    fn malformed_yaml_is_a_metadata_error() {
        let err = Metadata::from_yaml("Kernels: [ {", 7).unwrap_err();
        assert!(matches!(
            err,
            CodeObjectError::Metadata {
                format: "YAML",
                offset: 7,
                ..
            }
        ));
    }
}
