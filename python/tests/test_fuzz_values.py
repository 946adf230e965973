"""Value-level fuzzing of the Python API (issue 17): random expressions of
the array API on random shapes (rank 0 to 3, sizes 0, 1 and others) and
dtypes, against numpy; shapes that do not broadcast, negative and huge sizes
must raise (a ValueError or MemoryError subclass, never a crash). The seed is
fixed; PTENSOR_FUZZ_SEED and PTENSOR_FUZZ_COUNT explore further. The runner
half is test/Integration/CPU/fuzz_values.py."""

import os
import re

import numpy as np
import pytest

import ptensor as pt

SEED = int(os.environ.get("PTENSOR_FUZZ_SEED", "2026"))
COUNT = int(os.environ.get("PTENSOR_FUZZ_COUNT", "120"))
SIZES = [0, 1, 1, 2, 3, 5, 8]
DTYPES = [np.float32, np.float64, np.int32, np.int64, np.int8]
FLOAT_UNARY = ["exp", "tanh", "abs", "negative", "floor", "sin", "square", "sqrt"]
INT_UNARY = ["abs", "negative", "square", "bitwise_invert"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum"]


def _shape(rng):
    return tuple(int(rng.choice(SIZES)) for _ in range(int(rng.integers(0, 4))))


def _operand_shape(rng, shape):
    lead = int(rng.integers(0, len(shape) + 1))
    return tuple(1 if rng.random() < 0.3 else d for d in shape[lead:])


def _array(rng, shape, dtype):
    if np.issubdtype(dtype, np.floating):
        return rng.uniform(-2, 2, shape).astype(dtype)
    return rng.integers(-20, 20, shape).astype(dtype)


def _program(seed):
    """(ptensor result, numpy result, float tolerance) of a random program."""
    rng = np.random.default_rng(seed)
    shape = _shape(rng)
    dtype = DTYPES[int(rng.integers(len(DTYPES)))]
    x = _array(rng, _operand_shape(rng, shape), dtype)
    p, n = pt.asarray(x), x
    for _ in range(int(rng.integers(1, 5))):
        r = rng.random()
        if r < 0.4:
            kinds = FLOAT_UNARY if np.issubdtype(n.dtype, np.floating) else INT_UNARY
            kind = kinds[int(rng.integers(len(kinds)))]
            p = getattr(pt, kind)(p)
            with np.errstate(all="ignore"):
                n = getattr(np, "invert" if kind == "bitwise_invert" else kind)(n)
        elif r < 0.8:
            y = _array(rng, _operand_shape(rng, n.shape), n.dtype)
            kind = BINARY[int(rng.integers(len(BINARY)))]
            p = getattr(pt, kind)(p, pt.asarray(y))
            with np.errstate(all="ignore"):
                n = getattr(np, kind)(n, y)
        elif n.ndim:
            axis = int(rng.integers(n.ndim))
            p, n = pt.flip(p, axis=axis), np.flip(n, axis=axis)
    if n.ndim and rng.random() < 0.4:
        axis = int(rng.integers(n.ndim))
        p, n = pt.sum(p, axis=axis), np.sum(n, axis=axis)
    return p, n


@pytest.mark.parametrize("case", range(COUNT))
def test_random_programs_match_numpy(case):
    p, n = _program(SEED * 1000 + case)
    got = np.asarray(p)
    assert got.shape == n.shape
    assert got.dtype == n.dtype, (got.dtype, n.dtype)
    if np.issubdtype(n.dtype, np.floating):
        # Errors of the ops add up along the chain (libm-accurate functions,
        # cancelling subtractions): a few ulps of the largest magnitude.
        scale = max(1.0, float(np.max(np.abs(n[np.isfinite(n)]), initial=0.0)))
        atol = 64 * np.finfo(n.dtype).eps * scale
        np.testing.assert_allclose(got, n, rtol=16 * np.finfo(n.dtype).eps, atol=atol)
    else:
        np.testing.assert_array_equal(got, n)


@pytest.mark.parametrize("case", range(12))
def test_shapes_that_do_not_broadcast_raise(case):
    rng = np.random.default_rng(SEED + case)
    n = int(rng.integers(2, 6))
    a = _array(rng, (n, n + 1), np.float32)
    b = _array(rng, (n + int(rng.integers(2, 4)),), np.float32)
    with pytest.raises(ValueError):
        np.add(a, b)
    with pytest.raises(pt.BroadcastError):
        pt.add(pt.asarray(a), pt.asarray(b))


CREATE = """
func.func @create(%n: index, %m: index, %k: index) -> !ptensor.ptensor<?x?x?xf32> {
  %v = arith.constant 1.5 : f32
  %t = ptensor.create (%n, %m, %k) fill %v : f32 -> !ptensor.ptensor<?x?x?xf32>
  return %t : !ptensor.ptensor<?x?x?xf32>
}
"""


@pytest.mark.parametrize("shape, message", [
    ((-1, 1, 1), "invalid size -1 at dimension 0"),
    ((3, -2, 1), "invalid size -2 at dimension 1"),
    ((2 ** 62, 4, 1), "needs more than 2^62 bytes"),
    ((2 ** 31, 2 ** 31, 8), "needs more than 2^62 bytes"),
    ((3037000500, 3037000500, 1), "needs more than 2^62 bytes"),
])
def test_negative_and_huge_sizes_raise(shape, message):
    """Sizes given to compiled code at run time: a negative size or a shape
    of more than 2^62 bytes (the product checked without overflow) raises
    CheckError naming it; the process goes on."""
    create = pt.compile_module(CREATE)["create"]
    with pytest.raises(pt.CheckError, match=re.escape(message)):
        create(*shape)
    np.testing.assert_array_equal(np.asarray(create(2, 3, 1)), np.full((2, 3, 1), 1.5, np.float32))
