"""Array API functions on numpy arrays (host), compared with numpy."""

import math

import numpy as np
import pytest

import ptensor as pt
from ptensor import _dtypes as D
from conftest import assert_matches, needs_kernels, rand, to64

pytestmark = needs_kernels

SHAPE = (5, 7)

# Float references in float64 (the result is compared within the tolerance
# of its dtype).
BINARY_F = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "atan2": np.arctan2, "copysign": np.copysign, "hypot": np.hypot,
    "logaddexp": np.logaddexp, "maximum": np.maximum, "minimum": np.minimum,
    "pow": np.power, "floor_divide": np.floor_divide, "remainder": np.remainder,
}
# Integer references, exact (numpy has the same semantics for these data).
BINARY_I = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply,
    "floor_divide": np.floor_divide, "remainder": np.remainder, "maximum": np.maximum,
    "minimum": np.minimum, "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
}
_erf = np.vectorize(math.erf)
UNARY_F = {
    "abs": np.abs, "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin,
    "asinh": np.arcsinh, "atan": np.arctan, "atanh": np.arctanh, "ceil": np.ceil,
    "cos": np.cos, "cosh": np.cosh, "erf": _erf, "exp": np.exp, "expm1": np.expm1,
    "floor": np.floor, "log": np.log, "log1p": np.log1p, "log2": np.log2, "log10": np.log10,
    "negative": np.negative, "positive": np.positive, "reciprocal": np.reciprocal,
    "round": np.round, "rsqrt": lambda x: 1 / np.sqrt(x),
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "sign": np.sign, "sin": np.sin,
    "sinh": np.sinh, "square": np.square, "sqrt": np.sqrt, "tan": np.tan, "tanh": np.tanh,
    "trunc": np.trunc,
}


def f64_ref(fn, *xs):
    with np.errstate(all="ignore"):
        return fn(*[to64(x) if isinstance(x, np.ndarray) else x for x in xs])


@pytest.mark.parametrize("kind", sorted(BINARY_F))
def test_binary_f32(rng, kind):
    a, b = rand(rng, SHAPE, "f32"), rand(rng, SHAPE, "f32")
    r = getattr(pt, kind)(a, b)
    # Tolerance of f32 arithmetic on the f32 inputs (divisions, pow: a few ulp).
    assert_matches(r, f64_ref(BINARY_F[kind], a, b), "f32", rtol=4e-6)


@pytest.mark.parametrize("kind", sorted(BINARY_I))
def test_binary_i32(rng, kind):
    a, b = rand(rng, SHAPE, "i32"), rand(rng, SHAPE, "i32")
    assert_matches(getattr(pt, kind)(a, b), BINARY_I[kind](a, b), "i32")


def test_integer_pow_and_shifts(rng):
    a = rand(rng, SHAPE, "i32")
    e = rng.integers(0, 5, size=SHAPE).astype(np.int32)
    assert_matches(pt.pow(a, e), np.power(a, e), "i32")
    s = rng.integers(0, 31, size=SHAPE).astype(np.int32)
    assert_matches(pt.bitwise_left_shift(a, s), np.left_shift(a, s), "i32")
    assert_matches(pt.bitwise_right_shift(a, s), np.right_shift(a, s), "i32")


def test_integer_division_by_zero_gives_zero():
    a = np.array([7, -7, 5, np.iinfo(np.int32).min], np.int32)
    b = np.array([0, 0, -1, -1], np.int32)
    assert_matches(pt.floor_divide(a, b), np.array([0, 0, -5, np.iinfo(np.int32).min]), "i32")
    assert_matches(pt.remainder(a, b), np.array([0, 0, 0, 0]), "i32")


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64",
                                   "uint8", "uint16", "uint32", "uint64"])
def test_division_by_a_scalar(rng, dtype):
    """A scalar divisor is the same for the whole loop: the host code
    divides by multiplying with a magic number computed once per call
    (ptensor-invariant-division). Every kind of divisor against numpy:
    1, -1, 0, powers of two and their neighbours, the extremes, random
    ones; dividends with the extremes; contiguous, strided and (above the
    parallel threshold) threaded loops."""
    np_type = np.dtype(dtype).type
    dt = D.from_numpy(np.dtype(dtype))
    info = np.iinfo(dtype)
    top = min(int(info.max), 2 ** 63 - 1)  # Python scalars pass as i64
    x = np.concatenate([
        rng.integers(info.min, info.max, 4000, endpoint=True, dtype=dtype),
        np.array([info.min, info.min + 1, -1 if info.min else 0, 0, 1,
                  info.max - 1, info.max], dtype=dtype)])
    divisors = {0, 1, 2, 3, 7, 10, top, top - 1, top // 2, top // 2 + 1,
                top // 2 + 2, 2 ** (info.bits - 1) - 1 if info.min else 255}
    if info.min:
        divisors |= {-1, -2, -3, -7, int(info.min), int(info.min) + 1}
    divisors |= {int(v) for v in rng.integers(info.min, top, 8, endpoint=True)}
    strided = np.resize(x, (60, 70))[:, ::3]
    with np.errstate(divide="ignore", over="ignore"):
        for d in sorted(divisors):
            for got_of, want_of in ((pt.floor_divide, np.floor_divide),
                                    (pt.remainder, np.remainder)):
                for operand in (x, strided):
                    assert_matches(got_of(operand, d), want_of(operand, np_type(d)), dt)
        big = np.resize(x, 600_000)  # more than one task: on threads
        for d in (7, top // 2 + 1) + ((-7, int(info.min) + 1) if info.min else ()):
            assert_matches(pt.floor_divide(big, d), np.floor_divide(big, np_type(d)), dt)


def test_divide_integers_gives_f32(rng):
    a, b = rand(rng, SHAPE, "i32"), rand(rng, SHAPE, "i32")
    assert_matches(pt.divide(a, b), f64_ref(np.divide, a, b), "f32")


@pytest.mark.parametrize("kind", sorted(UNARY_F))
def test_unary_f32(rng, kind):
    a = rand(rng, SHAPE, "f32")
    assert_matches(getattr(pt, kind)(a), f64_ref(UNARY_F[kind], a), "f32", rtol=4e-6)


def test_unary_on_integers(rng):
    a = rand(rng, SHAPE, "i16")
    assert_matches(pt.abs(a), np.abs(a), "i16")
    assert_matches(pt.negative(a), -a, "i16")
    assert_matches(pt.sign(a), np.sign(a), "i16")
    assert_matches(pt.bitwise_invert(a), np.invert(a), "i16")
    assert_matches(pt.sqrt(np.abs(a)), f64_ref(np.sqrt, np.abs(a)), "f32")  # INT_TO_FLOAT


def test_unary_tests():
    a = np.array([1.5, -0.0, 0.0, np.inf, -np.inf, np.nan, -2.0], np.float32)
    for kind, ref in [("isfinite", np.isfinite), ("isinf", np.isinf), ("isnan", np.isnan),
                      ("signbit", np.signbit), ("logical_not", np.logical_not)]:
        assert_matches(getattr(pt, kind)(a), ref(a), "i1")


@pytest.mark.parametrize("kind", ["less", "less_equal", "greater", "greater_equal", "equal",
                                  "not_equal"])
def test_comparisons_mixed_dtypes(rng, kind):
    a = rand(rng, SHAPE, "f32")
    b = np.round(a).astype(np.int32)  # some equal pairs
    assert_matches(getattr(pt, kind)(a, b), getattr(np, kind)(to64(a), to64(b)), "i1")


def test_logical_ops(rng):
    a, b = rand(rng, SHAPE, "i1"), rand(rng, SHAPE, "i1")
    for kind in ("logical_and", "logical_or", "logical_xor"):
        assert_matches(getattr(pt, kind)(a, b), getattr(np, kind)(a, b), "i1")


@pytest.mark.parametrize("da,db,want", [
    ("i8", "ui8", "i16"), ("i32", "f32", "f32"), ("f16", "bf16", "f32"), ("i1", "i32", "i32"),
    ("f16", "f64", "f64"), ("ui16", "i8", "i32"),
])
def test_mixed_dtype_promotion(rng, da, db, want):
    a, b = rand(rng, SHAPE, da), rand(rng, SHAPE, db)
    r = pt.add(a, b)
    if D.kind(want) == "f":
        assert_matches(r, f64_ref(np.add, a, b), want)
    else:
        assert_matches(r, a.astype(np.int64) + b.astype(np.int64), want)


@pytest.mark.parametrize("dt", ["f16", "bf16"])
def test_half_precision_computes_in_f32(rng, dt):
    a, b = rand(rng, SHAPE, dt), rand(rng, SHAPE, dt)
    r = pt.multiply(a, b)
    expected = (to64(a) * to64(b)).astype(np.float32).astype(D.to_numpy(dt))
    assert_matches(r, expected, dt, rtol=0, atol=0)  # one rounding of an exact product
    assert_matches(pt.exp(a), f64_ref(np.exp, a), dt)


def test_weak_scalars(rng):
    i = rand(rng, SHAPE, "i32")
    r = pt.add(i, 2.5)  # float scalar with an integer tensor: f32
    assert_matches(r, to64(i) + 2.5, "f32")
    h = rand(rng, SHAPE, "f16")
    assert_matches(pt.multiply(h, 3.0), to64(h) * 3.0, "f16")  # keeps f16
    i8 = rand(rng, SHAPE, "i8")
    assert_matches(pt.subtract(5, i8), 5 - i8.astype(np.int64), "i8")  # scalar on the left
    b = rand(rng, SHAPE, "i1")
    assert_matches(pt.add(b, 3), b.astype(np.int64) + 3, "i64")  # int scalar with bool: i64
    assert_matches(pt.multiply(np.float32(2.0), i), 2.0 * to64(i), "f32")  # numpy scalar


def test_broadcasting(rng):
    a = rand(rng, (4, 1, 3), "f32")
    b = rand(rng, (5, 1), "f32")
    r = pt.subtract(a, b)
    assert_matches(r, f64_ref(np.subtract, a, b), "f32")
    assert r.shape == (4, 5, 3)


def test_broadcast_inputs_are_compiled_as_broadcasts(rng, monkeypatch):
    """A host kernel's input that is broadcast along a task dim (a zero
    stride there while another input moves) is typed `1` in that dim, so
    the CPU pipeline sees the broadcast (a row: unit-stride vectorized
    columns); every pattern gives numpy's result, rows longer than one
    parallel block of 8192 columns included."""
    from ptensor import _exec, _ir
    seen = []
    compile_kernel = _ir.kernel_function

    def recording(ir, name, device, gpu_options=""):
        seen.append(ir)
        return compile_kernel(ir, name, device, gpu_options)

    monkeypatch.setattr(_ir, "kernel_function", recording)
    _exec.clear_kernel_tables()
    m = rand(rng, (6, 9000), "i16")
    row, col = rand(rng, (9000,), "i16"), rand(rng, (6, 1), "i16")
    assert_matches(pt.multiply(m, row), m * row, "i16")
    assert any("%a1: !ptensor.ptensor<1x?xi16>" in ir for ir in seen), seen
    seen.clear()
    assert_matches(pt.add(m, col), m + col, "i16")
    assert any("%a1: !ptensor.ptensor<?x1xi16>" in ir for ir in seen), seen
    seen.clear()
    assert_matches(pt.add(col, row), col + row, "i16")  # an outer sum: both
    assert any("!ptensor.ptensor<?x1xi16>, %a1: !ptensor.ptensor<1x?xi16>" in ir
               for ir in seen), seen
    # Every input broadcast along dim 0 (zero strides, no moving input
    # there): the task's size stays, not 1.
    b = np.broadcast_to(row, (6, 9000))
    assert_matches(pt.add(b, b), b + b, "i16")
    f, v = rand(rng, (5, 300), "f32"), rand(rng, (300,), "f32")
    out = np.empty((5, 300), np.float32)
    pt.multiply(f, v, out=out)
    assert_matches(out, f * v, "f32", rtol=0, atol=0)
    assert_matches(pt.multiply(f[::2, ::3], v[::3]), f[::2, ::3] * v[::3], "f32", rtol=0, atol=0)
    assert_matches(pt.multiply(f.T, v[:5]), f.T * v[:5], "f32", rtol=0, atol=0)
    c = rand(rng, (5, 1), "i1")
    assert_matches(pt.where(c, f, v), np.where(c, f, v), "f32", rtol=0, atol=0)
    assert_matches(pt.add(f, 2.0), f + np.float32(2.0), "f32", rtol=0, atol=0)


def test_rank_0_and_empty(rng):
    a = np.array(1.5, np.float32)
    r = pt.add(a, a)
    assert r.shape == () and r == 3.0
    e = np.zeros((0, 3), np.float32)
    r = pt.add(e, 1.0)
    assert r.shape == (0, 3) and r.dtype == np.float32


def test_strided_views(rng):
    base = rand(rng, (8, 10), "f32")
    views = [
        base.T,                       # transposed
        base[::2, 1::3],              # steps
        base[::-1, ::-2],             # negative strides (flips)
        np.broadcast_to(base[0], (8, 10)),  # zero strides
    ]
    other = rand(rng, (10,), "f32")
    for v in views:
        w = other[: v.shape[-1]]
        assert_matches(pt.multiply(v, w), v * w, "f32", rtol=0, atol=0)
        assert_matches(pt.sin(v), f64_ref(np.sin, v), "f32")


def test_views_with_rows_apart(rng):
    """Views whose rows are apart but unit-stride (slices of rows and
    columns, in C and Fortran order, flipped rows, 3-D) fail the contiguous
    check and run the unit-innermost-stride version of the loop nest
    (ptensor-coalesce-dims): vectorized rows in blocks of 8192 on threads;
    rows longer than a block, and writes into a view whose rows are apart,
    give numpy's results and touch nothing else."""
    m = rand(rng, (7, 9001), "f32")
    mf = np.asfortranarray(rand(rng, (9001, 7), "f32"))
    m3 = rand(rng, (3, 5, 8300), "f32")
    views = [m[::2, 1:], m[::-1, 3:], mf[1:, ::2], m3[:, 1::2, 5:]]
    for v in views:
        w = rand(rng, v.shape, "f32")
        assert_matches(pt.add(v, w), v + w, "f32", rtol=0, atol=0)
        assert_matches(pt.exp(v), f64_ref(np.exp, v), "f32")
    big = np.zeros((9, 9002), np.float32)
    a = m[::2, 1:]
    out = big[1::2, :9000]
    pt.multiply(a, 2.0, out=out)
    assert_matches(out, a * np.float32(2.0), "f32", rtol=0, atol=0)
    assert np.count_nonzero(big) == np.count_nonzero(out)  # rows between untouched


def test_bools_are_bytes(rng):
    """Bool arrays are bytes (read and written as such by the vectorized
    host code: lib/Compiler/BoolBytes.cpp): comparisons and `where` give
    numpy's results on long arrays, slices and their tails, and a byte other
    than 0 or 1 (a view of uint8 data) reads as true, as numpy reads it."""
    a, b = rand(rng, (3, 1000), "f32"), rand(rng, (3, 1000), "f32")
    for x, y in ((a, b), (a[:, 3:], b[:, :-3]), (a[::2, 1:], b[::2, 1:])):
        c = pt.less(x, y)
        assert c.dtype == np.bool_
        np.testing.assert_array_equal(c, x < y)
        assert_matches(pt.where(c, x, y), np.minimum(x, y), "f32", rtol=0, atol=0)
    raw = rng.integers(0, 4, 1003).astype(np.uint8)  # 0, 1, 2 and 3
    flags = raw.view(np.bool_)
    f = rand(rng, (1003,), "f32")
    np.testing.assert_array_equal(pt.logical_not(flags), raw == 0)
    assert_matches(pt.where(flags, f, 0.0), np.where(raw != 0, f, np.float32(0)), "f32",
                   rtol=0, atol=0)
    np.testing.assert_array_equal(pt.astype(flags, np.int32), (raw != 0).astype(np.int32))


def test_result_follows_input_layout(rng):
    a = rand(rng, (6, 4), "f32").T
    r = pt.exp(a)
    assert r.flags.f_contiguous
    assert_matches(r, f64_ref(np.exp, a), "f32")


def test_where(rng):
    c = rand(rng, (4, 1), "i1")
    x = rand(rng, (5,), "f16")
    r = pt.where(c, x, 2.0)
    assert_matches(r, np.where(c, x, np.float16(2.0)), "f16", rtol=0, atol=0)
    i = rand(rng, (4, 5), "i32")
    f = rand(rng, (4, 5), "f32")
    assert_matches(pt.where(c, i, f), np.where(c, to64(i), to64(f)), "f32")
    with pytest.raises(pt.DTypeError, match="where condition must have dtype i1, but got i32"):
        pt.where(i, i, f)


def test_astype(rng):
    a = rand(rng, SHAPE, "f32") * 10
    assert_matches(pt.astype(a, np.int16), a.astype(np.int16), "i16")
    assert_matches(pt.astype(a, "i1"), a != 0, "i1")


def test_out_in_place_and_cast(rng):
    a, b = rand(rng, SHAPE, "f32"), rand(rng, SHAPE, "f32")
    expected = to64(a) + to64(b)
    r = pt.add(a, b, out=a)  # in place: the very same view is fine
    assert r is a
    assert_matches(a, expected, "f32")
    o = np.zeros(SHAPE, np.float64)
    pt.multiply(a, b, out=o)  # f32 result into an f64 out
    assert_matches(o, (to64(a) * to64(b)).astype(np.float32), "f64", rtol=0, atol=0)


def test_out_strided(rng):
    a = rand(rng, (6, 8), "f32")
    big = np.zeros((8, 12), np.float32)
    out = big[::-1, ::-2][:6, :8]  # strided, flipped rows and columns
    pt.negative(a[:, :6].T.T, out=out[:, :6])
    assert_matches(out[:, :6], -a[:, :6], "f32", rtol=0, atol=0)
    assert np.count_nonzero(big) == 36  # nothing else was written


def test_out_errors(rng):
    a = rand(rng, SHAPE, "f32")
    with pytest.raises(pt.DTypeError, match="result dtype f32 can't be cast to the dtype i32"):
        pt.add(a, a, out=np.zeros(SHAPE, np.int32))
    with pytest.raises(pt.BroadcastError, match="out= operand #0 has shape"):
        pt.add(a, a, out=np.zeros((5,), np.float32))
    buf = rand(rng, (12,), "f32")
    with pytest.raises(pt.OverlapError, match="partially overlaps"):
        pt.add(buf[:10], 1.0, out=buf[2:])
    with pytest.raises(pt.OverlapError, match="zero strides"):
        pt.add(a, 1.0, out=np.lib.stride_tricks.as_strided(np.zeros(7, np.float32), SHAPE,
                                                            (0, 4)))


def test_dtype_errors(rng):
    f = rand(rng, SHAPE, "f32")
    with pytest.raises(pt.DTypeError, match="bitwise op 'bitwise_and' requires integer or "
                       "bool operands, but got f32"):
        pt.bitwise_and(f, f)
    b = rand(rng, SHAPE, "i1")
    with pytest.raises(pt.DTypeError, match="arithmetic op 'add' requires an integer or float "
                       "operand, but both operands are i1"):
        pt.add(b, b)
    with pytest.raises(pt.DTypeError, match="cannot promote 'ui64' with signed 'i8'"):
        pt.add(np.ones(3, np.uint64), np.ones(3, np.int8))
    with pytest.raises(pt.DTypeError, match="not supported"):
        pt.add(np.ones(3, np.complex64), 1.0)
    with pytest.raises(pt.BroadcastError, match=r"cannot broadcast shapes \[5, 7\] and \[3\]"):
        pt.add(f, np.ones(3, np.float32))
    with pytest.raises(pt.DTypeError, match="all operands are builtin scalars"):
        pt.add(1.0, 2.0)


class _DLPackOnly:
    """An array known only through the DLPack protocol."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__()

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


def test_any_dlpack_producer(rng):
    a, b = rand(rng, SHAPE, "f32"), rand(rng, SHAPE, "f32")
    r = pt.add(_DLPackOnly(a), _DLPackOnly(b[::-1]))
    assert isinstance(r, np.ndarray)
    assert_matches(r, a + b[::-1], "f32", rtol=0, atol=0)


def test_call_plans_follow_the_signature(rng):
    """A call reuses the plan of an earlier call with the same dtypes,
    shapes, strides and framework (python/src/Execute.cpp, the last four
    signatures of each op): calls that alternate among more signatures
    than that, differing only in strides, dtype, shape or weak scalars,
    each get their own results."""
    base = rng.standard_normal((6, 8)).astype(np.float32)
    variants = [base, base.T, base[:, ::2], base[::-1], base.astype(np.float64),
                base[:3], base.astype(np.int32), pt.asarray(base)]
    for _ in range(3):
        for v in variants:
            got = pt.add(v, v)
            expected = np.asarray(v) + np.asarray(v)
            assert type(got) is type(v)
            assert got.dtype == v.dtype and got.shape == v.shape
            np.testing.assert_array_equal(np.asarray(got), expected)
        for scalar in (2, 2.5, True):
            np.testing.assert_array_equal(pt.multiply(base, scalar), base * np.float32(scalar))
    assert pt.add(base, base).strides == (base + base).strides
    assert pt.add(base.T, base.T).strides == (base.T + base.T).strides


def test_call_plans_under_threads(rng):
    """Threads calling one op with alternating signatures: a plan another
    thread replaces while a call runs (the GIL released) stays alive for
    that call."""
    import threading

    base = rng.standard_normal((64, 48)).astype(np.float32)
    variants = [base, base.T, base[:, ::2], base[::-1], base[:7], base.astype(np.float64)]
    errors = []

    def work(k):
        try:
            for i in range(300):
                v = variants[(i + k) % len(variants)]
                np.testing.assert_array_equal(pt.add(v, v), v + v)
        except Exception as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
