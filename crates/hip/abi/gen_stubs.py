#!/usr/bin/env python3
"""Writes src/api/stubs.rs: an entry point for every symbol of abi/libamdhip64.symbols that
src/api does not implement, reporting hipErrorNotSupported (or, for run-time compilation,
HIPRTC_ERROR_INTERNAL_ERROR).

abi/libamdhip64.symbols is `nm -D --with-symbol-versions --defined-only` of Debian's
libamdhip64.so.5 (HIP 5.2.3): one `name version` per line.
"""
import os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, '..', 'src', 'api')

implemented = set()
for f in os.listdir(SRC):
    if not f.endswith('.rs') or f == 'stubs.rs':
        continue
    text = open(os.path.join(SRC, f)).read()
    implemented |= set(re.findall(r'#\[no_mangle\][^\n]*\n(?:\s*#\[[^\n]*\n)*\s*pub (?:unsafe )?extern "C" fn (\w+)', text))
    implemented |= set(re.findall(r'#\[export_name = "([^"]+)"\]', text))
    implemented |= set(re.findall(r'\.symver \w+, (\w+)@@', text))
    # Names defined through a macro, one `name, name;` line each (memory.rs's copies).
    implemented |= {n for pair in re.findall(r'^\s*(hip\w+), (hip\w+);$', text, re.M) for n in pair}

symbols = [l.split()[0] for l in open(os.path.join(HERE, 'libamdhip64.symbols')) if l.strip()]
missing = [s for s in symbols if s not in implemented]
extra = sorted(n for n in implemented - set(symbols) if not n.startswith('gcnkit_'))
if extra:
    sys.exit(f'implemented but not in libamdhip64.symbols: {extra}')

out = ['''//! Entry points ROCm's runtime exports that the emulator's runtime does not implement
//! (graphics interop, textures, graphs, virtual memory, peer access, run-time compilation,
//! ...). Each reports itself once on stderr and returns `hipErrorNotSupported` (run-time
//! compilation: `HIPRTC_ERROR_INTERNAL_ERROR`), so a program sees an error, never a missing
//! symbol. Written by `abi/gen_stubs.py`; do not edit.

use crate::api::unsupported;
use crate::types::hipError_t;

/// `HIPRTC_ERROR_INTERNAL_ERROR`.
const HIPRTC_ERROR_INTERNAL_ERROR: i32 = 11;

macro_rules! not_supported {
    ($($name:ident),* $(,)?) => {$(
        /// Not supported: returns `hipErrorNotSupported`.
        #[no_mangle]
        pub extern "C" fn $name() -> hipError_t {
            unsupported(stringify!($name))
        }
    )*};
}

macro_rules! no_rtc {
    ($($name:ident),* $(,)?) => {$(
        /// Run-time compilation is not available: returns `HIPRTC_ERROR_INTERNAL_ERROR`.
        #[no_mangle]
        pub extern "C" fn $name() -> i32 {
            unsupported(stringify!($name));
            HIPRTC_ERROR_INTERNAL_ERROR
        }
    )*};
}
''']
plain = [s for s in missing if not s.startswith('_Z') and not s.startswith('hiprtc')]
rtc = [s for s in missing if s.startswith('hiprtc')]
mangled = [s for s in missing if s.startswith('_Z')]
def block(macro, names):
    lines = [f'{macro}! {{']
    for n in names:
        lines.append(f'    {n},')
    lines.append('}')
    return '\n'.join(lines) + '\n'
out.append(block('not_supported', plain))
out.append(block('no_rtc', rtc))
for i, n in enumerate(mangled):
    demangled = re.match(r'_Z\d+(\w+?)P', n)
    out.append(f'''
/// Not supported: returns `hipErrorNotSupported`.
#[export_name = "{n}"]
pub extern "C" fn mangled_{i}() -> hipError_t {{
    unsupported("{demangled.group(1) if demangled else n}")
}}
''')
open(os.path.join(SRC, 'stubs.rs'), 'w').write('\n'.join(out))
print(f'{len(symbols)} symbols: {len(implemented)} implemented, {len(missing)} stubs')
