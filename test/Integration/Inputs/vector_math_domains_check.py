"""Compares the functions of vector-math-domains.test's library (argv[1])
with numpy on arguments inside and outside their domains, mixed in every
pattern a vector can hold: the values outside (infinities, zeros, -1, NaN)
exactly, 4 ulp inside."""
import sys

import numpy as np
from ptensor._ffi import Library

from vector_math_check import assert_within_ulps, results

lib = Library(sys.argv[1], "cpu")
rng = np.random.default_rng(5)


def values(dtype, center, scale, edges):
    info = np.finfo(dtype)
    edges = list(edges) + [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, info.tiny,
                           info.tiny / 8, -info.tiny, info.max, -info.max]
    edges += [np.nextafter(dtype(e), dtype(d)) for e in edges[:-7] if np.isfinite(e)
              for d in (-np.inf, np.inf)]
    ordinary = rng.standard_normal(3001) * scale + center  # about half outside
    mixed = rng.choice(np.array(edges + list(ordinary[:50]), dtype=np.float64), 997)
    return np.concatenate([ordinary, edges, mixed]).astype(dtype)


def check(name, reference, dtype, center, scale, edges):
    """Returns how many results are libm's fixed values (the outsides)."""
    x = values(dtype, center, scale, edges)
    got, want = results(lib, name, reference, x)
    ok = ~np.isnan(want)
    exact = ok & (np.isinf(want) | (want == 0) | (want == -1))
    assert (got[exact] == want[exact]).all(), (name, x[exact & (got != want)][:5])
    assert_within_ulps(name, x, got, want, ok & ~exact)
    return int((~np.isfinite(want) | exact).sum())


outside = 0
outside += check("log32", np.log, np.float32, 0, 10, [0])
outside += check("log2_64", np.log2, np.float64, 0, 10, [0])
outside += check("log10_32", np.log10, np.float32, 0, 10, [0])
outside += check("log1p64", np.log1p, np.float64, -1, 10, [-1])
outside += check("exp32", np.exp, np.float32, 0, 100, [-104, 89, -103.9, 88.7])
outside += check("exp64", np.exp, np.float64, 0, 800, [-746, 710, -745.1, 709.7])
outside += check("expm1_32", np.expm1, np.float32, 0, 60, [-18, 89, -17, 88.7])
outside += check("asin32", np.arcsin, np.float32, 0, 1.5, [1])
outside += check("acos64", np.arccos, np.float64, 0, 1.5, [1])
outside += check("acosh32", np.arccosh, np.float32, 1, 3, [1])
outside += check("atanh64", np.arctanh, np.float64, 0, 1.5, [1])


def check_tails(name, dtype, start, end):
    """exp's arguments libmvec leaves vector code for (HostOptimizer.cpp,
    ScaledTail), from the domain's bound down to `start` and up to `end`:
    results within 4 ulp (denormals' included) of numpy's."""
    x = np.concatenate([np.linspace(start, -end, 4001), np.linspace(end, -start, 4001),
                        rng.uniform(start, -start, 4001)]).astype(dtype)
    got, want = results(lib, name, np.exp, x)
    assert_within_ulps(name, x, got, want, np.isfinite(want))
    assert (got[~np.isfinite(want)] == want[~np.isfinite(want)]).all(), name
    assert (want[:4001] < np.finfo(dtype).tiny).sum() > 3000, name  # denormals


check_tails("exp32", np.float32, -104.0, 87.0)
check_tails("exp64", np.float64, -746.0, 708.0)
assert outside > 11000, outside  # the domains' outsides were exercised
print("math domains ok")
