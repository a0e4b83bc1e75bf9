//! A kernel descriptor as an `.amdhsa_kernel NAME ... .end_amdhsa_kernel` block that the
//! assembler turns back into the same 64 bytes.
//!
//! The directive view of [`crate::directives::amdhsa_directives`] says what each field
//! holds, but the assembler computes four things itself: the granulated VGPR and SGPR
//! counts (from `.amdhsa_next_free_vgpr/sgpr` plus the SGPRs it adds for VCC, FLAT_SCRATCH
//! and XNACK_MASK), the user SGPR count and the gfx90a accumulator offset. The register and
//! reservation values are therefore searched for: each candidate block goes through the
//! assembler's own rules ([`crate::write::kernel_descriptor_from_directives`]) and the first
//! one that gives back the original bytes is printed. A descriptor no block can give back
//! (reserved bits, fields without a directive, an SGPR count beyond what the directives can
//! ask for) is reported, and the caller falls back to bytes.

use std::fmt::Write as _;

use gcnkit_isa::Target;

use crate::descriptor::KernelDescriptor;
use crate::directives::amdhsa_directives;
use crate::registers::RegisterCounts;
use crate::write::{directive_names, kernel_descriptor_from_directives, AmdhsaDirective};

/// Directives whose values the search below chooses.
const CHOSEN: [&str; 5] = [
    "amdhsa_next_free_vgpr",
    "amdhsa_next_free_sgpr",
    "amdhsa_reserve_vcc",
    "amdhsa_reserve_flat_scratch",
    "amdhsa_reserve_xnack_mask",
];

/// The `.amdhsa_kernel` block for kernel `name` whose descriptor is `kd`, or why there is
/// none. The entry offset is not compared: the assembler writes it as a relocation.
pub(crate) fn amdhsa_kernel_block(
    name: &str,
    kd: &KernelDescriptor,
    target: &Target,
    code_object_version: u8,
) -> Result<String, String> {
    let gen = target.gen();
    let allowed = directive_names(gen);
    let mut fixed: Vec<(&'static str, u64)> = amdhsa_directives(kd, gen, code_object_version)
        .into_iter()
        .filter(|(n, _)| allowed.contains(n) && !CHOSEN.contains(n))
        .collect();
    fixed.push((
        "amdhsa_user_sgpr_count",
        u64::from(kd.compute_pgm_rsrc2.user_sgpr_count),
    ));
    let want = KernelDescriptor {
        kernel_code_entry_byte_offset: 0,
        ..*kd
    };
    let regs = RegisterCounts::of(kd, gen);
    for chosen in candidates(regs, &allowed) {
        let all: Vec<(&str, u64)> = fixed.iter().copied().chain(chosen).collect();
        if rebuilds(&all, &want, target, code_object_version) {
            return Ok(print_block(name, &all));
        }
    }
    Err(why_not(&fixed, regs, target, code_object_version))
}

/// The register and reservation directives to try, most natural first: no reservations
/// and the SGPR count just below the allocation, then every other combination.
fn candidates<'l>(
    regs: RegisterCounts,
    allowed: &'l [&'static str],
) -> impl Iterator<Item = Vec<(&'static str, u64)>> + 'l {
    let sgprs = u64::from(regs.sgprs);
    let reserves = [(0, 0), (1, 0), (0, 1), (1, 1)];
    reserves.into_iter().flat_map(move |(vcc, flat)| {
        [0u64, 1].into_iter().flat_map(move |xnack| {
            (0..=sgprs).rev().map(move |next_free_sgpr| {
                let values = [u64::from(regs.vgprs), next_free_sgpr, vcc, flat, xnack];
                CHOSEN
                    .iter()
                    .zip(values)
                    .filter(|(n, _)| allowed.contains(n))
                    .map(|(&n, v)| (n, v))
                    .collect()
            })
        })
    })
}

/// True if the assembler's rules turn `directives` into exactly `want`.
fn rebuilds(
    directives: &[(&str, u64)],
    want: &KernelDescriptor,
    target: &Target,
    code_object_version: u8,
) -> bool {
    let list: Vec<AmdhsaDirective<'_, ()>> = directives
        .iter()
        .map(|&(name, v)| AmdhsaDirective {
            name,
            value: v as i64,
            name_at: (),
            value_at: (),
        })
        .collect();
    kernel_descriptor_from_directives(target, code_object_version, &list, ())
        .is_ok_and(|kd| want.encode().is_ok_and(|w| kd.encode().ok() == Some(w)))
}

/// Which descriptor word no block reproduces, for the warning.
fn why_not(
    fixed: &[(&str, u64)],
    regs: RegisterCounts,
    target: &Target,
    code_object_version: u8,
) -> String {
    let natural: Vec<(&str, u64)> = fixed
        .iter()
        .copied()
        .chain([
            ("amdhsa_next_free_vgpr", u64::from(regs.vgprs)),
            ("amdhsa_next_free_sgpr", 0),
        ])
        .collect();
    let list: Vec<AmdhsaDirective<'_, ()>> = natural
        .iter()
        .map(|&(name, v)| AmdhsaDirective {
            name,
            value: v as i64,
            name_at: (),
            value_at: (),
        })
        .collect();
    match kernel_descriptor_from_directives(target, code_object_version, &list, ()) {
        Err(e) => format!("its fields are inconsistent for the assembler ({})", e.kind),
        Ok(_) => "it has bits no .amdhsa_* directive sets (reserved bits, fields without a \
                  directive, or a register count the directives cannot ask for)"
            .to_string(),
    }
}

fn print_block(name: &str, directives: &[(&str, u64)]) -> String {
    let mut out = format!("\t.amdhsa_kernel {name}\n");
    for (n, v) in directives {
        writeln!(out, "\t\t.{n} {v}").ok();
    }
    out.push_str("\t.end_amdhsa_kernel\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::descriptor_from_directives;

    fn assembled(target: &Target, text: &str) -> KernelDescriptor {
        let dirs: Vec<(String, i64)> = text
            .lines()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                Some((w.next()?.to_string(), w.next()?.parse().ok()?))
            })
            .collect();
        let list: Vec<AmdhsaDirective<'_, ()>> = dirs
            .iter()
            .map(|(n, v)| AmdhsaDirective {
                name: n,
                value: *v,
                name_at: (),
                value_at: (),
            })
            .collect();
        let bytes = descriptor_from_directives(target, 5, &list, ()).unwrap();
        KernelDescriptor::decode(&bytes).unwrap()
    }

    #[test]
    fn a_block_written_by_hand_comes_back_as_a_block_with_the_same_bytes() {
        for (cpu, extra) in [
            ("gfx900", ".amdhsa_reserve_xnack_mask 1"),
            ("gfx90a", ".amdhsa_accum_offset 8"),
            ("gfx942", ".amdhsa_accum_offset 4"),
            ("gfx803", ""),
            ("tahiti", ""),
        ] {
            let target = Target::parse(cpu, None).unwrap();
            let text = format!(
                ".amdhsa_next_free_vgpr 13\n.amdhsa_next_free_sgpr 37\n\
                 .amdhsa_user_sgpr_kernarg_segment_ptr 1\n.amdhsa_user_sgpr_dispatch_ptr 1\n{extra}\n"
            );
            let kd = assembled(&target, &text);
            let block = amdhsa_kernel_block("k", &kd, &target, 5).unwrap();
            assert!(block.starts_with("\t.amdhsa_kernel k\n"), "{block}");
            assert_eq!(assembled(&target, &block), kd, "{cpu}:\n{block}");
        }
    }

    #[test]
    fn a_descriptor_with_reserved_bits_has_no_block() {
        let target = Target::parse("gfx900", None).unwrap();
        let mut kd = assembled(
            &target,
            ".amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n",
        );
        kd.reserved1[3] = 1;
        assert!(amdhsa_kernel_block("k", &kd, &target, 5).is_err());
    }
}
