"""Shared helpers of the ptensor Python tests: random non-zero data and
comparison against numpy references computed in float64 (or exactly, for
integers and bools)."""

import os

import numpy as np
import pytest

# The package under test is the installed one (`pip install .`, as the
# README's commands do), or the source tree when PYTHONPATH=python names it.
import ptensor
from ptensor import _dtypes as D

HAVE_COMPILER = ptensor.find_compiler() is not None

#: Tests that compile need ptensor-compile, or a cache that already holds
#: their kernels (PTENSOR_CACHE_DIR copied from a machine with a compiler).
needs_kernels = pytest.mark.skipif(
    not HAVE_COMPILER and not os.environ.get("PTENSOR_CACHE_DIR"),
    reason="no ptensor-compile and no PTENSOR_CACHE_DIR")


def rand(rng, shape, dt):
    """Random non-zero values of ptensor dtype `dt` (small magnitudes, so
    integer arithmetic does not overflow and f16 stays exact-ish)."""
    shape = tuple(shape)
    if dt == "i1":
        return rng.integers(0, 2, size=shape).astype(bool)
    k = D.kind(dt)
    if k == "f":
        mag = rng.uniform(0.5, 2.0, size=shape)
        sign = rng.choice([-1.0, 1.0], size=shape)
        return (mag * sign).astype(D.to_numpy(dt))
    if k == "u":
        return rng.integers(1, 40, size=shape).astype(D.to_numpy(dt))
    v = rng.integers(1, 20, size=shape) * rng.choice([-1, 1], size=shape)
    return v.astype(D.to_numpy(dt))


TOL = {"f16": 2e-3, "bf16": 1.6e-2, "f32": 2e-6, "f64": 1e-13}


def to64(a):
    a = np.asarray(a)
    if D.is_bfloat16(a.dtype):
        return a.astype(np.float32).astype(np.float64)
    return a.astype(np.float64)


def assert_matches(actual, expected, dt, rtol=None, atol=None, signed_zeros=False):
    """`actual` has ptensor dtype `dt`, the expected shape, and values equal
    to `expected` (exactly for integers/bools; within a relative tolerance
    of the result dtype for floats, NaN positions equal; with
    `signed_zeros`, the zeros' signs equal too)."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert D.from_numpy(actual.dtype) == dt, "dtype %s, expected %s" % (actual.dtype, dt)
    assert actual.shape == expected.shape, "shape %s, expected %s" % (actual.shape,
                                                                      expected.shape)
    if D.kind(dt) != "f":
        np.testing.assert_array_equal(actual, expected.astype(actual.dtype))
        return
    rtol = TOL[dt] if rtol is None else rtol
    atol = rtol if atol is None else atol
    np.testing.assert_allclose(to64(actual), to64(expected), rtol=rtol, atol=atol,
                               equal_nan=True)
    if signed_zeros:
        zeros = expected == 0
        np.testing.assert_array_equal(np.signbit(actual[zeros]), np.signbit(expected[zeros]))


@pytest.fixture
def rng():
    return np.random.default_rng(1234)
