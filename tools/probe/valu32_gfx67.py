"""gfx6/gfx7 probe: LLVM 19 cannot disassemble them, so candidate statements are assembled
(-mcpu=tahiti / bonaire) and the opcode is read back from the encoding."""
import re, sys
from valu32_llvm import assemble

CPU = {"gfx6": "tahiti", "gfx7": "bonaire"}
EXTRA = {
    "VOP1": "v_nop v_clrexcp v_movreld_b32 v_movrels_b32 v_movrelsd_b32 v_mov_fed_b32 v_log_clamp_f32 "
            "v_rcp_clamp_f32 v_rcp_legacy_f32 v_rsq_clamp_f32 v_rsq_legacy_f32 v_rcp_clamp_f64 v_rsq_clamp_f64 "
            "v_log_legacy_f32 v_exp_legacy_f32 v_readfirstlane_b32",
    "VOP2": "v_readlane_b32 v_writelane_b32 v_mac_legacy_f32 v_min_legacy_f32 v_max_legacy_f32 v_lshr_b32 "
            "v_ashr_i32 v_lshl_b32 v_bfm_b32 v_bcnt_u32_b32 v_mbcnt_lo_u32_b32 v_mbcnt_hi_u32_b32 v_add_i32 "
            "v_sub_i32 v_subrev_i32 v_addc_u32 v_subb_u32 v_subbrev_u32 v_ldexp_f32 v_cvt_pkaccum_u8_f32 "
            "v_cvt_pknorm_i16_f32 v_cvt_pknorm_u16_f32 v_cvt_pkrtz_f16_f32 v_cvt_pk_u16_u32 v_cvt_pk_i16_i32 "
            "v_madmk_f32 v_madak_f32 v_mac_f32 v_cndmask_b32",
}
FC = "f lt eq le gt lg ge o u nge nlg ngt nle neq nlt tru".split()
IC = "f lt eq le gt ne ge t".split()
VOPC = ["v_%s_%s_%s" % (p, c, t) for p in ("cmp", "cmpx", "cmps", "cmpsx") for c in FC for t in ("f32", "f64")]
VOPC += ["v_%s_%s_%s" % (p, c, t) for p in ("cmp", "cmpx") for c in IC for t in ("i32", "u32", "i64", "u64")]
VOPC += ["v_cmp_class_f32", "v_cmp_class_f64", "v_cmpx_class_f32", "v_cmpx_class_f64"]

D1, D2 = "v30", "v[30:31]"
A1, A2 = "v10", "v[10:11]"
B1, B2 = "v20", "v[20:21]"
OPS = {
    "VOP1": ["%s, %s" % (d, a) for d in (D1, D2) for a in (A1, A2)] + ["s30, v10", ""],
    "VOP2": ["%s, %s, %s" % (d, a, b) for d in (D1, D2) for a in (A1, A2) for b in (B1, B2)] +
            ["v30, vcc, v10, v20", "v30, vcc, v10, v20, vcc", "v30, v10, v20, vcc", "s30, v10, s20",
             "v30, s10, s20", "v30, s10, m0", "v30, v10, 0x11223344, v20", "v30, v10, v20, 0x11223344"],
    "VOPC": ["vcc, v10, v20", "vcc, v[10:11], v[20:21]", "vcc, v[10:11], v20"],
}

def enc_family(bs):
    w = bs[0] | bs[1] << 8 | bs[2] << 16 | bs[3] << 24
    if w >> 25 == 0x3F: return "VOP1", (w >> 9) & 0xff
    if w >> 25 == 0x3E: return "VOPC", (w >> 17) & 0xff
    if w >> 31 == 0: return "VOP2", (w >> 25) & 0x3f
    if w >> 26 == 0x34: return "VOP3", (w >> 17) & 0x1ff
    return "?", None

def to_e64(stmt, fam):
    m, _, rest = stmt.partition(" ")
    m = re.sub(r"_e32$", "", m) + "_e64"
    if fam == "VOPC":
        rest = rest.replace("vcc", "s[30:31]", 1)
    elif m.startswith("v_cndmask"):
        rest = rest.replace("vcc", "s[40:41]")
    else:
        rest = rest.replace("vcc", "s[0:1]", 1).replace("vcc", "s[40:41]", 1)
    return (m + " " + rest).strip()

def probe_gfx67(rows):
    from valu32_probe import roles_of, base
    names = {f: set(EXTRA.get(f, "").split()) for f in ("VOP1", "VOP2", "VOPC")}
    names["VOPC"] |= set(VOPC)
    for r in rows.values():
        names[r["fam"]].add(r["name"])
    res = {}
    for gen, cpu in CPU.items():
        out = []
        # e32 discovery: try all operand shapes, with and without _e32
        cands = []
        for fam in ("VOP1", "VOP2", "VOPC"):
            for n in sorted(names[fam]):
                for suf in ("_e32", ""):
                    for o in OPS[fam]:
                        cands.append((fam, n, (n + suf + " " + o).strip()))
        got = assemble(cpu, [c[2] for c in cands])
        found = {}
        for (fam, n, s), (t, bs) in zip(cands, got):
            if t is None or (fam, n) in found:
                continue
            ef, op = enc_family(bs)
            if ef != fam:
                continue
            found[(fam, n)] = (s, t, bs, op)
        e64s = [(k, to_e64(v[1], k[0])) for k, v in found.items()]
        got64 = assemble(cpu, [s for _, s in e64s])
        for (k, s64), (t64, bs64) in zip(e64s, got64):
            fam, n = k
            s, t, bs, op = found[k]
            forms = {"e32": s}
            if t64 is not None:
                ef, op3 = enc_family(bs64)
                exp = op + {"VOPC": 0, "VOP2": 0x100, "VOP1": 0x180}[fam]
                if ef == "VOP3" and op3 == exp:
                    forms["e64"] = s64
                else:
                    print("WARN %s %s e64 op %s expected %s" % (gen, n, op3, exp), file=sys.stderr)
            src = t64 if "e64" in forms else t
            roles = roles_of(src, fam, "e64")
            out.append({"fam": fam, "name": base(t), "op": op, "roles": roles, "forms": set(forms), "stmts": forms})
        res[gen] = out
        print(gen, len(out), "instructions", file=sys.stderr)
    return res
