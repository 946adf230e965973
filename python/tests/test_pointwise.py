"""@ptensor.pointwise (FlagGems' pointwise_dynamic) on numpy arrays: the
seed examples, in-place/out0=, manual instantiation on strided views,
promotion, and the traced scalar math, compared with numpy."""

import math

import numpy as np
import pytest

import ptensor as pt
from ptensor import _core, _ir
from ptensor import math as tm
from conftest import assert_matches, needs_kernels, rand, to64

pytestmark = needs_kernels


@pt.pointwise(promotion_methods=[(0, "COMPLEX_TO_FLOAT")])
def abs_func(x):
    return tm.abs(x)


@pt.pointwise(is_tensor=[True, True, False], dtypes=[None, None, float],
              promotion_methods=[(0, 1, "DEFAULT")])
def add_func(x, y, alpha):
    return x + y * alpha


@pt.pointwise(promotion_methods=[((0, 1), "DEFAULT"), ((0, 1), "DEFAULT")], num_outputs=2)
def polar_kernel(abs, angle):
    real = abs * tm.cos(angle)
    imag = abs * tm.sin(angle)
    return real, imag


@pt.pointwise(is_tensor=[True], promotion_methods=[(0, "DEFAULT")])
def copy_func(x):
    return x


def test_abs_func(rng):
    a = rand(rng, (16, 9), "f32")
    assert_matches(abs_func(a), np.abs(a), "f32", rtol=0, atol=0)


def test_add_func_broadcast_with_scalar_alpha(rng):
    a = rand(rng, (128, 256), "f32")
    b = rand(rng, (256,), "f32")
    r = add_func(a, b, 0.2)
    assert_matches(r, a + b * np.float32(0.2), "f32")
    assert "ptensor.scalar_cast %x2 to f32 : f64" in add_func.ir(a, b, 0.2)  # weak alpha


def test_add_func_in_place(rng):
    a, b = rand(rng, (32, 8), "f32"), rand(rng, (8,), "f32")
    expected = a + b * np.float32(2.0)
    r = add_func(a, b, 2.0, out0=a)
    assert r is a
    assert_matches(a, expected, "f32", rtol=0, atol=0)


def test_add_func_integer_inputs_keep_their_dtype(rng):
    # promotion over inputs 0 and 1 only: i32 (FlagGems); computed in f32.
    x, y = rand(rng, (6, 5), "i32"), rand(rng, (6, 5), "i32")
    r = add_func(x, y, 2.0)
    assert_matches(r, x + 2 * y, "i32")
    ir = add_func.ir(x, y, 2.0)
    assert "ptensor.cast" in ir and "promotion [DEFAULT]" in ir


def test_polar_kernel_two_outputs(rng):
    r = np.abs(rand(rng, (10, 3), "f32"))
    t = rand(rng, (3,), "f32")
    re, im = polar_kernel(r, t)
    assert_matches(re, to64(r) * np.cos(to64(t)), "f32")
    assert_matches(im, to64(r) * np.sin(to64(t)), "f32")
    o0 = np.empty((10, 3), np.float32)
    o1 = np.empty((10, 3), np.float64)  # an out= of a wider dtype
    res = polar_kernel(r, t, out0=o0, out1=o1)
    assert res[0] is o0 and res[1] is o1
    assert_matches(o0, re, "f32", rtol=0, atol=0)
    assert_matches(o1, im.astype(np.float64), "f64", rtol=0, atol=0)


def test_flip_by_instantiation_with_negative_strides(rng):
    a = rand(rng, (4, 6), "f32")
    out = np.empty_like(a)
    overload = copy_func.instantiate(2)
    overload(np.flip(a, (0, 1)), out0=out)  # a view with negative strides, no copy
    assert_matches(out, a[::-1, ::-1], "f32", rtol=0, atol=0)
    # The same through a StridedBuffer (what torch needs: it has no negative strides).
    flipped = pt.StridedBuffer(a, shape=a.shape, strides=(6, -1), offset=5)
    out2 = np.empty_like(a)
    overload(flipped, out0=out2)
    assert_matches(out2, a[:, ::-1], "f32", rtol=0, atol=0)
    with pytest.raises(pt.BroadcastError, match="instantiate"):
        overload(a[0], out0=out[0])


def test_half_inputs_compute_in_f32(rng):
    a, b = rand(rng, (7,), "f16"), rand(rng, (7,), "f16")
    r = add_func(a, b, 0.1)
    expected = (to64(a) + to64(b) * np.float32(0.1)).astype(np.float32).astype(np.float16)
    assert_matches(r, expected, "f16", rtol=1e-3)
    assert "^bb0(%x0: f32, %x1: f32, %x2: f64)" in add_func.ir(a, b, 0.1)


@pt.pointwise(promotion_methods=["DEFAULT", "ALWAYS_BOOL", "INT_TO_FLOAT"], num_outputs=3)
def methods(x, y):
    return x * y, x < y, x / y


def test_promotion_methods(rng):
    x, y = rand(rng, (9,), "i16"), rand(rng, (9,), "i8")
    p, lt, q = methods(x, y)
    assert_matches(p, x.astype(np.int64) * y, "i16")
    assert_matches(lt, x < y, "i1")
    assert_matches(q, to64(x) / to64(y), "f32")


@pt.pointwise(num_outputs=6, promotion_methods=["DEFAULT"] * 6)
def int_ops(x, y):
    return x // y, x % y, x << 2, (x & y) ^ 5, tm.maximum(x, y) - tm.minimum(x, 3), -x * y


def test_traced_integer_ops(rng):
    x, y = rand(rng, (11,), "i32"), rand(rng, (11,), "i32")
    outs = int_ops(x, y)
    refs = [x // y, x % y, x << 2, (x & y) ^ 5, np.maximum(x, y) - np.minimum(x, 3), -x * y]
    for o, r in zip(outs, refs):
        assert_matches(o, r, "i32")


def test_traced_unsigned_ops(rng):
    x, y = rand(rng, (11,), "ui8"), rand(rng, (11,), "ui8")
    outs = int_ops(x, y)
    refs = [x // y, x % y, (x << 2).astype(np.uint8), (x & y) ^ 5,
            np.maximum(x, y) - np.minimum(x, 3), (-(x.astype(np.int64)) * y).astype(np.uint8)]
    for o, r in zip(outs, refs):
        assert_matches(o, r.astype(np.uint8), "ui8")


@pt.pointwise(num_outputs=8, promotion_methods=["DEFAULT"] * 8)
def float_ops(x, y):
    return (tm.exp(x) - 1.0, tm.where(x > 0, x, 0.1 * x), tm.sqrt(tm.abs(x)) + tm.tanh(y),
            x ** 2 + tm.fma(x, y, 1.5), 1.0 / (1.0 + tm.exp(-x)), tm.floor(x * 3.0) % 2.0,
            tm.maximum(x, y), tm.log(tm.abs(x)) / tm.atan2(y, x))


def test_traced_float_math(rng):
    x, y = rand(rng, (13,), "f64"), rand(rng, (13,), "f64")
    refs = [np.exp(x) - 1.0, np.where(x > 0, x, 0.1 * x), np.sqrt(np.abs(x)) + np.tanh(y),
            x ** 2 + (x * y + 1.5), 1 / (1 + np.exp(-x)), np.floor(x * 3.0) % 2.0,
            np.maximum(x, y), np.log(np.abs(x)) / np.arctan2(y, x)]
    for i, (o, r) in enumerate(zip(float_ops(x, y), refs)):
        assert_matches(o, r, "f64", rtol=1e-12, atol=1e-12)


def test_kernels_are_cached_per_rank_and_dtypes(rng):
    a = rand(rng, (3, 4, 5), "f32")
    add_func(a, a, 1.0)
    n = len(_ir._kernels)
    add_func(rand(rng, (70,), "f32"), rand(rng, (70,), "f32"), 3.0)  # coalesced: rank 1 too
    add_func(rand(rng, (2, 2), "f32"), rand(rng, (2, 2), "f32"), -1.0)
    assert len(_ir._kernels) == n


def test_trace_errors(rng):
    a = rand(rng, (3,), "f32")

    @pt.pointwise
    def branchy(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(pt.TraceError, match="no truth value"):
        branchy(a)

    @pt.pointwise(num_outputs=2, promotion_methods=["DEFAULT", "DEFAULT"])
    def one_value(x):
        return x

    with pytest.raises(pt.TraceError, match="returned 1 values, but 2 outputs"):
        one_value(a)

    @pt.pointwise
    def bitwise_on_float(x):
        return x & 1

    with pytest.raises(pt.DTypeError, match="bitwise op 'bitwise_and' requires integer"):
        bitwise_on_float(a)

    with pytest.raises(TypeError, match="expects 3 inputs"):
        add_func(a, a)
    with pytest.raises(TypeError, match="declared a non-tensor"):
        add_func(a, a, a)
    with pytest.raises(TypeError, match="unexpected keyword"):
        add_func(a, a, 1.0, out2=a)


# Operands of each function of ptensor.math inside @pointwise: values in the
# function's domain, with NaN, ±inf, ±0 and zero divisors where they matter.
_SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 3.5], np.float32)
_DOMAIN = {"acosh": (1.1, 3.0), "acos": (-0.9, 0.9), "asin": (-0.9, 0.9),
           "atanh": (-0.9, 0.9), "log": (0.1, 4.0), "log2": (0.1, 4.0),
           "log10": (0.1, 4.0), "log1p": (-0.5, 4.0), "sqrt": (0.1, 4.0),
           "rsqrt": (0.1, 4.0)}
_INTEGER_ONLY = {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert",
                 "bitwise_left_shift", "bitwise_right_shift"}


def _math_operands(rng, name, arity):
    if name in _INTEGER_ONLY:
        a = rng.integers(-40, 40, size=16).astype(np.int32)
        b = rng.integers(-2, 34, size=16).astype(np.int32)  # shifts past the width
        return (a, b)[:arity]
    lo, hi = _DOMAIN.get(name, (-3.0, 3.0))
    a = rng.uniform(lo, hi, size=16).astype(np.float32)
    b = rng.uniform(-3.0, 3.0, size=16).astype(np.float32)
    if name not in _DOMAIN:  # special values where every result is defined
        a = np.concatenate([a, _SPECIAL, _SPECIAL])
        b = np.concatenate([b, _SPECIAL, _SPECIAL[::-1]])
    return (a, b)[:arity]


@pytest.mark.parametrize("name", sorted(set(tm.__all__) - {"where", "fma", "cast"}))
def test_every_math_function_inside_pointwise(rng, name):
    """Each function of ptensor.math traced into a @pointwise body gives the
    array op's result bit for bit (the body is the compiler's scalar code,
    not a Python port of it) and numpy's within the dtype's tolerance."""
    fn = getattr(tm, name)
    arity = 2 if name in set(tm._BINARY + tm._COMPARE) or name in ("mul", "sub", "div") \
        else 1
    operands = _math_operands(rng, name, arity)
    traced = (lambda x: fn(x)) if arity == 1 else (lambda x, y: fn(x, y))
    method = {kind: m for _, kind, m, _ in _core.op_kinds()}[fn.__name__]
    body = pt.pointwise(promotion_methods=[(tuple(range(arity)), method)])(traced)
    got = np.asarray(body(*operands))
    array_op = np.asarray(fn(*operands))  # the ptensor.<name> array op
    np.testing.assert_array_equal(got.view(np.uint8), array_op.astype(got.dtype).view(np.uint8)
                                  if got.dtype != np.bool_ else array_op.view(np.uint8))
    reference = np.vectorize(math.erf) if name == "erf" else tm._numpy_fn(fn.__name__)
    with np.errstate(all="ignore"):
        ref = reference(*[o.astype(np.float64) if o.dtype.kind == "f" else o
                          for o in operands])
    assert_matches(got, np.asarray(ref), D_of(got), rtol=2e-6, atol=2e-6)


def D_of(array):
    from ptensor import _dtypes

    return _dtypes.from_numpy(array.dtype)
