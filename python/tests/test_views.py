"""The array API's view functions against numpy, exactly: permute_dims,
expand_dims, squeeze, flip, moveaxis, broadcast_to, broadcast_arrays and
unstack, on numpy arrays and on ptensor.Array (whose results are Arrays and
views of the input), and their errors."""

import numpy as np
import pytest

import ptensor as pt

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def same(got, expected):
    got = np.asarray(got)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


CASES = [
    (lambda m, x: m.permute_dims(x, (2, 0, 1)), lambda x: np.transpose(x, (2, 0, 1))),
    (lambda m, x: m.permute_dims(x, (-1, 0, 1)), lambda x: np.transpose(x, (2, 0, 1))),
    (lambda m, x: m.expand_dims(x, axis=1), lambda x: np.expand_dims(x, 1)),
    (lambda m, x: m.expand_dims(x, axis=-1), lambda x: np.expand_dims(x, -1)),
    # `axis` by position too (the signature array-api-tests checks, from
    # the standard's draft).
    (lambda m, x: m.expand_dims(x, 2), lambda x: np.expand_dims(x, 2)),
    (lambda m, x: m.squeeze(m.expand_dims(x, axis=0), 0), lambda x: x),
    (lambda m, x: m.flip(x), lambda x: np.flip(x)),
    (lambda m, x: m.flip(x, axis=(0, -1)), lambda x: np.flip(x, (0, -1))),
    (lambda m, x: m.moveaxis(x, 0, -1), lambda x: np.moveaxis(x, 0, -1)),
    (lambda m, x: m.moveaxis(x, (0, 1), (2, 0)), lambda x: np.moveaxis(x, (0, 1), (2, 0))),
    (lambda m, x: m.broadcast_to(x[:, :1], (5, 2, 3, 4)),
     lambda x: np.broadcast_to(x[:, :1], (5, 2, 3, 4))),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_views_match_numpy(case):
    fn, ref = CASES[case]
    same(fn(pt, A), ref(A))
    got = fn(pt, pt.asarray(A))
    assert isinstance(got, pt.Array)
    same(got, ref(A))


def test_views_share_memory():
    x = np.arange(6.0).reshape(2, 3)
    X = pt.asarray(x)
    for v in (pt.permute_dims(X, (1, 0)), pt.flip(X), pt.expand_dims(X, axis=0),
              pt.broadcast_to(X, (4, 2, 3))):
        assert np.shares_memory(np.asarray(v), x)


def test_zero_d_and_one_element_views_are_arrays():
    """numpy gives scalars for a flipped 0-d array and for the elements of
    an unstacked 1-d array; ptensor gives 0-d views (found by the array API
    suite: a bool scalar could not back an Array)."""
    for x in (np.array(False), np.array(2.5, np.float32)):
        for got in (pt.flip(x), pt.flip(pt.asarray(x))):
            assert np.asarray(got).shape == () and np.asarray(got) == x
        assert isinstance(pt.flip(pt.asarray(x)), pt.Array)
        assert np.shares_memory(pt.flip(x), x)
    v = np.array([True, False])
    parts = pt.unstack(pt.asarray(v))
    assert all(isinstance(p, pt.Array) and p.shape == () for p in parts)
    assert [bool(p) for p in parts] == [True, False]
    raw = pt.unstack(v)
    assert all(isinstance(p, np.ndarray) and np.shares_memory(p, v) for p in raw)


def test_broadcast_arrays_and_unstack():
    a, b = np.ones((3, 1), np.int32), np.arange(4, dtype=np.int32)
    got = pt.broadcast_arrays(a, b)
    want = np.broadcast_arrays(a, b)
    assert len(got) == 2
    for g, w in zip(got, want):
        same(g, w)
    parts = pt.unstack(pt.asarray(A), axis=1)
    assert isinstance(parts, tuple) and len(parts) == 3
    for i, p in enumerate(parts):
        same(p, A[:, i])
    for i, p in enumerate(pt.unstack(A, axis=-1)):
        same(p, A[..., i])


def test_errors():
    with pytest.raises(ValueError, match="cannot squeeze dimension 1 of size 3"):
        pt.squeeze(A, 1)
    with pytest.raises(ValueError, match="axis 3 is out of range for a tensor of rank 3"):
        pt.flip(A, axis=3)
    # The core's axis rule (Semantics/Axes.h), like numpy's: no axis twice.
    with pytest.raises(ValueError, match=r"expected distinct axes, but \[0, -3\] names "
                                         r"dimension 0 twice"):
        pt.flip(A, axis=(0, -3))
    with pytest.raises(ValueError, match="names dimension 1 twice"):
        pt.squeeze(np.ones((2, 1, 3)), (1, 1))
    with pytest.raises(pt.BroadcastError, match=r"cannot broadcast shapes \[2, 3, 4\] and "
                                                r"\[2, 3, 5\]"):
        pt.broadcast_to(A, (2, 3, 5))
    with pytest.raises(pt.BroadcastError, match=r"cannot broadcast shape \[2, 3, 4\] to "
                                                r"shape \[3, 4\]"):
        pt.broadcast_to(A, (3, 4))
    with pytest.raises(pt.BroadcastError):
        pt.broadcast_arrays(np.ones(3), np.ones(4))
