"""Compares a float function of a library (argv[1]: the library, argv[2]:
exp32, expm1_32, tanh32 or log32, argv[3]: the ulps allowed) with the
exact one (numpy's in float64, rounded by the comparison only) over every
float's exponent and sign (a stride through all bit patterns) and every
float of the ranges where the function is hardest (exp: results that are
denormal or near overflow; expm1: results near -1 or overflow, and where
k = +-1 begins; tanh: where AVX2's two forms meet, where AVX-512's
table is least exact (near 0.218) and where it saturates; log: near 1, where its
reduction's interval ends, and the denormal arguments): within the ulps
allowed of the exact value; exactly where the rounded value is infinite,
0 or (but log) +-1; NaN where the exact value is NaN."""
import sys

import numpy as np
from ptensor._ffi import Library

lib = Library(sys.argv[1], "cpu")
name, max_ulps = sys.argv[2], float(sys.argv[3])


def floats_between(lo, hi):
    """Every float32 from lo to hi (same sign)."""
    a, b = sorted(np.array([lo, hi], np.float32).view(np.uint32))
    return np.arange(a, b + 1, dtype=np.uint32).view(np.float32)


reference, hardest, specials = {
    "exp32": (np.exp, [(-87.0, -104.5), (88.0, 89.5)],
              [88.72283, 88.722839, -103.972084, -103.27893, -87.33654]),
    "expm1_32": (np.expm1, [(-17.0, -18.5), (88.0, 89.5), (0.3, 0.45), (-0.3, -0.45)],
                 [88.72283, 88.722839, -17.328679, 0.34657359, -0.34657359, 1e-30, -1e-30]),
    "tanh32": (np.tanh, [(0.5, 0.6), (-0.5, -0.6), (0.2, 0.25), (8.0, 9.5)],
               [0.54930615, -0.54930615, 9.010913, 1e-30, -1e-30]),
    "log32": (np.log, [(0.99, 1.01), (0.74, 0.76), (1.49, 1.51), (1e-45, 2e-38)],
              [1.0, 0.75, 0.74999994, 1.5, 1.4999999, 3.4028235e38, -1.0, -1e-45]),
}[name]
# Whether the function rounds to +-1 on a whole range (exactly +-1 there).
saturates = name != "log32"
everything = np.arange(0, 2**32, 521, dtype=np.uint64).astype(np.uint32).view(np.float32)
specials = np.array(specials + [0.0, -0.0, np.inf, -np.inf, np.nan], np.float32)
worst = 0.0
for x in [everything, *(floats_between(lo, hi) for lo, hi in hardest), specials]:
    got = np.asarray(lib[name](x))
    assert got.dtype == np.float32 and got.shape == x.shape
    with np.errstate(all="ignore"):
        exact = reference(x.astype(np.float64))
        rounded = exact.astype(np.float32)
    nan = np.isnan(exact)
    assert np.isnan(got[nan]).all(), x[nan & ~np.isnan(got)][:5]
    fixed = ~nan & (np.isinf(rounded) | (rounded == 0))
    if saturates:
        fixed |= ~nan & (np.abs(rounded) == 1)
    wrong = got[fixed] != rounded[fixed]
    assert not wrong.any(), (x[fixed][wrong][:5], got[fixed][wrong][:5])
    # Zeros keep their sign.
    zeros = fixed & (rounded == 0)
    assert (np.signbit(got[zeros]) == np.signbit(rounded[zeros])).all()
    finite = ~nan & ~fixed
    ulp = np.spacing(np.abs(rounded[finite])).astype(np.float64)
    err = np.abs(got[finite].astype(np.float64) - exact[finite]) / ulp
    bad = err > max_ulps
    assert not bad.any(), (x[finite][bad][:5], got[finite][bad][:5], err[bad][:5])
    worst = max(worst, float(err.max()))
print(f"{name} sweep ok: at most {worst:.2f} ulp")
