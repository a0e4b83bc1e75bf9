#!/usr/bin/env bash
# Links gcnkit's HIP runtime (the static library of crates/hip) into libamdhip64.so.5 with
# the soname and symbol versions of ROCm's library, so that the dynamic linker takes it in
# ROCm's place. Usage: scripts/link-hip-runtime.sh STATIC_LIB OUTDIR
set -euo pipefail
lib=${1:?usage: $0 STATIC_LIB OUTDIR}
out=${2:?usage: $0 STATIC_LIB OUTDIR}
here=$(cd "$(dirname "$0")/.." && pwd)
symbols=$here/crates/hip/abi/libamdhip64.symbols
[ -f "$lib" ] || { echo "error: $lib not found (build it with cargo build --release -p gcnkit-hip)" >&2; exit 1; }
mkdir -p "$out"
map=$out/libamdhip64.map
# One version node per HIP release, each inheriting the previous one, as ROCm's library has.
awk '
    { names[$2] = names[$2] "    " $1 ";\n"; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
    END {
        # Versions sort as hip_4.2 < hip_4.3 < ... < hip_5.2.
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
        for (i = 0; i < n; i++) {
            printf "%s {\n  global:\n%s", order[i], names[order[i]]
            if (i == 0) printf "  local: *;\n"
            printf "}%s;\n", (i == 0 ? "" : " " order[i - 1])
        }
    }' "$symbols" > "$map"
# Each exported symbol is asked for by name (not --whole-archive, which would also bring in
# the compiler runtime's hidden copies of __gnu_f2h_ieee and __gnu_h2f_ieee and so hide
# the exported ones; those two are defined as gcnkit_gnu_* and versioned by .symver).
undefined=$(awk '{ n = $1; if (n ~ /^__gnu_/) n = "gcnkit" substr(n, 2); printf "-Wl,-u,%s ", n }' "$symbols")
# shellcheck disable=SC2086
cc -shared -o "$out/libamdhip64.so.5" \
    $undefined "$lib" \
    -Wl,--version-script="$map" -Wl,-soname,libamdhip64.so.5 -Wl,--gc-sections \
    -lpthread -ldl -lm -lgcc_s
ln -sf libamdhip64.so.5 "$out/libamdhip64.so"
echo "$out/libamdhip64.so.5"
