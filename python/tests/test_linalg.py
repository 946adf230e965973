"""Linear algebra from Python against numpy: matmul (function and the @
operator) over the numeric dtypes, 1-D operands, broadcast batches and
transposed views; vecdot along an axis with broadcasting; tensordot with an
int and with axis lists; matrix_transpose; the errors (the compiler's
messages, with the sizes passed)."""

import numpy as np
import pytest

import ptensor as pt

RNG = np.random.default_rng(5)


def data(dtype, shape):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return RNG.uniform(-2, 2, shape).astype(dt)
    lo = 0 if dt.kind == "u" else -3
    return RNG.integers(lo, 4, shape).astype(dt)


def reference(fn, x1, x2):
    """numpy's result in float64 (floats) or exact int64/uint64, cast to the
    promoted dtype (integer sums wrap like the compiled ones)."""
    dt = np.result_type(x1.dtype, x2.dtype)
    wide = np.float64 if dt.kind == "f" else np.uint64 if dt.kind == "u" else np.int64
    return fn(x1.astype(wide), x2.astype(wide)), dt


def close(got, expected, dtype, k):
    got = np.asarray(got)
    assert got.shape == expected.shape and got.dtype == dtype
    if dtype.kind == "f":
        eps = {2: 2.0 ** -8, 4: 2.0 ** -22, 8: 2.0 ** -50}[dtype.itemsize]
        np.testing.assert_allclose(got.astype(np.float64), expected, rtol=eps * 4,
                                   atol=eps * k * 4)
    else:
        np.testing.assert_array_equal(got, expected.astype(dtype))


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64", "float16",
                                   "float32", "float64"])
@pytest.mark.parametrize("shapes", [((5, 7), (7, 3)), ((7,), (7, 3)), ((5, 7), (7,)),
                                    ((7,), (7,)), ((2, 1, 4, 6), (3, 6, 5)),
                                    ((3, 4, 6), (6, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3))])
def test_matmul(dtype, shapes):
    x1, x2 = data(dtype, shapes[0]), data(dtype, shapes[1])
    expected, dt = reference(np.matmul, x1, x2)
    close(pt.matmul(x1, x2), np.asarray(expected), dt, shapes[0][-1])


def test_matmul_mixed_dtypes_and_views():
    a = data("float32", (6, 8))
    b = data("float64", (5, 12))
    # A transposed (column-major) operand and one with neither layout (the
    # generated loops), promoted to float64.
    bs = b[:, ::2].T
    got = pt.matmul(a.T, bs)
    expected, dt = reference(np.matmul, a.T, bs)
    close(got, expected, dt, 6)
    i8 = data("int8", (3, 6))
    got = pt.matmul(i8, a)
    expected, dt = reference(np.matmul, i8, a)
    close(got, expected, dt, 6)


def test_matmul_operator_and_array_type():
    a, b = data("float32", (4, 5)), data("float32", (5, 2))
    x, y = pt.asarray(a), pt.asarray(b)
    r = x @ y
    assert isinstance(r, pt.Array) and r.shape == (4, 2) and r.dtype == pt.float32
    close(r, np.asarray(a, np.float64) @ b, np.dtype("float32"), 5)
    close(a @ y, np.asarray(a, np.float64) @ b, np.dtype("float32"), 5)  # __rmatmul__
    close(x @ x.mT, np.asarray(a, np.float64) @ a.T, np.dtype("float32"), 5)


@pytest.mark.parametrize("axis", [-1, -2, 0, 1])
def test_vecdot(axis):
    a, b = data("float64", (4, 3)), data("float64", (4, 3))
    expected, dt = reference(lambda u, v: np.sum(u * v, axis=axis), a, b)
    close(pt.vecdot(a, b, axis=axis), expected, dt, 4)


def test_vecdot_broadcasts():
    a, b = data("float32", (2, 1, 5)), data("int16", (3, 5))
    expected, dt = reference(lambda u, v: np.sum(u * v, axis=-1), a, b)
    close(pt.vecdot(a, b), expected, dt, 5)


@pytest.mark.parametrize("axes,rhs", [(2, (4, 5, 2)), (1, (5, 2)), (0, (2,)),
                                      (([1, 0], [0, 1]), (4, 3, 2)), (([-1], [1]), (2, 5)),
                                      ((2, 0), (5, 2))])
def test_tensordot(axes, rhs):
    a, b = data("float64", (3, 4, 5)), data("float64", rhs)
    expected, dt = reference(lambda u, v: np.tensordot(u, v, axes=axes), a, b)
    close(pt.tensordot(a, b, axes=axes), expected, dt, 20)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_tensordot_over_two_axes(dtype):
    """Two contracted axes are one loop of their product for the BLAS
    library where both operands nest them (contiguous, a leading slice);
    the generated loops run where they do not (a[:, :, :8]: stride 16 over
    rows of 8, which one loop of 64 with stride 1 would misread; a
    Fortran-order operand) and where the library declines the nested
    loops' stride (a stepped view): numpy's result every way."""
    a, b = data(dtype, (6, 8, 16)), data(dtype, (5, 8, 16))
    axes = ([1, 2], [1, 2])
    for x1, x2 in ((a, b), (a[1:], b[:3]), (a[:, :, :8], b[:, :, 8:]),
                   (a[:, :, ::2], b[:, :, ::2]), (a, np.asfortranarray(b))):
        expected, dt = reference(lambda u, v: np.tensordot(u, v, axes=axes), x1, x2)
        close(pt.tensordot(x1, x2, axes=axes), expected, dt, 128)


def test_matrix_transpose():
    a = data("float32", (2, 3, 4))
    assert np.shares_memory(pt.matrix_transpose(a), a)
    np.testing.assert_array_equal(pt.matrix_transpose(a), np.swapaxes(a, -1, -2))
    assert pt.matrix_transpose(pt.asarray(a)).shape == (2, 4, 3)
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        pt.matrix_transpose(a[0, 0])


def test_allow_tf32_is_off_by_default_and_settable():
    assert pt.get_allow_tf32() is False
    pt.set_allow_tf32(True)
    try:
        assert pt.get_allow_tf32() is True
    finally:
        pt.set_allow_tf32(False)
    assert pt.get_allow_tf32() is False


def test_errors():
    a = data("float32", (2, 3))
    with pytest.raises(pt.BroadcastError, match=r"matmul: contracted dimensions differ: "
                       r"dimension 1 of shape \[2, 3\] has size 3 and dimension 0 of "
                       r"shape \[2, 3\] has size 2"):
        pt.matmul(a, a)
    with pytest.raises(pt.BroadcastError, match=r"batch dimensions of shapes \[2, 2, 3\] "
                       r"and \[3, 3, 2\] do not broadcast"):
        pt.matmul(data("float32", (2, 2, 3)), data("float32", (3, 3, 2)))
    with pytest.raises(pt.DTypeError, match="matmul needs numeric operands, but got i1"):
        pt.matmul(np.ones((2, 2), bool), a[:, :2])
    with pytest.raises(ValueError, match="matmul needs operands of rank 1 or more"):
        pt.matmul(np.array(1.0, np.float32), a)
    with pytest.raises(ValueError, match=r"vecdot: axis -3 is out of range"):
        pt.vecdot(a, a, axis=-3)
    with pytest.raises(ValueError, match=r"tensordot: axes=3 must be between 0 and the "
                       r"smaller rank \(2\)"):
        pt.tensordot(a, a, axes=3)
    with pytest.raises(ValueError, match="tensordot: axis 2 of x1 is out of range"):
        pt.tensordot(a, a, axes=([2], [0]))
