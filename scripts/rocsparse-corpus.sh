#!/usr/bin/env bash
# Real-world AMDGPU code objects for testing gcnkit: the device code shipped in Debian's
# librocsparse0 (rocSPARSE built by AMD's ROCm toolchain), one .co per offload bundle and target.
#
# usage: scripts/rocsparse-corpus.sh OUT_DIR [TARGET ...]
#   targets: gfx803 gfx900 gfx906 gfx908 gfx90a gfx1030 (default: gfx803 gfx900 gfx90a)
#   writes OUT_DIR/<bundle-index>-<target-id>.co; about 190 MB per target.
#
# This is a thin wrapper around the shared tool ../shared/tools/rocsparse-corpus.sh (relative
# to the repository root). Keep OUT_DIR out of git, e.g. target/rocsparse.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR [TARGET ...]" >&2; exit 64; }
repo=$(cd "$(dirname "$0")/.." && pwd)
tool=$repo/../shared/tools/rocsparse-corpus.sh
if [ ! -f "$tool" ] || [ ! -f "$(dirname "$tool")/bundle_extract.py" ]; then
    echo "error: the shared corpus tool is not available: expected $tool" >&2
    echo "       (and bundle_extract.py next to it); cannot build the rocSPARSE corpus." >&2
    exit 2
fi
out=$1; shift
mkdir -p "$out"
exec bash "$tool" "$out" "$@"
