"""sort and argsort from Python against numpy's stable sort, exactly: every
dtype, every axis of 1-3-D arrays, ascending and descending (ties in input
order, NaNs first), NaN/-0.0/±inf, many ties, short and long lines (the
comparison and the radix path), full integer ranges, non-contiguous inputs,
size 0 and 1, Array inputs, and the errors (the compiler's messages)."""

import numpy as np
import pytest

import ptensor as pt
from ptensor import _dtypes as D

BF16 = D.bfloat16()
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", BF16, "float32", "float64"]
SPECIALS = [np.nan, -np.nan, -0.0, 0.0, np.inf, -np.inf, 1.0, -0.0]


def data(dtype, shape, seed, full_range=False):
    """Values of `dtype` with many ties; floats with the specials; with
    `full_range` integers spread over the whole range (every key byte)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = (int(info.min), int(info.max)) if full_range else (max(int(info.min), -9), 9)
        return rng.integers(lo, hi, n, endpoint=True,
                            dtype=np.uint64 if dt.kind == "u" else np.int64).astype(dt).reshape(shape)
    x = (rng.integers(-12, 12, n) / 4).astype(np.float64)
    if not full_range:
        x[: min(n, len(SPECIALS))] = SPECIALS[: min(n, len(SPECIALS))]
    else:
        x = rng.standard_normal(n) * 1e3
        x[: min(n, len(SPECIALS))] = SPECIALS[: min(n, len(SPECIALS))]
    rng.shuffle(x)
    return x.astype(dt).reshape(shape)


def expected_indices(x, axis, descending):
    """numpy's stable order; descending: the stable ascending order of the
    flipped array, flipped back (ties in input order, NaNs first)."""
    key = x.astype(np.float64) if x.dtype.kind == "f" or x.dtype == BF16 else x
    if not descending:
        return np.argsort(key, axis=axis, kind="stable")
    n = key.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(key, axis), axis=axis, kind="stable"), axis)


def check(x, axis=-1, descending=False, stable=True):
    idx = expected_indices(x, axis, descending)
    got_idx = np.asarray(pt.argsort(x, axis=axis, descending=descending, stable=stable))
    assert got_idx.dtype == np.int64 and got_idx.shape == x.shape
    np.testing.assert_array_equal(got_idx, idx)
    got = np.asarray(pt.sort(x, axis=axis, descending=descending, stable=stable))
    want = np.take_along_axis(x, idx, axis)
    assert got.dtype == x.dtype and got.shape == x.shape
    # Bitwise: NaN payloads, the sign of zeros and the order of ties.
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("descending", [False, True])
def test_every_dtype(dtype, descending):
    x = data(dtype, (6, 9), 1)
    check(x, -1, descending)
    check(x, 0, descending)
    check(x[0], 0, descending)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_long_lines(dtype):
    x = data(dtype, (2, 3000), 2, full_range=True)
    check(x, -1, False)
    check(x, -1, True)
    check(data(dtype, (5000,), 3), 0, True)  # few distinct values


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_axes_of_3d(axis):
    check(data("float32", (4, 5, 300), 4), axis)
    check(data("int64", (4, 5, 6), 5), axis, True)


def test_layouts():
    a = data("float64", (7, 400), 6)
    check(a.T)                        # transposed
    check(a[::2, ::-3])               # stepped and reversed
    check(np.broadcast_to(data("int32", (5,), 7), (3, 5)), 0)  # zero strides
    check(np.asfortranarray(a), 0)


def test_sizes_0_and_1():
    check(np.zeros((0, 3), np.float32))
    check(np.zeros((0, 3), np.float32), 0)
    check(np.ones((4, 1), np.int16))
    check(np.ones((4, 1), np.int16), 0)


def test_unstable_gives_the_sorted_values():
    x = data("float32", (3, 700), 8)
    got = np.asarray(pt.sort(x, stable=False))
    np.testing.assert_array_equal(got, np.sort(x, axis=-1))


def test_many_lines_split_over_threads():
    x = data("float32", (64, 4096), 9, full_range=True)
    want = np.argsort(x, axis=-1, kind="stable")
    np.testing.assert_array_equal(np.asarray(pt.argsort(x)), want)


_LONG_LINE_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import test_sorting as T
n = (1 << 20) + 12345
for dtype, descending in (("float32", False), ("float32", True), ("float64", False),
                          ("int64", True), ("uint16", False)):
    x = T.data(dtype, (n,), 21, full_range=True)
    x[::1000] = x[0]  # ties across the chunks (kept in input order)
    T.check(x, 0, descending)
T.check(T.data("float32", (2, n), 22), -1)  # fewer lines than threads
print("ok")
"""


@pytest.mark.parametrize("threads", ["1", "2", "3", "4"])
def test_long_line_split_over_threads(threads):
    """A 1-D sort of 2^20 or more elements is sorted in chunks on every
    thread and merged (CpuSort.cpp sortInParallel): the same bits and
    positions as numpy's stable sort with any thread count, odd ones (a
    chunk merged in a later round) included; NaNs, signed zeros and ties
    cross chunk boundaries."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, PTENSOR_NUM_THREADS=threads)
    out = subprocess.run([sys.executable, "-c", _LONG_LINE_SCRIPT, os.path.dirname(__file__)],
                         env=env, capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.dirname(pt.__file__)))
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-3000:]


def test_array_inputs_and_independence():
    x = data("float32", (3, 8), 10)
    arr = pt.asarray(x)
    got = pt.sort(arr)
    assert isinstance(got, pt.Array)
    np.testing.assert_array_equal(np.asarray(got), np.sort(x, axis=-1))
    np.testing.assert_array_equal(np.asarray(arr), x)  # the input is untouched


def test_errors():
    with pytest.raises(ValueError, match=r"sort of a 0-d tensor \(expected a tensor of rank 1 or more\)"):
        pt.sort(np.array(1.0))
    with pytest.raises(ValueError, match=r"argsort: axis 2 is out of range for a tensor of rank 2 "
                       r"\(expected -2 <= axis < 2\)"):
        pt.argsort(np.zeros((2, 3)), axis=2)
    with pytest.raises(ValueError, match="axis -3 is out of range"):
        pt.sort(np.zeros((2, 3)), axis=-3)


def test_input_untouched_and_repeated_calls_agree():
    # A sort once wrote into its input (an identity copy folded away): the
    # input must stay as it was, and the cached kernel must give the same
    # result on every call.
    x = data("int8", (4, 6), 11)
    before = x.copy()
    first = np.asarray(pt.argsort(x, axis=0))
    second = np.asarray(pt.argsort(x, axis=0))
    np.testing.assert_array_equal(x, before)
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(first, np.argsort(before, axis=0, kind="stable"))
    np.testing.assert_array_equal(np.asarray(pt.sort(x)), np.sort(before, axis=-1))
    np.testing.assert_array_equal(x, before)
