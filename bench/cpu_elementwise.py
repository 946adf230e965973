"""CPU elementwise work beside numpy and numexpr (issue 18's table): median
wall time of ptensor's compiled functions (the Python package, host arrays)
and of numpy's and numexpr's on the same arrays, results compared.

Runs each thread count in a fresh process (PTENSOR_NUM_THREADS is read once
per process; numexpr gets the same count) and prints a markdown table for
bench/RESULTS.md:

    python3 bench/cpu_elementwise.py [--threads 1,2] [--large 10000000]
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

np.seterr(all="ignore")  # log of negatives: NaN, as intended

def median_s(fn, repeats=9, inner=1):
    fn()  # compiles (or loads) the kernel
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - start) / inner)
    times.sort()
    return times[len(times) // 2]


def same(a, b, rtol):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return bool(np.allclose(a, b, rtol=rtol, atol=1e-6, equal_nan=True))


def cases(large):
    import ptensor as pt

    try:  # optional where the GPU check runs it (no PyPI there)
        import numexpr as ne
    except ImportError:
        ne = None
    try:
        import ml_dtypes
    except ImportError:
        ml_dtypes = None
    try:  # erf's peer (scripts/setup.sh installs it; not on the GPU machine)
        from scipy.special import erf as scipy_erf
    except ImportError:
        scipy_erf = None

    rng = np.random.default_rng(0)

    @pt.pointwise
    def chain(x, y):
        return pt.math.exp(-((x * y + 1.5) ** 2)) * 0.5 + x

    def numpy_chain(x, y):
        return np.exp(-((x * y + 1.5) ** 2)) * 0.5 + x

    out = []
    small = rng.random(1000, dtype=np.float32)
    out.append(("add of 10^3 (us per call)", 1e6,
                lambda: pt.add(small, small), lambda: np.add(small, small),
                ne and (lambda: ne.evaluate("a + a", local_dict={"a": small})), 1e-6))
    for n in (10 ** 6, large):
        x = rng.random(n, dtype=np.float32) * 4 - 2
        exps = "10^%d" % round(np.log10(n))
        unary = [
            ("exp", pt.exp, np.exp, "exp(a)"),
            ("log", pt.log, np.log, "log(a)"),
            ("sin", pt.sin, np.sin, "sin(a)"),
            ("tanh", pt.tanh, np.tanh, "tanh(a)"),
            ("log10", pt.log10, np.log10, "log10(a)"),
            ("expm1", pt.expm1, np.expm1, "expm1(a)"),
            ("sigmoid", pt.sigmoid,
             lambda a: 1 / (1 + np.exp(-a)), "1 / (1 + exp(-a))"),
        ]
        for name, ours, theirs, expr in unary:
            arg = np.abs(x) + 1e-3 if name.startswith("log") else x
            out.append(("%s of %s" % (name, exps), 1e3,
                        lambda f=ours, a=arg: f(a), lambda f=theirs, a=arg: f(a),
                        ne and (lambda e=expr, a=arg: ne.evaluate(e, local_dict={"a": a})),
                        4e-6))
        # Half the arguments out of the domain (NaN results): a vector
        # math library's special-case path.
        out.append(("log of %s, half negative" % exps, 1e3, lambda a=x: pt.log(a),
                    lambda a=x: np.log(a),
                    ne and (lambda a=x: ne.evaluate("log(a)", local_dict={"a": a})), 4e-6))
        # Past exp's overflow and underflow, past asin's domain: libm's
        # fixed values (inf, 0, NaN), which libmvec computes per lane.
        out.append(("exp of %s, |x| up to 200" % exps, 1e3, lambda a=x * 100: pt.exp(a),
                    lambda a=x * 100: np.exp(a),
                    ne and (lambda a=x * 100: ne.evaluate("exp(a)", local_dict={"a": a})), 4e-6))
        out.append(("asin of %s, half outside [-1, 1]" % exps, 1e3, lambda a=x: pt.asin(a),
                    lambda a=x: np.arcsin(a),
                    ne and (lambda a=x: ne.evaluate("arcsin(a)", local_dict={"a": a})), 4e-6))
        # numpy has no erf: scipy.special.erf is the ufunc a numpy user
        # calls (float32 in, float32 out).
        out.append(("erf of %s (numpy column: scipy.special.erf)" % exps, 1e3,
                    lambda a=x: pt.erf(a), scipy_erf and (lambda a=x: scipy_erf(a)), None,
                    4e-6))
    x = rng.random(large, dtype=np.float32)
    y = rng.random(large, dtype=np.float32)
    into = np.empty_like(x)
    out.append(("add of 10^7, new result", 1e3, lambda: pt.add(x, y), lambda: np.add(x, y),
                ne and (lambda: ne.evaluate("a + b", local_dict={"a": x, "b": y})), 1e-6))
    out.append(("add of 10^7 into out=", 1e3, lambda: pt.add(x, y, out=into),
                lambda: np.add(x, y, out=into),
                ne and (lambda: ne.evaluate("a + b", local_dict={"a": x, "b": y}, out=into)),
                1e-6))
    sq = rng.random((3000, 3000), dtype=np.float32)
    out.append(("a.T + a, 3000^2", 1e3, lambda: pt.add(pt.permute_dims(sq, (1, 0)), sq),
                lambda: sq.T + sq,
                ne and (lambda: ne.evaluate("b + a", local_dict={"a": sq, "b": sq.T})), 1e-6))
    # Broadcasts (a bias row, a column, an outer sum) and a strided view:
    # 2-D loop nests, not one contiguous loop.
    mat = rng.random((4000, 2500), dtype=np.float32)
    row = rng.random(2500, dtype=np.float32)
    col = rng.random((4000, 1), dtype=np.float32)
    out.append(("m * row, 4000 x 2500", 1e3, lambda: pt.multiply(mat, row),
                lambda: mat * row,
                ne and (lambda: ne.evaluate("a * b", local_dict={"a": mat, "b": row})), 1e-6))
    out.append(("m + column, 4000 x 2500", 1e3, lambda: pt.add(mat, col),
                lambda: mat + col,
                ne and (lambda: ne.evaluate("a + b", local_dict={"a": mat, "b": col})), 1e-6))
    out.append(("column + row (outer), 4000 x 2500", 1e3, lambda: pt.add(col, row),
                lambda: col + row,
                ne and (lambda: ne.evaluate("a + b", local_dict={"a": col, "b": row})), 1e-6))
    out.append(("m[::2, 1:] + row[1:]", 1e3, lambda: pt.add(mat[::2, 1:], row[1:]),
                lambda: mat[::2, 1:] + row[1:],
                ne and (lambda: ne.evaluate("a + b", local_dict={"a": mat[::2, 1:],
                                                                 "b": row[1:]})), 1e-6))
    # Bools: a comparison writes them, a where reads them (bytes).
    flags = mat > np.float32(0.5)
    out.append(("m > 0.5 (bools), 4000 x 2500", 1e3, lambda: pt.greater(mat, 0.5),
                lambda: mat > np.float32(0.5),
                ne and (lambda: ne.evaluate("a > 0.5", local_dict={"a": mat})), 0))
    out.append(("where(c, m, 0), 4000 x 2500", 1e3, lambda: pt.where(flags, mat, 0.0),
                lambda: np.where(flags, mat, np.float32(0)),
                ne and (lambda: ne.evaluate("where(c, a, 0)", local_dict={"c": flags, "a": mat})),
                0))
    # Slices whose rows are apart (no broadcast): unit-stride rows.
    sl, sl2 = mat[::2, 1:], mat[1::2, 1:]
    out.append(("m[::2, 1:] + m[1::2, 1:]", 1e3, lambda: pt.add(sl, sl2),
                lambda: sl + sl2,
                ne and (lambda: ne.evaluate("a + b", local_dict={"a": sl, "b": sl2})), 1e-6))
    out.append(("exp(m[::2, 1:])", 1e3, lambda: pt.exp(sl), lambda: np.exp(sl),
                ne and (lambda: ne.evaluate("exp(a)", local_dict={"a": sl})), 1e-6))
    out.append(("5-op chain of 10^7 (one fused kernel; numpy: 5 passes)", 1e3,
                lambda: chain(x, y), lambda: numpy_chain(x, y),
                ne and (lambda: ne.evaluate("exp(-((a * b + 1.5) ** 2)) * 0.5 + a",
                                            local_dict={"a": x, "b": y})), 4e-6))
    # Integer division by a scalar: numpy multiplies by libdivide's magic
    # numbers; x86 has no vector division (ptensor-invariant-division).
    for itype in (np.int16, np.int32, np.int64):
        ints = rng.integers(-10 ** 4, 10 ** 4, large).astype(itype)
        seven = itype(7)
        iname = np.dtype(itype).name
        out.append(("x // 7 of 10^7 %s" % iname, 1e3,
                    lambda a=ints: pt.floor_divide(a, 7),
                    lambda a=ints, k=seven: np.floor_divide(a, k), None, 0))
        out.append(("x %% 7 of 10^7 %s" % iname, 1e3,
                    lambda a=ints: pt.remainder(a, 7),
                    lambda a=ints, k=seven: np.remainder(a, k), None, 0))
    h = (rng.random(large, dtype=np.float32) * 4 - 2)
    halves = [("float16", np.float16)]
    if ml_dtypes is not None:
        halves.append(("bfloat16", ml_dtypes.bfloat16))
    for name, dtype in halves:
        hx = h.astype(dtype)
        out.append(("exp of 10^7 %s (numpy: float32)" % name, 1e3, lambda a=hx: pt.exp(a),
                    lambda: np.exp(h), None, 1e-2))
    return out


def run_one():
    """One process: measures every case, prints JSON."""
    large = int(os.environ.get("BENCH_LARGE", 10 ** 7))
    rows = []
    for name, scale, ours, numpy_fn, numexpr_fn, rtol in cases(large):
        inner = 200 if scale == 1e6 else 1
        row = {"case": name, "ptensor": median_s(ours, inner=inner) * scale}
        if numpy_fn is not None:
            row["numpy"] = median_s(numpy_fn, inner=inner) * scale
            row["same"] = same(ours(), numpy_fn(), rtol)
        if numexpr_fn:
            row["numexpr"] = median_s(numexpr_fn, inner=inner) * scale
        rows.append(row)
    print(json.dumps(rows))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--large", type=int, default=10 ** 7)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        return run_one()
    counts = [t for t in args.threads.split(",") if t]
    runs = {}
    for t in counts:
        env = dict(os.environ, PTENSOR_NUM_THREADS=t, NUMEXPR_MAX_THREADS=t,
                   NUMEXPR_NUM_THREADS=t, BENCH_LARGE=str(args.large))
        done = subprocess.run([sys.executable, __file__, "--one"], env=env, check=True,
                              capture_output=True, text=True)
        runs[t] = json.loads(done.stdout.strip().splitlines()[-1])
    head = "| case (float32 unless named; ms unless named) |"
    line = "|---|"
    for t in counts:
        head += " ptensor %s thr | numpy | numexpr %s thr | numpy / ptensor |" % (t, t)
        line += "---|---|---|---|"
    print(head + " same result |")
    print(line + "---|")
    fmt = lambda v: "%.3g" % v if v is not None else "—"
    for i, row in enumerate(runs[counts[0]]):
        text = "| %s |" % row["case"]
        for t in counts:
            r = runs[t][i]
            ratio = r["numpy"] / r["ptensor"] if "numpy" in r else None
            text += " %s | %s | %s | %s |" % (fmt(r["ptensor"]), fmt(r.get("numpy")),
                                               fmt(r.get("numexpr")),
                                               "%.2fx" % ratio if ratio else "—")
        sames = [runs[t][i].get("same") for t in counts]
        text += " %s |" % ("—" if sames[0] is None else ("yes" if all(sames) else "NO"))
        print(text)


if __name__ == "__main__":
    main()
