#!/usr/bin/env bash
# Builds gcnkit's HIP runtime: target/hip/libamdhip64.so.5. Run a HIP program on it with
#   LD_LIBRARY_PATH=$PWD/target/hip ./app
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p gcnkit-hip
scripts/link-hip-runtime.sh target/release/libamdhip64.a target/hip
