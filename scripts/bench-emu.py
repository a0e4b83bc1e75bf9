#!/usr/bin/env python3
"""Speed of the emulator: the same launch descriptions on `gcn run` and on pocl, in one run.

usage: scripts/bench-emu.py [--target gfx900] [--repeat 3] [--threads N] [DESCRIPTION.json ...]

For each description (default: the set below, ALU-bound kernels first) it runs
`gcn run LAUNCH --code-object target/kernels/<target>/<stem>.co --json` and
`/usr/bin/python3 tools/pocl-ref/pocl_run.py LAUNCH --source tests/kernels/<stem>.cl --json`
`--repeat` times each, takes the fastest run of each, and prints per description:
wave-instructions executed, the emulator's execution time and wave-instructions per second,
pocl's execution time, and the ratio emulator / pocl (below 1: the emulator is faster).
Both times leave out loading and compiling: `exec_seconds` of both tools is the time spent in
the launches themselves. The corpus is built first if missing (scripts/build-kernels.sh).
"""

import argparse
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ALU-bound kernels first (long loops over registers), then typical memory-bound ones.
DEFAULT = [
    "tests/launch/control_flow/collatz_steps.json",
    "tests/launch/mandelbrot/mandelbrot_f32.json",
    "tests/launch/hashes/philox4x32_10.json",
    "tests/launch/sha256/sha256_pow.json",
    "tests/launch/int64_math/modexp_mont.json",
    "tests/launch/hashes/murmur3_keys.json",
    "tests/launch/matmul_tiled/sgemm_tiled.json",
    "tests/launch/nbody/nbody_two_steps.json",
    "tests/launch/vector_add/saxpy.json",
    "tests/launch/reduce_sum/reduce_sum_i64_atomic.json",
]


def run_json(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else 'failed'}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("descriptions", nargs="*")
    ap.add_argument("--target", default="gfx900")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=0, help="emulator worker threads (0 = one per core)")
    args = ap.parse_args()
    descs = args.descriptions or [os.path.join(REPO, d) for d in DEFAULT]
    corpus = os.path.join(REPO, "target/kernels")
    if not os.path.exists(os.path.join(corpus, ".complete")):
        subprocess.run(["bash", os.path.join(REPO, "scripts/build-kernels.sh"), corpus], check=True)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "gcnkit-cli"], cwd=REPO, check=True)
    gcn = os.path.join(REPO, "target/release/gcn")
    pocl = os.path.join(REPO, "tools/pocl-ref/pocl_run.py")
    print(f"target {args.target}, best of {args.repeat}, emulator threads {args.threads or os.cpu_count()}")
    print(f"{'description':<42} {'wave-instr':>11} {'emu s':>9} {'Mwi/s':>8} {'pocl s':>9} {'emu/pocl':>9}")
    tot_wi = tot_emu = tot_pocl = 0.0
    for d in descs:
        stem = os.path.basename(os.path.dirname(d))
        name = f"{stem}/{os.path.splitext(os.path.basename(d))[0]}"
        co = os.path.join(corpus, args.target, f"{stem}.co")
        src = os.path.join(REPO, "tests/kernels", f"{stem}.cl")
        try:
            emu = min((run_json([gcn, "run", d, "--code-object", co, "--json", "--threads", str(args.threads),
                                 "--out", "/tmp/gcnkit-bench-emu"]) for _ in range(args.repeat)),
                      key=lambda j: j["exec_seconds"])
        except RuntimeError as e:
            print(f"{name:<42} emulator failed: {e}")
            continue
        try:
            ref = min((run_json(["/usr/bin/python3", pocl, d, "--source", src, "--json",
                                 "--out", "/tmp/gcnkit-bench-pocl"]) for _ in range(args.repeat)),
                      key=lambda j: j["exec_seconds"])
            pocl_s = ref["exec_seconds"]
        except RuntimeError as e:
            pocl_s = float("nan")
            print(f"  (pocl failed: {e})", file=sys.stderr)
        wi, es = emu["wave_instructions"], emu["exec_seconds"]
        rate = wi / es / 1e6 if es > 0 else float("nan")
        ratio = es / pocl_s if pocl_s and pocl_s == pocl_s else float("nan")
        print(f"{name:<42} {wi:>11} {es:>9.4f} {rate:>8.1f} {pocl_s:>9.4f} {ratio:>9.2f}")
        tot_wi += wi
        tot_emu += es
        if pocl_s == pocl_s:
            tot_pocl += pocl_s
    if tot_emu > 0:
        print(f"{'total':<42} {int(tot_wi):>11} {tot_emu:>9.4f} {tot_wi / tot_emu / 1e6:>8.1f} {tot_pocl:>9.4f} "
              f"{tot_emu / tot_pocl if tot_pocl else float('nan'):>9.2f}")


if __name__ == "__main__":
    main()
