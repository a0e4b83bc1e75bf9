//! Non-canonical input forms and llvm-mc's encoding choices.
//!
//! Every expected byte string below was produced by llvm-mc-19:
//! `echo '<stmt>' | llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx900 -show-encoding`
//! (or the -mcpu named in the test), never by gcnkit.

use gcnkit_asm::expr::NoSymbols;
use gcnkit_asm::{assemble_instruction, FixupKind, SymbolValues};
use gcnkit_isa::Target;

fn asm_for(cpu: &str, stmt: &str) -> Vec<u8> {
    let t = Target::parse(cpu, None).unwrap();
    match assemble_instruction(&t, stmt, &NoSymbols) {
        Ok(e) => e.as_bytes().to_vec(),
        Err(errs) => panic!("`{stmt}` failed: {}", errs[0]),
    }
}

fn check(cases: &[(&str, &[u8])]) {
    for (stmt, want) in cases {
        assert_eq!(asm_for("gfx900", stmt), *want, "`{stmt}`");
    }
}

#[test]
fn e32_when_possible_else_vop3() {
    check(&[
        ("v_add_f32 v0, v1, v2", &[0x01, 0x05, 0x00, 0x02]),
        ("v_add_f32 v0, s1, v2", &[0x01, 0x04, 0x00, 0x02]),
        // An SGPR in src1 needs the VOP3 form.
        (
            "v_add_f32 v0, v1, s2",
            &[0x00, 0x00, 0x01, 0xd1, 0x01, 0x05, 0x00, 0x00],
        ),
        (
            "v_add_f32_e64 v0, v1, v2",
            &[0x00, 0x00, 0x01, 0xd1, 0x01, 0x05, 0x02, 0x00],
        ),
        ("v_cmp_eq_u32 vcc, v1, v2", &[0x01, 0x05, 0x94, 0x7d]),
        (
            "v_cmp_eq_u32 s[4:5], v1, v2",
            &[0x04, 0x00, 0xca, 0xd0, 0x01, 0x05, 0x02, 0x00],
        ),
        ("v_add_co_u32 v0, vcc, v1, v2", &[0x01, 0x05, 0x00, 0x32]),
        (
            "v_add_co_u32 v0, s[4:5], v1, v2",
            &[0x00, 0x04, 0x19, 0xd1, 0x01, 0x05, 0x02, 0x00],
        ),
        ("v_cndmask_b32 v0, v1, v2, vcc", &[0x01, 0x05, 0x00, 0x00]),
        (
            "v_cndmask_b32 v0, v1, v2, s[4:5]",
            &[0x00, 0x00, 0x00, 0xd1, 0x01, 0x05, 0x12, 0x00],
        ),
    ]);
}

#[test]
fn source_modifiers_in_all_spellings() {
    check(&[
        (
            "v_add_f32 v0, -v1, v2",
            &[0x00, 0x00, 0x01, 0xd1, 0x01, 0x05, 0x02, 0x20],
        ),
        (
            "v_add_f32 v0, |v1|, v2",
            &[0x00, 0x01, 0x01, 0xd1, 0x01, 0x05, 0x02, 0x00],
        ),
        (
            "v_add_f32 v0, abs(v1), neg(v2)",
            &[0x00, 0x01, 0x01, 0xd1, 0x01, 0x05, 0x02, 0x40],
        ),
        (
            "v_add_f32 v0, -|v1|, v2 clamp",
            &[0x00, 0x81, 0x01, 0xd1, 0x01, 0x05, 0x02, 0x20],
        ),
        (
            "v_add_f32 v0, v1, v2 mul:2",
            &[0x00, 0x00, 0x01, 0xd1, 0x01, 0x05, 0x02, 0x08],
        ),
        (
            "v_add_f32 v0, v1, v2 div:2",
            &[0x00, 0x00, 0x01, 0xd1, 0x01, 0x05, 0x02, 0x18],
        ),
        (
            "v_mad_mix_f32 v0, -v1, |v2|, v3 op_sel_hi:[1,1,1]",
            &[0x00, 0x42, 0xa0, 0xd3, 0x01, 0x05, 0x0e, 0x3c],
        ),
        (
            "v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]",
            &[0x00, 0x48, 0x8f, 0xd3, 0x01, 0x05, 0x02, 0x10],
        ),
    ]);
}

#[test]
fn sdwa_and_dpp_chosen_by_their_modifiers() {
    check(&[
        (
            "v_add_f32 v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD",
            &[0xf9, 0x04, 0x00, 0x02, 0x01, 0x05, 0x00, 0x06],
        ),
        // bound_ctrl:0 sets the bit, as bound_ctrl:1 does.
        (
            "v_add_f32 v0, v1, v2 row_shl:1 bound_ctrl:0",
            &[0xfa, 0x04, 0x00, 0x02, 0x01, 0x01, 0x09, 0xff],
        ),
        (
            "v_add_f32 v0, v1, v2 quad_perm:[1,0,3,2] row_mask:0xa",
            &[0xfa, 0x04, 0x00, 0x02, 0x01, 0xb1, 0x00, 0xaf],
        ),
    ]);
}

#[test]
fn literal_or_inline_constant() {
    check(&[
        ("v_add_f32 v0, 0.5, v2", &[0xf0, 0x04, 0x00, 0x02]),
        (
            "v_add_f32 v0, 1.5, v2",
            &[0xff, 0x04, 0x00, 0x02, 0x00, 0x00, 0xc0, 0x3f],
        ),
        ("v_add_f32 v0, 0x40, v2", &[0xc0, 0x04, 0x00, 0x02]),
        ("v_mov_b32 v0, 0.15915494", &[0xf8, 0x02, 0x00, 0x7e]),
        (
            "v_add_u16_e32 v0, 0x3c00, v1",
            &[0xff, 0x02, 0x00, 0x4c, 0x00, 0x3c, 0x00, 0x00],
        ),
        ("v_add_f16_e32 v0, 0x3800, v1", &[0xf0, 0x02, 0x00, 0x3e]),
        (
            "v_ceil_f64_e32 v[30:31], 1.5",
            &[0xff, 0x30, 0x3c, 0x7e, 0x00, 0x00, 0xf8, 0x3f],
        ),
        (
            "s_and_b64 s[0:1], s[2:3], -0x12345678",
            &[0x02, 0xff, 0x80, 0x86, 0x88, 0xa9, 0xcb, 0xed],
        ),
        (
            "s_and_b64 s[0:1], s[2:3], 0x3ff0000000000000",
            &[0x02, 0xf2, 0x80, 0x86],
        ),
        (
            "s_mov_b64 s[0:1], 0.15915494309189532",
            &[0xf8, 0x01, 0x80, 0xbe],
        ),
        (
            "v_pk_add_f16 v0, 0x3c00, v1",
            &[0x00, 0x40, 0x8f, 0xd3, 0xf2, 0x02, 0x02, 0x18],
        ),
    ]);
    // gfx7 has no 1/(2*pi) inline constant: it is a literal there.
    assert_eq!(
        asm_for("bonaire", "v_mov_b32 v0, 0.15915494"),
        [0xff, 0x02, 0x00, 0x7e, 0x83, 0xf9, 0x22, 0x3e]
    );
}

#[test]
fn expressions_in_operands() {
    check(&[
        ("v_add_f32 v0, 1+2*3, v2", &[0x87, 0x04, 0x00, 0x02]),
        ("v_add_f32 v0, (1<<4)|3, v2", &[0x93, 0x04, 0x00, 0x02]),
    ]);
}

#[test]
fn register_spellings() {
    check(&[
        ("s_mov_b32 s0, [s1]", &[0x01, 0x00, 0x80, 0xbe]),
        ("s_mov_b64 s[0:1], [s2,s3]", &[0x02, 0x01, 0x80, 0xbe]),
        ("v_mov_b32 v0, v[1:1]", &[0x01, 0x03, 0x00, 0x7e]),
    ]);
}

#[test]
fn waitcnt_in_any_order_and_separator() {
    check(&[
        ("s_waitcnt vmcnt(0) lgkmcnt(0)", &[0x70, 0x00, 0x8c, 0xbf]),
        ("s_waitcnt lgkmcnt(0) & vmcnt(1)", &[0x71, 0x00, 0x8c, 0xbf]),
        ("s_waitcnt expcnt(2), lgkmcnt(3)", &[0x2f, 0xc3, 0x8c, 0xbf]),
        ("s_waitcnt vmcnt_sat(100)", &[0x7f, 0xcf, 0x8c, 0xbf]),
        ("s_waitcnt 0", &[0x00, 0x00, 0x8c, 0xbf]),
    ]);
}

#[test]
fn hwreg_and_sendmsg_symbolic_and_numeric() {
    check(&[
        (
            "s_getreg_b32 s0, hwreg(HW_REG_MODE)",
            &[0x01, 0xf8, 0x80, 0xb8],
        ),
        ("s_getreg_b32 s0, hwreg(1, 4, 8)", &[0x01, 0x39, 0x80, 0xb8]),
        (
            "s_getreg_b32 s0, hwreg(HW_REG_HW_ID, 0, 32)",
            &[0x04, 0xf8, 0x80, 0xb8],
        ),
        (
            "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s2",
            &[0x01, 0x18, 0x02, 0xb9],
        ),
        (
            "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)",
            &[0x22, 0x01, 0x90, 0xbf],
        ),
        ("s_sendmsg sendmsg(2, 2, 1)", &[0x22, 0x01, 0x90, 0xbf]),
        (
            "s_sendmsg sendmsg(MSG_INTERRUPT)",
            &[0x01, 0x00, 0x90, 0xbf],
        ),
        ("s_sendmsg 0x22", &[0x22, 0x00, 0x90, 0xbf]),
    ]);
}

#[test]
fn swizzle_gpr_idx_and_memory_modifiers() {
    check(&[
        (
            "ds_swizzle_b32 v1, v2 offset:swizzle(QUAD_PERM,0,1,2,3)",
            &[0xe4, 0x80, 0x7a, 0xd8, 0x02, 0x00, 0x00, 0x01],
        ),
        (
            "ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,4)",
            &[0x1f, 0x10, 0x7a, 0xd8, 0x02, 0x00, 0x00, 0x01],
        ),
        (
            "ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,8,3)",
            &[0x78, 0x00, 0x7a, 0xd8, 0x02, 0x00, 0x00, 0x01],
        ),
        (
            "ds_swizzle_b32 v1, v2 offset:swizzle(REVERSE,16)",
            &[0x1f, 0x3c, 0x7a, 0xd8, 0x02, 0x00, 0x00, 0x01],
        ),
        (
            "s_set_gpr_idx_on s0, gpr_idx(SRC0,DST)",
            &[0x00, 0x09, 0x11, 0xbf],
        ),
        (
            "buffer_load_dword v1, off, s[4:7], s1 offset:4 glc slc",
            &[0x04, 0x40, 0x52, 0xe0, 0x00, 0x01, 0x01, 0x01],
        ),
        (
            "global_load_dword v1, v[2:3], off offset:-8",
            &[0xf8, 0x9f, 0x50, 0xdc, 0x02, 0x00, 0x7f, 0x01],
        ),
    ]);
}

struct Labels;
impl SymbolValues for Labels {
    fn value(&self, name: &str) -> Option<i64> {
        match name {
            "." => Some(0x100),
            "back" => Some(0x80),
            "k" => Some(7),
            _ => None,
        }
    }
}

#[test]
fn branches_resolve_now_or_leave_a_fixup() {
    let t = Target::parse("gfx900", None).unwrap();
    // Known label: (0x80 - (0x100 + 4)) / 4 = -33 = 0xffdf.
    let e = assemble_instruction(&t, "s_branch back", &Labels).unwrap();
    assert_eq!(e.as_bytes(), [0xdf, 0xff, 0x82, 0xbf]);
    assert!(e.fixups.is_empty());
    // Forward label: placeholder 0 and a branch fixup on the simm16 field.
    let e = assemble_instruction(&t, "s_cbranch_scc0 later", &Labels).unwrap();
    assert_eq!(e.as_bytes(), [0x00, 0x00, 0x84, 0xbf]);
    assert_eq!(e.fixups.len(), 1);
    assert_eq!(e.fixups[0].kind, FixupKind::BranchSimm16);
    assert_eq!(e.fixups[0].offset, 0);
    // A raw number is the offset itself (llvm-mc: `s_branch 5` -> [0x05,0x00,0x82,0xbf]).
    let e = assemble_instruction(&t, "s_branch 5", &Labels).unwrap();
    assert_eq!(e.as_bytes(), [0x05, 0x00, 0x82, 0xbf]);
}

#[test]
fn unknown_symbols_become_literal_fixups() {
    let t = Target::parse("gfx900", None).unwrap();
    let e = assemble_instruction(&t, "s_mov_b32 s0, sym@abs32@lo", &Labels).unwrap();
    assert_eq!(e.as_bytes(), [0xff, 0x00, 0x80, 0xbe, 0, 0, 0, 0]);
    assert_eq!(e.fixups[0].kind, FixupKind::Literal32);
    assert_eq!(e.fixups[0].offset, 4);
    // A known `.set` value is a constant (k = 7 is inline).
    let e = assemble_instruction(&t, "s_mov_b32 s0, k", &Labels).unwrap();
    assert_eq!(e.as_bytes(), [0x87, 0x00, 0x80, 0xbe]);
}

#[test]
fn ldexp_f16_src1_takes_fp16_inline_constants_and_16_bit_negatives() {
    check(&[
        // 0xc400 is -4.0 in half precision, 0x3118 1/(2*pi); 0xffff and 0xfff0 are -1 and
        // -16 in 16 bits.
        (
            "v_ldexp_f16 v0, s1, 0xc400",
            &[0x00, 0x00, 0x33, 0xd1, 0x01, 0xee, 0x01, 0x00],
        ),
        (
            "v_ldexp_f16 v0, s1, 0x3118",
            &[0x00, 0x00, 0x33, 0xd1, 0x01, 0xf0, 0x01, 0x00],
        ),
        (
            "v_ldexp_f16 v0, s1, 0xffff",
            &[0x00, 0x00, 0x33, 0xd1, 0x01, 0x82, 0x01, 0x00],
        ),
        (
            "v_ldexp_f16 v0, s1, 0xfff0",
            &[0x00, 0x00, 0x33, 0xd1, 0x01, 0xa0, 0x01, 0x00],
        ),
        // Wider values are cut to their low 16 bits: 0x13c00 is 1.0, -0x100000 is 0.
        (
            "v_ldexp_f16 v0, s1, 0x13c00",
            &[0x00, 0x00, 0x33, 0xd1, 0x01, 0xe4, 0x01, 0x00],
        ),
        (
            "v_ldexp_f16_e64 v44, s1, -0x100000",
            &[0x2c, 0x00, 0x33, 0xd1, 0x01, 0x00, 0x01, 0x00],
        ),
        (
            "v_ldexp_f16 v0, s1, sext(0xc400) clamp",
            &[0x00, 0x80, 0x33, 0xd1, 0x01, 0xee, 0x01, 0x40],
        ),
    ]);
    // Other 16-bit values are literals, which VOP3 cannot hold here (llvm-mc: "literal
    // operands are not supported"), and ordinary 16-bit integer sources take no FP16
    // patterns.
    let t = Target::parse("gfx900", None).unwrap();
    for stmt in [
        "v_ldexp_f16 v0, s1, 0x3c01",
        "v_ldexp_f16 v0, s1, 0xff00",
        "v_ldexp_f16 v0, s1, 0x12345",
        "v_add_u16_e64 v0, s1, 0xc400",
        "v_add_u16_e64 v0, s1, 0xffff",
    ] {
        let err = assemble_instruction(&t, stmt, &NoSymbols).unwrap_err();
        assert_eq!(
            err[0].message, "literal operands are not supported",
            "`{stmt}`"
        );
    }
}

#[test]
fn fp16_sources_read_16_bit_negative_integers_as_inline_constants() {
    // llvm-mc-19 reads an FP16 source's integer as 16 bits: 0xffff is -1 and 0xfff0 is -16
    // (inline constants), and `neg(abs(-3))` folds to -3; a 16-bit integer source keeps
    // 0xffff as a literal.
    check(&[
        (
            "v_cmp_eq_f16_e32 vcc, 0xffff, v1",
            &[0xc1, 0x02, 0x44, 0x7c],
        ),
        ("v_add_f16 v0, 0xfff0, v1", &[0xd0, 0x02, 0x00, 0x3e]),
        ("v_log_f16_e32 v0, neg(abs(-3))", &[0xc3, 0x80, 0x00, 0x7e]),
        (
            "v_add_f16_e64 v0, 0xffff, v1",
            &[0x00, 0x00, 0x1f, 0xd1, 0xc1, 0x02, 0x02, 0x00],
        ),
        (
            "v_add_f16 v0, 0xffef, v1",
            &[0xff, 0x02, 0x00, 0x3e, 0xef, 0xff, 0x00, 0x00],
        ),
        (
            "v_add_u16 v0, 0xffff, v1",
            &[0xff, 0x02, 0x00, 0x4c, 0xff, 0xff, 0x00, 0x00],
        ),
    ]);
}

#[test]
fn packed_integer_sources_take_single_precision_inline_patterns() {
    // llvm-mc-19: a packed 16-bit integer source reads 0x3f800000 as the inline 1.0 (and
    // 0x3e22f983 as 1/(2*pi)); a packed FP16 source takes only half-precision patterns.
    check(&[
        (
            "v_pk_add_i16 v0, s1, 0x3f800000",
            &[0x00, 0x40, 0x82, 0xd3, 0x01, 0xe4, 0x01, 0x18],
        ),
        (
            "v_pk_add_i16 v0, v1, 0x3e22f983",
            &[0x00, 0x40, 0x82, 0xd3, 0x01, 0xf1, 0x01, 0x18],
        ),
        (
            "v_sat_pk_u8_i16_e32 v5, 0x3f800000",
            &[0xf2, 0x9e, 0x0a, 0x7e],
        ),
    ]);
    let t = Target::parse("gfx900", None).unwrap();
    for stmt in [
        "v_pk_add_f16 v0, v1, 0x3f800000",
        "v_pk_add_i16 v0, v1, 0x3c00",
    ] {
        let err = assemble_instruction(&t, stmt, &NoSymbols).unwrap_err();
        assert_eq!(
            err[0].message, "literal operands are not supported",
            "`{stmt}`"
        );
    }
}

#[test]
fn export_sources_and_gfx7_writelane_values_are_checked_as_llvm_mc_checks_them() {
    // llvm-mc-19: modifiers on an export source are "not a valid operand." (column of the
    // source); the value v_writelane_b32 writes on gfx6/gfx7 cannot be a VGPR.
    let errors = |cpu: &str, stmt: &str| {
        let t = Target::parse(cpu, None).unwrap();
        let e = assemble_instruction(&t, stmt, &NoSymbols).unwrap_err();
        (e[0].span.start + 1, e[0].message.clone())
    };
    let not_valid = "not a valid operand.".to_string();
    assert_eq!(
        errors("gfx900", "exp mrt1 v222, sext(off), off, off vm"),
        (16, not_valid.clone())
    );
    assert_eq!(
        errors("gfx900", "exp param19 off ,off , |off|,v55"),
        (24, not_valid.clone())
    );
    assert_eq!(
        errors("gfx900", "exp mrt0 sext(v1), off, off, off"),
        (10, not_valid)
    );
    let invalid = "invalid operand for instruction".to_string();
    assert_eq!(
        errors("bonaire", "v_writelane_b32 v52, v0, s1"),
        (22, invalid.clone())
    );
    assert_eq!(
        errors("tahiti", "v_writelane_b32 v52, v0, m0"),
        (22, invalid)
    );
    assert_eq!(
        asm_for("bonaire", "v_writelane_b32 v52, s0, m0"),
        [0x00, 0xf8, 0x68, 0x04]
    );
}
