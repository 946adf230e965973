"""unique_all/counts/inverse/values from Python against numpy, exactly:
every dtype with duplicates (NaNs each distinct, -0.0 equal to 0.0),
ranks 0 to 3, non-contiguous inputs, size 0 and 1, the named tuples'
fields, Array inputs; and GPU tensors are the compiler's error."""

import numpy as np
import pytest

import ptensor as pt
from ptensor import _dtypes as D

BF16 = D.bfloat16()
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", BF16, "float32", "float64"]


def duplicates(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 6, shape).astype(dtype)
    if x.dtype.kind == "f" or x.dtype == BF16:
        flat = x.reshape(-1)
        if flat.size >= 4:
            flat[0], flat[1], flat[2], flat[3] = np.nan, -0.0, np.nan, np.inf
    return x


def reference(x):
    """numpy's unique with NaNs distinct (the array API): values, indices
    (first occurrence), inverse (x's shape), counts."""
    x = np.asarray(x)
    flat = x.reshape(-1)
    keys = flat.astype(np.float64) if flat.dtype == BF16 else flat
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.ones(flat.size, bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    first = np.nonzero(starts)[0]
    inverse = np.empty(flat.size, np.int64)
    inverse[order] = np.cumsum(starts) - 1
    return (flat[order[first]], order[first], inverse.reshape(x.shape),
            np.diff(np.append(first, flat.size)))


def assert_same(got, want):
    got = np.asarray(got)
    assert got.dtype == np.asarray(want).dtype
    assert got.shape == np.shape(want)
    if got.dtype == BF16:
        got, want = got.astype(np.float64), np.asarray(want).astype(np.float64)
    np.testing.assert_array_equal(got, want)


def check(x):
    values, indices, inverse, counts = reference(x)
    r = pt.unique_all(x)
    assert isinstance(r, pt.UniqueAllResult)
    assert r._fields == ("values", "indices", "inverse_indices", "counts")
    assert_same(r.values, values)
    assert_same(r.indices, indices.astype(np.int64))
    assert_same(r.inverse_indices, inverse)
    assert_same(r.counts, counts.astype(np.int64))
    c = pt.unique_counts(x)
    assert c._fields == ("values", "counts")
    assert_same(c.values, values)
    assert_same(c.counts, counts.astype(np.int64))
    i = pt.unique_inverse(x)
    assert i._fields == ("values", "inverse_indices")
    assert_same(i.values, values)
    assert_same(i.inverse_indices, inverse)
    assert_same(pt.unique_values(x), values)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_every_dtype(dtype):
    check(duplicates(dtype, (11,), 1))
    check(duplicates(dtype, (4, 6), 2))
    check(duplicates(dtype, (2, 3, 5), 3))


def test_layouts_and_edges():
    a = duplicates("float32", (6, 9), 4)
    check(a.T)
    check(a[::2, ::-3])
    check(np.array(2.5))
    check(np.zeros((0, 5), np.int64))
    check(np.array([7], np.uint8))
    check(np.full((3, 4), 9, np.int16))
    check(np.arange(20, dtype=np.int32)[::-1])


def test_nans_are_distinct_and_zeros_equal():
    x = np.array([np.nan, 0.0, -0.0, np.nan, 1.0], np.float32)
    r = pt.unique_all(x)
    v = np.asarray(r.values)
    assert v.size == 4 and v[0] == 0.0 and np.signbit(v[0]) == False  # noqa: E712
    assert np.isnan(v[2:]).all()
    np.testing.assert_array_equal(np.asarray(r.indices), [1, 4, 0, 3])
    np.testing.assert_array_equal(np.asarray(r.counts), [2, 1, 1, 1])
    np.testing.assert_array_equal(np.asarray(r.inverse_indices), [2, 0, 0, 3, 1])


def test_array_input():
    x = duplicates("int32", (3, 4), 5)
    r = pt.unique_inverse(pt.asarray(x))
    assert isinstance(r.values, pt.Array) and isinstance(r.inverse_indices, pt.Array)
    np.testing.assert_array_equal(np.asarray(r.values), np.unique(x))
    np.testing.assert_array_equal(np.asarray(r.values)[np.asarray(r.inverse_indices)], x)


def test_results_named_by_the_core():
    assert pt._core.unique_results("all") == ["values", "indices", "inverse_indices", "counts"]
    # Their shapes and dtypes (the dialect infers the same types).
    assert pt._core.unique_result_types("all", [3, None], "ui8") == [
        ([None], "ui8"), ([None], "i64"), ([3, None], "i64"), ([None], "i64")]
    assert pt._core.unique_result_types("inverse", [], "f16") == [([None], "f16"), ([], "i64")]
    with pytest.raises(ValueError, match="unknown kind of unique 'first'"):
        pt._core.unique_results("first")
