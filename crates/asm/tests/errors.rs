//! Error messages, worded as llvm-mc-19 words them. Each expected message (and column,
//! converted to a byte offset) comes from running the statement through
//! `llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx900 -show-encoding` (or the named -mcpu).

use gcnkit_asm::assemble_instruction;
use gcnkit_asm::expr::NoSymbols;
use gcnkit_isa::Target;

/// (statement, message, byte offset llvm-mc points at or None when its column is not ours).
fn check(cpu: &str, cases: &[(&str, &str, Option<usize>)]) {
    let t = Target::parse(cpu, None).unwrap();
    for (stmt, msg, at) in cases {
        let errs =
            assemble_instruction(&t, stmt, &NoSymbols).expect_err(&format!("`{stmt}` should fail"));
        assert_eq!(errs[0].message, *msg, "`{stmt}`");
        if let Some(at) = at {
            assert_eq!(errs[0].span.start, *at, "`{stmt}` error position");
        }
    }
}

#[test]
fn mnemonic_errors() {
    check(
        "gfx900",
        &[
            // llvm-mc: "expected a 16-bit unsigned offset" at 1:21; ds_swizzle_b32 at the
            // value (1:30).
            (
                "ds_write_b32 v0, v1 offset:70000",
                "expected a 16-bit unsigned offset",
                Some(20),
            ),
            (
                "ds_swizzle_b32 v0, v1 offset:70000",
                "expected a 16-bit offset",
                Some(29),
            ),
            // The VOP3 form matches, then fails validation: its error wins (1:19).
            (
                "v_add_f32 v0, s1, s2",
                "invalid operand (violates constant bus restrictions)",
                Some(18),
            ),
            (
                "v_ad_f32 v0, v1, v2",
                "invalid instruction, did you mean: v_add_f32?",
                Some(0),
            ),
            ("foo_bar v1", "invalid instruction", Some(0)),
        ],
    );
    // `s_call_b64` is new in gfx9 (llvm-mc -mcpu=fiji).
    check(
        "fiji",
        &[(
            "s_call_b64 s[0:1], 4",
            "instruction not supported on this GPU",
            Some(0),
        )],
    );
}

/// llvm-mc lists every mnemonic of the target's default asm variant within two insertions or
/// deletions, sorted bytewise; VOP3-only mnemonics are never offered (llvm-mc -mcpu as named).
#[test]
fn mnemonic_suggestions_list_every_candidate() {
    check(
        "gfx900",
        &[
            (
                "s_nopp",
                "invalid instruction, did you mean: ds_nop, s_nop?",
                Some(0),
            ),
            (
                "s_endpgmm",
                "invalid instruction, did you mean: s_endpgm?",
                Some(0),
            ),
            ("s_bogus", "invalid instruction", Some(0)),
            (
                "  s_nopp 0",
                "invalid instruction, did you mean: ds_nop, s_nop?",
                Some(2),
            ),
            (
                "s_nopp_e32",
                "invalid instruction, did you mean: ds_nop, s_nop?",
                Some(0),
            ),
            ("v_mad_f3 v0, v1, v2, v3", "invalid instruction", Some(0)),
            ("v_add_f32_e3 v0, v1, v2", "invalid instruction", Some(0)),
            (
                "ds_writ_b32 v0, v1",
                "invalid instruction, did you mean: ds_write2_b32, ds_write_b32?",
                Some(0),
            ),
            (
                "v_cmp_eq_f3 vcc, v0, v1",
                "invalid instruction, did you mean: v_cmp_eq_f32, v_cmp_neq_f32, v_cmpx_eq_f32?",
                Some(0),
            ),
            (
                "v_readlane_b3 s0, v1, 0",
                "invalid instruction, did you mean: v_readlane_b32?",
                Some(0),
            ),
            (
                "v_cvt_pkrtz_f16_f3 v0, v1, v2",
                "invalid instruction",
                Some(0),
            ),
        ],
    );
    check(
        "gfx600",
        &[
            (
                "v_cvt_pkrtz_f16_f3 v0, v1, v2",
                "invalid instruction, did you mean: v_cvt_pkrtz_f16_f32?",
                Some(0),
            ),
            (
                "v_add_co_u3 v0, vcc, v1, v2",
                "invalid instruction, did you mean: v_add_co_u32?",
                Some(0),
            ),
            (
                "v_fmac_f32x v0, v1, v2",
                "invalid instruction, did you mean: v_mac_f32?",
                Some(0),
            ),
        ],
    );
    check(
        "gfx940",
        &[
            (
                "v_mac_f32x v0, v1, v2",
                "invalid instruction, did you mean: v_fmac_f32?",
                Some(0),
            ),
            (
                "v_madmk_f32x v0, v1, 1.0, v2",
                "invalid instruction",
                Some(0),
            ),
        ],
    );
}

#[test]
fn operand_count_and_class_errors() {
    check(
        "gfx900",
        &[
            (
                "s_mov_b32 s0, s1, s2",
                "invalid operand for instruction",
                Some(18),
            ),
            // llvm-mc puts the caret of a missing operand at the mnemonic (1:1, or 1:3 after
            // two blanks).
            ("s_mov_b32 s0", "too few operands for instruction", Some(0)),
            (
                "v_add_f32 v0, v1",
                "too few operands for instruction",
                Some(0),
            ),
            ("s_mov_b32", "too few operands for instruction", Some(0)),
            (
                "  v_add_f32 v0, v1,",
                "too few operands for instruction",
                Some(2),
            ),
            (
                "v_mad_f32 v0, v1, v2",
                "too few operands for instruction",
                Some(0),
            ),
            (
                "v_add_f32_dpp v0, v1, v2",
                "too few operands for instruction",
                Some(0),
            ),
            (
                "v_add_f32 v0, v1, v2 foo",
                "invalid operand for instruction",
                Some(21),
            ),
            (
                "s_mov_b32 s0, v1",
                "invalid operand for instruction",
                Some(14),
            ),
            (
                "s_mov_b32 s0, s[4:5]",
                "invalid operand for instruction",
                Some(14),
            ),
            (
                "v_mov_b32 v0, a1",
                "invalid operand for instruction",
                Some(14),
            ),
        ],
    );
}

#[test]
fn register_errors() {
    check(
        "gfx900",
        &[
            (
                "s_mov_b64 s[1:2], s[4:5]",
                "invalid register alignment",
                Some(10),
            ),
            (
                "v_mov_b32 v0, v256",
                "register index is out of range",
                Some(14),
            ),
            (
                "s_mov_b32 s0, s102",
                "register not available on this GPU",
                Some(14),
            ),
            (
                "s_mov_b32 s0, s104",
                "register not available on this GPU",
                Some(14),
            ),
            (
                "s_mov_b32 s0, ttmp16",
                "register index is out of range",
                Some(14),
            ),
            (
                "s_getpc_b64 null",
                "'null' operand is not supported on this GPU",
                Some(12),
            ),
        ],
    );
    // gfx803 has no xnack, so no xnack_mask (llvm-mc -mcpu=gfx803).
    check(
        "gfx803",
        &[(
            "s_mov_b32 s0, xnack_mask_lo",
            "register not available on this GPU",
            Some(14),
        )],
    );
}

#[test]
fn immediate_and_literal_errors() {
    check(
        "gfx900",
        &[
            (
                "s_getreg_b32 s0, 0x10000",
                "invalid immediate: only 16-bit values are legal",
                Some(17),
            ),
            (
                "s_movk_i32 s0, 0x10000",
                "invalid operand for instruction",
                Some(15),
            ),
            (
                "s_mov_b32 s0, 0x100000000",
                "invalid operand for instruction",
                Some(14),
            ),
            (
                "s_add_u32 s0, 0x12345678, 0x12345679",
                "only one unique literal operand is allowed",
                Some(26),
            ),
            (
                "v_add_f32_e64 v0, 1.5, v1",
                "literal operands are not supported",
                Some(18),
            ),
            (
                "v_sqrt_f16_e32 v30, 0x12345678",
                "invalid operand for instruction",
                Some(20),
            ),
            (
                "v_addc_co_u32_e32 v30, vcc, s1, v20, vcc",
                "invalid operand (violates constant bus restrictions)",
                None,
            ),
            (
                "s_set_gpr_idx_mode 0x7fff",
                "invalid immediate: only 4-bit values are legal",
                None,
            ),
        ],
    );
}

#[test]
fn symbolic_operand_errors() {
    check(
        "gfx900",
        &[
            (
                "s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 33)",
                "invalid bitfield width: only values from 1 to 32 are legal",
                None,
            ),
            (
                "s_getreg_b32 s0, hwreg(HW_REG_MODE, 32, 3)",
                "invalid bit offset: only 5-bit values are legal",
                None,
            ),
            (
                "s_getreg_b32 s0, hwreg(64)",
                "invalid hardware register: only 6-bit values are legal",
                None,
            ),
            (
                "s_getreg_b32 s0, hwreg(HW_REG_FOO)",
                "expected a register name or an absolute expression",
                Some(23),
            ),
            (
                "s_getreg_b32 s0, hwreg(HW_REG_XCC_ID)",
                "invalid hardware register: not supported on this GPU",
                Some(23),
            ),
            (
                "s_sendmsg sendmsg(MSG_GS)",
                "missing message operation",
                None,
            ),
            (
                "s_sendmsg sendmsg(MSG_FOO)",
                "expected a message name or an absolute expression",
                Some(18),
            ),
            (
                "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 4)",
                "invalid message stream id",
                None,
            ),
            // llvm-mc points at the value: 1:17, and 1:18 for `vmcnt( 100 )`.
            ("s_waitcnt vmcnt(64)", "too large value for vmcnt", Some(16)),
            (
                "s_waitcnt vmcnt( 100 )",
                "too large value for vmcnt",
                Some(17),
            ),
            (
                "s_waitcnt expcnt(9) & lgkmcnt(0)",
                "too large value for expcnt",
                Some(17),
            ),
            ("s_waitcnt foo(1)", "invalid counter name foo", None),
            (
                "ds_swizzle_b32 v1, v2 offset:swizzle(FOO)",
                "expected a swizzle mode",
                None,
            ),
        ],
    );
}

#[test]
fn memory_errors() {
    check(
        "gfx803",
        &[(
            "buffer_store_format_x v[4:5], v2, s[8:11], s3 offen tfe",
            "TFE modifier has no meaning for store instructions",
            None,
        )],
    );
    check(
        "gfx90a",
        &[(
            "v_exp_f32_e32 v30, src_lds_direct",
            "lds_direct is not supported on this GPU",
            Some(19),
        )],
    );
}

#[test]
fn garbage_never_panics() {
    let t = Target::parse("gfx940", None).unwrap();
    for s in [
        "",
        "(",
        "v_add_f32 v0, |v1",
        "s_mov_b32 s0, 1/0",
        "v_add_f32 v0, v[1:",
        "exp",
        "s_waitcnt vmcnt(",
        "ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,\"0\")",
        "v_mov_b32 v0, -",
        "s_mov_b32 s0, \"x\"",
        "v_pk_add_f16 v0, v1, v2 op_sel:[2,0]",
        "s_load_dword s0, s[0:1], 0x7fffffffffffffff",
        "v_add_f32 v0, ---v1, v2",
        "image_load v[0:3], v0, s[0:7] dmask:0x1f",
        "s_nop 0x10000",
        "v_add_f32 v0, v1, v2 quad_perm:[1,2]",
        "v_mov_b32 v0, 1e400",
        "global_load_dword v1, v[2:3], off offset:99999",
    ] {
        let _ = assemble_instruction(&t, s, &NoSymbols);
    }
}
