#!/usr/bin/env bash
# Fetch the rocSPARSE host library (a HIP fat binary, ~1.3 GB) from Debian's librocsparse0, for
# `gcn info` and the GCNKIT_ROCSPARSE_LIB test. ../shared/tools/rocsparse-corpus.sh unpacks the
# same package into a temporary directory and deletes it; this keeps the library.
#
# usage: scripts/rocsparse-host.sh OUT_DIR      (writes OUT_DIR/librocsparse.so.0.1)
set -euo pipefail
out=${1:?usage: rocsparse-host.sh OUT_DIR}
mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd "$work" && { apt-get download librocsparse0 >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get download librocsparse0 >/dev/null; }; })
dpkg -x "$work"/librocsparse0_*.deb "$work/x"
lib=$(find "$work/x" -type f -name 'librocsparse.so*' | head -1)
mv "$lib" "$out/librocsparse.so.0.1"
echo "$out/librocsparse.so.0.1"
