#!/usr/bin/env bash
# Builds the HIP test programs, one executable per program and target.
#
# Usage: tests/hip/build.sh OUTDIR [targets...]
#   default targets: gfx900 gfx906 gfx908 gfx90a gfx940
#
# Produces OUTDIR/<target>/<program> for every program below, each built with
#   $HIPCC -std=c++17 -O2 --offload-arch=<target> tests/hip/<program>.hip
# so each executable carries the code object of exactly one target, plus
# OUTDIR/<target>/module_kernels.<target>.co (hipcc --genco) for module_api.
# A target this hipcc cannot compile for is skipped with a message; a failure
# of any other build is an error. Builds run at most $JOBS (default 2) at a time.
#
# Environment: HIPCC (default hipcc), JOBS (default 2), HIPCCFLAGS (extra flags).
set -euo pipefail

PROGRAMS=(vector_add reduce_shared atomics atomic64 streams_events templates wave_intrinsics symbols
          dynamic_shared managed_host module_api fault)
# Built a second time as code-object v5 (`<program>_cov5`).
COV5_PROGRAMS=(vector_add dynamic_shared wave_intrinsics symbols fault)
DEFAULT_TARGETS=(gfx900 gfx906 gfx908 gfx90a gfx940)

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

# One line per job: target, kind, name.
JOBLIST="$PROBE_DIR/jobs"
: > "$JOBLIST"
for t in "${BUILD_TARGETS[@]}"; do
    mkdir -p "$OUTDIR/$t"
    echo "$t genco module_kernels" >> "$JOBLIST"
    for p in "${PROGRAMS[@]}"; do
        echo "$t exe $p" >> "$JOBLIST"
    done
    # hipcc 5.2 writes code-object v4 by default; these also run as v5 code objects (other
    # hidden arguments: block counts, group sizes, dynamic LDS size, ...).
    for p in "${COV5_PROGRAMS[@]}"; do
        echo "$t cov5 $p" >> "$JOBLIST"
    done
done

# Builds one job; its compiler output goes to a log printed on failure.
build_one() {
    local t=$1 kind=$2 name=$3
    local log="$OUTDIR/$t/$name.log"
    local -a cmd
    # HIPCCFLAGS is split on whitespace on purpose.
    # shellcheck disable=SC2206
    local -a extra=($HIPCCFLAGS)
    if [ "$kind" = genco ]; then
        cmd=("$HIPCC" --genco --offload-arch="$t" "${extra[@]}" "$SRC_DIR/$name.hip"
             -o "$OUTDIR/$t/$name.$t.co")
    elif [ "$kind" = cov5 ]; then
        log="$OUTDIR/$t/${name}_cov5.log"
        cmd=("$HIPCC" -std=c++17 -O2 --offload-arch="$t" -mcode-object-version=5 "${extra[@]}"
             "$SRC_DIR/$name.hip" -o "$OUTDIR/$t/${name}_cov5")
    else
        cmd=("$HIPCC" -std=c++17 -O2 --offload-arch="$t" "${extra[@]}" "$SRC_DIR/$name.hip"
             -o "$OUTDIR/$t/$name")
    fi
    if "${cmd[@]}" >"$log" 2>&1; then
        echo "built $t/$name$([ "$kind" = genco ] && echo ".$t.co")$([ "$kind" = cov5 ] && echo "_cov5")"
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

echo "built ${#PROGRAMS[@]} programs + module code object for: ${BUILD_TARGETS[*]} in $OUTDIR"
if [ ${#SKIPPED[@]} -gt 0 ]; then
    echo "skipped targets (not supported by $HIPCC): ${SKIPPED[*]}" >&2
fi
