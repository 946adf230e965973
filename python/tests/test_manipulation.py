"""Manipulation from Python against numpy, exactly (these ops only move data):
reshape (views of every layout, 0-d and size-0 arrays, -1, copy=True/False,
independence of the input), concat and stack (every axis, 2 and 3 operands,
dtype promotion, mixed layouts, size-0 parts, axis=None), roll (one or
several axes, repeated axes, shifts beyond the size, the flattened array),
tril/triu (offsets, batches, non-square, dtypes), meshgrid (xy and ij), eye,
Array inputs and the errors (the compiler's messages, with the shapes)."""

import numpy as np
import pytest

import ptensor as pt
from ptensor import _dtypes as D

RNG = np.random.default_rng(11)

BF16 = D.bfloat16()


def data(dtype, shape):
    """Distinct-ish small values of `dtype` (exact in every dtype, so that
    a conversion by concat is exact too)."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if dt.kind == "u":
        return RNG.integers(1, 60, shape).astype(dt)
    if dt.kind == "i":
        return RNG.integers(-60, 60, shape).astype(dt)
    # floats (bfloat16 included): small integers and halves
    return (RNG.integers(-60, 60, shape) / 2).astype(np.float32).astype(dt)


def same(got, expected):
    """got (a numpy array or a ptensor.Array) equals numpy's `expected`
    exactly: shape, dtype and values."""
    got = np.asarray(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, "dtype %s, expected %s" % (got.dtype, expected.dtype)
    assert got.shape == expected.shape, "shape %s, expected %s" % (got.shape, expected.shape)
    if got.dtype == BF16:
        got, expected = got.astype(np.float32), expected.astype(np.float32)
    np.testing.assert_array_equal(got, expected)


def promoted(*dtypes):
    """ptensor's promotion: numpy's, except that an int (or bool) with a
    float gives that float (int32 with float16 -> float16)."""
    dtypes = [np.dtype(d) for d in dtypes]
    floats = [d for d in dtypes if d.kind == "f" or d == BF16]
    if floats:
        dtypes = floats
    if len(set(dtypes)) == 1:
        return dtypes[0]
    if BF16 in dtypes:  # bfloat16 with float16 -> float32, with float32/64 -> it
        rest = [d for d in dtypes if d != BF16]
        return np.result_type(np.float32, *rest)
    return np.result_type(*dtypes)


# ---------------------------------------------------------------------------
# reshape
# ---------------------------------------------------------------------------

A46 = data("float32", (4, 6))

#: shapes of 24 elements (with -1 inferred)
SHAPES_24 = [(6, 4), (24,), (2, 3, 4), (-1,), (3, -1), (2, -1, 3), (1, 24, 1)]

#: views of 24 elements (of one 2-D 4x6 or 6x4 input of other layouts)
VIEWS_24 = {
    "contiguous": lambda: A46,
    "transposed": lambda: A46.T,
    "sliced": lambda: data("float32", (8, 13))[::2, 1::2],
    "flipped": lambda: A46[::-1],
    "flipped_both": lambda: A46[::-1, ::-1],
    "broadcast": lambda: np.broadcast_to(data("float32", (1, 6)), (4, 6)),
    "broadcast_cols": lambda: np.broadcast_to(data("float32", (4, 1)), (4, 6)),
    "fortran": lambda: np.asfortranarray(A46),
}


@pytest.mark.parametrize("view", sorted(VIEWS_24))
@pytest.mark.parametrize("shape", SHAPES_24)
def test_reshape_views(view, shape):
    x = VIEWS_24[view]()
    assert x.size == 24
    same(pt.reshape(x, shape), np.reshape(x, shape))


@pytest.mark.parametrize("view", ["contiguous", "transposed", "sliced", "flipped",
                                  "broadcast"])
@pytest.mark.parametrize("shape", [(6, 4), (2, 3, -1)])
def test_reshape_copy_true(view, shape):
    x = VIEWS_24[view]()
    r = pt.reshape(x, shape, copy=True)
    same(r, np.reshape(x, shape))
    assert not np.shares_memory(np.asarray(r), x)


@pytest.mark.parametrize("shape", [(6, 4), (-1,)])
def test_reshape_copy_false_contiguous(shape):
    same(pt.reshape(A46, shape, copy=False), np.reshape(A46, shape))


@pytest.mark.parametrize("view", ["transposed", "sliced", "flipped", "broadcast"])
def test_reshape_copy_false_needs_copy(view):
    x = VIEWS_24[view]()
    with pytest.raises(pt.CheckError, match="copy=False"):
        pt.reshape(x, (-1,), copy=False)


def test_reshape_copy_false_row_major_views():
    # Row-major contiguous elements at an offset, size-1 dims of any stride
    # and empty arrays reshape without a copy.
    for x, shape in [(A46[1:3], (3, 4)), (A46[2:], (-1,)), (A46[:1].T, (2, 3)),
                     (A46[:, None, :], (6, 4)), (A46[1:2, ::-1][:, :1], ()),
                     (data("float32", (0, 3)).T, (0,)), (data("float32", (3, 0))[::-1], (0, 3))]:
        same(pt.reshape(x, shape, copy=False), np.reshape(x, shape))


#: numpy reshapes these without a copy (np.reshape(x, shape, copy=False)).
NUMPY_VIEWS = {
    "transposed_same_shape": lambda: (A46.T, (6, 4)),
    "transposed_unit_dim": lambda: (A46.T, (6, 4, 1)),
    "transposed_split_dim": lambda: (A46.T, (3, 2, 4)),
    "column_slice_split_rows": lambda: (data("float32", (4, 6, 2))[:, :, 0], (2, 2, 6)),
    "row_step_split_cols": lambda: (data("float32", (4, 6))[::2], (2, 2, 3)),
    "flipped_split_rows": lambda: (A46[::-1], (2, 2, 6)),
    "broadcast_split_rows": lambda: (np.broadcast_to(data("float32", (6,)), (4, 6)), (2, 2, 6)),
}


@pytest.mark.parametrize("case", sorted(NUMPY_VIEWS))
def test_reshape_copy_false_strided_views(case):
    x, shape = NUMPY_VIEWS[case]()
    np.reshape(x, shape, copy=False)  # a view in numpy
    same(pt.reshape(x, shape, copy=False), np.reshape(x, shape))


@pytest.mark.parametrize("src,shape", [
    ((), ()), ((), (1, 1)), ((), (-1,)), ((1,), ()), ((1, 1, 1), ()),
])
def test_reshape_0d(src, shape):
    x = data("float64", src)
    x = np.asarray(x)
    same(pt.reshape(x, shape), np.reshape(x, shape))


@pytest.mark.parametrize("src,shape", [
    ((0, 3), (3, 0)), ((0, 3), (-1,)), ((0, 3), (3, -1)), ((2, 0), (0, 5)),
    ((2, 0), (0, 2, 4)), ((3, 0), (0,)),
])
def test_reshape_size_0(src, shape):
    x = data("float32", src)
    same(pt.reshape(x, shape), np.reshape(x, shape))
    same(pt.reshape(x.T, shape), np.reshape(x.T, shape))


def test_reshape_int_shape():
    same(pt.reshape(A46, 24), np.reshape(A46, 24))
    same(pt.reshape(A46.T, -1), np.reshape(A46.T, -1))


def test_reshape_numpy_int_shape():
    same(pt.reshape(A46[::-1], np.int64(24)), np.reshape(A46[::-1], 24))


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "bfloat16"])
def test_reshape_dtypes(dtype):
    x = data(BF16 if dtype == "bfloat16" else dtype, (3, 4))
    for v in (x, x.T, x[::-1, ::2]):
        same(pt.reshape(v, (2, -1)), np.reshape(v, (2, -1)))


@pytest.mark.parametrize("copy", [None, True, False])
def test_reshape_result_is_independent_of_later_writes(copy):
    x = data("float32", (4, 6))
    expected = np.reshape(x, (6, 4)).copy()
    r = pt.reshape(x, (6, 4), copy=copy)
    x[...] = -1000
    same(r, expected)
    # non-contiguous inputs (copy=False would need a copy: not for those)
    if copy is not False:
        y = data("float32", (4, 6))
        expected = np.reshape(y.T, (-1,)).copy()
        r = pt.reshape(y.T, (-1,), copy=copy)
        y[...] = 7
        same(r, expected)


def test_reshape_array_input():
    r = pt.reshape(pt.asarray(A46), (6, 4))
    assert isinstance(r, pt.Array) and r.shape == (6, 4) and r.dtype == pt.float32
    same(r, A46.reshape(6, 4))
    r = pt.reshape(pt.asarray(A46.T), (-1,))
    assert isinstance(r, pt.Array)
    same(r, A46.T.reshape(-1))


def test_reshape_errors():
    with pytest.raises(pt.BroadcastError, match=r"cannot reshape shape \[4, 6\] \(24 "
                       r"elements\) into shape \[5, -1\]"):
        pt.reshape(A46, (5, -1))
    with pytest.raises(pt.BroadcastError, match=r"\[4, 6\].*\[5, 5\]"):
        pt.reshape(A46, (5, 5))
    with pytest.raises(pt.BroadcastError, match=r"\[6, 4\].*\[25\] \(25 elements\)"):
        pt.reshape(A46.T, 25)
    with pytest.raises(pt.BroadcastError, match=r"\[\].*\[2\]"):
        pt.reshape(np.array(1.0), (2,))
    with pytest.raises(ValueError, match="only one dimension can be -1"):
        pt.reshape(A46, (-1, -1))
    with pytest.raises(ValueError, match="only one dimension can be -1"):
        pt.reshape(A46, (2, -1, 3, -1))


# ---------------------------------------------------------------------------
# concat, stack
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_concat_2_operands(axis):
    shape_b = (3, 6) if axis in (0, -2) else (4, 2)
    a, b = data("float32", (4, 6)), data("float32", shape_b)
    same(pt.concat([a, b], axis=axis), np.concatenate([a, b], axis=axis))
    # mixed layouts: transposed and sliced operands
    at = np.ascontiguousarray(a.T).T
    bs = data("float32", (2 * shape_b[0], shape_b[1] + 3))[::2, 3:]
    same(pt.concat([at, bs], axis=axis), np.concatenate([at, bs], axis=axis))
    same(pt.concat((a[::-1], b), axis=axis), np.concatenate([a[::-1], b], axis=axis))


@pytest.mark.parametrize("axis", [0, 2, -1, -3])
def test_concat_3_operands(axis):
    base = [2, 3, 4]
    shapes = []
    for n in (1, 3, 2):
        s = list(base)
        s[axis] = n
        shapes.append(tuple(s))
    xs = [data("int16", s) for s in shapes]
    xs[1] = np.broadcast_to(data("int16", shapes[1][:-1] + (1,)), shapes[1])  # 0-stride
    same(pt.concat(xs, axis=axis), np.concatenate(xs, axis=axis))
    # a size-0 part
    s0 = list(base)
    s0[axis] = 0
    parts = [xs[0], data("int16", tuple(s0)), xs[2]]
    same(pt.concat(parts, axis=axis), np.concatenate(parts, axis=axis))


@pytest.mark.parametrize("dtypes", [("float32", "float16"), ("int8", "int32"),
                                    ("bool", "int16"), ("int32", "float16"),
                                    ("uint8", "int8"), ("int64", "bfloat16", "bool")])
def test_concat_dtypes(dtypes):
    dts = [BF16 if d == "bfloat16" else np.dtype(d) for d in dtypes]
    xs = [data(d, (2, 3 + i)) for i, d in enumerate(dts)]
    rdt = promoted(*dts)
    got = pt.concat(xs, axis=1)
    assert np.asarray(got).dtype == rdt
    same(got, np.concatenate([x.astype(rdt) for x in xs], axis=1))
    if dts[0] in (np.float32, np.int8):  # stack of the same dtypes, one shape
        ys = [data(d, (2, 3)) for d in dts]
        same(pt.stack(ys), np.stack([y.astype(rdt) for y in ys]))


def test_concat_uint64_with_signed_is_an_error():
    u, i = data("uint64", (2,)), data("int8", (3,))
    with pytest.raises(pt.DTypeError, match="ui64.*i8"):
        pt.concat([u, i])
    with pytest.raises(pt.DTypeError, match="ui64.*i32"):
        pt.stack([u, data("int32", (2,))])


def test_concat_size_0_and_all_empty():
    a = data("float32", (0, 3))
    b = data("float32", (2, 3))
    same(pt.concat([a, b, a]), np.concatenate([a, b, a]))
    same(pt.concat([a, a]), np.concatenate([a, a]))
    same(pt.concat([a.T, b.T], axis=1), np.concatenate([a.T, b.T], axis=1))
    c = data("float32", (2, 0))
    same(pt.concat([c, c], axis=0), np.concatenate([c, c], axis=0))


def test_concat_1d():
    a, b, c = data("uint16", (3,)), data("uint16", (0,)), data("uint16", (9,))[::-3]
    same(pt.concat([a, b, c]), np.concatenate([a, b, c]))
    same(pt.concat([a, c], axis=-1), np.concatenate([a, c]))


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "mixed"])
def test_concat_axis_none(layout):
    a = data("float32", (3, 4))
    b = data("float32", (2, 5))
    if layout == "transposed":
        a, b = a.T, b.T
    elif layout == "mixed":
        a, b = a[::-1, ::2], np.broadcast_to(data("float32", (1, 5)), (2, 5))
    same(pt.concat([a, b], axis=None), np.concatenate([a, b], axis=None))
    # operands of different ranks are fine when flattened
    c = data("float32", (2, 1, 3))
    same(pt.concat([a, c], axis=None), np.concatenate([a, c], axis=None))


@pytest.mark.parametrize("axis", [0, 2, -1, -3])
def test_stack_2_operands(axis):
    a = data("float32", (3, 4))
    b = data("float32", (4, 3)).T
    same(pt.stack([a, b], axis=axis), np.stack([a, b], axis=axis))
    c = data("float32", (6, 8))[::2, 1::2]
    same(pt.stack([c, a[::-1]], axis=axis), np.stack([c, a[::-1]], axis=axis))


@pytest.mark.parametrize("axis", [0, 1, 3, -4])
def test_stack_3_operands(axis):
    xs = [data("int8", (2, 3, 4)) for _ in range(3)]
    xs[1] = np.broadcast_to(data("int8", (3, 1)), (2, 3, 4))
    xs[2] = np.transpose(data("int8", (4, 2, 3)), (1, 2, 0))
    same(pt.stack(xs, axis=axis), np.stack(xs, axis=axis))


def test_stack_size_0_and_1d():
    a = data("float32", (0, 3))
    same(pt.stack([a, a]), np.stack([a, a]))
    same(pt.stack([a, a], axis=2), np.stack([a, a], axis=2))
    v = data("uint16", (5,))
    same(pt.stack([v, v[::-1], v], axis=1), np.stack([v, v[::-1], v], axis=1))
    w = data("uint16", (0,))
    same(pt.stack([w, w, w], axis=1), np.stack([w, w, w], axis=1))


def test_stack_0d():
    a, b = np.array(1.5, np.float32), np.array(-2.0, np.float32)
    same(pt.stack([a, b]), np.stack([a, b]))
    same(pt.stack([a, b], axis=-1), np.stack([a, b], axis=-1))


def test_concat_stack_array_inputs():
    a, b = data("float32", (2, 3)), data("float16", (2, 3))
    r = pt.concat([pt.asarray(a), pt.asarray(b)], axis=1)
    assert isinstance(r, pt.Array) and r.shape == (2, 6) and r.dtype == pt.float32
    same(r, np.concatenate([a, b.astype(np.float32)], axis=1))
    r = pt.stack([pt.asarray(a), pt.asarray(b)])
    assert isinstance(r, pt.Array) and r.shape == (2, 2, 3)
    same(r, np.stack([a, b.astype(np.float32)]))
    r = pt.concat([pt.asarray(a), pt.asarray(b)], axis=None)
    assert isinstance(r, pt.Array) and r.shape == (12,)


def test_concat_stack_errors():
    a = data("float32", (4, 6))
    with pytest.raises(pt.BroadcastError, match=r"concat: operand 1 has shape \[4, 5\], "
                       r"which differs from operand 0's shape \[4, 6\] in dimension 1"):
        pt.concat([a, a[:, :5]], axis=0)
    with pytest.raises(pt.BroadcastError, match=r"shape \[3, 6\].*shape \[4, 6\] in "
                       r"dimension 0"):
        pt.concat([a, a, a[:3]], axis=1)
    with pytest.raises(pt.BroadcastError, match=r"stack: operand 1 has shape \[4, 5\], "
                       r"which differs from operand 0's shape \[4, 6\] in dimension 1"):
        pt.stack([a, a[:, :5]])
    with pytest.raises(pt.BroadcastError, match=r"shape \[6, 4\].*shape \[4, 6\]"):
        pt.stack([a, a.T])
    with pytest.raises(pt.BroadcastError, match=r"concat: operands must have one rank, but "
                       r"operand 1 has shape \[1, 4, 6\] and operand 0 \[4, 6\]"):
        pt.concat([a, a[None]])
    with pytest.raises(pt.BroadcastError, match=r"\[6\].*\[4, 6\]"):
        pt.stack([a, a[0]])
    with pytest.raises(ValueError, match=r"concat: axis 2 is out of range for a tensor of "
                       r"rank 2 \(expected -2 <= axis < 2\)"):
        pt.concat([a, a], axis=2)
    with pytest.raises(ValueError, match=r"axis -3 is out of range"):
        pt.concat([a, a], axis=-3)
    with pytest.raises(ValueError, match=r"stack: axis 3 is out of range for a tensor of "
                       r"rank 2 \(expected -3 <= axis < 3\)"):
        pt.stack([a, a], axis=3)
    with pytest.raises(ValueError, match=r"axis -4 is out of range"):
        pt.stack([a, a], axis=-4)
    s = np.array(1.0, np.float32)
    with pytest.raises(ValueError, match="concat"):
        pt.concat([s, s])
    with pytest.raises(ValueError, match="concat"):
        pt.concat([s, s], axis=-1)


# ---------------------------------------------------------------------------
# roll
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("shift,axis", [
    (1, 0), (2, 1), (7, 0), (-9, -1),
    ((1, -2), (0, 1)), (3, (0, 1)), ((1, 1), (1, 1)), ((2, -1, 5), (1, 0, 1)),
    ((1, 2), (-1, -2)),
])
def test_roll_axes(shift, axis):
    x = data("float32", (3, 4))
    for v in (x, data("float32", (4, 3)).T, data("float32", (6, 8))[::2, ::-2]):
        same(pt.roll(v, shift, axis=axis), np.roll(v, shift, axis=axis))


@pytest.mark.parametrize("shift,axis", [(1, 2), ((1, -1), (0, 2)), (5, (0, 1, 2))])
def test_roll_3d_ints(shift, axis):
    x = data("int64", (2, 3, 4))
    same(pt.roll(x, shift, axis=axis), np.roll(x, shift, axis=axis))
    same(pt.roll(x.transpose(2, 0, 1), shift, axis=axis),
         np.roll(x.transpose(2, 0, 1), shift, axis=axis))


@pytest.mark.parametrize("shift", [1, -5, 13, -100])
def test_roll_flattened(shift):
    x = data("float32", (3, 4))
    for v in (x, x.T, x[::-1, 1::2], np.broadcast_to(x[:1], (3, 4))):
        same(pt.roll(v, shift), np.roll(v, shift))
    v = data("float32", (7,))
    same(pt.roll(v, shift, axis=None), np.roll(v, shift))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 4), (4, 1)])
def test_roll_size_0_and_1(shape):
    x = data("float32", shape)
    for shift, axis in [(1, 0), (2, 1), ((1, -2), (0, 1))]:
        same(pt.roll(x, shift, axis=axis), np.roll(x, shift, axis=axis))
    same(pt.roll(x, 3), np.roll(x, 3))


@pytest.mark.parametrize("dtype", ["bool", "bfloat16"])
def test_roll_dtypes(dtype):
    x = data(BF16 if dtype == "bfloat16" else dtype, (3, 5))
    same(pt.roll(x, 2, axis=1), np.roll(x, 2, axis=1))


def test_roll_array_input_and_errors():
    x = data("float32", (3, 4))
    r = pt.roll(pt.asarray(x), 1, axis=0)
    assert isinstance(r, pt.Array) and r.shape == (3, 4)
    same(r, np.roll(x, 1, axis=0))
    r = pt.roll(pt.asarray(x.T), 5)
    assert isinstance(r, pt.Array) and r.shape == (4, 3)
    same(r, np.roll(x.T, 5))
    with pytest.raises(ValueError):
        pt.roll(x, 1, axis=2)
    with pytest.raises(ValueError):
        pt.roll(x, (1, 2), axis=(0, 1, 1))
    with pytest.raises(ValueError):
        pt.roll(x, (1, 2))


# ---------------------------------------------------------------------------
# tril, triu
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("k", [-2, -1, 0, 1, 3])
@pytest.mark.parametrize("name", ["tril", "triu"])
def test_triangle_offsets(name, k):
    fn, ref = getattr(pt, name), getattr(np, name)
    for shape in [(4, 4), (3, 5), (5, 3), (1, 4), (0, 3)]:
        x = data("float32", shape)
        same(fn(x, k=k), ref(x, k=k))
    x = data("float32", (5, 4))
    for v in (x.T, x[::-1, ::2], np.broadcast_to(x[:1], (5, 4))):
        same(fn(v, k=k), ref(v, k=k))



@pytest.mark.parametrize("name", ["tril", "triu"])
def test_triangle_rows_apart(name):
    """Unit-stride rows that are apart (a slice) run the unit-innermost-stride
    version of the masked loop nest: rows longer than one block of 8192
    columns, a diagonal crossing blocks."""
    fn, ref = getattr(pt, name), getattr(np, name)
    x = data("float32", (12, 17000))[::2, 3:]
    for k in (-2, 0, 8190, 8200, 16990):
        same(fn(x, k=k), ref(x, k=k))


@pytest.mark.parametrize("k", [-1, 3])
@pytest.mark.parametrize("name", ["tril", "triu"])
def test_triangle_batches(name, k):
    fn, ref = getattr(pt, name), getattr(np, name)
    b = data("float32", (2, 3, 4, 5))
    same(fn(b, k=k), ref(b, k=k))
    bt = np.swapaxes(b, -1, -2)
    same(fn(bt, k=k), ref(bt, k=k))
    bs = b[::-1, :, ::2, 1:]
    same(fn(bs, k=k), ref(bs, k=k))


@pytest.mark.parametrize("dtype", ["bool", "int32", "bfloat16"])
@pytest.mark.parametrize("name", ["tril", "triu"])
def test_triangle_dtypes(name, dtype):
    fn, ref = getattr(pt, name), getattr(np, name)
    x = data(BF16 if dtype == "bfloat16" else dtype, (2, 3, 4))
    same(fn(x), ref(x))
    same(fn(np.swapaxes(x, 1, 2)), ref(np.swapaxes(x, 1, 2)))


def test_triangle_default_and_array_input():
    x = data("int32", (3, 4, 5))
    same(pt.tril(x), np.tril(x))
    same(pt.triu(x), np.triu(x))
    r = pt.triu(pt.asarray(x))
    assert isinstance(r, pt.Array) and r.shape == (3, 4, 5) and r.dtype == pt.int32
    same(r, np.triu(x))
    r = pt.tril(pt.asarray(x.mT))
    assert isinstance(r, pt.Array)
    same(r, np.tril(np.swapaxes(x, 1, 2)))


def test_triangle_errors():
    for fn in (pt.tril, pt.triu):
        with pytest.raises(ValueError, match=r"at least 2 dimensions.*shape \[6\]"):
            fn(data("float32", (6,)))
        with pytest.raises(ValueError, match="at least 2 dimensions"):
            fn(np.array(1.0, np.float32))


def test_larger_sizes():
    # Sizes past any tile or vector width (the kernels of the tests above).
    a = data("float32", (67, 129))
    b = data("float32", (67, 3))
    same(pt.concat([a, b], axis=1), np.concatenate([a, b], axis=1))
    same(pt.concat([a.T, b.T], axis=0), np.concatenate([a.T, b.T], axis=0))
    same(pt.stack([a, a[::-1]], axis=2), np.stack([a, a[::-1]], axis=2))
    same(pt.roll(a, 7, axis=0), np.roll(a, 7, axis=0))
    same(pt.roll(a.T, (1, -2), axis=(0, 1)), np.roll(a.T, (1, -2), axis=(0, 1)))
    same(pt.roll(a, 13), np.roll(a, 13))
    same(pt.tril(a, k=1), np.tril(a, k=1))
    same(pt.triu(a.T, k=-1), np.triu(a.T, k=-1))
    same(pt.reshape(a.T, (-1,)), np.reshape(a.T, (-1,)))
    same(pt.reshape(a[:, 1:], (64, 2, -1)), np.reshape(a[:, 1:], (64, 2, -1)))
    same(np.asarray(pt.eye(70, 90, k=9, dtype=pt.float32)), np.eye(70, 90, k=9, dtype=np.float32))


# ---------------------------------------------------------------------------
# meshgrid
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("lengths", [(4,), (3, 5), (2, 3, 4), (0, 3), (3, 1, 0)])
def test_meshgrid(indexing, lengths):
    xs = [data("float32", (n,)) for n in lengths]
    got = pt.meshgrid(*xs, indexing=indexing)
    expected = np.meshgrid(*xs, indexing=indexing)
    assert isinstance(got, list) and len(got) == len(expected)
    for g, e in zip(got, expected):
        same(g, e)
    # strided and flipped inputs
    ys = [data("float32", (2 * n,))[::2] for n in lengths]
    ys[0] = ys[0][::-1]
    for g, e in zip(pt.meshgrid(*ys, indexing=indexing), np.meshgrid(*ys, indexing=indexing)):
        same(g, e)


@pytest.mark.parametrize("dtype,indexing", [("int64", "xy"), ("bool", "ij")])
def test_meshgrid_dtypes(dtype, indexing):
    xs = [data(dtype, (3,)), data(dtype, (2,))]
    for g, e in zip(pt.meshgrid(*xs, indexing=indexing), np.meshgrid(*xs, indexing=indexing)):
        same(g, e)


def test_meshgrid_default_array_inputs_and_errors():
    a, b = data("float32", (3,)), data("float32", (2,))
    got = pt.meshgrid(pt.asarray(a), pt.asarray(b))
    assert isinstance(got, list) and len(got) == 2
    for g, e in zip(got, np.meshgrid(a, b)):
        assert isinstance(g, pt.Array) and g.shape == (2, 3)
        same(g, e)
    assert pt.meshgrid() == []
    with pytest.raises(ValueError, match="indexing"):
        pt.meshgrid(a, b, indexing="xz")
    # The array API requires one dtype; mismatched dtypes are an error
    # (found by the compiler when it builds the kernel).
    with pytest.raises((pt.DTypeError, pt.CompileError),
                       match="meshgrid needs operands of one dtype"):
        pt.meshgrid(a, data("int64", (2,)))


# ---------------------------------------------------------------------------
# eye
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("k", [0, 2, -1, 9, -9])
def test_eye_float32(k):
    for n_rows, n_cols in [(4, None), (3, 5), (5, 3), (1, 1), (0, 3), (3, 0), (0, None)]:
        got = pt.eye(n_rows, n_cols, k=k, dtype=pt.float32)
        assert isinstance(got, pt.Array)
        same(np.asarray(got), np.eye(n_rows, n_cols, k=k, dtype=np.float32))


@pytest.mark.parametrize("dtype", ["int32", "bool"])
@pytest.mark.parametrize("k", [0, -5])
def test_eye_dtypes(dtype, k):
    got = pt.eye(4, 6, k=k, dtype=getattr(pt, dtype))
    assert isinstance(got, pt.Array) and got.dtype == getattr(pt, dtype)
    same(np.asarray(got), np.eye(4, 6, k=k, dtype=dtype))
    same(np.asarray(pt.eye(3, k=k, dtype=getattr(pt, dtype))), np.eye(3, k=k, dtype=dtype))


def test_eye_defaults_and_errors():
    got = pt.eye(3)
    assert isinstance(got, pt.Array) and got.dtype == pt.float64 and got.shape == (3, 3)
    same(np.asarray(got), np.eye(3))
    same(np.asarray(pt.eye(2, 3)), np.eye(2, 3))
    with pytest.raises(ValueError):
        pt.eye(-1)
    with pytest.raises(ValueError):
        pt.eye(2, -3)


# ---------------------------------------------------------------------------
# extract_mask (x[mask])
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bool", "int16", "uint32", "float16", "bfloat16", "float64"])
def test_extract_mask_dtypes(dtype):
    x = data(BF16 if dtype == "bfloat16" else dtype, (4, 5))
    m = data("bool", (4, 5))
    same(pt.extract_mask(x, m), x[m])


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "stepped", "flipped"])
def test_extract_mask_layouts(layout):
    base = data("float32", (6, 6))
    mbase = data("bool", (6, 6))
    pick = {"contiguous": lambda a: a, "transposed": lambda a: a.T,
            "stepped": lambda a: a[::2, 1::2], "flipped": lambda a: a[::-1]}[layout]
    x, m = pick(base), pick(mbase)
    same(pt.extract_mask(x, m), x[m])
    same(pt.extract_mask(x, m.T.copy().T), x[m])  # a mask of another layout


def test_extract_mask_rows_and_edges():
    x = data("int32", (5, 3, 2))
    rows = np.array([True, False, True, True, False])
    same(pt.extract_mask(x, rows), x[rows])
    same(pt.extract_mask(x.transpose(0, 2, 1), rows), x.transpose(0, 2, 1)[rows])
    sq = data("float32", (3, 3))
    same(pt.extract_mask(sq, np.zeros((3, 3), bool)), sq[np.zeros((3, 3), bool)])
    same(pt.extract_mask(sq, np.ones((3, 3), bool)), sq.reshape(-1))
    empty = data("float32", (0, 4))
    same(pt.extract_mask(empty, np.zeros((0, 4), bool)), empty[np.zeros((0, 4), bool)])


def test_extract_mask_array_indexing():
    x = data("float64", (4, 6))
    m = x > 0
    got = pt.asarray(x)[pt.asarray(m)]
    assert isinstance(got, pt.Array)
    same(got, x[m])


def test_extract_mask_errors():
    x = data("float32", (4, 3))
    with pytest.raises(pt.BroadcastError,
                       match=r"the mask's shape \[2\] does not match the first 1 dimensions "
                             r"of shape \[4, 3\]"):
        pt.extract_mask(x, np.ones(2, bool))
    with pytest.raises(pt.CompileError, match="extract_mask needs a bool mask, but got i8"):
        pt.extract_mask(x, np.ones((4, 3), np.int8))


def test_offsets_and_shifts_beyond_64_bits():
    # Found by the array API suite: numpy takes any Python int.
    a = data("float32", (3, 4))
    for k in (2 ** 63, 2 ** 64 - 1, -2 ** 63 - 1):
        same(pt.triu(a, k=k), np.triu(a, k) if abs(k) < 2 ** 63 else
             (np.zeros_like(a) if k > 0 else a))
        same(pt.tril(a, k=k), a if k > 0 else np.zeros_like(a))
    same(np.asarray(pt.eye(3, k=2 ** 64 - 1)), np.zeros((3, 3)))
    assert pt.eye(0, k=-2 ** 63 - 1).shape == (0, 0)
    same(pt.roll(a, 2 ** 64 - 1, axis=1), np.roll(a, 2 ** 64 - 1, axis=1))


def test_masks_the_framework_indexes():
    # A 0-d mask adds a dim; a mask of other sizes is numpy's IndexError.
    x = np.zeros((2, 3))
    X = pt.asarray(x)
    assert X[pt.asarray(np.array(True))].shape == (1, 2, 3)
    with pytest.raises(IndexError):
        X[pt.asarray(np.ones(3, bool))]


# -- delete ------------------------------------------------------------------


def test_delete_releases_storage():
    import gc
    import weakref
    backing = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = pt.asarray(backing)
    s = pt.sum(x)
    ref = weakref.ref(x._array)
    del backing
    pt.delete(x)
    gc.collect()
    assert ref() is None  # nothing else held the storage: it was freed
    assert float(s) == 66.0  # results computed before stay
    assert repr(x) == "ptensor.Array(<deleted>)"


def test_delete_then_use_is_an_error():
    x = pt.asarray(np.ones(4, dtype=np.float32))
    pt.delete(x)
    for use in (lambda: x + 1, lambda: pt.sum(x), lambda: x.shape, lambda: x[0],
                lambda: np.asarray(x)):
        with pytest.raises(ValueError, match="deleted"):
            use()
    with pytest.raises(ValueError, match="deleted"):
        pt.delete(x)  # a second delete


def test_delete_keeps_views_valid():
    x = pt.asarray(np.arange(6, dtype=np.int64))
    v = x[2:]
    pt.delete(x)
    np.testing.assert_array_equal(np.asarray(v + 1), np.arange(3, 7))


def test_array_pickles_old_and_new():
    import pickle
    x = pt.asarray(np.arange(3.0))
    np.testing.assert_array_equal(np.asarray(pickle.loads(pickle.dumps(x))), np.arange(3.0))
    old = object.__new__(pt.Array)  # the state of an Array pickled before `_backing`
    old.__setstate__((None, {"_array": np.arange(2)}))
    np.testing.assert_array_equal(np.asarray(old), np.arange(2))
    with pytest.raises(pickle.UnpicklingError, match="'_backing' or '_array' slot, got none"):
        object.__new__(pt.Array).__setstate__((None, {}))


class _LabelledArray(pt.Array):
    """A user's subclass with an attribute and a slot of its own (pickled
    with them)."""

    __slots__ = ("unit", "__dict__")


def test_array_subclass_pickles_its_attributes():
    import pickle
    x = object.__new__(_LabelledArray)  # Arrays are made by ptensor, not constructed
    x.__setstate__((None, {"_backing": np.arange(4.0)}))
    x.label = "weights"
    x.unit = "kg"
    y = pickle.loads(pickle.dumps(x))
    assert type(y) is _LabelledArray and y.label == "weights" and y.unit == "kg"
    np.testing.assert_array_equal(np.asarray(y), np.arange(4.0))


def test_array_operands_are_read_through_their_slot():
    # The C++ call reads an Array's (or a subclass's) backing array from
    # its slot and makes the result an Array itself.
    x = object.__new__(_LabelledArray)
    x.__setstate__((None, {"_backing": np.arange(4.0)}))
    y = pt.add(x, pt.asarray(np.full(4, 0.5)))
    assert type(y) is pt.Array
    np.testing.assert_array_equal(np.asarray(y), np.arange(4.0) + 0.5)
    assert type(pt.add(np.arange(4.0), 1.0)) is np.ndarray


def test_delete_needs_a_ptensor_array():
    with pytest.raises(TypeError, match="ptensor.Array"):
        pt.delete(np.ones(3))


_PEAK_SCRIPT = r'''
import sys, numpy as np, ptensor as pt
M = "!ptensor.ptensor<?x?xf32>"
delete = "ptensor.delete %t : " + M if sys.argv[1] == "1" else ""
ir = f"""
func.func @f(%a: {M}) -> {M} {{
  %t = ptensor.sort %a : {M} -> {M}
  %s = ptensor.reduce max %t : {M} -> !ptensor.ptensor<f32>
  {delete}
  %c = ptensor.combine concat %a, %a axis 0 : ({M}, {M}) -> {M}
  %r = ptensor.elementwise_binary add %c, %s : ({M}, !ptensor.ptensor<f32>) -> {M}
  return %r : {M}
}}
"""
a = np.random.default_rng(0).random((512, 512), dtype=np.float32)
r = pt.compile_module(ir)["f"](a)
assert np.array_equal(np.asarray(r), np.concatenate([a, a]) + a.max())
print(pt.allocator_stats("cpu")["peak_bytes_in_use"])
'''


def test_delete_lowers_peak_memory():
    """IR: the sorted temporary (1 MiB) is freed at its delete, before the
    concat allocates, so the process's peak of host buffers drops by it."""
    import subprocess
    import sys
    peaks = [int(subprocess.run([sys.executable, "-c", _PEAK_SCRIPT, flag], check=True,
                                capture_output=True, text=True).stdout)
             for flag in ("0", "1")]
    assert peaks[0] - peaks[1] >= 512 * 512 * 4, peaks
