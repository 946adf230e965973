"""nonzero and searchsorted from Python against numpy, exactly.

nonzero: every dtype (NaN non-zero, -0.0 zero), ranks 1 to 3,
non-contiguous inputs, no/all non-zero, size 0, Array inputs.
searchsorted: every dtype and both sides (NaNs last, -0.0 equal to 0.0),
values of rank 0 to 3, a sorter, mixed dtypes, views, empty inputs, Array
inputs. Both: the errors (the compiler's messages)."""

import numpy as np
import pytest

import ptensor as pt
from ptensor import _dtypes as D

BF16 = D.bfloat16()
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


def sorted_line(dtype, n, seed):
    """n values of `dtype` in sort's order (NaNs last), with ties."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-5, 6, n).astype(np.float64) / 2
    if np.dtype(dtype).kind in "ub":
        x = np.abs(x)
    x = x.astype(dtype)
    if x.dtype.kind == "f" or x.dtype == BF16:
        x[:2] = [np.nan, -0.0]
    return np.asarray(pt.sort(x))


def probes(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    x = (rng.integers(-7, 8, shape).astype(np.float64) / 2)
    if np.dtype(dtype).kind in "ub":
        x = np.abs(x)
    x = np.asarray(x, dtype)
    if (x.dtype.kind == "f" or x.dtype == BF16) and x.size >= 3:
        flat = x.reshape(-1)
        flat[:3] = [np.nan, 0.0, -np.inf]
    return x


def reference(x1, x2, side="left", sorter=None):
    # bfloat16 as float32 (exact): ml_dtypes' order puts NaNs anywhere.
    x1, x2 = np.asarray(x1), np.asarray(x2)
    if x1.dtype == BF16:
        x1, x2 = x1.astype(np.float32), x2.astype(np.float32)
    return np.searchsorted(x1, x2, side=side, sorter=sorter)


def check_search(x1, x2, side="left", sorter=None):
    got = np.asarray(pt.searchsorted(x1, x2, side=side, sorter=sorter))
    want = reference(x1, x2, side, sorter)
    assert got.dtype == np.int64 and got.shape == np.shape(want)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_every_dtype(dtype, side):
    line = sorted_line(dtype, 31, 6)
    for shape, seed in [((), 7), ((9,), 8), ((3, 4), 9), ((2, 2, 3), 10)]:
        check_search(line, probes(dtype, shape, seed), side)
    check_search(line, line, side)


@pytest.mark.parametrize("sorter_dtype", ["int8", "uint16", "int32", "int64"])
def test_searchsorted_sorter(sorter_dtype):
    rng = np.random.default_rng(11)
    raw = rng.integers(-20, 20, 60).astype(np.float32)
    raw[5] = np.nan
    order = np.argsort(raw, kind="stable").astype(sorter_dtype)
    values = probes("float32", (4, 5), 12)
    for side in ("left", "right"):
        check_search(raw, values, side, order)
        # Few values (under 1/16 of the line's 60: they search through the
        # sorter; the 20 above search a copy gathered in its order first).
        check_search(raw, values[0, :3], side, order)
        check_search(raw, values[1, 2:3].reshape(()), side, order)
    # argsort's result as the sorter, as numpy users write it.
    check_search(raw, values, "right", pt.argsort(raw))


def test_searchsorted_mixed_dtypes_compare_promoted():
    # Compared in the promoted dtype: 2.5 is not truncated to 2.
    line = np.array([1, 2, 2, 3, 5], np.int16)
    values = np.array([2.5, 2.0, -1.0, 9.0], np.float32)
    check_search(line, values)
    check_search(line, values, "right")
    check_search(np.array([0, 100, 200, 250], np.uint8), np.array([-1, 255, 300], np.int32))
    check_search(np.array([0.5, 1.0, 1.5], np.float16), np.array([1.0001, 1.0], np.float64))
    # An integer against a float compares in float64 (numpy's rule): 2^24 + 1
    # is above the float32 2^24, though it rounds to it in float32.
    big = np.array([2 ** 24 + 1], np.int32)
    np.testing.assert_array_equal(
        np.asarray(pt.searchsorted(big, np.array([2.0 ** 24], np.float32), side="right")), [0])
    check_search(np.array([-3, 2049, 4000], np.int64), np.array([2048.0, 2050.0], np.float16))


def test_searchsorted_python_scalar_values():
    """x2 may be a Python (or numpy) scalar (array API 2025.12): the result
    is 0-d; the scalar is weak against a float line (1.1 is float32's 1.1)
    and compared exactly against an integer line (1000 against int8)."""
    line8 = np.array([1, 2, 2, 100], np.int8)
    line32 = np.array([1.0, np.float32(1.1), 2.0], np.float32)
    for line, values in ((line8, (1000, 2.5, 2, -5, True, np.float32(2.5), np.int16(3))),
                         (line32, (1.1, 3, -np.inf, np.nan))):
        for value in values:
            for side in ("left", "right"):
                got = np.asarray(pt.searchsorted(line, value, side=side))
                assert got.shape == () and got.dtype == np.int64
                # numpy's answer for the scalar in the line's dtype where the
                # line is float (numpy itself compares a Python float in f64).
                typed = line.dtype.type(value) if line.dtype.kind == "f" else value
                assert got == np.searchsorted(line, typed, side=side), (line, value, side)
    got = pt.searchsorted(line32, 1.1, side="right", sorter=np.array([0, 1, 2]))
    assert np.asarray(got) == 2
    big = np.array([1, 2 ** 63 + 1, 2 ** 64 - 1], np.uint64)
    assert np.asarray(pt.searchsorted(big, 2 ** 63 + 1)) == 1
    # An int the line's dtype holds takes it (uint64 does not promote with int64).
    assert np.asarray(pt.searchsorted(big, 2)) == 1
    assert np.asarray(pt.searchsorted(big, big[1], side="right")) == 2
    assert np.asarray(pt.searchsorted(line8, np.uint64(2), side="right")) == 3
    assert isinstance(pt.searchsorted(pt.asarray(line32), 1.5), pt.Array)
    assert np.asarray(pt.searchsorted(np.array([False, True]), np.bool_(True))) == 1
    # The rule is the core's (Searching.h); what it answers, asked directly.
    assert pt._core.searchsorted_scalar_type("i8", 1000) == ("i64", "i64")
    assert pt._core.searchsorted_scalar_type("ui64", 2 ** 63) == ("ui64", "ui64")
    assert pt._core.searchsorted_scalar_type("i8", -128) == ("i8", "i64")
    assert pt._core.searchsorted_scalar_type("i8", -129) == ("i64", "i64")
    assert pt._core.searchsorted_scalar_type("bf16", 3) == ("bf16", "f64")
    assert pt._core.searchsorted_scalar_type("i32", 2.5) == ("f64", "f64")
    for value in (2 ** 64, -2 ** 63 - 1):
        with pytest.raises(ValueError, match=r"does not fit a 64-bit integer"):
            pt.searchsorted(big, value)
    # Against float data any int is a float64 (numpy: 2 for 2**70).
    assert np.asarray(pt.searchsorted(line32, 2 ** 70)) == 3
    assert pt._core.searchsorted_scalar_type("f32", -2 ** 70) == ("f32", "f64")
    # Other real numbers are floats (numpy's longdouble, a Fraction); an
    # integral type with __index__ is an int; complex numbers are not searched.
    from fractions import Fraction
    assert np.asarray(pt.searchsorted(line32, Fraction(3, 2))) == 2
    assert np.asarray(pt.searchsorted(line32, np.longdouble(1.5))) == 2
    assert pt._core.searchsorted_scalar_type("i8", Fraction(1, 2)) == ("f64", "f64")
    assert pt._core.searchsorted_scalar_type("i8", np.int16(-3)) == ("i8", "i64")
    with pytest.raises(TypeError, match=r"unsupported scalar value"):
        pt.searchsorted(line32, np.complex64(1j))


def test_searchsorted_every_line_length():
    # The search halves [base, base + len) a number of times set by the
    # line's length alone: every length from 0 to 70 (odd and even halves,
    # powers of two and one past), with ties, values below, above, on and
    # between the elements, and NaNs on both sides.
    rng = np.random.default_rng(17)
    for n in range(71):
        line = np.sort(rng.integers(-8, 8, n).astype(np.float32))
        if n > 3:
            line[-2:] = np.nan
        values = np.concatenate([np.arange(-9.0, 9.0, 0.5, dtype=np.float32),
                                 np.array([np.nan, -np.inf, np.inf], np.float32)])
        for side in ("left", "right"):
            check_search(line, values, side)


def test_searchsorted_layouts_and_edges():
    line = sorted_line("float64", 40, 13)
    check_search(line[::3], probes("float64", (5, 6), 14).T)
    check_search(line[::-1], probes("float64", (4,), 15), "right",
                 np.arange(39, -1, -1))
    check_search(np.zeros(0, np.float32), np.array([1.0, np.nan], np.float32))
    check_search(line, np.zeros((0, 3)))
    check_search(np.array([True, True]), np.array([False, True]), "right")
    got = pt.searchsorted(pt.asarray(line), pt.asarray(probes("float64", (6,), 16)))
    np.testing.assert_array_equal(np.asarray(got),
                                  reference(line, probes("float64", (6,), 16)))


def test_searchsorted_errors():
    line = np.array([1.0, 2.0, 3.0], np.float32)
    with pytest.raises(ValueError, match=r"searchsorted needs a 1-D sorted tensor, but got "
                                         r"shape \[3, 1\]"):
        pt.searchsorted(line.reshape(3, 1), line)
    with pytest.raises(ValueError, match=r"searchsorted side must be 'left' or 'right', got "
                                         r"'middle'"):
        pt.searchsorted(line, line, side="middle")
    with pytest.raises(ValueError, match=r"the sorter's shape \[2\] does not match the "
                                         r"sorted tensor's shape \[3\]"):
        pt.searchsorted(line, line, sorter=np.array([0, 1]))
    with pytest.raises(TypeError, match=r"searchsorted needs an integer sorter, but got f32"):
        pt.searchsorted(line, line, sorter=line)
    with pytest.raises(TypeError, match=r"searchsorted: cannot promote 'ui64' with signed"):
        pt.searchsorted(np.array([1, 2], np.uint64), np.array([1], np.int8))
    # The sorter's indices are data: checked when the code runs.
    with pytest.raises(ValueError, match=r"searchsorted: a sorter index is out of range "
                                         r"\(expected every index in \[0, size of the sorted "
                                         r"tensor\)\)"):
        pt.searchsorted(line, line, sorter=np.array([0, 3, 1]))
    with pytest.raises(ValueError, match=r"out of range"):
        pt.searchsorted(line, line, sorter=np.array([0, -1, 1]))
