"""Reductions from Python against numpy: every kind over the dtypes it
takes, axes (None, one, several, negative), keepdims, the dtype argument,
correction, views (transposed, strided, flipped), the Array methods, the
errors (the compiler's messages) and the empty-axis run-time check."""

import numpy as np
import pytest

import ptensor as pt

RNG = np.random.default_rng(3)


def data(dtype, shape):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return RNG.uniform(-5, 5, shape).astype(dt)
    if dt.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    lo = 0 if dt.kind == "u" else -3
    return RNG.integers(lo, 4, shape).astype(dt)


def close(got, expected, dtype):
    got = np.asarray(got)
    assert got.shape == np.shape(expected)
    if np.dtype(dtype).kind == "f":
        rtol = {2: 2e-3, 4: 2e-6, 8: 1e-13}[np.dtype(dtype).itemsize]
        np.testing.assert_allclose(got.astype(np.float64), expected, rtol=rtol, atol=rtol)
    else:
        np.testing.assert_array_equal(got, expected)


AXES = [None, 0, 1, -1, (0, 2), (-1, 0, 1)]


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "uint16", "float16", "float32",
                                   "float64"])
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_prod_max_min_any_all(dtype, axis, keepdims):
    x = data(dtype, (3, 4, 5))
    for name in ["sum", "max", "min", "any", "all"]:
        got = getattr(pt, name)(x, axis=axis, keepdims=keepdims)
        ref = getattr(np, name)(x.astype(np.float64) if name == "sum" and x.dtype.kind == "f"
                                else x, axis=axis, keepdims=keepdims)
        if name == "sum" and x.dtype.kind in "bi":
            assert got.dtype == np.int64
        if name == "sum" and x.dtype.kind == "u":
            assert got.dtype == np.uint64
        close(got, ref, got.dtype)
    p = pt.prod(x[:, :2, :2], axis=axis if axis in (None, 0, 1, -1) else None, keepdims=keepdims)
    pref = np.prod(x[:, :2, :2].astype(np.float64 if x.dtype.kind == "f" else p.dtype),
                   axis=axis if axis in (None, 0, 1, -1) else None, keepdims=keepdims)
    close(p, pref, p.dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("axis", AXES)
def test_mean_var_std(dtype, axis):
    x = data(dtype, (3, 4, 5))
    x64 = x.astype(np.float64)
    close(pt.mean(x, axis=axis), np.mean(x64, axis=axis), dtype)
    close(pt.var(x, axis=axis), np.var(x64, axis=axis), dtype)
    close(pt.std(x, axis=axis, correction=1, keepdims=True),
          np.std(x64, axis=axis, ddof=1, keepdims=True), dtype)
    assert pt.var(x, axis=axis).dtype == x.dtype


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint8", "float16", "float32"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_argmax_argmin(dtype, axis):
    x = data(dtype, (6, 7))
    for name in ["argmax", "argmin"]:
        got = getattr(pt, name)(x, axis=axis, keepdims=True)
        ref = getattr(np, name)(x, axis=axis, keepdims=True)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, ref)


_COLUMNS_SCRIPT = """
import sys
import numpy as np
import ptensor as pt
x = np.random.default_rng(5).uniform(-5, 5, (1003, 2100)).astype(np.float32)
np.save(sys.argv[1], np.asarray(pt.sum(x, axis=0)))
np.save(sys.argv[2], np.asarray(pt.sum(x.ravel())))
narrow = np.random.default_rng(6).uniform(-5, 5, (20011, 7)).astype(np.float32)
np.save(sys.argv[3], np.asarray(pt.sum(narrow, axis=0)))
np.save(sys.argv[4], np.asarray(pt.sum(x[:, :2000])))
np.save(sys.argv[5], np.asarray(pt.sum(x.reshape(3, -1), axis=1)))
"""


@pytest.mark.parametrize("shape, axis", [((1003, 2100), 0), ((7, 2500), 0), ((2, 1030), 0),
                                         ((6, 5, 1100), (0, 1)), ((3, 401, 1500), 1),
                                         ((2, 9, 3), 0), ((100003, 5), 0),
                                         ((300, 7, 9), (0, 1))])
def test_column_reductions(shape, axis):
    """Reductions whose innermost loop is kept (ReductionsToLoops'
    ColumnReduction): blocks of 1024 columns (a partial last one), rows
    4 at a time and a remainder, reduced dims before and between kept ones,
    the outermost reduced loop in chunks of at least 64 rows merged in
    order (16 chunks of 1003 rows with 3 blocks, 64 of 100003 narrow rows,
    5 of an outer reduced loop of 300), on threads where the work is large;
    every kind against numpy."""
    for dtype in ("float32", "int16", "bool"):
        x = data(dtype, shape)
        # float32 against the float64 sum (numpy's column sum adds in float32)
        close(pt.sum(x, axis=axis), np.sum(x, axis=axis, dtype=np.float64 if dtype == "float32"
                                           else np.int64), dtype)
        close(pt.max(x, axis=axis), np.max(x, axis=axis), dtype)
        close(pt.any(x, axis=axis), np.any(x, axis=axis), "bool")
        close(pt.all(x, axis=axis), np.all(x, axis=axis), "bool")
    x = data("float64", shape)
    close(pt.min(x, axis=axis), np.min(x, axis=axis), "float64")
    close(pt.var(x, axis=axis), np.var(x, axis=axis), "float64")
    close(pt.prod(x[..., :6] / 4, axis=axis), np.prod(x[..., :6] / 4, axis=axis), "float64")
    close(pt.argmax(x, axis=0), np.argmax(x, axis=0), "int64")


def test_column_and_full_sums_do_not_depend_on_threads(tmp_path):
    """A column sum (wide: blocks of columns and chunks of rows; narrow: 64
    chunks of rows), full sums (of one loop, and of a view's two loops in
    32 chunks of 32 rows) and the sums of 3 long rows (11 chunks each)
    combine their elements in one fixed
    order: the same bits on one thread as on three (fresh processes, so
    that the thread count does not depend on the machine's CPUs), and
    close to the float64 sums."""
    import os
    import subprocess
    import sys
    results = []
    for threads in ("1", "3"):
        paths = [str(tmp_path / ("%s_%s.npy" % (name, threads)))
                 for name in ("cols", "total", "narrow", "view", "rows")]
        env = dict(os.environ, PTENSOR_NUM_THREADS=threads)
        out = subprocess.run([sys.executable, "-c", _COLUMNS_SCRIPT] + paths, env=env,
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr[-3000:]
        results.append([np.load(p) for p in paths])
    (cols1, total1, narrow1, view1, rows1), (cols3, total3, narrow3, view3, rows3) = results
    np.testing.assert_array_equal(view1, view3)
    np.testing.assert_array_equal(rows1, rows3)
    np.testing.assert_array_equal(cols1, cols3)
    np.testing.assert_array_equal(total1, total3)
    np.testing.assert_array_equal(narrow1, narrow3)
    narrow = np.random.default_rng(6).uniform(-5, 5, (20011, 7)).astype(np.float32)
    np.testing.assert_allclose(narrow1, narrow.astype(np.float64).sum(axis=0), rtol=1e-5,
                               atol=1e-3)
    x = np.random.default_rng(5).uniform(-5, 5, (1003, 2100)).astype(np.float32)
    np.testing.assert_allclose(cols1, x.astype(np.float64).sum(axis=0), rtol=1e-6, atol=1e-5)
    np.testing.assert_allclose(total1, x.astype(np.float64).sum(), rtol=1e-6)
    np.testing.assert_allclose(view1, x[:, :2000].astype(np.float64).sum(), rtol=1e-6)
    np.testing.assert_allclose(rows1, x.reshape(3, -1).astype(np.float64).sum(axis=1), rtol=1e-6)


@pytest.mark.parametrize("n", [65536 * 3 + 7, 64 * 65536 + 5])
def test_full_reductions_in_chunks(n):
    """A full reduction over one loop folds equal chunks of up to 65536
    elements (ceil(n / 65536), at most 64;
    larger past that) on the threads (ReductionsToLoops' emitChunkedOutput):
    every kind against numpy; argmax's first occurrence and the first NaN
    in a later chunk than a tie; any/all decided in the last chunk."""
    x = data("float32", n)
    close(pt.sum(x), x.astype(np.float64).sum(), "float32")
    close(pt.mean(x), x.astype(np.float64).mean(), "float32")
    close(pt.var(x), x.astype(np.float64).var(), "float32")
    close(pt.max(x), x.max(), "float32")
    close(pt.min(x), x.min(), "float32")
    i = data("int32", n)
    close(pt.sum(i), i.sum(dtype=np.int64), "int64")
    y = x.copy()
    y[[5, n // 2, n - 3]] = 9.0  # ties in the first, a middle and the last chunk
    assert int(np.asarray(pt.argmax(y))) == 5
    y[n - 2] = np.nan
    assert int(np.asarray(pt.argmax(y))) == n - 2 and int(np.asarray(pt.argmin(y))) == n - 2
    assert np.isnan(np.asarray(pt.max(y))) and np.isnan(np.asarray(pt.sum(y)))
    # argmax/argmin read only the first chunk holding the extremum
    # (ReductionsToLoops' emitFirstMatchOutput): -0.0 and 0.0 are equal, a
    # NaN in a later chunk than the extremum wins, integers too.
    z = -np.abs(x) - 1
    z[[n // 3, n // 2]] = [-0.0, 0.0]
    assert int(np.asarray(pt.argmax(z))) == np.argmax(z) == n // 3
    z[n - 70000] = np.nan
    assert int(np.asarray(pt.argmax(z))) == np.argmax(z) == n - 70000
    assert int(np.asarray(pt.argmin(z))) == np.argmin(z) == n - 70000
    k = i.copy()
    k[[7, n - 1]] = -100
    assert int(np.asarray(pt.argmin(k))) == 7
    assert int(np.asarray(pt.argmax(k))) == np.argmax(k)
    b = np.zeros(n, bool)
    assert not bool(np.asarray(pt.any(b)))
    b[-1] = True
    assert bool(np.asarray(pt.any(b))) and not bool(np.asarray(pt.all(b)))


@pytest.mark.parametrize("view", ["rows", "columns", "batch", "wide rows"])
def test_full_reductions_over_several_loops(view):
    """A full reduction of a view whose dims do not coalesce folds its
    outermost loop in chunks of about 65536 elements on the threads, the
    inner loops whole in each (ReductionsToLoops' emitChunkedOutput): 2-D
    and 3-D views with several rows per chunk, and rows longer than a chunk
    (one row each); every kind against numpy, argmax's first occurrence
    across chunks and a NaN in a late one."""
    base = data("float32", (700, 3, 1500))
    x = {"rows": base[:, 1, :1400], "columns": base[::2, :, ::3].transpose(1, 0, 2),
         "batch": base[:, :2, 5:], "wide rows": data("float32", (3, 200001))[:, 1:]}[view]
    close(pt.sum(x), x.astype(np.float64).sum(), "float32")
    close(pt.mean(x), x.astype(np.float64).mean(), "float32")
    close(pt.var(x), x.astype(np.float64).var(), "float32")
    close(pt.max(x), x.max(), "float32")
    close(pt.min(x), x.min(), "float32")
    close(pt.any(x > 4.99), np.any(x > 4.99), "bool")
    close(pt.all(x > -4.99), np.all(x > -4.99), "bool")
    y = x
    y[(0,) * y.ndim] = y[(-1,) * y.ndim] = 9.0  # a tie in the first and the last chunk
    assert int(np.asarray(pt.argmax(y))) == 0
    y[(-1,) * (y.ndim - 1) + (-2,)] = np.nan
    assert int(np.asarray(pt.argmax(y))) == np.argmax(y) == y.size - 2
    assert np.isnan(np.asarray(pt.sum(y))) and np.isnan(np.asarray(pt.min(y)))


@pytest.mark.parametrize("shape, axis", [((2, 1000003), 1), ((3, 5, 140001), 2),
                                         ((4, 9000, 30), (1, 2)), ((70, 200000), 1)])
def test_few_long_reductions(shape, axis):
    """Fewer outputs than 64 split each output's reduced range in chunks
    (ReductionsToLoops' emitKeptOutputs: enough for 64 tasks, about 65536
    positions each; chunk 0 into the outputs, the others through partials
    merged in order): 16 chunks of a 1000003-long row, 3 of 15 rows, 5 of
    4 reductions over two loops, one per row of 70; every kind against
    numpy, argmax's first occurrence and a NaN in a late chunk."""
    x = data("float32", shape)
    close(pt.sum(x, axis=axis), x.astype(np.float64).sum(axis=axis), "float32")
    close(pt.mean(x, axis=axis), x.astype(np.float64).mean(axis=axis), "float32")
    close(pt.var(x, axis=axis), x.astype(np.float64).var(axis=axis), "float32")
    close(pt.max(x, axis=axis), x.max(axis=axis), "float32")
    close(pt.any(x > 4.999, axis=axis), np.any(x > 4.999, axis=axis), "bool")
    i = data("int32", shape)
    close(pt.sum(i, axis=axis), i.sum(axis=axis, dtype=np.int64), "int64")
    close(pt.min(i, axis=axis), i.min(axis=axis), "int32")
    if isinstance(axis, int):
        y = x.copy()
        y[..., 3] = y[..., -3] = 9.0  # a tie in the first and the last chunk
        np.testing.assert_array_equal(pt.argmax(y, axis=axis), np.full(shape[:-1], 3))
        y[..., -70000] = np.nan
        np.testing.assert_array_equal(pt.argmax(y, axis=axis), np.argmax(y, axis=axis))
        assert np.isnan(np.asarray(pt.sum(y, axis=axis))).all()


@pytest.mark.parametrize("dtype", ["float32", "int16"])
def test_argmax_rows_first_occurrence(dtype):
    """argmax/argmin along rows of 5000 (on the host: each block of 256's
    extremum, then a search of the first block holding the best): the
    extremum first, last and at block edges 255/256 and 1023/1024, ties
    adjacent, across a block edge and far apart, rows with no marked
    extremum (many ties of the data's own maximum), a NaN after a finite
    maximum, and strided and transposed views (the search's other
    versions)."""
    x = data(dtype, (11, 5000))
    top = 127 if dtype == "int16" else 9.0
    for row, cols in enumerate([[0], [1023], [1024], [4999], [700, 701],
                                [2047, 2048, 4000], [3071, 1024 * 4],
                                [255], [256, 4864], [255, 256]]):
        x[row, cols] = top
        x[row, [c + 1 for c in cols if c + 1 < 5000 and c + 1 not in cols]] = -top
    np.testing.assert_array_equal(pt.argmax(x, axis=1), np.argmax(x, axis=1))
    np.testing.assert_array_equal(pt.argmin(x, axis=1), np.argmin(x, axis=1))
    np.testing.assert_array_equal(pt.argmax(x[:, ::2], axis=1), np.argmax(x[:, ::2], axis=1))
    np.testing.assert_array_equal(pt.argmax(x.T, axis=0), np.argmax(x.T, axis=0))
    if dtype == "float32":
        x[7, 3000] = np.nan  # after row 7's finite maximum
        x[8, [10, 2500]] = np.nan
        np.testing.assert_array_equal(pt.argmax(x, axis=1), np.argmax(x, axis=1))
        np.testing.assert_array_equal(pt.argmin(x, axis=1), np.argmin(x, axis=1))


@pytest.mark.parametrize("dtype", ["float64", "uint8", "int32"])
def test_argmax_rows_extreme_values(dtype):
    """Rows of 600 (three blocks) whose every element is the dtype's least
    (greatest) value, so no block beats the first, and float rows of only
    -inf, of -0.0 and 0.0 ties across blocks, and of a NaN in the last
    block."""
    info = np.finfo(dtype) if dtype.startswith("float") else np.iinfo(dtype)
    low, high = (-np.inf, np.inf) if dtype.startswith("float") else (info.min, info.max)
    x = np.stack([np.full(600, low, dtype), np.full(600, high, dtype),
                  data(dtype, (600,))])
    if dtype.startswith("float"):
        zeros = np.zeros(600, dtype)
        zeros[::3] = -0.0
        nan_last = data(dtype, (600,))
        nan_last[599] = np.nan
        x = np.vstack([x, zeros, -zeros, nan_last])
    for name in ["argmax", "argmin"]:
        np.testing.assert_array_equal(getattr(pt, name)(x, axis=1),
                                      getattr(np, name)(x, axis=1))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_max_min_nan_anywhere(dtype):
    """Host max/min fold a max that may ignore NaN beside a NaN flag: a NaN
    at any position of a row (vector lanes, remainders, either end) gives
    NaN, rows of only -inf/inf give them, and zeros of both signs compare
    equal to numpy's."""
    x = data(dtype, (7, 1001))
    for row, col in enumerate([0, 1, 17, 500, 999, 1000]):
        x[row, col] = np.nan
    x = np.vstack([x, np.full((1, 1001), -np.inf, dtype),
                   np.full((1, 1001), np.inf, dtype), np.zeros((1, 1001), dtype)])
    x[-1, ::2] = -0.0
    for name in ["max", "min"]:
        ours, ref = getattr(pt, name), getattr(np, name)
        np.testing.assert_array_equal(ours(x, axis=1), ref(x, axis=1))
        np.testing.assert_array_equal(ours(x[1:, ::-3], axis=1), ref(x[1:, ::-3], axis=1))
        assert np.isnan(ours(x)) and not np.isnan(ours(x[7:]))
        assert ours(x[7:]) == ref(x[7:])


def test_nan_and_ties():
    x = np.array([[1, np.nan, 5, np.nan], [3, 3, 1, 3]], np.float32)
    np.testing.assert_array_equal(pt.argmax(x, axis=1), [1, 0])
    np.testing.assert_array_equal(pt.argmin(x, axis=1), [1, 2])
    assert np.isnan(pt.max(x, axis=1)[0]) and pt.max(x, axis=1)[1] == 3
    assert np.isnan(pt.sum(x))


def test_views():
    x = data("float32", (8, 9))
    for v in [x.T, x[::2, 1::3], x[::-1, ::-2]]:
        close(pt.sum(v, axis=1), v.astype(np.float64).sum(axis=1), "float32")
        np.testing.assert_array_equal(pt.argmax(v, axis=0), v.argmax(axis=0))


@pytest.mark.parametrize("order", ["transposed", "fortran"])
@pytest.mark.parametrize("axis", [0, 1])
def test_reductions_against_the_layout(order, axis):
    """A reduction whose rows are columns in memory (a transposed view, a
    Fortran-order array) runs with its loops swapped at run time: every kind
    gives numpy's result either way round, over sizes past one block."""
    base = data("float32", (517, 300))
    x = base.T if order == "transposed" else np.asfortranarray(base)
    wide = x.astype(np.float64)
    close(pt.sum(x, axis=axis), wide.sum(axis=axis), "float32")
    close(pt.mean(x, axis=axis, keepdims=True), wide.mean(axis=axis, keepdims=True), "float32")
    close(pt.var(x, axis=axis, correction=1), wide.var(axis=axis, ddof=1), "float32")
    np.testing.assert_array_equal(pt.max(x, axis=axis), x.max(axis=axis))
    np.testing.assert_array_equal(pt.argmin(x, axis=axis), x.argmin(axis=axis))
    np.testing.assert_array_equal(pt.any(x > 4.9, axis=axis), (x > 4.9).any(axis=axis))
    ints = data("int16", base.shape)
    ints = ints.T if order == "transposed" else np.asfortranarray(ints)
    np.testing.assert_array_equal(pt.sum(ints, axis=axis), ints.sum(axis=axis))


def test_dtype_argument_and_accuracy():
    x = data("int8", (50,))
    assert pt.sum(x, dtype=np.int16).dtype == np.int16
    assert pt.sum(x, dtype="float64") == x.astype(np.float64).sum()
    # A narrower dtype, or one of another kind: x is cast to it first (the
    # array API; numpy and torch agree).
    wide = np.arange(-300, 300, 7, dtype=np.int32)
    for dt in (np.int8, np.uint8, np.int16):
        got = pt.sum(wide, dtype=dt)
        assert got.dtype == dt and got == np.sum(wide.astype(dt), dtype=dt)
    f = np.array([-3.7, 2.9, 1.5, -1.2, 5.2])  # truncated, not rounded: -3*2*1*-1*5
    assert pt.prod(f, dtype=np.int32) == np.prod(f.astype(np.int32)) == 30
    # bool: numpy's bool add and multiply (or, and) of x != 0.
    ints = np.array([[0, 2, 0], [4, -1, 3]], np.int32)
    np.testing.assert_array_equal(pt.sum(ints, axis=0, dtype=bool), np.sum(ints, axis=0, dtype=bool))
    np.testing.assert_array_equal(pt.prod(ints, axis=1, dtype=bool), np.prod(ints, axis=1, dtype=bool))
    halves = np.array([1.0002, -1.0] * 4)  # 1.0002 rounds to 1 in float16
    assert pt.sum(halves, dtype=np.float16) == 0
    ones = np.ones(2 ** 25, np.float32)
    assert pt.sum(ones) == 2 ** 25  # a float32 accumulator stops at 2**24


def test_array_methods_and_empty():
    a = pt.asarray(data("float32", (4, 5)))
    s = a.sum(axis=0)
    assert isinstance(s, pt.Array) and s.shape == (5,)
    assert a.argmax() == int(np.argmax(np.asarray(a._array)))
    assert pt.sum(np.zeros((0, 3), np.float32), axis=0).tolist() == [0, 0, 0]
    assert np.isnan(pt.mean(np.zeros((0,), np.float32)))


def test_errors_name_the_rule():
    with pytest.raises(pt.DTypeError, match="mean needs a floating-point input, but got i32"):
        pt.mean(np.arange(3, dtype=np.int32))
    with pytest.raises(ValueError, match="axis 2 is out of range for a tensor of rank 2"):
        pt.sum(np.zeros((2, 2), np.float32), axis=2)
    with pytest.raises(ValueError, match="names dimension 1 twice"):
        pt.max(np.zeros((2, 2), np.float32), axis=(1, -1))
    with pytest.raises(ValueError, match="must be a finite number >= 0"):
        pt.var(np.zeros((2,), np.float32), correction=-1)
    with pytest.raises(ValueError, match="max of an empty axis"):
        pt.max(np.zeros((0, 3), np.float32), axis=0)
    with pytest.raises(ValueError, match="argmax and argmin take one axis or none"):
        pt.argmax(np.zeros((2, 2), np.float32), axis=(0, 1))


@pytest.mark.parametrize("correction", [1e-05, 1e20, 2.5e-07, 0.5])
def test_correction_in_exponent_form(correction):
    # The IR must spell the float with a "." (MLIR does not parse 1e-05);
    # found by the array API suite.
    x = np.arange(6.0).reshape(2, 3)
    got = np.asarray(pt.var(x, axis=0, correction=correction))
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.var(x, axis=0, ddof=correction)
    np.testing.assert_allclose(got, want, rtol=1e-12)
