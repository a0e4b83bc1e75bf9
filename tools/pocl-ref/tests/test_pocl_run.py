#!/usr/bin/python3
"""End-to-end tests of pocl_run.py and of gcn.h's pocl branch.

usage: /usr/bin/python3 tools/pocl-ref/tests/test_pocl_run.py

Every expected value is computed here from the launch (work-item functions) or from the inputs
the runner wrote (atomics), never taken from a run. Prints one line per check and a summary;
exit status 1 if any check failed.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
RUNNER = HERE.parent / "pocl_run.py"
PY = "/usr/bin/python3"

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {name}{'' if ok else ': ' + detail}")


def run(desc, source, out, *extra, tmp):
    path = Path(tmp) / f"desc{len(list(Path(tmp).glob('desc*')))}.json"
    path.write_text(desc if isinstance(desc, str) else json.dumps(desc))
    p = subprocess.run([PY, str(RUNNER), str(path), "--source", str(source), "--out", str(out),
                        *extra], capture_output=True, text=True)
    return p


def ids_launch(g, loc, off=None):
    dims = len(g)
    total = int(np.prod(g))
    groups = [(gd + ld - 1) // ld for gd, ld in zip(g, loc)]
    lds = int(np.prod(loc)) * 4
    launch = {"kernel": "ids", "global": g, "local": loc,
              "args": [{"kind": "buffer", "name": "o"},
                       {"kind": "scalar", "type": "uint2", "value": [40, 30]},
                       {"kind": "local", "bytes": lds, "elem": "uint"}]}
    if off is not None:
        launch["offset"] = off
    return {"buffers": {"o": {"type": "uint", "count": total * 8, "init": {"kind": "fill", "value": -1}}},
            "launches": [launch], "outputs": {"o": {"kind": "exact"}}, "x-note": "unknown keys are ignored"}, groups, dims


def pack(a):
    a = list(a) + [0] * (3 - len(a))
    return a[0] | (a[1] << 10) | (a[2] << 20)


def test_ids(tmp):
    cases = [([64], [16], None), ([1000], [64], None), ([10, 10], [4, 3], [5, 7]),
             ([9, 5, 3], [4, 2, 2], [1, 2, 3]), ([12, 6], [4, 3], None)]
    for g, loc, off in cases:
        desc, groups, dims = ids_launch(g, loc, off)
        out = Path(tmp) / f"ids_{'x'.join(map(str, g))}"
        p = run(desc, HERE / "ids.cl", out, "--json", tmp=tmp)
        name = f"work-item functions, global {g} local {loc} offset {off}"
        if p.returncode != 0:
            check(name, False, p.stderr.strip())
            continue
        stats = json.loads(p.stdout)
        o = np.fromfile(out / "o.out.bin", dtype=np.uint32).reshape(-1, 8)
        g3 = list(g) + [1] * (3 - dims)
        l3 = list(loc) + [1] * (3 - dims)
        o3 = list(off or [0] * dims) + [0] * (3 - dims)
        bad = 0
        for z in range(g3[2]):
            for y in range(g3[1]):
                for x in range(g3[0]):
                    pos = (x, y, z)
                    grp = [pos[d] // l3[d] for d in range(3)]
                    lid = [pos[d] % l3[d] for d in range(3)]
                    # the actual size of this work-item's group (the last one may be partial)
                    act = [min(l3[d], g3[d] - grp[d] * l3[d]) for d in range(3)]
                    lane = ((lid[2] * act[1] + lid[1]) * act[0] + lid[0]) % 64
                    # unused dimensions: size 1, one group, offset 0
                    want = [pack(grp), pack(groups + [1] * (3 - dims)), pack(g3), pack(l3), pack(o3),
                            pack(lid), 40030, lane | (dims << 16)]
                    got = list(o[(z * g3[1] + y) * g3[0] + x])
                    if got != want:
                        if bad < 3:
                            print(f"     at {pos}: got {got}, want {want}")
                        bad += 1
        check(name, bad == 0, f"{bad} work-items wrong")
        pieces = int(np.prod([1 + (gd % ld != 0) - (gd < ld) for gd, ld in zip(g, loc)]))
        check(f"  --json: launches 1, enqueues {pieces}, exec_seconds",
              stats["launches"] == 1 and stats["enqueues"] == pieces and stats["exec_seconds"] > 0,
              json.dumps(stats))


def test_atomics(tmp):
    desc = {
        "buffers": {
            "f": {"type": "float", "count": 8, "init": {"kind": "fill", "value": 0}},
            "d": {"type": "double", "count": 1},
            "w": {"type": "uint", "count": 6, "init": {"kind": "zeros", "set": [[1, 3]]}},
            "u64": {"type": "ulong", "count": 3},
            "s64": {"type": "long", "count": 2},
            "v": {"type": "float", "count": 256, "init": {"kind": "randint", "lo": -50, "hi": 50, "seed": 9}},
            "ring": {"type": "uint", "count": 256}},
        "launches": [{"kernel": "at", "global": [256], "local": [64], "args": [
            {"kind": "buffer", "name": n} for n in ("f", "d", "w", "u64", "s64", "v", "ring")]}],
        "outputs": {"f": {"kind": "exact"}}}
    out, inp = Path(tmp) / "at_out", Path(tmp) / "at_in"
    p = run(desc, HERE / "at.cl", out, "--dump-all", "--write-inputs", str(inp), tmp=tmp)
    if p.returncode != 0:
        check("atomics run", False, p.stderr.strip())
        return
    rd = lambda n, t: np.fromfile(out / f"{n}.out.bin", dtype=t)  # noqa: E731
    v = np.fromfile(inp / "v.in.bin", dtype=np.float32).astype(np.float64)
    f, d, w = rd("f", np.float32), rd("d", np.float64), rd("w", np.uint32)
    u64, s64, ring = rd("u64", np.uint64), rd("s64", np.int64), rd("ring", np.uint32)
    # integer-valued floats: every order of the additions gives the exact sum
    check("float atomic_add (global)", f[0] == v.sum(), f"{f[0]} != {v.sum()}")
    check("float atomic_max / atomic_min (global)", f[1] == max(0, v.max()) and f[2] == min(0, v.min()),
          f"{f[1:3]}")
    check("float atomic_add (local)", list(f[3:7]) == [64.0] * 4, f"{f[3:7]}")
    check("double atomic_add (global)", d[0] == v.sum(), f"{d[0]}")
    check("atomic_inc_wrap uint (global)", w[0] == 256 % 10, f"{w[0]}")
    counts = np.bincount(ring, minlength=10)
    check("atomic_inc_wrap returns the old values", list(counts) == [26] * 6 + [25] * 4, f"{counts}")
    x = 3
    for _ in range(256):
        x = 6 if (x == 0 or x > 6) else x - 1
    check("atomic_dec_wrap uint (global)", w[1] == x, f"{w[1]} != {x}")
    y = 2
    for _ in range(64):
        y = 4 if (y == 0 or y > 4) else y - 1
    check("atomic_inc_wrap / atomic_dec_wrap uint (local)",
          list(w[2:6]) == [(64 % 6) | (y << 16)] * 4, f"{w[2:6]}")
    check("atomic_inc_wrap ulong", u64[0] == 256, f"{u64[0]}")
    check("atomic_add ulong", int(u64[1]) == sum(i << 33 for i in range(256)), f"{u64[1]}")
    check("atomic_max ulong", int(u64[2]) == 255 * 0x100000001, f"{u64[2]}")
    check("atomic_min long", int(s64[0]) == -255 * 0x100000000, f"{s64[0]}")
    check("atomic_cmpxchg long", 1 <= int(s64[1]) <= 256, f"{s64[1]}")
    check("--dump-all writes every buffer",
          sorted(q.name for q in out.iterdir()) == sorted(f"{n}.out.bin" for n in desc["buffers"]))

    # --inputs: the same bytes give the same results; a changed input changes them.
    out2 = Path(tmp) / "at_out2"
    p = run(desc, HERE / "at.cl", out2, "--inputs", str(inp), tmp=tmp)
    check("--inputs with the written inputs", p.returncode == 0 and
          (out2 / "f.out.bin").read_bytes()[:4] == (out / "f.out.bin").read_bytes()[:4], p.stderr)
    (inp / "v.in.bin").write_bytes(np.full(256, 2.0, dtype=np.float32).tobytes())
    p = run(desc, HERE / "at.cl", out2, "--inputs", str(inp), tmp=tmp)
    got = np.fromfile(out2 / "f.out.bin", dtype=np.float32)[0] if p.returncode == 0 else None
    check("--inputs replaces the generated contents", got == 512.0, f"{got} {p.stderr}")


def test_builtins(tmp):
    desc = {"buffers": {
        "a": {"type": "uint", "count": 512, "init": {"kind": "randint", "lo": 0, "hi": 0xFFFFFFFF, "seed": 1}},
        "b": {"type": "uint", "count": 512, "init": {"kind": "randint", "lo": 0, "hi": 0xFFFFFFFF, "seed": 2}},
        "c": {"type": "uint", "count": 512, "init": {"kind": "randint", "lo": 0, "hi": 0xFFFFFFFF, "seed": 3,
                                                       "set": [[0, 0xFFFFFFFF]]}},
        "out": {"type": "uint", "count": 512}},
        "launches": [{"kernel": "sad", "global": [512], "local": [64], "args": [
            {"kind": "buffer", "name": n} for n in ("a", "b", "c", "out")]}],
        "outputs": {"out": {"kind": "exact"}}}
    out, inp = Path(tmp) / "sad_out", Path(tmp) / "sad_in"
    p = run(desc, HERE / "builtins.cl", out, "--write-inputs", str(inp), tmp=tmp)
    if p.returncode != 0:
        check("__builtin_amdgcn_sad_u8", False, p.stderr.strip())
        return
    a, b, c = (np.fromfile(inp / f"{n}.in.bin", dtype=np.uint32) for n in "abc")
    got = np.fromfile(out / "out.out.bin", dtype=np.uint32)
    want = [(int(z) + sum(abs(((int(x) >> k) & 255) - ((int(y) >> k) & 255)) for k in (0, 8, 16, 24)))
            & 0xFFFFFFFF for x, y, z in zip(a, b, c)]
    check("__builtin_amdgcn_sad_u8 (wraps modulo 2^32)", list(got) == want,
          f"{sum(int(g) != w for g, w in zip(got, want))} of 512 wrong")


def test_struct(tmp):
    fields = [{"offset": 0, "type": "float", "value": 1.5}, {"offset": 4, "type": "int", "value": -7},
              {"offset": 8, "type": "double", "value": 0.1}, {"offset": 16, "type": "ushort2", "value": [65535, 3]}]
    desc = {"buffers": {"out": {"type": "double", "count": 5}},
            "launches": [{"kernel": "st", "global": [1], "local": [1], "args": [
                {"kind": "struct", "size": 24, "type_name": "s_t", "fields": fields},
                {"kind": "buffer", "name": "out"}]}],
            "outputs": {"out": {"kind": "exact"}}}
    out = Path(tmp) / "st_out"
    p = run(desc, HERE / "builtins.cl", out, tmp=tmp)
    got = list(np.fromfile(out / "out.out.bin", dtype=np.float64)) if p.returncode == 0 else p.stderr
    check("struct argument (proposed kind)", got == [1.5, -7.0, 0.1, 65535.0, 3.0], f"{got}")
    desc["launches"][0]["args"][0]["fields"].append({"offset": 20, "type": "int", "value": 1})
    desc["launches"][0]["args"][0]["fields"][3]["type"] = "uint2"
    p = run(desc, HERE / "builtins.cl", Path(tmp) / "st_bad", tmp=tmp)
    check("struct argument: overlapping fields are an error", p.returncode == 1 and "overlaps" in p.stderr,
          p.stderr)


def test_errors(tmp):
    good = {"buffers": {"x": {"type": "float", "count": 16}, "y": {"type": "float", "count": 16}},
            "launches": [{"kernel": "saxpy", "global": [16], "local": [16], "args": [
                {"kind": "scalar", "type": "int", "value": 16}, {"kind": "scalar", "type": "float", "value": 2},
                {"kind": "buffer", "name": "x"}, {"kind": "buffer", "name": "y"}]}],
            "outputs": {"y": {"kind": "exact"}}}
    src = HERE.parent.parent.parent / "tests" / "kernels" / "vector_add.cl"

    def variant(f):
        d = json.loads(json.dumps(good))
        f(d)
        return d
    short_in = Path(tmp) / "short_in"
    short_in.mkdir()
    (short_in / "x.in.bin").write_bytes(b"\0" * 60)
    cases = [
        ("bad JSON", '{"buffers": {', ()),
        ("unknown buffer", variant(lambda d: d["launches"][0]["args"][2].update(name="z")), ()),
        ("unknown type", variant(lambda d: d["buffers"]["x"].update(type="float3")), ()),
        ("unknown init kind", variant(lambda d: d["buffers"]["x"].update(init={"kind": "gauss"})), ()),
        ("wrong argument count", variant(lambda d: d["launches"][0]["args"].pop()), ()),
        ("unknown kernel", variant(lambda d: d["launches"][0].update(kernel="nope")), ()),
        ("buffer for a scalar parameter", variant(lambda d: d["launches"][0]["args"].__setitem__(
            0, {"kind": "buffer", "name": "x"})), ()),
        ("unknown output", variant(lambda d: d["outputs"].update(z={"kind": "exact"})), ()),
        ("input file of the wrong size", good, ("--inputs", str(short_in))),
    ]
    for name, desc, extra in cases:
        out = Path(tmp) / ("err_" + name.replace(" ", "_"))
        p = run(desc, src, out, *extra, tmp=tmp)
        lines = p.stderr.strip().splitlines()
        check(f"error: {name}", p.returncode == 1 and len(lines) == 1 and
              lines[0].startswith("pocl_run: error:") and not out.exists(),
              f"status {p.returncode}, stderr {p.stderr!r}, out exists: {out.exists()}")
    out = Path(tmp) / "ok"
    p = run(good, src, out, tmp=tmp)
    y = np.fromfile(out / "y.out.bin", dtype=np.float32) if p.returncode == 0 else None
    check("the unmodified description runs (zeros in, zeros out)", y is not None and
          len(y) == 16 and not y.any(), p.stderr)


def main():
    p = subprocess.run([PY, str(RUNNER), "--self-test"], capture_output=True, text=True)
    check("--self-test", p.returncode == 0, p.stdout + p.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        test_ids(tmp)
        test_atomics(tmp)
        test_builtins(tmp)
        test_struct(tmp)
        test_errors(tmp)
    failed = results.count(False)
    print(f"{len(results) - failed} of {len(results)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
