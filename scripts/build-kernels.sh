#!/usr/bin/env bash
# Build the OpenCL test-kernel corpus (tests/kernels/*.cl) for every GCN/CDNA target we support.
#
# usage: scripts/build-kernels.sh OUT_DIR
#
# For each (kernel file, target) it writes, with LLVM 19:
#   OUT_DIR/<target>/<name>.s    clang -S                (assembly as the compiler prints it)
#   OUT_DIR/<target>/<name>.o    clang -c                (relocatable ELF, direct object emission)
#   OUT_DIR/<target>/<name>.co   ld.lld -shared <name>.o (loadable code object)
# <name> is the file's stem at -O2; a few files are also built at -O0/-O1 as <stem>-O0 / <stem>-O1.
# Files whose name starts with mfma_ are built only for targets with MFMA (gfx908 gfx90a gfx942).
# Every object is checked to have no undefined symbols (we compile with -nogpulib, so a call
# to a missing OpenCL library function would otherwise slip through).
# All builds run even when some fail; the script then lists every failed build and exits 1.
# A complete corpus is marked by OUT_DIR/.complete; then the script does nothing. Concurrent
# runs wait for each other (flock on OUT_DIR.lock).
# Env: JOBS (default: nproc), TARGETS (default: the eight below).
set -euo pipefail

out=${1:?usage: build-kernels.sh OUT_DIR}
# Tests run this concurrently: one builds under the lock, the others wait and then find the
# stamp that marks a complete corpus.
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
if [ -f "$out/.complete" ]; then exit 0; fi
repo=$(cd "$(dirname "$0")/.." && pwd)
src=$repo/tests/kernels

find_tool() { # find_tool NAME: NAME-19 on PATH, else /usr/lib/llvm-19/bin/NAME
  if command -v "$1-19" >/dev/null 2>&1; then command -v "$1-19"
  elif [ -x "/usr/lib/llvm-19/bin/$1" ]; then echo "/usr/lib/llvm-19/bin/$1"
  else echo "error: cannot find $1-19 (on PATH or in /usr/lib/llvm-19/bin)" >&2; return 1; fi
}
CLANG=$(find_tool clang)
LLD=$(find_tool ld.lld)
NM=$(find_tool llvm-nm)
export CLANG LLD src out

TARGETS=${TARGETS:-"gfx600 gfx700 gfx803 gfx900 gfx906 gfx908 gfx90a gfx942"}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# Extra optimisation-level variants, for variety in the generated code.
VARIANTS="vector_add:-O0 reduce_sum:-O0 control_flow:-O0 switch_vm:-O1 struct_args:-O0 fp16:-O1 int_div:-O1 calls:-O0"

mfma_target() { case $1 in gfx908|gfx90a|gfx940|gfx941|gfx942) return 0;; *) return 1;; esac; }

jobs_list() { # one line per job: TARGET STEM OPT NAME
  local t f stem v
  for t in $TARGETS; do
    for f in "$src"/*.cl; do
      stem=$(basename "$f" .cl)
      case $stem in mfma_*) mfma_target "$t" || continue;; esac
      echo "$t $stem -O2 $stem"
      for v in $VARIANTS; do
        if [ "${v%%:*}" = "$stem" ]; then echo "$t $stem ${v#*:} $stem${v#*:}"; fi
      done
    done
  done
}

build_one() { # build_one TARGET STEM OPT NAME   (called in a || context, so no set -e here)
  local t=$1 stem=$2 opt=$3 name=$4 d=$out/$1
  local flags=(-target amdgcn-amd-amdhsa -mcpu="$t" -nogpulib "$opt" -x cl -cl-std=CL2.0 -I"$src")
  "$CLANG" "${flags[@]}" -S "$src/$stem.cl" -o "$d/$name.s" || return 1
  "$CLANG" "${flags[@]}" -c "$src/$stem.cl" -o "$d/$name.o" || return 1
  "$LLD" -shared "$d/$name.o" -o "$d/$name.co" || return 1
}
export -f build_one

for t in $TARGETS; do rm -rf "${out:?}/$t"; mkdir -p "$out/$t"; done
start=$(date +%s)
# Every job runs even if some fail (xargs then exits non-zero), so one run reports all failures.
fails=$out/.failures; : > "$fails"; export fails
jobs_list | xargs -P "$JOBS" -L 1 bash -c 'build_one "$@" || { echo "FAILED: $*" >&2; echo "$*" >> "$fails"; exit 1; }' _ || true
if [ -s "$fails" ]; then
  echo "build-kernels: FAILED: $(wc -l < "$fails") of $(jobs_list | wc -l) builds (TARGET STEM OPT NAME):" >&2
  sed 's/^/  /' "$fails" >&2
  exit 1
fi
rm -f "$fails"
# We compile with -nogpulib: a call to an OpenCL library function we do not define would
# leave an undefined symbol. Check all objects at once (one process instead of one per job).
undef=$(find "$out" -name '*.o' -print0 | xargs -0 "$NM" -u -A 2>&1) || { echo "$undef" >&2; exit 1; }
if [ -n "$undef" ]; then
  echo "build-kernels: undefined symbols (missing definitions in tests/kernels/gcn.h?):" >&2
  echo "$undef" >&2
  exit 1
fi
total=0
for t in $TARGETS; do
  n_s=$(find "$out/$t" -name '*.s' | wc -l); n_o=$(find "$out/$t" -name '*.o' | wc -l); n_co=$(find "$out/$t" -name '*.co' | wc -l)
  echo "$t: $n_s .s, $n_o .o, $n_co .co"
  total=$((total + n_s + n_o + n_co))
done
expected=$(( $(jobs_list | wc -l) * 3 ))
if [ "$total" -ne "$expected" ]; then
  echo "build-kernels: FAILED: expected $expected files, found $total" >&2
  exit 1
fi
touch "$out/.complete"
echo "build-kernels: $total files in $out ($(( $(date +%s) - start ))s, $JOBS jobs)"
