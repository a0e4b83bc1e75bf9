//! Targets: ISA generations, processors (LLVM `-mcpu` names) and subtarget features.

use std::fmt;

/// An ISA generation: one opcode column of the instruction table.
///
/// Processors of one generation share opcode numbering and encodings; the few
/// instructions that exist on only some processors of a generation carry a
/// processor list in the table (`+cpus=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gen {
    /// GCN 1.0 (Southern Islands): gfx600–gfx602.
    Gfx6 = 0,
    /// GCN 1.1 (Sea Islands): gfx700–gfx705.
    Gfx7 = 1,
    /// GCN 1.2 (Volcanic Islands): gfx801–gfx810.
    Gfx8 = 2,
    /// GCN 1.4 (Vega): gfx900, gfx902, gfx904, gfx906, gfx909, gfx90c.
    Gfx9 = 3,
    /// CDNA1 (MI100): gfx908.
    Gfx908 = 4,
    /// CDNA2 (MI200): gfx90a.
    Gfx90a = 5,
    /// CDNA3 (MI300): gfx940, gfx941, gfx942.
    Gfx940 = 6,
}

impl Gen {
    /// Every generation, in table-column order.
    pub const ALL: [Gen; 7] = [
        Gen::Gfx6,
        Gen::Gfx7,
        Gen::Gfx8,
        Gen::Gfx9,
        Gen::Gfx908,
        Gen::Gfx90a,
        Gen::Gfx940,
    ];

    /// Column index in the instruction table.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The column heading used in the table files.
    pub const fn name(self) -> &'static str {
        match self {
            Gen::Gfx6 => "gfx6",
            Gen::Gfx7 => "gfx7",
            Gen::Gfx8 => "gfx8",
            Gen::Gfx9 => "gfx9",
            Gen::Gfx908 => "gfx908",
            Gen::Gfx90a => "gfx90a",
            Gen::Gfx940 => "gfx940",
        }
    }

    /// True for gfx6 and gfx7, whose encodings (SMRD, 9-bit VOP3 opcodes, DS/MUBUF/MIMG
    /// opcode positions) differ from gfx8 and later.
    pub const fn is_si_ci(self) -> bool {
        matches!(self, Gen::Gfx6 | Gen::Gfx7)
    }

    /// True from GCN 1.4 (gfx9) on, including all CDNA generations.
    pub const fn is_gfx9_family(self) -> bool {
        matches!(self, Gen::Gfx9 | Gen::Gfx908 | Gen::Gfx90a | Gen::Gfx940)
    }

    /// True where AccVGPRs share one register file with VGPRs and appear as operands of
    /// ordinary memory instructions (gfx90a, gfx940).
    pub const fn has_unified_agprs(self) -> bool {
        matches!(self, Gen::Gfx90a | Gen::Gfx940)
    }

    /// True where AccVGPRs exist at all.
    pub const fn has_agprs(self) -> bool {
        matches!(self, Gen::Gfx908 | Gen::Gfx90a | Gen::Gfx940)
    }
}

impl fmt::Display for Gen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A processor LLVM knows, with the facts gcnkit needs about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Processor {
    /// Canonical LLVM name, e.g. `gfx900`.
    pub name: &'static str,
    /// Older marketing/code names LLVM accepts for it.
    pub aliases: &'static [&'static str],
    /// ISA generation.
    pub gen: Gen,
    /// `EF_AMDGPU_MACH_*` value in ELF `e_flags` bits 0–7.
    pub elf_mach: u8,
    /// Whether the processor supports the xnack feature (it may be on or off).
    pub supports_xnack: bool,
    /// Whether the processor supports the sramecc feature.
    pub supports_sramecc: bool,
    /// Whether 16-bit (D16) buffer and image data take one VGPR per component, in the low
    /// half (LLVM's `unpacked-d16-vmem` feature: gfx801–gfx805). Elsewhere from gfx8 on, two
    /// components share a register (gfx810 packs like gfx9); gfx6/gfx7 have no D16 data.
    pub unpacked_d16: bool,
}

macro_rules! processors {
    ($( $name:literal [$($alias:literal),*] $gen:ident $mach:literal xnack=$x:literal sramecc=$s:literal
        $(unpacked_d16=$u:literal)?; )*) => {
        /// Every processor gcnkit supports.
        pub const PROCESSORS: &[Processor] = &[
            $( Processor { name: $name, aliases: &[$($alias),*], gen: Gen::$gen, elf_mach: $mach,
                           supports_xnack: $x, supports_sramecc: $s,
                           unpacked_d16: false $(|| $u)? }, )*
        ];
    };
}

processors! {
    "gfx600" ["tahiti"] Gfx6 0x20 xnack=false sramecc=false;
    "gfx601" ["pitcairn", "verde"] Gfx6 0x21 xnack=false sramecc=false;
    "gfx602" ["oland", "hainan"] Gfx6 0x3a xnack=false sramecc=false;
    "gfx700" ["kaveri"] Gfx7 0x22 xnack=false sramecc=false;
    "gfx701" ["hawaii"] Gfx7 0x23 xnack=false sramecc=false;
    "gfx702" [] Gfx7 0x24 xnack=false sramecc=false;
    "gfx703" ["kabini", "mullins"] Gfx7 0x25 xnack=false sramecc=false;
    "gfx704" ["bonaire"] Gfx7 0x26 xnack=false sramecc=false;
    "gfx705" [] Gfx7 0x3b xnack=false sramecc=false;
    "gfx801" ["carrizo"] Gfx8 0x28 xnack=true sramecc=false unpacked_d16=true;
    "gfx802" ["iceland", "tonga"] Gfx8 0x29 xnack=false sramecc=false unpacked_d16=true;
    "gfx803" ["fiji", "polaris10", "polaris11"] Gfx8 0x2a xnack=false sramecc=false unpacked_d16=true;
    "gfx805" ["tongapro"] Gfx8 0x3c xnack=false sramecc=false unpacked_d16=true;
    "gfx810" ["stoney"] Gfx8 0x2b xnack=true sramecc=false;
    "gfx900" [] Gfx9 0x2c xnack=true sramecc=false;
    "gfx902" [] Gfx9 0x2d xnack=true sramecc=false;
    "gfx904" [] Gfx9 0x2e xnack=true sramecc=false;
    "gfx906" [] Gfx9 0x2f xnack=true sramecc=true;
    "gfx909" [] Gfx9 0x31 xnack=true sramecc=false;
    "gfx90c" [] Gfx9 0x32 xnack=true sramecc=false;
    "gfx908" [] Gfx908 0x30 xnack=true sramecc=true;
    "gfx90a" [] Gfx90a 0x3f xnack=true sramecc=true;
    "gfx940" [] Gfx940 0x40 xnack=true sramecc=true;
    "gfx941" [] Gfx940 0x4b xnack=true sramecc=true;
    "gfx942" [] Gfx940 0x4c xnack=true sramecc=true;
}

impl Processor {
    /// Looks a processor up by its canonical name or an alias, as `-mcpu` takes it.
    pub fn by_name(name: &str) -> Option<&'static Processor> {
        PROCESSORS
            .iter()
            .find(|p| p.name == name || p.aliases.contains(&name))
    }

    /// Looks a processor up by its ELF `EF_AMDGPU_MACH_*` value.
    pub fn by_elf_mach(mach: u8) -> Option<&'static Processor> {
        PROCESSORS.iter().find(|p| p.elf_mach == mach)
    }

    /// Whether D16 buffer and image data pack two 16-bit components per VGPR (gfx810 and
    /// gfx9 on); false where each component takes a register and on gfx6/gfx7, which have
    /// no D16 data.
    pub fn has_packed_d16(&self) -> bool {
        !self.gen.is_si_ci() && !self.unpacked_d16
    }

    /// Position of this processor in [`PROCESSORS`]; used for per-processor masks.
    pub fn index(&self) -> usize {
        PROCESSORS
            .iter()
            .position(|p| p.name == self.name)
            .unwrap_or(0)
    }
}

/// Setting of a feature that may be on, off or left to the runtime ("any").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FeatureSetting {
    /// Not specified: code works either way.
    #[default]
    Any,
    /// Explicitly enabled (`+xnack`).
    On,
    /// Explicitly disabled (`-xnack`).
    Off,
}

/// A processor with its feature settings: what `--mcpu` and `--mattr` select.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The processor.
    pub processor: &'static Processor,
    /// xnack (page-fault replay) setting.
    pub xnack: FeatureSetting,
    /// sramecc setting.
    pub sramecc: FeatureSetting,
}

/// Why a target description was not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// The processor name is not one LLVM 19 accepts for AMDGPU (or not one gcnkit supports).
    #[error("unknown target processor '{0}' (expected e.g. gfx600, tahiti, bonaire, tonga, fiji, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx942)")]
    UnknownProcessor(String),
    /// A feature string entry was not `+name` or `-name`.
    #[error("malformed feature '{0}' (expected +name or -name, separated by commas)")]
    MalformedFeature(String),
    /// The ELF e_flags name a machine gcnkit does not support.
    #[error("unsupported AMDGPU machine 0x{0:02x} in ELF e_flags")]
    UnknownElfMach(u8),
}

/// Features LLVM accepts in `-mattr` that do not change instruction encodings; they are
/// accepted and ignored so that command lines written for llvm-mc work unchanged.
const NEUTRAL_FEATURES: &[&str] = &[
    "wavefrontsize64",
    "dl-insts",
    "dot1-insts",
    "dot2-insts",
    "dot7-insts",
    "mai-insts",
    "fp64",
    "16-bit-insts",
    "dpp",
    "sdwa",
    "flat-address-space",
    "unaligned-buffer-access",
    "xnack-support",
    "sramecc-support",
    "cumode",
    "tgsplit",
    "unaligned-access-mode",
    "trap-handler",
    "promote-alloca",
    "load-store-opt",
    "dumpcode",
    "code-object-v3",
];

impl Target {
    /// A processor with every feature left at "any".
    pub fn new(processor: &'static Processor) -> Target {
        Target {
            processor,
            xnack: FeatureSetting::Any,
            sramecc: FeatureSetting::Any,
        }
    }

    /// Parses an `-mcpu` name and an optional `-mattr` feature list (`+xnack,-sramecc`).
    ///
    /// A processor name may also carry target-ID features, as in `gfx90a:xnack+`.
    pub fn parse(mcpu: &str, mattr: Option<&str>) -> Result<Target, TargetError> {
        let mut parts = mcpu.split(':');
        let name = parts.next().unwrap_or("");
        let processor = Processor::by_name(name)
            .ok_or_else(|| TargetError::UnknownProcessor(mcpu.to_string()))?;
        let mut target = Target::new(processor);
        for id_feature in parts {
            let (feature, on) = if let Some(f) = id_feature.strip_suffix('+') {
                (f, true)
            } else if let Some(f) = id_feature.strip_suffix('-') {
                (f, false)
            } else {
                return Err(TargetError::MalformedFeature(id_feature.to_string()));
            };
            target.set_feature(feature, on)?;
        }
        if let Some(list) = mattr {
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (on, feature) = match item.as_bytes()[0] {
                    b'+' => (true, &item[1..]),
                    b'-' => (false, &item[1..]),
                    _ => return Err(TargetError::MalformedFeature(item.to_string())),
                };
                target.set_feature(feature, on)?;
            }
        }
        Ok(target)
    }

    fn set_feature(&mut self, feature: &str, on: bool) -> Result<(), TargetError> {
        let setting = if on {
            FeatureSetting::On
        } else {
            FeatureSetting::Off
        };
        match feature {
            "xnack" => self.xnack = setting,
            "sramecc" => self.sramecc = setting,
            // Like llvm-mc, other features are accepted and ignored: none of them changes how
            // the targets gcnkit supports encode instructions. `unknown_features` lists the
            // ones LLVM would not recognise either, so that tools can warn as llvm-mc does.
            _ => {}
        }
        Ok(())
    }

    /// Features in an `-mattr` list that are neither xnack/sramecc nor a feature known not to
    /// affect encodings; llvm-mc warns about unrecognised ones and ignores them.
    pub fn unknown_features(mattr: &str) -> Vec<String> {
        mattr
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.trim_start_matches(['+', '-']))
            .filter(|f| !matches!(*f, "xnack" | "sramecc") && !NEUTRAL_FEATURES.contains(f))
            .map(str::to_string)
            .collect()
    }

    /// The target described by ELF `e_flags` (machine in bits 0–7, xnack and sramecc in
    /// bits 8–11 for code object v4 and later).
    pub fn from_elf_flags(e_flags: u32) -> Result<Target, TargetError> {
        let mach = (e_flags & 0xff) as u8;
        let processor = Processor::by_elf_mach(mach).ok_or(TargetError::UnknownElfMach(mach))?;
        let setting = |bits: u32| match bits {
            2 => FeatureSetting::Off,
            3 => FeatureSetting::On,
            _ => FeatureSetting::Any,
        };
        Ok(Target {
            processor,
            xnack: setting((e_flags >> 8) & 3),
            sramecc: setting((e_flags >> 10) & 3),
        })
    }

    /// The ISA generation.
    pub fn gen(&self) -> Gen {
        self.processor.gen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_resolve_to_their_processor() {
        assert_eq!(Processor::by_name("tahiti").unwrap().name, "gfx600");
        assert_eq!(Processor::by_name("bonaire").unwrap().name, "gfx704");
        assert_eq!(Processor::by_name("fiji").unwrap().gen, Gen::Gfx8);
        assert_eq!(Processor::by_name("gfx942").unwrap().gen, Gen::Gfx940);
        assert!(Processor::by_name("gfx1100").is_none());
    }

    #[test]
    fn mattr_and_target_id_features_parse() {
        let t = Target::parse("gfx90a", Some("+xnack,-sramecc")).unwrap();
        assert_eq!(t.xnack, FeatureSetting::On);
        assert_eq!(t.sramecc, FeatureSetting::Off);
        let t = Target::parse("gfx90a:xnack-", None).unwrap();
        assert_eq!(t.xnack, FeatureSetting::Off);
        assert!(matches!(
            Target::parse("gfx900", Some("xnack")),
            Err(TargetError::MalformedFeature(_))
        ));
        assert!(matches!(
            Target::parse("gfx9000", None),
            Err(TargetError::UnknownProcessor(_))
        ));
    }

    #[test]
    fn elf_flags_select_processor_and_features() {
        let t = Target::from_elf_flags(0x3f | 0x300 | 0x800).unwrap();
        assert_eq!(t.processor.name, "gfx90a");
        assert_eq!(t.xnack, FeatureSetting::On);
        assert_eq!(t.sramecc, FeatureSetting::Off);
        assert!(Target::from_elf_flags(0x99).is_err());
    }
}
