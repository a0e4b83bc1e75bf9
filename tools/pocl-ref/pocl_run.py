#!/usr/bin/python3
"""Reference runner for launch descriptions (the JSON format of ../shared/docs/launch-spec.md, which
`gcn run` reads): runs the OpenCL source of the kernels on pocl, the OpenCL CPU implementation,
with exactly the buffers, launches and outputs that `gcn run` uses with the compiled code object,
so that the two runs can be compared buffer by buffer.

usage: pocl_run.py LAUNCH.json --source K.cl [-I DIR ...] --out DIR [--inputs DIR]
                   [--write-inputs DIR] [--dump-all] [--json] [--threads N]
       pocl_run.py --self-test

It runs under /usr/bin/python3 because that is the interpreter with pyopencl and pocl installed.
Only the standard library, numpy and pyopencl are used.
"""

import argparse
import json
import math
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
# gcn.h lives next to the kernels; its non-AMDGCN branch is the pocl runtime shim.
HEADER_DIR = HERE.parent.parent / "tests" / "kernels"
BASE_BUILD_OPTIONS = ["-cl-std=CL2.0", "-cl-kernel-arg-info"]

MASK64 = (1 << 64) - 1


class RunError(Exception):
    """An error in the description, the inputs or the run: reported as one line, exit status 1."""


# ---------------------------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------------------------

SCALAR_TYPES = {
    "char": np.dtype("<i1"),
    "uchar": np.dtype("<u1"),
    "short": np.dtype("<i2"),
    "ushort": np.dtype("<u2"),
    "int": np.dtype("<i4"),
    "uint": np.dtype("<u4"),
    "long": np.dtype("<i8"),
    "ulong": np.dtype("<u8"),
    "half": np.dtype("<f2"),
    "float": np.dtype("<f4"),
    "double": np.dtype("<f8"),
}
VECTOR_LANES = (2, 4, 8, 16)
TYPE_RE = re.compile(r"^([a-z]+?)(2|4|8|16)?$")


class ElemType:
    """An OpenCL element type of the spec: a scalar type, optionally a vector of 2/4/8/16."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise RunError(f"unknown type {name!r}")
        m = TYPE_RE.match(name)
        if not m or m.group(1) not in SCALAR_TYPES:
            raise RunError(f"unknown type {name!r} (expected one of "
                           f"{' '.join(SCALAR_TYPES)}, optionally followed by 2, 4, 8 or 16)")
        self.name = name
        self.scalar = m.group(1)
        self.lanes = int(m.group(2) or 1)
        self.dtype = SCALAR_TYPES[self.scalar]
        self.is_float = self.dtype.kind == "f"
        self.bits = self.dtype.itemsize * 8

    @property
    def size(self):
        return self.dtype.itemsize * self.lanes


def elem_type(name, what):
    try:
        return ElemType(name)
    except RunError as e:
        raise RunError(f"{what}: {e.args[0]}")


# ---------------------------------------------------------------------------------------------
# Value conversions (the spec's rounding rules)
# ---------------------------------------------------------------------------------------------

def f64_to_f16(a):
    """float64 -> binary16, one rounding to nearest even (no detour through float32, whose
    double rounding would differ just above half-way cases)."""
    a = np.asarray(a, dtype=np.float64)
    bits = a.view(np.uint64)
    sign = ((bits >> np.uint64(48)) & np.uint64(0x8000)).astype(np.uint16)
    mag = np.abs(a)
    out = np.zeros(a.shape, dtype=np.uint16)
    nan = np.isnan(a)
    big = ~nan & (mag >= 65520.0)  # 65520 = halfway between 65504 and 2^16: rounds to inf
    out[big] = 0x7C00
    out[nan] = 0x7E00
    fin = ~nan & ~big
    m = mag[fin]
    # Quantum of the binary16 value near m: 2^(e-10) for normals, 2^-24 for subnormals.
    _, ex = np.frexp(np.where(m > 0, m, 1.0))
    e = (ex - 1).astype(np.int64)
    e = np.maximum(e, -14)
    q = np.ldexp(1.0, e - 10)
    n = np.rint(m / q)  # m/q is exact (power-of-two scaling); rint rounds half to even
    # n is the significand in units of q, 1024..2048 for normals (2048 bumps the exponent).
    val = n * q
    # Encode val (exactly representable in binary16 now) by its field values.
    _, ex2 = np.frexp(np.where(val > 0, val, 1.0))
    e2 = (ex2 - 1).astype(np.int64)
    normal = (val >= 2.0 ** -14)
    enc = np.where(
        normal,
        ((e2 + 15) << 10) + (np.rint(np.ldexp(val, -(e2) + 10)).astype(np.int64) - 1024),
        np.rint(val / 2.0 ** -24).astype(np.int64),
    )
    enc = np.where(normal & (e2 + 15 >= 31), 0x7C00, enc)
    out[fin] = enc.astype(np.uint16)
    out |= sign
    return out.view(np.float16)


def convert_float64(values, et):
    """float64 array -> element type, rounding to nearest even."""
    values = np.asarray(values, dtype=np.float64)
    if et.scalar == "half":
        return f64_to_f16(values)
    if et.is_float:
        return values.astype(et.dtype)  # IEEE conversion: round to nearest even
    # A float value into an integer buffer: nearest integer (ties to even), then modulo 2^bits.
    if not np.all(np.isfinite(values)):
        raise RunError(f"cannot store a NaN or infinity in a {et.scalar} buffer")
    r = np.rint(values)
    if np.all(np.abs(r) < 2.0 ** 63):
        u = r.astype(np.int64).view(np.uint64)  # two's complement: modulo 2^64
        return u.astype(np.dtype(f"<u{et.dtype.itemsize}")).view(et.dtype)
    return ints_to_type([int(x) for x in r], et)


def ints_to_type(values, et):
    """Python integers -> element type: modulo 2^bits for integer types, the exact integer
    rounded once to nearest even for float types."""
    if et.is_float:
        if et.scalar == "half":
            return f64_to_f16(np.array([float_round_int(v, 53) for v in values], dtype=np.float64))
        if et.scalar == "float":
            # Round to 24 bits first (exact in float64), then the float64 -> float32 cast is exact.
            return np.array([float_round_int(v, 24) for v in values], dtype=np.float64).astype(et.dtype)
        return np.array([float_round_int(v, 53) for v in values], dtype=np.float64)
    mask = (1 << et.bits) - 1
    u = np.array([v & mask for v in values], dtype=np.dtype(f"<u{et.dtype.itemsize}"))
    return u.view(et.dtype)


def float_round_int(v, prec):
    """The integer v rounded to `prec` significant bits, ties to even, as a Python float
    (exact when prec <= 53)."""
    if v == 0:
        return 0.0
    s = -1 if v < 0 else 1
    a = abs(v)
    shift = a.bit_length() - prec
    if shift > 0:
        q, r = divmod(a, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and (q & 1)):
            q += 1
        a = q << shift
    try:
        return s * float(a)
    except OverflowError:
        return s * math.inf


def to_int_value(v, what):
    if isinstance(v, bool):
        raise RunError(f"{what}: expected an integer, got {v!r}")
    if isinstance(v, int):
        return v
    if isinstance(v, float) and math.isfinite(v) and v == int(v):
        return int(v)
    if isinstance(v, str):
        try:
            return int(v, 0)
        except ValueError:
            pass
    raise RunError(f"{what}: expected an integer, got {v!r}")


def to_float_value(v, what):
    if isinstance(v, bool):
        raise RunError(f"{what}: expected a number, got {v!r}")
    if isinstance(v, (int, float)):
        return v
    if isinstance(v, str):
        s = v.strip().lower()
        try:
            if s.startswith(("0x", "-0x", "+0x")):
                return float.fromhex(s)
            return float(s)  # also "nan", "inf", "-inf"
        except ValueError:
            pass
    raise RunError(f"{what}: expected a number, got {v!r}")


def scalars_to_type(values, et, what):
    """JSON values -> element type (fill, set, scalar arguments)."""
    if et.is_float:
        fv = [to_float_value(v, what) for v in values]
        if all(isinstance(v, int) for v in fv):
            return ints_to_type(fv, et)
        return convert_float64(np.array([float(v) for v in fv], dtype=np.float64), et)
    return ints_to_type([to_int_value(v, what) for v in values], et)


# ---------------------------------------------------------------------------------------------
# Generators
# ---------------------------------------------------------------------------------------------

def splitmix64(seed, n):
    """The first n outputs of splitmix64 started from seed, as a uint64 array (spec formula)."""
    seed = np.uint64(seed & MASK64)
    i = np.arange(1, n + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = seed + i * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def need(init, key, what):
    if key not in init:
        raise RunError(f"{what}: missing field {key!r}")
    return init[key]


def generate(name, et, count, init):
    """The initial contents of buffer `name`, as a flat array of count*lanes scalars."""
    n = count * et.lanes
    what = f"buffer {name!r}"
    if not isinstance(init, dict):
        raise RunError(f"{what}: 'init' must be an object")
    kind = init.get("kind")
    if kind == "zeros":
        a = np.zeros(n, dtype=et.dtype)
    elif kind == "fill":
        v = scalars_to_type([need(init, "value", what)], et, f"{what} fill value")
        a = np.full(n, v[0], dtype=et.dtype)
    elif kind == "iota":
        if et.is_float:
            start = float(to_float_value(init.get("start", 0), f"{what} iota start"))
            step = float(to_float_value(init.get("step", 1), f"{what} iota step"))
            i = np.arange(n, dtype=np.float64)
            a = convert_float64(start + step * i, et)
        else:
            start = to_int_value(init.get("start", 0), f"{what} iota start")
            step = to_int_value(init.get("step", 1), f"{what} iota step")
            # int64 arithmetic wraps modulo 2^64, and the conversion keeps the low bits:
            # the same as computing modulo 2^bits directly.
            i = np.arange(n, dtype=np.uint64)
            with np.errstate(over="ignore"):
                u = np.uint64(start & MASK64) + np.uint64(step & MASK64) * i
            a = u.astype(np.dtype(f"<u{et.dtype.itemsize}")).view(et.dtype)
    elif kind == "randint":
        lo = to_int_value(need(init, "lo", what), f"{what} randint lo")
        hi = to_int_value(need(init, "hi", what), f"{what} randint hi")
        seed = to_int_value(need(init, "seed", what), f"{what} randint seed")
        if hi < lo:
            raise RunError(f"{what}: randint hi ({hi}) < lo ({lo})")
        span = hi - lo + 1
        if span > 1 << 64:
            raise RunError(f"{what}: randint range wider than 2^64")
        x = splitmix64(seed, n)
        r = x if span == 1 << 64 else x % np.uint64(span)
        if not et.is_float:
            with np.errstate(over="ignore"):
                u = np.uint64(lo & MASK64) + r
            a = u.astype(np.dtype(f"<u{et.dtype.itemsize}")).view(et.dtype)
        elif max(abs(lo), abs(hi)) <= 1 << 53:
            # Every value is exact in float64, so the conversion below is the only rounding.
            a = convert_float64(float(lo) + r.astype(np.float64), et)
        else:
            a = ints_to_type([lo + int(v) for v in r], et)
    elif kind == "randfloat":
        lo = float(to_float_value(need(init, "lo", what), f"{what} randfloat lo"))
        hi = float(to_float_value(need(init, "hi", what), f"{what} randfloat hi"))
        seed = to_int_value(need(init, "seed", what), f"{what} randfloat seed")
        x = splitmix64(seed, n)
        if et.scalar == "double":
            u = (x >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
        else:
            u = (x >> np.uint64(40)).astype(np.float64) * 2.0 ** -24
        a = convert_float64(lo + (hi - lo) * u, et)
    else:
        raise RunError(f"{what}: unknown init kind {kind!r}")
    a = np.ascontiguousarray(a, dtype=et.dtype)
    if init.get("sorted", False):
        a = np.sort(a, kind="stable")
    sets = init.get("set")
    if sets is not None:
        if not isinstance(sets, list):
            raise RunError(f"{what}: 'set' must be a list of [index, value] pairs")
        for pair in sets:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise RunError(f"{what}: 'set' entry {pair!r} is not an [index, value] pair")
            idx = to_int_value(pair[0], f"{what} set index")
            if not 0 <= idx < n:
                raise RunError(f"{what}: set index {idx} out of range (0..{n - 1})")
            a[idx] = scalars_to_type([pair[1]], et, f"{what} set value")[0]
    return a


# ---------------------------------------------------------------------------------------------
# The description
# ---------------------------------------------------------------------------------------------

class Buffer:
    def __init__(self, name, et, count, init):
        self.name, self.et, self.count, self.init = name, et, count, init

    @property
    def nbytes(self):
        return self.count * self.et.size


def parse_description(path):
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise RunError(f"{path}: cannot read: {e.strerror}")
    try:
        desc = json.loads(text)
    except json.JSONDecodeError as e:
        raise RunError(f"{path}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}")
    if not isinstance(desc, dict):
        raise RunError(f"{path}: the description must be a JSON object")
    bufs = desc.get("buffers", {})
    if not isinstance(bufs, dict):
        raise RunError(f"{path}: 'buffers' must be an object")
    buffers = {}
    for name, b in bufs.items():  # json keeps file order
        if not isinstance(b, dict):
            raise RunError(f"buffer {name!r}: must be an object")
        et = elem_type(need(b, "type", f"buffer {name!r}"), f"buffer {name!r}")
        count = to_int_value(need(b, "count", f"buffer {name!r}"), f"buffer {name!r} count")
        if count < 0:
            raise RunError(f"buffer {name!r}: negative count {count}")
        buffers[name] = Buffer(name, et, count, b.get("init", {"kind": "zeros"}))
    launches = desc.get("launches", [])
    if not isinstance(launches, list):
        raise RunError(f"{path}: 'launches' must be a list")
    for li, l in enumerate(launches):
        check_launch(li, l, buffers)
    outputs = desc.get("outputs", {})
    if not isinstance(outputs, dict):
        raise RunError(f"{path}: 'outputs' must be an object")
    for name in outputs:
        if name not in buffers:
            raise RunError(f"output {name!r}: unknown buffer")
    return buffers, launches, list(outputs)


def struct_bytes(a, what):
    """A by-value struct argument, in the form proposed in tests/launch/struct_args/README.md
    (not yet in the spec): {"kind": "struct", "size": N, "fields": [{"offset", "type",
    "value"}, ...]}, each field written like a scalar argument, bytes no field covers zero."""
    size = to_int_value(need(a, "size", what), f"{what} size")
    if size <= 0:
        raise RunError(f"{what}: struct size must be positive, got {size}")
    fields = need(a, "fields", what)
    if not isinstance(fields, list):
        raise RunError(f"{what}: 'fields' must be a list")
    buf = bytearray(size)
    owner = [None] * size
    for fi, f in enumerate(fields):
        fw = f"{what} field {fi}"
        if not isinstance(f, dict):
            raise RunError(f"{fw}: must be an object")
        off = to_int_value(need(f, "offset", fw), f"{fw} offset")
        et = elem_type(need(f, "type", fw), fw)
        v = need(f, "value", fw)
        vals = v if isinstance(v, list) else [v]
        if len(vals) != et.lanes:
            raise RunError(f"{fw}: a {et.name} takes {et.lanes} value(s), got {len(vals)}")
        if off < 0 or off + et.size > size:
            raise RunError(f"{fw}: bytes {off}..{off + et.size - 1} are outside the "
                           f"{size}-byte struct")
        for i in range(off, off + et.size):
            if owner[i] is not None:
                raise RunError(f"{fw}: overlaps field {owner[i]} at byte {i}")
            owner[i] = fi
        buf[off:off + et.size] = scalars_to_type(vals, et, fw).tobytes()
    return bytes(buf)


def dims(li, l, key, default=None):
    v = l.get(key, default)
    if v is None:
        raise RunError(f"launch {li}: missing field {key!r}")
    if isinstance(v, int) and not isinstance(v, bool):
        v = [v]
    if not (isinstance(v, list) and 1 <= len(v) <= 3):
        raise RunError(f"launch {li}: {key!r} must be a list of 1 to 3 integers")
    return [to_int_value(x, f"launch {li} {key}") for x in v]


def check_launch(li, l, buffers):
    if not isinstance(l, dict):
        raise RunError(f"launch {li}: must be an object")
    if not isinstance(l.get("kernel"), str):
        raise RunError(f"launch {li}: missing kernel name")
    g = dims(li, l, "global")
    loc = dims(li, l, "local")
    if len(g) != len(loc):
        raise RunError(f"launch {li} ({l['kernel']}): global has {len(g)} dimensions, local {len(loc)}")
    off = dims(li, l, "offset", [0] * len(g))
    if len(off) != len(g):
        raise RunError(f"launch {li} ({l['kernel']}): offset has {len(off)} dimensions, global {len(g)}")
    if any(x < 1 for x in loc) or any(x < 0 for x in g) or any(x < 0 for x in off):
        raise RunError(f"launch {li} ({l['kernel']}): bad global/local/offset sizes")
    args = l.get("args", [])
    if not isinstance(args, list):
        raise RunError(f"launch {li} ({l['kernel']}): 'args' must be a list")
    for ai, a in enumerate(args):
        what = f"launch {li} ({l['kernel']}) arg {ai}"
        if not isinstance(a, dict):
            raise RunError(f"{what}: must be an object")
        k = a.get("kind")
        if k == "buffer":
            if a.get("name") not in buffers:
                raise RunError(f"{what}: unknown buffer {a.get('name')!r}")
        elif k == "scalar":
            et = elem_type(need(a, "type", what), what)
            v = need(a, "value", what)
            vals = v if isinstance(v, list) else [v]
            if len(vals) != et.lanes:
                raise RunError(f"{what}: a {et.name} takes {et.lanes} value(s), got {len(vals)}")
            a["_bytes"] = scalars_to_type(vals, et, what).tobytes()
            a["_et"] = et
        elif k == "struct":
            a["_bytes"] = struct_bytes(a, what)
        elif k == "local":
            b = to_int_value(need(a, "bytes", what), f"{what} bytes")
            if b < 0:
                raise RunError(f"{what}: negative local size {b}")
        else:
            raise RunError(f"{what}: unknown argument kind {k!r}")


# ---------------------------------------------------------------------------------------------
# Running on pocl
# ---------------------------------------------------------------------------------------------

def pocl_context(cl):
    for p in cl.get_platforms():
        if "pocl" in p.name.lower() or "portable computing language" in p.name.lower():
            devs = p.get_devices()
            if devs:
                return cl.Context(devs[:1]), devs[0]
    raise RunError("no pocl platform found (pyopencl sees: "
                   + ", ".join(p.name for p in cl.get_platforms()) + ")")


def build_options(source, includes, defines=()):
    """The build options: gcn.h's directory, the source's own (pocl compiles a copy of the
    source elsewhere, so quoted includes are not found next to it otherwise), then every -I."""
    opts = list(BASE_BUILD_OPTIONS)
    for d in [HEADER_DIR, Path(source).resolve().parent] + [Path(i) for i in includes]:
        d = str(Path(d).resolve())
        if any(c.isspace() for c in d):
            # pocl splits the option string at white space and knows no quoting.
            raise RunError(f"include directory {d!r}: a path with white space cannot be passed to pocl")
        opts += ["-I", d]
    return opts + list(defines)


class StderrToFile:
    """pocl's compiler prints "N errors generated." on the process's stderr; the build log has
    the diagnostics themselves, so that noise is captured (fd level) while building."""

    def __enter__(self):
        sys.stderr.flush()
        self.saved = os.dup(2)
        self.tmp = tempfile.TemporaryFile()
        os.dup2(self.tmp.fileno(), 2)
        return self

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.tmp.seek(0)
        self.text = self.tmp.read().decode(errors="replace")
        self.tmp.close()
        return False


def compile_source(cl, ctx, source, options, force_header=False):
    """Build `source` on pocl: (program, None) or (None, build log).  The raw program class is
    used so that pyopencl adds no options and no cache of its own (pocl caches builds, keyed
    on the preprocessed source, so header changes are seen)."""
    try:
        src = Path(source).read_text()
    except OSError as e:
        raise RunError(f"{source}: cannot read: {e.strerror}")
    if force_header:
        # A split launch is right only with gcn.h's work-item functions; its include guard
        # makes this harmless for a source that includes it already.
        src = f'#include "gcn.h"\n#line 1\n{src}'
    prg = cl._cl._Program(ctx, src)
    with StderrToFile():
        try:
            prg.build(" ".join(options), ctx.devices)
            return prg, None
        except cl.Error as e:
            try:
                log = prg.get_build_info(ctx.devices[0], cl.program_build_info.LOG)
            except cl.Error:
                log = str(e)
    # pocl compiles a copy of the source under its cache: name the real file instead.
    log = re.sub(r"\S*/tempfile_\w+\.cl", str(source), log or str(e))
    return None, log.strip()


def build_program(cl, ctx, source, includes, defines=(), force_header=False):
    prg, log = compile_source(cl, ctx, source, build_options(source, includes, defines),
                              force_header)
    if prg is None:
        first = next((ln for ln in log.splitlines() if "error" in ln), log.splitlines()[0] if log else "")
        first = re.sub(r"^error:\s*", "", first)
        raise RunError(f"{source}: build on pocl failed: {first}", log)
    return prg


ADDR_GLOBAL = 0x119B
ADDR_LOCAL = 0x119C
ADDR_CONSTANT = 0x119D
ADDR_PRIVATE = 0x119E


def check_args(cl, kernel, li, l):
    """Compare the description's arguments with the kernel's parameters (count and kind)."""
    name = l["kernel"]
    args = l.get("args", [])
    nparams = kernel.get_info(cl.kernel_info.NUM_ARGS)
    if nparams != len(args):
        raise RunError(f"launch {li} ({name}): the kernel takes {nparams} arguments, "
                       f"the description gives {len(args)}")
    for ai, a in enumerate(args):
        what = f"launch {li} ({name}) arg {ai}"
        try:
            aq = kernel.get_arg_info(ai, cl.kernel_arg_info.ADDRESS_QUALIFIER)
            tn = kernel.get_arg_info(ai, cl.kernel_arg_info.TYPE_NAME)
            pn = kernel.get_arg_info(ai, cl.kernel_arg_info.NAME)
        except Exception:
            continue  # no argument info: nothing to check against
        k = a["kind"]
        if k == "buffer" and aq not in (ADDR_GLOBAL, ADDR_CONSTANT):
            raise RunError(f"{what}: buffer {a['name']!r} given for parameter {pn!r} ({tn}), "
                           "which is not a global or constant pointer")
        if k == "local" and aq != ADDR_LOCAL:
            raise RunError(f"{what}: local memory given for parameter {pn!r} ({tn}), "
                           "which is not a local pointer")
        if k == "struct" and (aq != ADDR_PRIVATE or tn.endswith("*")):
            raise RunError(f"{what}: a struct given for parameter {pn!r} ({tn}), which is a pointer")
        if k == "scalar":
            if aq != ADDR_PRIVATE or tn.endswith("*"):
                raise RunError(f"{what}: a scalar given for parameter {pn!r} ({tn}), "
                               "which is a pointer")
            known = TYPE_RE.match(tn)
            if known and known.group(1) in SCALAR_TYPES and tn != a["_et"].name:
                raise RunError(f"{what}: a {a['_et'].name} given for parameter {pn!r} of type {tn}")


def check_reqd_size(cl, kernel, dev, li, l, g, loc, off):
    """A kernel with reqd_work_group_size runs only with that local size, so on pocl it cannot
    run a partial work-group (which is enqueued with the remainder as its local size)."""
    try:
        reqd = list(kernel.get_work_group_info(cl.kernel_work_group_info.COMPILE_WORK_GROUP_SIZE, dev))
    except cl.Error:
        return
    if not any(reqd):
        return
    for piece in split_ranges(g, loc, off):
        pl = [p[1] for p in piece] + [1] * (3 - len(piece))
        if pl != reqd:
            partial = pl[:len(loc)] != loc
            raise RunError(f"launch {li} ({l['kernel']}): the kernel requires work-groups of "
                           f"{reqd} (reqd_work_group_size) and the launch has "
                           + (f"a partial group of {pl[:len(loc)]} (global {g}, local {loc}), "
                              "which pocl can only run as a launch of its own with that local size"
                              if partial else f"local {loc}"))


def split_ranges(g, loc, off):
    """The pieces of an NDRange whose global size is not a multiple of the local size: per
    dimension the full groups and the partial last group, as (global, local, offset, first
    group) for each combination. pocl does not support non-uniform work-groups, so each piece
    is enqueued on its own (see gcn.h: GCN_POCL_SPLIT)."""
    per_dim = []
    for gd, ld, od in zip(g, loc, off):
        full = gd // ld * ld
        parts = []
        if full:
            parts.append((full, ld, od, 0))
        if gd - full:
            parts.append((gd - full, gd - full, od + full, full // ld))
        per_dim.append(parts)
    pieces = [[]]
    for parts in per_dim:
        pieces = [p + [q] for p in pieces for q in parts]
    return pieces


def split_defines(g, loc, off):
    """Build options for a launch with a partial work-group: the real grid, for gcn.h's
    GCN_POCL_SPLIT work-item functions."""
    defines = ["-DGCN_POCL_SPLIT=1"]
    for d in range(3):
        gd = g[d] if d < len(g) else 1
        ld = loc[d] if d < len(loc) else 1
        od = off[d] if d < len(off) else 0
        defines += [f"-DGCN_POCL_GLOBAL_SIZE_{d}={gd}", f"-DGCN_POCL_LOCAL_SIZE_{d}={ld}",
                    f"-DGCN_POCL_GLOBAL_OFFSET_{d}={od}"]
    return defines


def load_inputs(buffers, inputs_dir):
    inputs = {}
    for b in buffers.values():
        data = None
        if inputs_dir:
            f = Path(inputs_dir) / f"{b.name}.in.bin"
            if f.exists():
                data = f.read_bytes()
                if len(data) != b.nbytes:
                    raise RunError(f"{f}: {len(data)} bytes, buffer {b.name!r} has {b.nbytes} "
                                   f"({b.count} x {b.et.name})")
                data = np.frombuffer(data, dtype=b.et.dtype).copy()
        if data is None:
            data = generate(b.name, b.et, b.count, b.init)
        inputs[b.name] = data
    return inputs


def run(args):
    import pyopencl as cl  # imported here so --self-test and argument errors need no OpenCL

    buffers, launches, outputs = parse_description(args.launch)
    inputs = load_inputs(buffers, args.inputs)
    if args.write_inputs:
        # Written before anything runs: a launch that crashes pocl can still be reproduced.
        write_files(args.write_inputs, {f"{n}.in.bin": inputs[n].tobytes() for n in buffers})

    ctx, dev = pocl_context(cl)
    programs = {}
    grids = []
    kernels = []
    # Build every program, create every kernel and check its arguments before anything runs.
    for li, l in enumerate(launches):
        g, loc = dims(li, l, "global"), dims(li, l, "local")
        off = dims(li, l, "offset", [0] * len(g))
        grids.append((g, loc, off))
        if all(gd % ld == 0 for gd, ld in zip(g, loc)):
            key, defines = (), []
        else:
            key, defines = (tuple(g), tuple(loc), tuple(off)), split_defines(g, loc, off)
        if key not in programs:
            programs[key] = build_program(cl, ctx, args.source, args.include, defines,
                                          force_header=bool(defines))
        prg = programs[key]
        try:
            k = cl.Kernel(prg, l["kernel"])
        except cl.Error:
            names = sorted(kk.function_name for kk in prg.all_kernels())
            raise RunError(f"launch {li}: no kernel {l['kernel']!r} in {args.source} "
                           f"(kernels: {', '.join(names)})")
        check_args(cl, k, li, l)
        check_reqd_size(cl, k, dev, li, l, g, loc, off)
        kernels.append(k)

    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    mf = cl.mem_flags
    clbufs = {}
    try:
        for b in buffers.values():  # in file order
            if b.nbytes == 0:
                clbufs[b.name] = cl.Buffer(ctx, mf.READ_WRITE, 1)  # OpenCL has no empty buffers
            else:
                clbufs[b.name] = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR,
                                           hostbuf=inputs[b.name])
        queue.finish()
    except cl.Error as e:
        raise RunError(f"buffer {b.name!r} ({b.nbytes} bytes): pocl cannot create it: {e}")

    # Every launch has its own kernel object, so all arguments are set before the first launch.
    for li, (l, k) in enumerate(zip(launches, kernels)):
        for ai, a in enumerate(l.get("args", [])):
            try:
                if a["kind"] == "buffer":
                    k.set_arg(ai, clbufs[a["name"]])
                elif a["kind"] in ("scalar", "struct"):
                    k.set_arg(ai, np.frombuffer(a["_bytes"], dtype=np.uint8))
                else:
                    k.set_arg(ai, cl.LocalMemory(max(1, to_int_value(a["bytes"], "bytes"))))
            except cl.Error as e:
                extra = ""
                if a["kind"] == "scalar":
                    extra = f" (the description gives a {a['_et'].name}, {len(a['_bytes'])} bytes)"
                raise RunError(f"launch {li} ({l['kernel']}) arg {ai}: pocl refused the "
                               f"argument{extra}: {e}")

    exec_ns = 0
    wall = 0.0
    workgroups = 0
    enqueues = 0
    for li, (l, k) in enumerate(zip(launches, kernels)):
        g, loc, off = grids[li]
        if any(x == 0 for x in g):
            continue  # an empty grid runs nothing
        t0 = time.perf_counter()
        events = []
        try:
            for piece in split_ranges(g, loc, off):
                events.append(cl.enqueue_nd_range_kernel(
                    queue, k, [p[0] for p in piece], [p[1] for p in piece],
                    global_work_offset=[p[2] for p in piece]))
                enqueues += 1
            queue.finish()
        except cl.Error as e:
            raise RunError(f"launch {li} ({l['kernel']}): global {g} local {loc} offset {off}: "
                           f"pocl refused or failed the launch: {e}")
        wall += time.perf_counter() - t0
        for ev in events:
            exec_ns += ev.profile.end - ev.profile.start
        n = 1
        for gd, ld in zip(g, loc):
            n *= -(-gd // ld)
        workgroups += n

    results = {}
    for b in buffers.values():
        host = np.empty(b.count * b.et.lanes, dtype=b.et.dtype)
        if b.nbytes:
            cl.enqueue_copy(queue, host, clbufs[b.name])
        results[b.name] = host
    queue.finish()

    names = list(buffers) if args.dump_all else outputs
    write_files(args.out, {f"{n}.out.bin": results[n].tobytes() for n in names})
    # The spec requires every buffer not in outputs to come out unchanged (the emulator is
    # checked for that); a description that forgets an output is caught here.
    changed = [n for n in buffers if n not in outputs and
               results[n].tobytes() != inputs[n].tobytes()]
    for n in changed:
        print(f"pocl_run: warning: buffer {n!r} is not in outputs, but the launches changed it",
              file=sys.stderr)
    if args.json:
        print(json.dumps({
            "runner": "pocl",
            "device": dev.name,
            "launches": len(launches),
            "workgroups": workgroups,
            "enqueues": enqueues,
            "changed_unlisted": changed,
            # Time between each launch's start and end on the device (pocl's profiling
            # events), summed: without building, without pocl's compilation of the kernel
            # for a work-group size at its first enqueue, without buffer transfers.
            "exec_seconds": exec_ns * 1e-9,
            # Wall time of the launches including that compilation.
            "launch_wall_seconds": wall,
        }))


def write_files(directory, files):
    """Write all files into directory, or none: they go to a temporary directory next to it
    first and are moved in only when all are written."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".pocl-run-", dir=d))
    try:
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        for name in files:
            os.replace(tmp / name, d / name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Self-test: the generators against values worked out by hand from the spec's formulas
# ---------------------------------------------------------------------------------------------

def self_test():
    fails = []

    def check(what, got, want):
        if got != want:
            fails.append(f"{what}: got {got!r}, want {want!r}")

    x = splitmix64(0, 3)
    check("splitmix64(seed 0) first", int(x[0]), 0xE220A8397B1DCDAF)

    # The reference splitmix64 in plain Python integers, written separately from the numpy one.
    def sm(seed, i):
        z = (seed + (i + 1) * 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)
    for seed in (0, 1, 42, -1):
        got = [int(v) for v in splitmix64(seed, 5)]
        check(f"splitmix64(seed {seed})", got, [sm(seed & MASK64, i) for i in range(5)])

    # randint over int: lo + x mod (hi-lo+1). Seed 0: x_0 = 0xE220A8397B1DCDAF.
    a = generate("t", ElemType("int"), 1, {"kind": "randint", "lo": -5, "hi": 5, "seed": 0})
    check("randint int [-5,5] seed 0", int(a[0]), -5 + 0xE220A8397B1DCDAF % 11)
    a = generate("t", ElemType("uint"), 1, {"kind": "randint", "lo": 0, "hi": 0xFFFFFFFF, "seed": 0})
    check("randint uint full range", int(a[0]), 0xE220A8397B1DCDAF % (1 << 32))
    a = generate("t", ElemType("ulong"), 1, {"kind": "randint", "lo": 0, "hi": MASK64, "seed": 0})
    check("randint ulong full range", int(a[0]), 0xE220A8397B1DCDAF)
    a = generate("t", ElemType("float"), 1, {"kind": "randint", "lo": 0, "hi": 1000, "seed": 0})
    check("randint into float", float(a[0]), float(0xE220A8397B1DCDAF % 1001))

    # randfloat over float: u = (x >> 40) * 2^-24 = 0xE220A8 / 2^24.
    u = 0xE220A8 / 2 ** 24
    a = generate("t", ElemType("float"), 1, {"kind": "randfloat", "lo": 0, "hi": 1, "seed": 0})
    check("randfloat [0,1) seed 0", float(a[0]), u)  # exact: 24 bits
    a = generate("t", ElemType("float"), 1, {"kind": "randfloat", "lo": -1, "hi": 1, "seed": 0})
    check("randfloat [-1,1) seed 0", float(a[0]), float(np.float32(-1 + 2 * u)))
    ud = (0xE220A8397B1DCDAF >> 11) / 2 ** 53
    a = generate("t", ElemType("double"), 1, {"kind": "randfloat", "lo": 0, "hi": 1, "seed": 0})
    check("randfloat double seed 0", float(a[0]), ud)
    # lo + (hi - lo) * u rounded once into float: 1/3 + (2/3)u needs rounding.
    a = generate("t", ElemType("float"), 1, {"kind": "randfloat", "lo": 1 / 3, "hi": 1, "seed": 0})
    check("randfloat float rounding", float(a[0]), float(np.float32(1 / 3 + (1 - 1 / 3) * u)))

    # Half conversion: one rounding from float64, ties to even, overflow to inf, subnormals.
    def h(v):
        return int(f64_to_f16(np.array([v]))[0:1].view(np.uint16)[0])
    check("half 1.0", h(1.0), 0x3C00)
    check("half -2.0", h(-2.0), 0xC000)
    check("half tie to even (1 + 2^-11)", h(1 + 2 ** -11), 0x3C00)
    check("half tie to even (1 + 3*2^-11)", h(1 + 3 * 2 ** -11), 0x3C02)
    # Just above the tie: float64 -> float32 -> half would round to the tie, then to even (0x3C00).
    check("half no double rounding", h(1 + 2 ** -11 + 2 ** -40), 0x3C01)
    check("half max", h(65504.0), 0x7BFF)
    check("half rounds to max", h(65519.0), 0x7BFF)
    check("half overflow", h(65520.0), 0x7C00)
    check("half smallest subnormal", h(2 ** -24), 0x0001)
    check("half half of smallest subnormal (tie to 0)", h(2 ** -25), 0x0000)
    check("half 3*2^-25 (tie to even 2)", h(3 * 2 ** -25), 0x0002)
    check("half largest subnormal", h(1023 * 2 ** -24), 0x03FF)
    check("half subnormal rounds up to normal", h(2 ** -14 - 2 ** -26), 0x0400)
    check("half -0", h(-0.0), 0x8000)
    check("half inf", h(math.inf), 0x7C00)
    check("half -inf", h(-math.inf), 0xFC00)
    check("half nan", h(math.nan) & 0x7C00 == 0x7C00 and h(math.nan) & 0x3FF != 0, True)
    check("half pi", h(math.pi), 0x4248)
    # Random values against numpy's float64 -> float16 (correctly rounded in current numpy).
    r = np.frombuffer(splitmix64(7, 20000).tobytes(), dtype=np.float64)
    r = r[np.isfinite(r)]
    r = np.ldexp(np.frexp(r)[0], (splitmix64(8, len(r)) % np.uint64(60)).astype(np.int64) - 30)
    mine = f64_to_f16(r).view(np.uint16)
    with np.errstate(over="ignore"):
        ref = r.astype(np.float16).view(np.uint16)
    check("half vs numpy on 20000 values", int(np.sum(mine != ref)), 0)

    # iota: float64 then converted; integers modulo 2^bits.
    a = generate("t", ElemType("float"), 4, {"kind": "iota", "start": 0, "step": 0.1})
    check("iota float 0.1", [float(v) for v in a],
          [float(np.float32(0.1 * i)) for i in range(4)])
    a = generate("t", ElemType("uchar"), 3, {"kind": "iota", "start": 254})
    check("iota uchar wraps", [int(v) for v in a], [254, 255, 0])
    a = generate("t", ElemType("int2"), 2, {"kind": "iota", "start": 10, "step": -3})
    check("iota int2 over 4 lanes", [int(v) for v in a], [10, 7, 4, 1])

    # fill modulo 2^bits.
    a = generate("t", ElemType("uint"), 2, {"kind": "fill", "value": -1})
    check("fill uint -1", [int(v) for v in a], [0xFFFFFFFF] * 2)
    a = generate("t", ElemType("char"), 1, {"kind": "fill", "value": 0xFF})
    check("fill char 0xFF", int(a[0]), -1)
    a = generate("t", ElemType("short"), 1, {"kind": "fill", "value": 70000})
    check("fill short 70000", int(a[0]), 70000 - 65536)
    a = generate("t", ElemType("half"), 1, {"kind": "fill", "value": 1.5})
    check("fill half 1.5", int(a.view(np.uint16)[0]), 0x3E00)
    a = generate("t", ElemType("float"), 1, {"kind": "fill", "value": 16777217})
    check("fill float 2^24+1 (tie to even)", float(a[0]), 16777216.0)

    # sorted, then set.
    a = generate("t", ElemType("int"), 5, {"kind": "randint", "lo": 0, "hi": 9, "seed": 3,
                                            "sorted": True, "set": [[0, -1], [4, 100]]})
    want = sorted(sm(3, i) % 10 for i in range(5))
    want[0], want[4] = -1, 100
    check("sorted then set", [int(v) for v in a], want)

    # Types and sizes.
    check("float4 size", ElemType("float4").size, 16)
    check("half16 size", ElemType("half16").size, 32)
    for bad in ("float3", "bool", "int32", "vec4"):
        try:
            ElemType(bad)
            fails.append(f"type {bad!r} accepted")
        except RunError:
            pass

    for f in fails:
        print("FAIL:", f)
    print(f"self-test: {'FAILED' if fails else 'ok'} ({len(fails)} failures)")
    return 1 if fails else 0


# ---------------------------------------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise RunError(message)


def main(argv=None):
    p = Parser(description="Run a launch description on pocl (the reference for `gcn run`).")
    p.add_argument("launch", nargs="?", help="the launch description (JSON)")
    p.add_argument("--source", help="the OpenCL source of the kernels")
    p.add_argument("-I", dest="include", action="append", default=[], help="include directory")
    p.add_argument("--out", help="where <name>.out.bin files are written")
    p.add_argument("--inputs", help="directory of <name>.in.bin initial contents")
    p.add_argument("--write-inputs", help="write the initial contents as <name>.in.bin here")
    p.add_argument("--dump-all", action="store_true", help="write every buffer, not only outputs")
    p.add_argument("--json", action="store_true", help="print run statistics as one JSON object")
    p.add_argument("--threads", type=int, help="pocl worker threads (1: work-groups run one "
                   "after another, so atomics happen in a repeatable order)")
    p.add_argument("--self-test", action="store_true", help="check the generators and exit")
    try:
        args = p.parse_args(argv)
        if args.self_test:
            return self_test()
        if not args.launch or not args.source or not args.out:
            raise RunError("usage: pocl_run.py LAUNCH.json --source K.cl --out DIR [...]")
        if args.threads is not None:
            if args.threads < 1:
                raise RunError("--threads must be at least 1")
            # Read by pocl when the platform is first opened (the name changed in pocl 4).
            os.environ["POCL_MAX_PTHREAD_COUNT"] = str(args.threads)
            os.environ["POCL_CPU_MAX_CU_COUNT"] = str(args.threads)
        run(args)
        return 0
    except RunError as e:
        print(f"pocl_run: error: {e.args[0]}", file=sys.stderr)
        if len(e.args) > 1:
            print(e.args[1], file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
