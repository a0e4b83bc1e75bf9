#!/usr/bin/env python3
"""Measure `gcn asm` / `gcn disasm` against LLVM's own MC tests, with llvm-mc-19 as the oracle.

Given a directory holding LLVM's llvm/test/MC/AMDGPU and llvm/test/MC/Disassembler/AMDGPU test files (a
checkout of llvm-project at llvmorg-19.1.0, or a copy of some of its files), this takes every RUN line that
runs llvm-mc for one of gcnkit's processors, runs every statement of the file through llvm-mc-19 and
through gcnkit, and counts agreement:

  assembler (.s files, RUN lines without -disassemble), one case per (cpu, mattr, statement):
    ok-bytes       llvm-mc accepts, gcn gives the same bytes
    bytes-differ   both accept, different bytes
    gcn-rejects    llvm-mc accepts, gcn refuses
    gcn-accepts    llvm-mc refuses, gcn accepts
    both-reject    both refuse (the message and column are compared too, for information)
  disassembler (.txt files, RUN lines with -disassemble), one case per (cpu, mattr, byte line):
    gfx8+: llvm-mc -disassemble and gcn disasm --hex must print the same text (or both refuse the bytes);
    gfx6/gfx7 (llvm-mc-19 cannot disassemble them): gcn's text must assemble with llvm-mc-19 to the
    same bytes.

The LLVM test files themselves are not part of this repository (see NOTES-llvm-mc-tests.md for how to get
them). The expected results written in their CHECK lines are not used: llvm-mc-19 is run live.

Statements are batched per (file, cpu, mattr): llvm-mc and gcn report errors as `<stdin>:LINE:COL: error:`
and carry on, and print one `; encoding:` line per accepted statement in order; gcn prints no listing when
any line fails, so it is run a second time with the failing lines blanked. When the counts do not line up,
that batch falls back to one process per statement.

Usage:
  tools/probe/llvm_mc_tests.py --tests /tmp/llvm-mc-tests --gcn /tmp/gcn-main \
      --report /tmp/survey/report-auto.md --tsv /tmp/survey/disagreements.tsv [-j 2]
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

LLVM_MC = "/usr/lib/llvm-19/bin/llvm-mc"
TRIPLE = "amdgcn-amd-amdhsa"

# Processor names gcnkit serves (llvm-mc's spellings); the old generation names map to one member.
OUR_CPUS = set(
    """gfx600 gfx601 gfx602 tahiti pitcairn verde oland hainan gfx700 gfx701 gfx702 gfx703 gfx704 gfx705
    bonaire kaveri hawaii kabini mullins gfx801 gfx802 gfx803 gfx805 gfx810 tonga fiji polaris10 polaris11
    stoney carrizo iceland topaz gfx900 gfx902 gfx904 gfx906 gfx908 gfx909 gfx90a gfx90c gfx940 gfx941
    gfx942""".split()
)
CPU_ALIASES = {"SI": "tahiti", "CI": "bonaire", "VI": "tonga", "": "gfx600", "generic": "gfx600"}
GFX67 = set(
    """gfx600 gfx601 gfx602 tahiti pitcairn verde oland hainan gfx700 gfx701 gfx702 gfx703 gfx704 gfx705
    bonaire kaveri hawaii kabini mullins""".split()
)

ERR_RE = re.compile(r"^<stdin>:(\d+):(\d+): error: (.*)$")
WARN_RE = re.compile(r"^<stdin>:(\d+):(\d+): warning: (.*)$")
ENC_RE = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")
HEX_LINE_RE = re.compile(r"^\s*(0x[0-9a-fA-F]{1,2}([\s,]+0x[0-9a-fA-F]{1,2})*)\s*$")


def run(cmd, text, timeout=600):
    """Runs `cmd` with `text` on stdin; returns (returncode, stdout, stderr)."""
    try:
        p = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timeout"


# --------------------------------------------------------------------------------------------------
# RUN lines


def run_lines(text):
    """The RUN commands of a test file, continuation lines joined."""
    cmds, cur = [], None
    for line in text.splitlines():
        m = re.search(r"\bRUN:(.*)$", line)
        if not m:
            if cur is not None:
                cmds.append(cur)
                cur = None
            continue
        part = m.group(1).strip()
        if cur is None:
            cur = ""
        if part.endswith("\\"):
            cur += part[:-1] + " "
        else:
            cur += part
            cmds.append(cur)
            cur = None
    if cur is not None:
        cmds.append(cur)
    return cmds


def configs_of(text):
    """(mode, cpu, mattr) for each RUN line that runs llvm-mc for one of our processors.

    mode is "asm" or "dis". Returns (configs, skipped RUN lines with the reason)."""
    configs, skipped = [], []
    for cmd in run_lines(text):
        # Only the first command of a pipeline is llvm-mc on the test file.
        first = cmd.split("|")[0]
        if "llvm-mc" not in first:
            continue
        if re.search(r"(-arch|-triple)[= ]*r600", first) or "-mcpu=r600" in first:
            skipped.append((cmd, "r600"))
            continue
        if "--defsym" in first or "-defsym" in first:
            skipped.append((cmd, "--defsym"))
            continue
        m = re.search(r"-mcpu[= ]+([\w.-]+)", first)
        cpu = m.group(1) if m else ""
        t = re.search(r"-triple[= ]+amdgpu(\d+)\.(\w+)", first)
        if not m and t:
            # Newer LLVM spells the processor in the triple: amdgpu8.02 is gfx802, amdgpu9.0a gfx90a.
            cpu = "gfx" + t.group(1) + t.group(2)
        cpu = CPU_ALIASES.get(cpu, cpu)
        if cpu not in OUR_CPUS:
            skipped.append((cmd, "cpu " + cpu))
            continue
        m = re.search(r"-mattr[= ]+(\S+)", first)
        mattr = m.group(1).strip("'\"") if m else ""
        if "wavefrontsize32" in mattr.replace("-wavefrontsize32", ""):
            skipped.append((cmd, "wave32"))
            continue
        mode = "dis" if re.search(r"--?disassemble", first) else "asm"
        if mode == "asm" and "-filetype=obj" in first and "-show-encoding" not in first:
            # Same statements, assembled to an object: the listing compares the same bytes.
            pass
        conf = (mode, cpu, mattr)
        if conf not in configs:
            configs.append(conf)
    return configs, skipped


# --------------------------------------------------------------------------------------------------
# Statements


def strip_comment(line):
    """The line without its `//` or `;` comment (AMDGPU assembly comments)."""
    out, i, quote = [], 0, False
    while i < len(line):
        c = line[i]
        if c == '"':
            quote = not quote
        if not quote and (line.startswith("//", i) or c == ";"):
            break
        out.append(c)
        i += 1
    return "".join(out).rstrip()


def asm_lines(text):
    """Each line of the file classified: (kind, text), kind one of "stmt", "ctx" (directives, labels,
    assignments: kept in the input for both tools but not counted) and "" (blank or comment)."""
    res = []
    for raw in text.splitlines():
        if "RUN:" in raw:
            res.append(("", ""))
            continue
        s = strip_comment(raw).strip()
        if not s or s.startswith("#"):
            res.append(("", ""))
        elif s.startswith(".") or re.match(r"^[\w.$]+\s*:$", s) or re.match(r"^[\w.$]+\s*=", s):
            res.append(("ctx", s))
        else:
            res.append(("stmt", s))
    return res


def parse_errors(stderr, which=ERR_RE):
    errs = {}
    for line in stderr.splitlines():
        m = which.match(line)
        if m:
            ln = int(m.group(1))
            if ln not in errs:
                errs[ln] = (int(m.group(2)), m.group(3).strip())
    return errs


def encodings(stdout):
    """(text, encoding) of each encoded line of a listing, in order."""
    res = []
    for line in stdout.splitlines():
        m = ENC_RE.match(line)
        if m:
            res.append((m.group(1).strip(), m.group(2).strip()))
    return res


def llvm_cmd(cpu, mattr, extra):
    cmd = [LLVM_MC, "-triple=" + TRIPLE, "-mcpu=" + cpu] + extra
    if mattr:
        cmd.append("-mattr=" + mattr)
    return cmd


def gcn_asm_cmd(gcn, cpu, mattr):
    cmd = [gcn, "asm", "--mcpu=" + cpu, "--show-encoding", "-"]
    if mattr:
        cmd[3:3] = ["--mattr=" + mattr]
    return cmd


def assemble_batch(cmd, lines, two_pass):
    """Assembles `lines` (list of (kind, text)) with one process; returns {line number: result} for the
    "stmt" lines, result = ("ok", encoding, text) or ("err", col, message), or None if the listing does not
    line up with the statements."""
    src = "\n".join(t for _, t in lines) + "\n"
    rc, out, err = run(cmd, src)
    errs = parse_errors(err)
    if two_pass and errs:
        blanked = [("", "") if (i + 1) in errs else lt for i, lt in enumerate(lines)]
        src2 = "\n".join(t for _, t in blanked) + "\n"
        rc, out, err2 = run(cmd, src2)
        if parse_errors(err2):
            return None
    elif rc != 0 and not errs:
        return None
    encs = encodings(out)
    stmts = [i + 1 for i, (k, _) in enumerate(lines) if k == "stmt" and (i + 1) not in errs]
    if len(encs) != len(stmts):
        return None
    res = {}
    for ln, (txt, enc) in zip(stmts, encs):
        res[ln] = ("ok", enc, txt)
    for ln, (col, msg) in errs.items():
        if ln <= len(lines) and lines[ln - 1][0] == "stmt":
            res[ln] = ("err", col, msg)
    return res


def assemble_each(cmd, lines):
    """One process per statement, with the file's context lines before it."""
    ctx = [lt for lt in lines if lt[0] == "ctx"]
    res = {}
    for i, (k, t) in enumerate(lines):
        if k != "stmt":
            continue
        one = ctx + [("stmt", t)]
        r = assemble_batch(cmd, one, False)
        if r is None or len(one) not in r:
            rc, out, err = run(cmd, "\n".join(x for _, x in one) + "\n")
            r = {len(one): ("err", 0, "(no listing) " + (err.strip().splitlines() or ["?"])[0])}
        res[i + 1] = r[len(one)]
    return res


def assemble(cmd, lines, two_pass):
    r = assemble_batch(cmd, lines, two_pass)
    if r is None:
        r = assemble_each(cmd, lines)
    return r


# --------------------------------------------------------------------------------------------------
# Disassembler


def hex_lines(text):
    """(line number, list of byte strings) of each byte line of a disassembler test."""
    res = []
    for i, raw in enumerate(text.splitlines()):
        if "RUN:" in raw:
            continue
        s = raw
        for c in ("#", "//", ";"):
            k = s.find(c)
            if k >= 0:
                s = s[:k]
        s = s.strip()
        if not s:
            continue
        m = HEX_LINE_RE.match(s)
        if m:
            res.append((i + 1, [b.lower() for b in re.findall(r"0x[0-9a-fA-F]{1,2}", s)]))
    return res


def norm_byte(b):
    return "0x%02x" % int(b, 16)


def llvm_disasm(cpu, mattr, items):
    """{index: ("ok", [texts]) or ("err", message)} for the byte lines, batched; per line on misalignment."""
    cmd = llvm_cmd(cpu, mattr, ["-disassemble", "-show-encoding"])
    src = "\n".join(",".join(b) for _, b in items) + "\n"
    rc, out, err = run(cmd, src)
    warns = parse_errors(err, WARN_RE)
    errs = parse_errors(err)
    encs = encodings(out)
    res, k, ok = {}, 0, True
    for idx, (_, bytes_) in enumerate(items):
        ln = idx + 1
        if ln in errs or ln in warns:
            res[idx] = ("err", (errs.get(ln) or warns.get(ln))[1])
            continue
        want = [norm_byte(b) for b in bytes_]
        got, texts = [], []
        while len(got) < len(want) and k < len(encs):
            texts.append(encs[k][0])
            got += [norm_byte(x.strip()) for x in encs[k][1].split(",") if x.strip()]
            k += 1
        if got != want:
            ok = False
            break
        res[idx] = ("ok", texts)
    if ok and k == len(encs):
        return res
    res = {}
    for idx, (_, bytes_) in enumerate(items):
        rc, out, err = run(cmd, ",".join(bytes_) + "\n")
        encs = encodings(out)
        w = parse_errors(err, WARN_RE) or parse_errors(err)
        if w or not encs:
            res[idx] = ("err", (list(w.values())[0][1] if w else "no output"))
        else:
            res[idx] = ("ok", [t for t, _ in encs])
    return res


def gcn_disasm(gcn, cpu, mattr, items):
    """{index: ("ok", text) or ("err", text)}: gcn prints one line per byte line."""
    cmd = [gcn, "disasm", "--hex", "--mcpu", cpu, "--max-warnings", "0", "-"]
    if mattr:
        cmd[4:4] = ["--mattr", mattr]
    src = "\n".join(",".join(b) for _, b in items) + "\n"
    rc, out, err = run(cmd, src)
    outs = [l.strip() for l in out.splitlines() if l.strip()]
    if rc != 0 or len(outs) != len(items):
        outs = []
        for _, b in items:
            rc, o, e = run(cmd, ",".join(b) + "\n")
            o = [l.strip() for l in o.splitlines() if l.strip()]
            outs.append(o[0] if o and rc == 0 else "(gcn failed: %s)" % (e.strip().splitlines() or ["?"])[0])
    res = {}
    for idx, t in enumerate(outs):
        bad = t.startswith((".long", ".short", ".byte", "(gcn failed"))
        res[idx] = ("err" if bad else "ok", t)
    return res


def norm_text(t):
    return re.sub(r"\s+", " ", t.strip())


# --------------------------------------------------------------------------------------------------
# Driver


def job_asm(args, path, rel, cpu, mattr, text):
    lines = asm_lines(text)
    if not any(k == "stmt" for k, _ in lines):
        return []
    lres = assemble(llvm_cmd(cpu, mattr, ["-show-encoding"]), lines, False)
    gres = assemble(gcn_asm_cmd(args.gcn, cpu, mattr), lines, True)
    cases = []
    for i, (k, t) in enumerate(lines):
        if k != "stmt":
            continue
        ln = i + 1
        l, g = lres.get(ln, ("err", 0, "?")), gres.get(ln, ("err", 0, "?"))
        if l[0] == "ok" and g[0] == "ok":
            kind = "ok-bytes" if norm_bytes(l[1]) == norm_bytes(g[1]) else "bytes-differ"
        elif l[0] == "ok":
            kind = "gcn-rejects"
        elif g[0] == "ok":
            kind = "gcn-accepts"
        else:
            kind = "both-reject"
        cases.append(
            {
                "mode": "asm",
                "file": rel,
                "line": ln,
                "cpu": cpu,
                "mattr": mattr,
                "stmt": t,
                "kind": kind,
                "llvm": fmt_asm(l),
                "gcn": fmt_asm(g),
                "same_msg": l[0] == "err" and g[0] == "err" and l[1:] == g[1:],
            }
        )
    return cases


def norm_bytes(enc):
    return ",".join(x.strip().lower() for x in enc.split(","))


def fmt_asm(r):
    if r[0] == "ok":
        return "[%s] %s" % (r[1], r[2])
    return "error col %s: %s" % (r[1], r[2])


def job_dis(args, path, rel, cpu, mattr, text):
    items = hex_lines(text)
    if not items:
        return []
    g = gcn_disasm(args.gcn, cpu, mattr, items)
    cases = []
    if cpu in GFX67:
        # llvm-mc-19 cannot disassemble gfx6/gfx7: gcn's text must assemble back to the same bytes.
        lines = [("stmt", g[i][1]) if g[i][0] == "ok" else ("", "") for i in range(len(items))]
        back = assemble(llvm_cmd(cpu, mattr, ["-show-encoding"]), lines, False) if any(lines) else {}
        for i, (ln, b) in enumerate(items):
            want = ",".join(norm_byte(x) for x in b)
            if g[i][0] != "ok":
                # Unverifiable: llvm-mc-19 cannot say whether these bytes are an instruction.
                kind, lt = "gcn-rejects-unverified", "(not assembled)"
            else:
                r = back.get(i + 1, ("err", 0, "?"))
                lt = fmt_asm(r)
                if r[0] == "ok" and norm_bytes(r[1]) == want:
                    kind = "roundtrip-ok"
                elif r[0] == "ok":
                    kind = "roundtrip-bytes-differ"
                else:
                    kind = "roundtrip-llvm-rejects"
            cases.append(
                {"mode": "dis67", "file": rel, "line": ln, "cpu": cpu, "mattr": mattr, "stmt": want,
                 "kind": kind, "llvm": lt, "gcn": g[i][1], "same_msg": False}
            )
        return cases
    l = llvm_disasm(cpu, mattr, items)
    for i, (ln, b) in enumerate(items):
        lr, gr = l[i], g[i]
        if lr[0] == "ok" and gr[0] == "ok":
            same = norm_text(lr[1][0]) == norm_text(gr[1])
            kind = "ok-text" if same else "text-differs"
            if same and len(lr[1]) > 1:
                kind = "multi-insn-line"
        elif lr[0] == "ok":
            kind = "gcn-rejects"
        elif gr[0] == "ok":
            kind = "gcn-accepts"
        else:
            kind = "both-reject"
        cases.append(
            {"mode": "dis", "file": rel, "line": ln, "cpu": cpu, "mattr": mattr,
             "stmt": ",".join(norm_byte(x) for x in b), "kind": kind,
             "llvm": " | ".join(lr[1]) if lr[0] == "ok" else "error: " + lr[1], "gcn": gr[1], "same_msg": False}
        )
    return cases


AGREE = {"ok-bytes", "both-reject", "ok-text", "roundtrip-ok"}


def main():
    global LLVM_MC
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tests", required=True, help="directory holding llvm/test/MC/AMDGPU (and Disassembler) files")
    ap.add_argument("--gcn", required=True, help="the gcn binary")
    ap.add_argument("--report", required=True, help="output report (markdown)")
    ap.add_argument("--tsv", help="output: every disagreement, one per line")
    ap.add_argument("--llvm-mc", default="/usr/lib/llvm-19/bin/llvm-mc")
    ap.add_argument("-j", type=int, default=1, help="parallel jobs (default 1)")
    args = ap.parse_args()
    LLVM_MC = args.llvm_mc

    jobs, skipped_runs, files = [], [], 0
    for root, _, names in os.walk(args.tests):
        for n in sorted(names):
            if not (n.endswith(".s") or n.endswith(".txt")):
                continue
            path = os.path.join(root, n)
            rel = os.path.relpath(path, args.tests)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            confs, sk = configs_of(text)
            skipped_runs += [(rel, c, why) for c, why in sk]
            if confs:
                files += 1
            for mode, cpu, mattr in confs:
                if mode == "asm" and n.endswith(".s"):
                    jobs.append((job_asm, path, rel, cpu, mattr, text))
                elif mode == "dis" and n.endswith(".txt"):
                    jobs.append((job_dis, path, rel, cpu, mattr, text))

    cases, seen = [], set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as ex:
        futs = [ex.submit(fn, args, path, rel, cpu, mattr, text) for fn, path, rel, cpu, mattr, text in jobs]
        for n, fut in enumerate(futs):
            for c in fut.result():
                key = (c["mode"], c["cpu"], c["mattr"], c["stmt"])
                if key in seen:
                    continue  # the same statement for the same processor in several files counts once
                seen.add(key)
                cases.append(c)
            print("\r%d/%d batches" % (n + 1, len(futs)), end="", file=sys.stderr)
    print(file=sys.stderr)
    write_report(args, cases, files, len(jobs), skipped_runs)


def write_report(args, cases, files, batches, skipped_runs):
    def fig(name, sel):
        n = len(sel)
        a = sum(1 for c in sel if c["kind"] in AGREE)
        return "| %s | %d | %d | %s |" % (name, n, a, ("%.2f%%" % (100.0 * a / n)) if n else "-")

    asm = [c for c in cases if c["mode"] == "asm"]
    acc = [c for c in asm if c["kind"] in ("ok-bytes", "bytes-differ", "gcn-rejects")]
    rej = [c for c in asm if c["kind"] in ("gcn-accepts", "both-reject")]
    dis = [c for c in cases if c["mode"] == "dis"]
    dis67 = [c for c in cases if c["mode"] == "dis67"]
    out = ["# gcnkit against LLVM's MC tests (llvm-mc-19 live)", ""]
    out.append("%d test files with RUN lines for our processors, %d (file, cpu, mattr) batches, %d cases "
               "(duplicates across files counted once)." % (files, batches, len(cases)))
    out += ["", "| measure | cases | agreeing | % |", "| --- | --- | --- | --- |"]
    out.append(fig("asm: statements llvm-mc accepts (same bytes)", acc))
    out.append(fig("asm: statements llvm-mc rejects (gcn rejects too)", rej))
    out.append(fig("disasm gfx8+: byte lines (same text, or both refuse)", dis))
    out.append(fig("disasm gfx6/7: gcn text re-assembles to the same bytes", dis67))
    both = [c for c in rej if c["kind"] == "both-reject"]
    if both:
        same = sum(1 for c in both if c["same_msg"])
        out.append("")
        out.append("Both reject: %d; of these, same message and column: %d (%.2f%%)."
                   % (len(both), same, 100.0 * same / len(both)))
    kinds = collections.Counter((c["mode"], c["kind"]) for c in cases)
    out += ["", "## Counts by kind", ""] + ["- %s %s: %d" % (m, k, n) for (m, k), n in sorted(kinds.items())]
    bad = [c for c in cases if c["kind"] not in AGREE]
    groups = collections.defaultdict(list)
    for c in bad:
        groups[group_key(c)].append(c)
    out += ["", "## Disagreements by automatic group (%d cases, %d groups)" % (len(bad), len(groups)), ""]
    for key, cs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        out.append("### %s -- %d" % (" / ".join(key), len(cs)))
        for c in cs[:4]:
            out.append("- `%s` `%s`  \n  llvm: `%s`  \n  gcn: `%s`  \n  (%s:%d)"
                       % (c["cpu"] + (" " + c["mattr"] if c["mattr"] else ""), c["stmt"], c["llvm"], c["gcn"],
                          c["file"], c["line"]))
        out.append("")
    # Both reject but with another message or column: not counted as disagreement, listed for information.
    diff_msg = collections.defaultdict(list)
    for c in both:
        if not c["same_msg"]:
            diff_msg[re.sub(r"\d+", "N", c["llvm"].split(": ", 1)[-1])[:60]].append(c)
    if diff_msg:
        out += ["## Both reject, different message or column (%d)" % sum(len(v) for v in diff_msg.values()), ""]
        for key, cs in sorted(diff_msg.items(), key=lambda kv: -len(kv[1])):
            out.append("### llvm-mc: %s -- %d" % (key, len(cs)))
            for c in cs[:3]:
                out.append("- `%s` `%s`  \n  llvm: `%s`  \n  gcn: `%s`" % (c["cpu"], c["stmt"], c["llvm"], c["gcn"]))
            out.append("")
    if skipped_runs:
        why = collections.Counter(w.split()[0] for _, _, w in skipped_runs)
        out += ["## RUN lines not used", ""] + ["- %s: %d" % kv for kv in sorted(why.items())]
    os.makedirs(os.path.dirname(os.path.abspath(args.report)), exist_ok=True)
    with open(args.report, "w") as f:
        f.write("\n".join(out) + "\n")
    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("mode\tkind\tcpu\tmattr\tstatement\tllvm-mc\tgcn\tfile:line\n")
            for c in bad:
                f.write("\t".join([c["mode"], c["kind"], c["cpu"], c["mattr"], c["stmt"], c["llvm"], c["gcn"],
                                   "%s:%d" % (c["file"], c["line"])]).replace("\n", " ") + "\n")
    print("\n".join(out[:12]))


def group_key(c):
    """A rough group: kind, first word of the statement (or the gcn text), and llvm-mc's message."""
    mn = c["stmt"].split()[0] if c["mode"] == "asm" else (c["llvm"].split() or ["?"])[0]
    fam = re.sub(r"_(e32|e64|sdwa|dpp)$", "", mn)
    fam = re.sub(r"_[a-z]?\d+(_[a-z]?\d+)*$", "", fam)
    if c["kind"] in ("gcn-accepts", "both-reject"):
        msg = re.sub(r"\d+", "N", c["llvm"].split(": ", 1)[-1])[:60]
        return (c["mode"], c["kind"], msg)
    if c["kind"] == "gcn-rejects" and c["mode"] == "asm":
        msg = re.sub(r"\d+", "N", c["gcn"].split(": ", 1)[-1])[:60]
        return (c["mode"], c["kind"], fam, msg)
    return (c["mode"], c["kind"], fam)


if __name__ == "__main__":
    main()
