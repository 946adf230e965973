"""nonzero from Python against numpy, exactly: every dtype (NaN non-zero,
-0.0 zero), ranks 1 to 3, non-contiguous inputs, no/all non-zero, size 0,
Array inputs, and the errors (the compiler's messages)."""

import numpy as np
import pytest

import ptensor as pt
from ptensor import _dtypes as D

BF16 = np.dtype(D.BFLOAT16)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", BF16, "float32", "float64"]


def sparse(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    x = np.where(rng.random(shape) < 0.3, rng.integers(1, 5, shape), 0).astype(dtype)
    if x.dtype.kind == "f" or x.dtype == BF16:
        flat = x.reshape(-1)
        if flat.size >= 2:
            flat[0], flat[1] = np.nan, -0.0
    return x


def check(x):
    got = pt.nonzero(x)
    want = np.nonzero(np.asarray(x))
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        g = np.asarray(g)
        assert g.dtype == np.int64
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_dtype(dtype):
    check(sparse(dtype, (7,), 1))
    check(sparse(dtype, (4, 6), 2))
    check(sparse(dtype, (2, 3, 5), 3))


def test_layouts_and_edges():
    a = sparse("float32", (6, 9), 4)
    check(a.T)
    check(a[::2, ::-3])
    check(np.zeros((3, 4), np.int32))
    check(np.ones((2, 3), np.uint8))
    check(np.zeros((0, 5), np.float64))


def test_nan_is_nonzero_and_negative_zero_is_zero():
    x = np.array([0.0, -0.0, np.nan, 1.0, 0.0], np.float32)
    (i,) = pt.nonzero(x)
    np.testing.assert_array_equal(np.asarray(i), [2, 3])


def test_array_input():
    x = sparse("int16", (3, 4), 5)
    rows, cols = pt.nonzero(pt.asarray(x))
    np.testing.assert_array_equal(np.asarray(rows), np.nonzero(x)[0])
    np.testing.assert_array_equal(np.asarray(cols), np.nonzero(x)[1])


def test_errors():
    with pytest.raises(ValueError, match=r"nonzero of a 0-d tensor \(expected a tensor of "
                                         r"rank 1 or more\)"):
        pt.nonzero(np.array(1.0))
