//! Turning the granulated register counts of `COMPUTE_PGM_RSRC1` back into register counts.
//!
//! Granules (hsa-dispatch-abi.md §3.7, LLVM `AMDGPUUsage` "compute_pgm_rsrc1"): VGPRs come in
//! blocks of 4 on gfx6–gfx908 and of 8 on gfx90a/gfx94x (whose file is unified with the
//! AGPRs); SGPRs in blocks of 8 (LLVM 19 also writes gfx9 counts in blocks of 8, which the
//! same decode covers). The counts are what the hardware allocates, so they are the exact
//! number rounded up to the granule.

use gcnkit_isa::Gen;

use crate::descriptor::KernelDescriptor;
use crate::pgm_rsrc::Rsrc3Gfx90a;

/// VGPRs per allocation block.
pub fn vgpr_granule(gen: Gen) -> u32 {
    if gen.has_unified_agprs() {
        8
    } else {
        4
    }
}

/// SGPRs per allocation block.
pub fn sgpr_granule(_gen: Gen) -> u32 {
    8
}

/// Registers a kernel has allocated, decoded from its descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterCounts {
    /// VGPRs allocated per lane: the architectural VGPRs, or on gfx90a/gfx94x the whole
    /// unified VGPR+AGPR allocation.
    pub vgprs: u32,
    /// SGPRs allocated per wave (VCC, FLAT_SCRATCH and XNACK_MASK included).
    pub sgprs: u32,
    /// gfx908: AGPRs allocated (the granule encodes max(VGPRs, AGPRs)). gfx90a/gfx94x: the
    /// unified registers from `accum_offset` up. `None` on targets without AGPRs.
    pub agprs: Option<u32>,
    /// gfx90a/gfx94x: first AGPR in the unified file (`ACCUM_OFFSET`).
    pub accum_offset: Option<u32>,
}

impl RegisterCounts {
    /// Decodes the counts for a target of generation `gen`.
    pub fn of(kd: &KernelDescriptor, gen: Gen) -> RegisterCounts {
        let rsrc1 = &kd.compute_pgm_rsrc1;
        let vgprs = (rsrc1.granulated_workitem_vgpr_count + 1) * vgpr_granule(gen);
        let sgprs = (rsrc1.granulated_wavefront_sgpr_count + 1) * sgpr_granule(gen);
        let (agprs, accum_offset) = if gen.has_unified_agprs() {
            let accum = (Rsrc3Gfx90a::from_bits(kd.compute_pgm_rsrc3).accum_offset + 1) * 4;
            (Some(vgprs.saturating_sub(accum)), Some(accum))
        } else if gen.has_agprs() {
            (Some(vgprs), None)
        } else {
            (None, None)
        };
        RegisterCounts {
            vgprs,
            sgprs,
            agprs,
            accum_offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgm_rsrc::Rsrc1;

    fn kd(vgpr_field: u32, sgpr_field: u32, rsrc3: u32) -> KernelDescriptor {
        KernelDescriptor {
            compute_pgm_rsrc1: Rsrc1 {
                granulated_workitem_vgpr_count: vgpr_field,
                granulated_wavefront_sgpr_count: sgpr_field,
                ..Rsrc1::default()
            },
            compute_pgm_rsrc3: rsrc3,
            ..KernelDescriptor::default()
        }
    }

    #[test]
    fn examples_from_the_abi_fact_sheet_decode() {
        // gfx900: next_free_vgpr 5 gives field 1 = 8 VGPRs.
        assert_eq!(RegisterCounts::of(&kd(1, 1, 0), Gen::Gfx9).vgprs, 8);
        // gfx90a: 4 arch VGPRs + 32 AGPRs give field 4 = 40 unified, accum_offset 4.
        let c = RegisterCounts::of(&kd(4, 0, 0), Gen::Gfx90a);
        assert_eq!((c.vgprs, c.accum_offset, c.agprs), (40, Some(4), Some(36)));
        // gfx908: 25 VGPRs and 32 AGPRs give field 7 = 32 of each.
        let c = RegisterCounts::of(&kd(7, 0, 0), Gen::Gfx908);
        assert_eq!((c.vgprs, c.agprs), (32, Some(32)));
        // SGPRs: field 6 = 56.
        assert_eq!(RegisterCounts::of(&kd(0, 6, 0), Gen::Gfx6).sgprs, 56);
    }
}
