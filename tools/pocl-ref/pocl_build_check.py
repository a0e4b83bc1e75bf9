#!/usr/bin/python3
"""Build every tests/kernels/*.cl on pocl with gcn.h's pocl branch and the options pocl_run.py
uses, and print a Markdown table: which files build, and for the others what stops them (the
AMD-only builtins or gcn.h helpers named in the build errors).

usage: pocl_build_check.py [K.cl ...]      (default: every tests/kernels/*.cl)
Exit status 0 always unless pocl itself is missing: a file that does not build is a finding,
not a failure of this tool.
"""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pocl_run  # noqa: E402


HALF = "half arithmetic (pocl's CPU device has no cl_khr_fp16)"


def reasons(log):
    """Short reasons from a pocl build log: the AMD-only builtins and gcn.h helpers that are
    undeclared, half arithmetic, or else the first error messages."""
    names, other, half = [], [], False
    for line in log.splitlines():
        if "error:" not in line:
            continue
        msg = line.split("error:", 1)[1].strip()
        msg = re.sub(r"^\S+:\d+:\d+(?: <Spelling=[^>]*>)?: ", "", msg)
        m = re.search(r"(?:undeclared (?:function|identifier)|unknown type name) '([^']+)'", msg)
        if re.search(r"\bhalf\b|fp16", msg):
            half = True
        elif m:
            if f"`{m.group(1)}`" not in names:
                names.append(f"`{m.group(1)}`")
        elif msg not in other:
            other.append(msg)
    if half:
        # Declarations that failed on half leave their variables undeclared: only the names
        # that come from AMDGCN or gcn.h are worth listing then.
        names = [n for n in names if re.match(r"`(__builtin_amdgcn_|gcn_|GCN_)", n)]
        other = []
    return ([HALF] if half else []) + names + other


def main(argv):
    import pyopencl as cl

    files = [Path(a) for a in argv] or sorted(pocl_run.HEADER_DIR.glob("*.cl"))
    ctx, dev = pocl_run.pocl_context(cl)
    print(f"pocl device: {dev.name}; options: {' '.join(pocl_run.BASE_BUILD_OPTIONS)} -I tests/kernels\n")
    print("| file | builds on pocl | why not |")
    print("|---|---|---|")
    ok = 0
    for f in files:
        prg, log = pocl_run.compile_source(cl, ctx, f, pocl_run.build_options(f, []))
        if prg is not None:
            ok += 1
            names = sorted(k.function_name for k in prg.all_kernels())
            print(f"| {f.name} | yes ({len(names)} kernels) | |")
        else:
            why = reasons(log)
            text = "; ".join(why[:6]) + ("; ..." if len(why) > 6 else "")
            print(f"| {f.name} | no | {text.replace('|', '/')} |")
    print(f"\n{ok} of {len(files)} files build on pocl.")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except pocl_run.RunError as e:
        print(f"pocl_build_check: error: {e.args[0]}", file=sys.stderr)
        sys.exit(1)
