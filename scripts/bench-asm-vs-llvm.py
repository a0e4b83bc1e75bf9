#!/usr/bin/env python3
"""Runs `gcn asm -c` and `llvm-mc -filetype=obj` in turn on one large assembly file and prints
throughput (source lines per second), peak memory and the ratios.

usage: scripts/bench-asm-vs-llvm.py [FILE.s] [--mcpu CPU] [--runs N]
Without FILE, the source is `gcn disasm` of the gfx900 rocSPARSE code object with the most
executable bytes (scripts/rocsparse-corpus.sh target/rocsparse; the same file as
scripts/bench-vs-llvm.py), written to target/bench/rocsparse-gfx900.s: over 600,000 lines of
real code, kernel descriptors, metadata and data, which gcn asm turns back into the same code. Builds gcn in release mode first. Both tools write their
object to a file under target/bench; the best of N runs counts, the tools alternating.
"""
import argparse, os, resource, subprocess, sys, time
from pathlib import Path

repo = Path(__file__).resolve().parent.parent
llvm = Path(os.environ.get("LLVM19_BIN", "/usr/lib/llvm-19/bin"))


def text_bytes(path):
    """Bytes of the executable sections of an ELF file."""
    out = subprocess.run([llvm / "llvm-readelf", "-S", "-W", path], capture_output=True,
                         text=True, check=True).stdout
    total = 0
    for line in out.splitlines():
        parts = line.replace("[ ", "[").split()
        if len(parts) > 7 and parts[0].startswith("[") and "X" in parts[7]:
            total += int(parts[5], 16)
    return total


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def peak_rss(cmd):
    """Peak resident memory (KiB) of one run of `cmd`, in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c",
         "import resource,subprocess,sys,os;"
         "subprocess.run(sys.argv[1:],stdout=open(os.devnull,'wb'),check=True);"
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
         *map(str, cmd)],
        capture_output=True, text=True, check=True).stdout.strip()
    return int(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--mcpu", default="gfx900")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "gcnkit-cli"], cwd=repo, check=True)
    gcn = repo / "target/release/gcn"
    bench = repo / "target/bench"
    bench.mkdir(parents=True, exist_ok=True)
    path = Path(args.file) if args.file else None
    if path is None:
        cands = sorted((repo / "target/rocsparse").glob("*gfx900*.co"), key=text_bytes)
        if not cands:
            sys.exit("no FILE given and no gfx900 code object in target/rocsparse "
                     "(run scripts/rocsparse-corpus.sh target/rocsparse)")
        path = bench / "rocsparse-gfx900.s"
        with open(path, "w") as f:
            subprocess.run([gcn, "disasm", "--max-warnings", "0", cands[-1]], stdout=f, check=True)
    lines = sum(1 for _ in open(path, errors="replace"))
    # llvm-mc insists that -mcpu/-mattr match the source's .amdgcn_target line.
    mcpu, mattr = args.mcpu, ""
    for line in open(path, errors="replace"):
        if ".amdgcn_target" in line and "--" in line:
            parts = line.split("--", 1)[1].strip().strip('"').split(":")
            mcpu = parts[0]
            mattr = ",".join(("+" if f.endswith("+") else "-") + f[:-1] for f in parts[1:])
            break
    features = [f"-mattr={mattr}"] if mattr else []
    llvm_cmd = [llvm / "llvm-mc", "-triple=amdgcn-amd-amdhsa", f"-mcpu={mcpu}", *features,
                "-filetype=obj", path, "-o", bench / "llvm.o"]
    gcn_cmd = [gcn, "asm", f"--mcpu={mcpu}", *[f"--mattr={mattr}"] * bool(mattr), "-c", path,
               "-o", bench / "gcn.o"]
    llvm_t = gcn_t = None
    for _ in range(args.runs):
        t = timed(llvm_cmd)
        llvm_t = t if llvm_t is None else min(llvm_t, t)
        t = timed(gcn_cmd)
        gcn_t = t if gcn_t is None else min(gcn_t, t)
    llvm_rss, gcn_rss = peak_rss(llvm_cmd), peak_rss(gcn_cmd)
    print(f"file: {path}")
    print(f"lines: {lines}")
    print(f"llvm-mc-19:  {llvm_t:8.3f} s  {lines / llvm_t:10.0f} lines/s  peak {llvm_rss / 1024:7.1f} MiB")
    print(f"gcn asm -c:  {gcn_t:8.3f} s  {lines / gcn_t:10.0f} lines/s  peak {gcn_rss / 1024:7.1f} MiB")
    print(f"throughput ratio (gcn / llvm-mc): {llvm_t / gcn_t:.1f}x")
    print(f"peak memory ratio (gcn / llvm-mc): {gcn_rss / llvm_rss:.2f}")


if __name__ == "__main__":
    main()
