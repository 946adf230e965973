"""Scalar math for `@ptensor.pointwise` functions (the `tl.*` of FlagGems).

Inside a traced function every function here takes traced scalars (and
Python numbers) and emits arith/math ops: `exp`, `sin`, `sqrt`, `abs`,
`maximum`, `where`, `fma`, `cast`, comparisons, ... with the Array API
names of the elementwise kinds. Called with arrays instead, they run the
corresponding array function (`ptensor.math.exp(a) == ptensor.exp(a)`);
with plain Python numbers they evaluate eagerly (numpy, float64).
"""

import math as _m

import numpy as _np

from . import _core
from . import _trace as _T
from ._arrays import is_tensor_like as _is_array


def _kinds(op):
    """The kinds of `op` in the compiler's op-kind table."""
    return tuple(kind for o, kind, _, _ in _core.op_kinds() if o == op)


_UNARY = _kinds("elementwise_unary")
_UNARY_TEST = _kinds("elementwise_unary_test")
_BINARY = _kinds("elementwise_binary")
_COMPARE = _kinds("elementwise_binary_test")

_NUMPY = {
    "acos": _np.arccos, "acosh": _np.arccosh, "asin": _np.arcsin, "asinh": _np.arcsinh,
    "atan": _np.arctan, "atanh": _np.arctanh, "atan2": _np.arctan2,
    "bitwise_invert": _np.invert, "bitwise_left_shift": _np.left_shift,
    "bitwise_right_shift": _np.right_shift, "pow": _np.power,
    "erf": lambda x: _m.erf(x), "rsqrt": lambda x: 1.0 / _np.sqrt(x),
    "sigmoid": lambda x: 1.0 / (1.0 + _np.exp(-x)), "round": _np.round,
}


def _numpy_fn(name):
    return _NUMPY.get(name) or getattr(_np, name)


def _make(name, tracer, arity):
    def f(*args):
        if len(args) != arity:
            raise TypeError("%s() takes %d arguments (%d given)" % (name, arity, len(args)))
        if any(isinstance(a, _T.Scalar) for a in args):
            return tracer(name, *args)
        if any(_is_array(a) for a in args):
            from . import _ops

            return getattr(_ops, name)(*args)
        return _numpy_fn(name)(*args)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = "Scalar `%s` for traced pointwise functions (array `ptensor.%s` on arrays)." % (
        name, name)
    return f


for _n in _UNARY:
    globals()[_n] = _make(_n, _T.unary, 1)
for _n in _UNARY_TEST:
    globals()[_n] = _make(_n, _T.unary_test, 1)
for _n in _BINARY:
    globals()[_n] = _make(_n, _T.binary, 2)
for _n in _COMPARE:
    globals()[_n] = _make(_n, _T.compare, 2)


def where(condition, x, y):
    """`condition ? x : y`; x and y promote to their common dtype."""
    if any(isinstance(a, _T.Scalar) for a in (condition, x, y)):
        return _T.where(condition, x, y)
    if any(_is_array(a) for a in (condition, x, y)):
        from . import _ops

        return _ops.where(condition, x, y)
    return x if condition else y


def fma(x, y, z):
    """x * y + z with one rounding (math.fma)."""
    if any(isinstance(a, _T.Scalar) for a in (x, y, z)):
        return _T.fma(x, y, z)
    return x * y + z


def cast(x, dtype):
    """`x` converted to `dtype` ("f32", np.int8, torch.float16, int, ...)."""
    if isinstance(x, _T.Scalar):
        return _T.cast(x, dtype)
    if _is_array(x):
        from . import _ops

        return _ops.astype(x, dtype)
    from . import _dtypes

    return _dtypes.to_numpy(_dtypes.canonical(dtype)).type(x)


# Short aliases used by Triton/FlagGems code.
absolute = globals()["abs"]
mul = globals()["multiply"]
sub = globals()["subtract"]
div = globals()["divide"]

__all__ = list(_UNARY + _UNARY_TEST + _BINARY + _COMPARE) + [
    "where", "fma", "cast", "absolute", "mul", "sub", "div"]
del _n
