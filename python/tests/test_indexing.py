"""take from Python against numpy's, exactly: every dtype, 1-D (no axis)
and 3-D sources along each axis (negative axes too), every integer index
dtype with negative and repeated indices, views, empty indices, Array
inputs; the errors (the compiler's messages and the run-time check)."""

import numpy as np
import pytest

import ptensor as pt
from ptensor import _dtypes as D

BF16 = D.bfloat16()
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", BF16, "float32", "float64"]
INDEX_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def indices(n, count, dtype, seed):
    """`count` indices into an axis of n elements, negative ones where the
    dtype is signed, repeats."""
    rng = np.random.default_rng(seed)
    at = rng.integers(0, n, count)
    if np.dtype(dtype).kind == "i":
        at = np.where(rng.random(count) < 0.4, at - n, at)
    return at.astype(dtype)


def check(x, i, axis=None):
    got = np.asarray(pt.take(x, i, axis=axis))
    want = np.take(np.asarray(x), np.asarray(i), axis=0 if axis is None else axis)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_dtype(dtype):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(24) * 4).astype(dtype)
    check(x, indices(24, 30, "int64", 1))
    m = x.reshape(2, 3, 4)
    for axis in (0, 1, 2, -1, -3):
        check(m, indices(m.shape[axis], 5, "int32", 2), axis=axis)


@pytest.mark.parametrize("dtype", INDEX_DTYPES)
def test_index_dtypes(dtype):
    x = np.arange(40, dtype=np.float64).reshape(5, 8)
    check(x, indices(8, 12, dtype, 4), axis=1)
    check(x, indices(5, 7, dtype, 5), axis=0)


def test_views_and_empty():
    x = np.arange(60, dtype=np.float32).reshape(6, 10)
    check(x.T, indices(6, 9, "int64", 6), axis=1)
    check(x[::-2, 1::3], indices(4, 5, "int16", 7), axis=-1)
    check(x, np.zeros(0, np.int64), axis=0)
    check(np.zeros((0, 3), np.int32), indices(3, 4, "int64", 8), axis=1)
    i = indices(10, 3, "int64", 9)
    got = pt.take(pt.asarray(x), pt.asarray(i), axis=1)
    np.testing.assert_array_equal(np.asarray(got), np.take(x, i, axis=1))


def test_errors():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    with pytest.raises(ValueError, match=r"take of a tensor of shape \[3, 4\] needs an axis"):
        pt.take(x, np.array([0]))
    with pytest.raises(ValueError, match=r"take: axis 2 is out of range"):
        pt.take(x, np.array([0]), axis=2)
    with pytest.raises(ValueError, match=r"take needs 1-D indices, but got shape \[1, 1\]"):
        pt.take(x, np.array([[0]]), axis=0)
    with pytest.raises(pt.DTypeError, match=r"take needs integer indices, but got f32"):
        pt.take(x, np.array([0.0], np.float32), axis=0)
    with pytest.raises(ValueError, match=r"take of a 0-d tensor"):
        pt.take(np.array(1.0), np.array([0]))
    with pytest.raises(pt.CheckError, match=r"take: an index is out of range"):
        pt.take(x, np.array([0, 4]), axis=1)
    with pytest.raises(pt.CheckError, match=r"take: an index is out of range"):
        pt.take(x, np.array([-4]), axis=0)
