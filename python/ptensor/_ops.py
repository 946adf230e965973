"""Array API elementwise functions over numpy arrays (host) and torch/CuPy
CUDA arrays (GPU, no copies): each builds a one-op kernel
(`ptensor.elementwise_unary exp`, `ptensor.elementwise_binary add`, ...),
compiled once per (rank after coalescing, operand dtypes, device, form).

Broadcasting and type promotion follow docs/Semantics.md: Python and numpy
scalars are weak, integer with float gives the float (PyTorch's rule), f16
and bf16 compute in f32. `out=` writes in place (casting to the out dtype
when it is of the same or a stronger kind).
"""

from . import _dtypes as D
from ._errors import DTypeError
from ._exec import arg_types, execute, operand, promotion_operands
from ._ir import ptensor_type, wrap_function

UNARY_KINDS = (
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_invert", "ceil",
    "cos", "cosh", "erf", "exp", "expm1", "floor", "log", "log1p", "log2", "log10",
    "negative", "positive", "reciprocal", "round", "rsqrt", "sigmoid", "sign", "sin",
    "sinh", "square", "sqrt", "tan", "tanh", "trunc")
UNARY_DEFAULT = ("abs", "bitwise_invert", "ceil", "floor", "negative", "positive", "round",
                 "sign", "square", "trunc")
UNARY_TEST_KINDS = ("isfinite", "isinf", "isnan", "logical_not", "signbit")
BINARY_KINDS = (
    "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor", "copysign", "divide", "floor_divide", "hypot",
    "logaddexp", "maximum", "minimum", "multiply", "pow", "remainder", "subtract")
BINARY_INT_TO_FLOAT = ("atan2", "copysign", "divide", "hypot", "logaddexp")
BITWISE_BINARY = ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                  "bitwise_right_shift")
SHIFTS = ("bitwise_left_shift", "bitwise_right_shift")
BINARY_TEST_KINDS = ("equal", "greater", "greater_equal", "less", "less_equal",
                     "logical_and", "logical_or", "logical_xor", "not_equal")


# ---------------------------------------------------------------------------
# Meta: result dtypes and rejected operand dtypes (PTensorOps.cpp messages)
# ---------------------------------------------------------------------------

def unary_result(kind, dt):
    if kind == "bitwise_invert" and D.kind(dt) == "f":
        raise DTypeError("bitwise op '%s' requires integer or bool operands, but got %s"
                         % (kind, dt))
    if kind != "bitwise_invert" and dt == "i1":
        raise DTypeError("arithmetic op '%s' requires an integer or float operand, but got "
                         "i1 (bool); cast to an integer or float dtype first" % kind)
    method = "DEFAULT" if kind in UNARY_DEFAULT else "INT_TO_FLOAT"
    return D.apply_method(method, dt)


def binary_result(kind, ops):
    dts = [op.dtype for op in ops]
    if kind in BITWISE_BINARY:
        for dt in dts:
            if D.kind(dt) == "f":
                raise DTypeError("bitwise op '%s' requires integer or bool operands, but got %s"
                                 % (kind, dt))
            if kind in SHIFTS and dt == "i1":
                raise DTypeError("shift op '%s' requires integer operands, but got i1 (bool)"
                                 % kind)
    elif dts[0] == "i1" and dts[1] == "i1":
        raise DTypeError("arithmetic op '%s' requires an integer or float operand, but both "
                         "operands are i1 (bool); cast one to an integer or float dtype first"
                         % kind)
    method = "INT_TO_FLOAT" if kind in BINARY_INT_TO_FLOAT else "DEFAULT"
    return D.apply_method(method, D.promote(promotion_operands(ops)))


# ---------------------------------------------------------------------------
# Builders
# ---------------------------------------------------------------------------

def _builder(opname, text):
    """build(rank, device, specs, out_dtypes) for a one-op kernel; `text`
    gives the op's text for the argument types and result type."""

    def build(result_dtype):
        def b(rank, device, specs, out_dtypes):
            types = arg_types(specs, rank, device)
            rt = ptensor_type(rank, result_dtype, device)
            body = ["%%r = %s" % text(types, rt)]
            outs = None if out_dtypes is None else [ptensor_type(rank, out_dtypes[0], device)]
            name = "ptensor_" + opname
            return wrap_function(name, types, body, ["%r"], [rt], outs), name
        return b
    return build


def _operands_text(n):
    return ", ".join("%%a%d" % i for i in range(n))


def _unary(kind, test=False):
    op = "elementwise_unary_test" if test else "elementwise_unary"
    text = lambda types, rt: "ptensor.%s %s %%a0 : (%s) -> %s" % (op, kind, types[0], rt)  # noqa: E731
    build = _builder(kind, text)

    def f(x, /, *, out=None):
        a = operand(x)
        if not hasattr(a, "shape"):
            raise TypeError("%s expects an array, got a scalar" % kind)
        rd = "i1" if test else unary_result(kind, a.dtype)
        return execute(("unary", kind), [a], [rd], [out], build(rd))

    f.__name__ = f.__qualname__ = kind
    f.__doc__ = ("Elementwise `%s` (ptensor.%s %s); result dtype %s."
                 % (kind, op, kind, "bool" if test else
                    ("as the input" if kind in UNARY_DEFAULT else "f32 for integers, else the input's")))
    return f


def _binary(kind, test=False):
    op = "elementwise_binary_test" if test else "elementwise_binary"
    text = lambda types, rt: "ptensor.%s %s %%a0, %%a1 : (%s, %s) -> %s" % (  # noqa: E731
        op, kind, types[0], types[1], rt)
    build = _builder(kind, text)

    def f(x1, x2, /, *, out=None):
        ops = [operand(x1), operand(x2)]
        if test:
            D.promote(promotion_operands(ops))  # raises like the compiler
            rd = "i1"
        else:
            rd = binary_result(kind, ops)
        return execute(("binary", kind), ops, [rd], [out], build(rd))

    f.__name__ = f.__qualname__ = kind
    f.__doc__ = "Elementwise `%s` with broadcasting (ptensor.%s %s)." % (kind, op, kind)
    return f


def where(condition, x1, x2, /, *, out=None):
    """`condition ? x1 : x2` with broadcasting; `condition` must be a bool
    array; x1/x2 arrays or scalars (NO_OPMATH: f16 stays f16)."""
    ops = [operand(condition), operand(x1), operand(x2)]
    if not hasattr(ops[0], "shape"):
        raise TypeError("where: the condition must be an array")
    if ops[0].dtype != "i1":
        raise DTypeError("where condition must have dtype i1, but got %s" % ops[0].dtype)
    rd = D.promote(promotion_operands(ops))
    build = _builder("where", lambda types, rt: "ptensor.where %s : (%s) -> %s" % (
        _operands_text(3), ", ".join(types), rt))
    return execute(("where",), ops, [rd], [out], build(rd))


def astype(x, dtype, /, *, out=None):
    """Conversion to `dtype` (ptensor.cast: C/NumPy semantics, float to
    integer truncates, to bool is != 0)."""
    a = operand(x)
    if not hasattr(a, "shape"):
        raise TypeError("astype expects an array")
    rd = D.canonical(dtype)
    build = _builder("cast", lambda types, rt: "ptensor.cast %%a0 : %s -> %s" % (types[0], rt))
    return execute(("cast",), [a], [rd], [out], build(rd))


def _install(namespace):
    names = []
    for k in UNARY_KINDS:
        namespace[k] = _unary(k)
        names.append(k)
    for k in UNARY_TEST_KINDS:
        namespace[k] = _unary(k, test=True)
        names.append(k)
    for k in BINARY_KINDS:
        namespace[k] = _binary(k)
        names.append(k)
    for k in BINARY_TEST_KINDS:
        namespace[k] = _binary(k, test=True)
        names.append(k)
    return names


__all__ = _install(globals()) + ["where", "astype"]
