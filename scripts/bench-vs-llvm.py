#!/usr/bin/env python3
"""Runs `gcn disasm --llvm-objdump` and `llvm-objdump -d` in turn on one code object and prints
throughput (MB/s of executable section bytes), peak memory and the ratios.

usage: scripts/bench-vs-llvm.py [FILE] [--runs N]
FILE defaults to the gfx900 code object with the most executable bytes in target/rocsparse (scripts/rocsparse-corpus.sh).
Builds gcn in release mode first. Both tools write to /dev/null; the best of N runs counts.
"""
import argparse, os, resource, subprocess, sys, time
from pathlib import Path

repo = Path(__file__).resolve().parent.parent
llvm = Path(os.environ.get("LLVM19_BIN", "/usr/lib/llvm-19/bin"))


def text_bytes(path):
    out = subprocess.run([llvm / "llvm-readelf", "-S", "-W", path], capture_output=True, text=True, check=True).stdout
    total = 0
    for line in out.splitlines():
        parts = line.replace("[ ", "[").split()
        # [Nr] Name Type Address Off Size ES Flg ...
        if len(parts) > 7 and parts[0].startswith("[") and "X" in parts[7]:
            total += int(parts[5], 16)
    return total


def measure(cmd, runs):
    best = None
    peak = 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        with open(os.devnull, "wb") as devnull:
            subprocess.run(cmd, stdout=devnull, check=True)
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = elapsed if best is None else min(best, elapsed)
        peak = max(peak, after.ru_maxrss)  # KiB; the maximum over all children so far
        del before
    return best, peak


def peak_rss(cmd):
    """Peak resident memory (KiB) of one run of `cmd`, measured in a fresh process so that no
    other child (such as the cargo build) counts."""
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
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    path = args.file
    if path is None:
        cands = sorted((repo / "target/rocsparse").glob("*gfx900*.co"), key=text_bytes)
        if not cands:
            sys.exit("no FILE given and no gfx900 code object in target/rocsparse "
                     "(run scripts/rocsparse-corpus.sh target/rocsparse)")
        path = cands[-1]
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "gcnkit-cli"], cwd=repo, check=True)
    gcn = repo / "target/release/gcn"
    mcpu = "gfx900"
    out = subprocess.run([llvm / "llvm-readelf", "-h", path], capture_output=True, text=True).stdout
    size = text_bytes(path)
    llvm_cmd = [llvm / "llvm-objdump", "-d", f"--mcpu={mcpu}", path]
    gcn_cmd = [gcn, "disasm", "--llvm-objdump", "--max-warnings", "0", path]
    # Alternate the tools so that both see the same machine conditions.
    llvm_t = gcn_t = None
    for _ in range(args.runs):
        t, _ = measure(llvm_cmd, 1)
        llvm_t = t if llvm_t is None else min(llvm_t, t)
        t, _ = measure(gcn_cmd, 1)
        gcn_t = t if gcn_t is None else min(gcn_t, t)
    llvm_rss = peak_rss(llvm_cmd)
    gcn_rss = peak_rss(gcn_cmd)
    mb = size / 1e6
    print(f"file: {path}")
    print(f"executable bytes: {size} ({mb:.2f} MB)")
    print(f"llvm-objdump-19: {llvm_t:8.3f} s  {mb / llvm_t:8.2f} MB/s  peak {llvm_rss / 1024:7.1f} MiB")
    print(f"gcn disasm:      {gcn_t:8.3f} s  {mb / gcn_t:8.2f} MB/s  peak {gcn_rss / 1024:7.1f} MiB")
    print(f"throughput ratio (gcn / llvm-objdump): {llvm_t / gcn_t:.1f}x")
    print(f"peak memory ratio (gcn / llvm-objdump): {gcn_rss / llvm_rss:.2f}")
    del out


if __name__ == "__main__":
    main()
