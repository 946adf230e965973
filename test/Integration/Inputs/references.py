"""Numpy references of the elementwise kinds and their tolerance categories.

Float kinds are evaluated in float64 on operands already converted to the
computation dtype; integer kinds on Python integers, wrapped to the result
width (so division by zero, INT_MIN // -1 and shifts by >= the width follow
DESIGN.md exactly).
"""

import math

import numpy as np

from dtypes import as_pyints, kind, to_f64, width, wrap_ints

_erf = np.frompyfunc(math.erf, 1, 1)


# unary kind -> (tolerance category, float64 function)
UNARY_FLOAT = {
    "abs": ("exact", np.abs), "acos": ("transc", np.arccos),
    "acosh": ("transc", np.arccosh), "asin": ("transc", np.arcsin),
    "asinh": ("transc", np.arcsinh), "atan": ("transc", np.arctan),
    "atanh": ("transc", np.arctanh), "ceil": ("exact", np.ceil),
    "cos": ("transc", np.cos), "cosh": ("transc", np.cosh),
    "erf": ("transc", lambda x: _erf(x).astype(np.float64)),
    "exp": ("transc", np.exp), "expm1": ("transc", np.expm1),
    "floor": ("exact", np.floor), "log": ("transc", np.log),
    "log1p": ("transc", np.log1p), "log2": ("transc", np.log2),
    "log10": ("transc", np.log10), "negative": ("exact", np.negative),
    "positive": ("exact", lambda x: x), "reciprocal": ("basic", lambda x: 1.0 / x),
    "round": ("exact", np.round), "rsqrt": ("transc", lambda x: 1.0 / np.sqrt(x)),
    "sigmoid": ("transc", lambda x: 1.0 / (1.0 + np.exp(-x))),
    "sign": ("exact", np.sign), "sin": ("transc", np.sin),
    "sinh": ("transc", np.sinh), "square": ("basic", lambda x: x * x),
    "sqrt": ("basic", np.sqrt), "tan": ("transc", np.tan),
    "tanh": ("transc", np.tanh), "trunc": ("exact", np.trunc),
}
UNARY_KINDS = sorted(list(UNARY_FLOAT) + ["bitwise_invert"])
UNARY_DEFAULT = {"abs", "bitwise_invert", "ceil", "floor", "negative", "positive",
                 "round", "sign", "square", "trunc"}


def _int_unary(kind_, x, dt):
    xs = as_pyints(x)
    if kind_ == "abs":
        r = np.frompyfunc(abs, 1, 1)(xs)
    elif kind_ == "negative":
        r = -xs
    elif kind_ in ("positive", "ceil", "floor", "round", "trunc"):
        r = xs
    elif kind_ == "square":
        r = xs * xs
    elif kind_ == "sign":
        r = np.frompyfunc(lambda v: (v > 0) - (v < 0), 1, 1)(xs)
    elif kind_ == "bitwise_invert":
        if dt == "i1":
            return ~np.asarray(x, dtype=bool)
        r = np.frompyfunc(lambda v: ~v, 1, 1)(xs)
    else:
        raise ValueError(kind_)
    return wrap_ints(r, dt)


UNARY_TEST_KINDS = ["isfinite", "isinf", "isnan", "logical_not", "signbit"]


def unary_test_ref(kind_, x, dt):
    if kind(dt) == "f":
        v = to_f64(x)
        return {"isfinite": np.isfinite, "isinf": np.isinf, "isnan": np.isnan,
                "logical_not": lambda a: a == 0, "signbit": np.signbit}[kind_](v)
    v = as_pyints(x)
    f = {"isfinite": lambda a: True, "isinf": lambda a: False,
         "isnan": lambda a: False, "logical_not": lambda a: a == 0,
         "signbit": lambda a: a < 0}[kind_]
    return np.frompyfunc(f, 1, 1)(v).astype(bool).reshape(np.shape(x))


def _logaddexp(x, y):
    return np.logaddexp(x, y)


BINARY_FLOAT = {
    "add": ("basic", np.add), "subtract": ("basic", np.subtract),
    "multiply": ("basic", np.multiply), "divide": ("basic", np.divide),
    "atan2": ("transc", np.arctan2), "copysign": ("exact", np.copysign),
    "floor_divide": ("exact", np.floor_divide), "hypot": ("transc", np.hypot),
    "logaddexp": ("transc", _logaddexp), "maximum": ("exact", np.maximum),
    "minimum": ("exact", np.minimum), "pow": ("transc", np.power),
    "remainder": ("basic", np.remainder),
}
BITWISE = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
           "bitwise_right_shift"]
SHIFTS = ["bitwise_left_shift", "bitwise_right_shift"]
BINARY_KINDS = sorted(list(BINARY_FLOAT) + BITWISE)
BINARY_INT_TO_FLOAT = {"atan2", "copysign", "divide", "hypot", "logaddexp"}


def _floordiv(a, b):
    return 0 if b == 0 else a // b


def _rem(a, b):
    return 0 if b == 0 else a % b  # Python's % takes the divisor's sign


def _int_binary(kind_, a, b, dt):
    w = width(dt)
    if dt == "i1":  # bitwise on bools
        a, b = np.asarray(a, bool), np.asarray(b, bool)
        return {"bitwise_and": a & b, "bitwise_or": a | b, "bitwise_xor": a ^ b}[kind_]
    fns = {
        "add": lambda x, y: x + y, "subtract": lambda x, y: x - y,
        "multiply": lambda x, y: x * y, "floor_divide": _floordiv,
        "remainder": _rem, "maximum": max, "minimum": min,
        "pow": lambda x, y: x ** y if y >= 0 else None,
        "bitwise_and": lambda x, y: x & y, "bitwise_or": lambda x, y: x | y,
        "bitwise_xor": lambda x, y: x ^ y,
        "bitwise_left_shift": lambda x, y: x << y if 0 <= y < w else 0,
        "bitwise_right_shift": lambda x, y: x >> y if 0 <= y < w else (-1 if x < 0 else 0),
    }
    r = np.frompyfunc(fns[kind_], 2, 1)(as_pyints(a), as_pyints(b))
    return wrap_ints(r, dt)


BINARY_TEST_KINDS = ["equal", "greater", "greater_equal", "less", "less_equal",
                     "logical_and", "logical_or", "logical_xor", "not_equal"]


def binary_test_ref(kind_, a, b, dt):
    if kind(dt) == "f":
        x, y = to_f64(a), to_f64(b)
    else:
        x, y = as_pyints(a), as_pyints(b)
    with np.errstate(invalid="ignore"):
        r = {
            "equal": lambda: x == y, "not_equal": lambda: x != y,
            "greater": lambda: x > y, "greater_equal": lambda: x >= y,
            "less": lambda: x < y, "less_equal": lambda: x <= y,
            "logical_and": lambda: (x != 0) & (y != 0),
            "logical_or": lambda: (x != 0) | (y != 0),
            "logical_xor": lambda: (x != 0) ^ (y != 0),
        }[kind_]()
    return np.asarray(r).astype(bool)


def tolerance(category, dt):
    """{'ulps', 'atol'} for a float result of dtype dt."""
    if category == "exact":  # correctly rounded to the result dtype
        return {"ulps": 0.5, "atol": 0.0}
    if dt in ("f16", "bf16"):
        return {"ulps": 1.0, "atol": 0.0, "ftz": True}
    return {"ulps": {"basic": 1.0, "transc": 4.0}.get(category, category), "atol": 0.0,
            "ftz": True}


def sort_indices_ref(x, dt, axis, descending):
    """The indices of a stable sort of `x` (dtype `dt`) along `axis`: numpy's
    order (-0.0 equal to 0.0, NaNs last); descending keeps ties in input
    order and puts NaNs first (the stable ascending order of the flipped
    array, flipped back)."""
    x = np.asarray(x)
    if kind(dt) == "f":
        x = to_f64(x)  # exact; numpy orders every float dtype the same way
    if x.ndim == 0:
        raise ValueError("sort of a 0-d array")
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    flipped = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return n - 1 - np.flip(flipped, axis)


def unique_ref(x, dt):
    """The array API's unique_all of `x` (dtype `dt`) as numpy arrays:
    values (in x's representation), indices, inverse_indices (x's shape),
    counts. Equal is `==` (-0.0 equals 0.0, the first of them is kept; each
    NaN is its own value); values ascend in numpy's order (NaNs last)."""
    flat = np.asarray(x).reshape(-1)
    keys = to_f64(flat) if kind(dt) == "f" else flat
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.ones(len(ordered), dtype=bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    first = np.nonzero(starts)[0]
    inverse = np.empty(len(ordered), dtype=np.int64)
    inverse[order] = np.cumsum(starts) - 1
    counts = np.diff(np.append(first, len(ordered)))
    return (flat[order[first]], order[first].astype(np.int64),
            inverse.reshape(np.shape(x)), counts.astype(np.int64))
