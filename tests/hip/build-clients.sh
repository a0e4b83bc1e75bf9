#!/usr/bin/env bash
# Builds the client test programs: rocPRIM's device-wide algorithms
# (tests/hip/rocprim) and programs calling AMD-built libraries
# (tests/hip/libraries), one executable per program and target.
#
# Usage: tests/hip/build-clients.sh OUTDIR [targets...]
#   default targets: gfx900 gfx906 gfx908 gfx90a gfx940
#
# Produces OUTDIR/<target>/<program>, each built with
#   $HIPCC -std=c++17 -O2 --offload-arch=<target> <program>.hip [-l<library>]
# so each executable carries the code object of exactly one target. rocPRIM is
# header-only: its programs are built for every target hipcc compiles for. A
# library program is built only for the targets the library holds device code
# for (LIBRARY_TARGETS below); the others are skipped with a message. A target
# hipcc cannot compile for is skipped; a failure of any other build is an error.
# Builds run at most $JOBS (default 2) at a time.
#
# Environment: HIPCC (default hipcc), JOBS (default 2), HIPCCFLAGS (extra flags).
set -euo pipefail

DEFAULT_TARGETS=(gfx900 gfx906 gfx908 gfx90a gfx940)

# Programs: directory/name and the library each links ("-" for none).
PROGRAMS=(
    "rocprim/rocprim_sort -"
    "rocprim/rocprim_scan_reduce -"
    "rocprim/rocprim_select_histogram -"
    "libraries/rocsparse_spmv rocsparse"
    "libraries/hipsparse_spmv hipsparse"
    "libraries/rocrand_generators rocrand"
)

# The processors each Debian-built library carries device code for, as listed
# by `gcn info --brief <library>` (the offload bundles of its .hip_fatbin):
# librocsparse0 5.3.0 and librocrand1 5.3.3 hold gfx803, gfx900:xnack-,
# gfx906:xnack-, gfx908:xnack-, gfx90a:xnack+, gfx90a:xnack- and gfx1030.
# libhipsparse0 has no device code: it forwards to rocSPARSE.
declare -A LIBRARY_TARGETS=(
    [rocsparse]="gfx803 gfx900 gfx906 gfx908 gfx90a gfx1030"
    [hipsparse]="gfx803 gfx900 gfx906 gfx908 gfx90a gfx1030"
    [rocrand]="gfx803 gfx900 gfx906 gfx908 gfx90a gfx1030"
)
declare -A LIBRARY_PACKAGES=(
    [rocsparse]="librocsparse-dev (and librocsparse0)"
    [hipsparse]="libhipsparse-dev (and libhipsparse0, librocsparse0)"
    [rocrand]="librocrand-dev (and librocrand1)"
)
declare -A LIBRARY_HEADERS=(
    [rocsparse]="rocsparse/rocsparse.h"
    [hipsparse]="hipsparse/hipsparse.h"
    [rocrand]="rocrand/rocrand.h"
)

usage() {
    echo "usage: $0 OUTDIR [targets...]   (default targets: ${DEFAULT_TARGETS[*]})" >&2
    exit 2
}

[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; esac
OUTDIR=$1
shift
if [ $# -gt 0 ]; then
    TARGETS=("$@")
else
    TARGETS=("${DEFAULT_TARGETS[@]}")
fi

HIPCC=${HIPCC:-hipcc}
JOBS=${JOBS:-2}
HIPCCFLAGS=${HIPCCFLAGS:-}
SRC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if ! command -v "$HIPCC" >/dev/null 2>&1; then
    echo "error: '$HIPCC' not found; install hipcc (Debian: apt-get install hipcc libamdhip64-dev)" \
         "or set HIPCC to its path" >&2
    exit 1
fi
case "$JOBS" in ''|*[!0-9]*|0) echo "error: JOBS must be a positive integer, got '$JOBS'" >&2; exit 1 ;; esac

mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
PROBE_DIR=$(mktemp -d)
trap 'rm -rf "$PROBE_DIR"' EXIT

# Every package must be present: its headers found by hipcc's preprocessor and,
# for a library, the library found by the linker (host code only, so no
# device compilation is needed for the check).
probe_package() {
    local header=$1 lib=$2 package=$3
    local src="$PROBE_DIR/probe_${lib:-rocprim}.cpp"
    printf '#include <%s>\nint main() { return 0; }\n' "$header" > "$src"
    local -a link=()
    [ -n "$lib" ] && link=("-l$lib")
    if ! "$HIPCC" -std=c++17 "$src" "${link[@]}" -o "$src.out" >"$src.log" 2>&1; then
        echo "error: cannot build against <$header>${lib:+ and -l$lib}; install the Debian" \
             "package $package:" >&2
        # (hipcc's GPU detection prints a traceback on a machine without a GPU;
        # show the compiler's and linker's error lines.)
        grep -E "error|cannot find|not found" "$src.log" | grep -v rocm_agent | sed 's/^/    /' |
            head -n 5 >&2 || true
        exit 1
    fi
}
probe_package rocprim/rocprim.hpp "" "librocprim-dev"
for lib in rocsparse hipsparse rocrand; do
    probe_package "${LIBRARY_HEADERS[$lib]}" "$lib" "${LIBRARY_PACKAGES[$lib]}"
done

# A target is usable if hipcc compiles a trivial kernel for it.
cat > "$PROBE_DIR/probe.hip" <<'PROBE'
#include <hip/hip_runtime.h>
__global__ void probe(int* p) { p[threadIdx.x] = (int)threadIdx.x; }
PROBE
BUILD_TARGETS=()
SKIPPED=()
for t in "${TARGETS[@]}"; do
    if "$HIPCC" --offload-arch="$t" --cuda-device-only -c "$PROBE_DIR/probe.hip" \
            -o "$PROBE_DIR/probe.$t.o" >"$PROBE_DIR/probe.$t.log" 2>&1; then
        BUILD_TARGETS+=("$t")
    else
        echo "skipping target $t: $HIPCC cannot compile for --offload-arch=$t:" >&2
        sed 's/^/    /' "$PROBE_DIR/probe.$t.log" | head -n 5 >&2
        SKIPPED+=("$t")
    fi
done
if [ ${#BUILD_TARGETS[@]} -eq 0 ]; then
    echo "error: none of the targets (${TARGETS[*]}) can be built" >&2
    exit 1
fi

# One line per job: target, source (directory/name), library.
JOBLIST="$PROBE_DIR/jobs"
: > "$JOBLIST"
BUILT=0
for t in "${BUILD_TARGETS[@]}"; do
    mkdir -p "$OUTDIR/$t"
    for entry in "${PROGRAMS[@]}"; do
        read -r src lib <<< "$entry"
        if [ "$lib" != - ] && [[ " ${LIBRARY_TARGETS[$lib]} " != *" $t "* ]]; then
            echo "skipping $src for $t: lib$lib holds device code only for" \
                 "${LIBRARY_TARGETS[$lib]}" >&2
            continue
        fi
        echo "$t $src $lib" >> "$JOBLIST"
        BUILT=$((BUILT + 1))
    done
done

# Builds one job; its compiler output goes to a log printed on failure.
build_one() {
    local t=$1 src=$2 lib=$3
    local name=${src##*/}
    local log="$OUTDIR/$t/$name.log"
    # HIPCCFLAGS is split on whitespace on purpose.
    # shellcheck disable=SC2206
    local -a extra=($HIPCCFLAGS)
    local -a link=()
    [ "$lib" != - ] && link=("-l$lib")
    local -a cmd=("$HIPCC" -std=c++17 -O2 --offload-arch="$t" "${extra[@]}" "$SRC_DIR/$src.hip"
                  "${link[@]}" -o "$OUTDIR/$t/$name")
    if "${cmd[@]}" >"$log" 2>&1; then
        echo "built $t/$name"
        rm -f "$log"
    else
        echo "error: build of $t/$name failed: ${cmd[*]}" >&2
        sed 's/^/    /' "$log" >&2
        return 1
    fi
}
export -f build_one
export HIPCC HIPCCFLAGS SRC_DIR OUTDIR

if ! xargs -P "$JOBS" -L 1 bash -c 'build_one "$@"' build_one < "$JOBLIST"; then
    echo "error: some builds failed (see above)" >&2
    exit 1
fi

echo "built $BUILT executables for: ${BUILD_TARGETS[*]} in $OUTDIR"
if [ ${#SKIPPED[@]} -gt 0 ]; then
    echo "skipped targets (not supported by $HIPCC): ${SKIPPED[*]}" >&2
fi
