"""Compares the vectorized math of vector-math.mlir's library (argv[1]) with
numpy on ordinary, tiny (denormal), huge and special values, at 4 ulp.
`results` and `assert_within_ulps` also serve vector_math_domains_check.py."""
import sys

import numpy as np


def results(lib, name, reference, x):
    """lib[name](x) and numpy's reference(x), checked to have one dtype and
    NaN at the same places."""
    got = np.asarray(lib[name](x))
    with np.errstate(all="ignore"):
        want = reference(x)
    assert got.dtype == want.dtype, (name, got.dtype)
    same_nan = np.isnan(got) == np.isnan(want)
    assert same_nan.all(), (name, x[~same_nan], got[~same_nan])
    return got, want


def assert_within_ulps(name, x, got, want, where, ulps=4):
    """got within `ulps` of want (in want's dtype) where `where` holds."""
    dtype = want.dtype.type
    spacing = np.abs(np.spacing(want[where].astype(dtype)))
    err = np.abs(got[where].astype(np.float64) - want[where].astype(np.float64))
    bad = err > ulps * spacing + np.finfo(dtype).smallest_subnormal
    assert not bad.any(), (name, x[where][bad][:5], got[where][bad][:5], want[where][bad][:5])


def main():
    from ptensor._ffi import Library

    lib = Library(sys.argv[1], "cpu")
    rng = np.random.default_rng(3)

    def values(dtype):
        info = np.finfo(dtype)
        special = [0.0, -0.0, np.inf, -np.inf, np.nan, info.tiny, -info.tiny,
                   info.tiny / 8, info.max, -info.max, 1e-30, 88.0, -104.0, 710.0]
        ordinary = rng.standard_normal(4099) * 10
        return np.concatenate([ordinary, special, ordinary[:37] * 1e-3]).astype(dtype)

    def check(name, reference, dtype, lo=None):
        x = values(dtype)
        if lo is not None:
            x = np.where(x < lo, -x, x)
        got, want = results(lib, name, reference, x)
        assert_within_ulps(name, x, got, want, ~np.isnan(want))

    check("exp32", np.exp, np.float32)
    check("tanh32", np.tanh, np.float32)
    check("log1p64", np.log1p, np.float64, lo=-1.0)
    print("vector math ok")


if __name__ == "__main__":
    main()
