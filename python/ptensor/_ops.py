"""Array API elementwise functions over numpy arrays (host) and torch/CuPy
CUDA arrays (GPU, no copies): each builds a one-op kernel
(`ptensor.elementwise_unary exp`, `ptensor.elementwise_binary add`, ...),
compiled once per (rank after coalescing, operand dtypes, device, form).

Broadcasting and type promotion follow docs/Semantics.md: Python and numpy
scalars are weak, integer with float gives the float (PyTorch's rule), f16
and bf16 compute in f32. `out=` writes in place (casting to the out dtype
when it is of the same or a stronger kind).
"""

from . import _core
from . import _dtypes as D
from ._exec import arg_types, execute, operand, promotion_operands
from ._ir import ptensor_type, wrap_function

#: The op-kind table of the compiler (lib/Semantics OpKinds.def):
#: (op, kind, promotion method, operand rule) rows.
OP_KINDS = tuple(_core.op_kinds())


def _kinds(op):
    return tuple(kind for o, kind, _, _ in OP_KINDS if o == op)


UNARY_KINDS = _kinds("elementwise_unary")
UNARY_TEST_KINDS = _kinds("elementwise_unary_test")
BINARY_KINDS = _kinds("elementwise_binary")
BINARY_TEST_KINDS = _kinds("elementwise_binary_test")
_METHOD = {kind: method for _, kind, method, _ in OP_KINDS}


def unary_result(kind, dt):
    """Result dtype of elementwise_unary `kind` on an array of dtype `dt`."""
    return _core.elementwise_result("elementwise_unary", kind, [(dt, False)])


def binary_result(kind, ops):
    """Result dtype of elementwise_binary `kind` on two operands."""
    return _core.elementwise_result("elementwise_binary", kind,
                                    promotion_operands(ops))


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
        rd = (_core.elementwise_result("elementwise_unary_test", kind, [(a.dtype, False)])
              if test else unary_result(kind, a.dtype))
        return execute(("unary", kind), [a], [rd], [out], build(rd))

    f.__name__ = f.__qualname__ = kind
    f.__doc__ = ("Elementwise `%s` (ptensor.%s %s); result dtype: promotion method %s."
                 % (kind, op, kind, _METHOD[kind]))
    return f


def _binary(kind, test=False):
    op = "elementwise_binary_test" if test else "elementwise_binary"
    text = lambda types, rt: "ptensor.%s %s %%a0, %%a1 : (%s, %s) -> %s" % (  # noqa: E731
        op, kind, types[0], types[1], rt)
    build = _builder(kind, text)

    def f(x1, x2, /, *, out=None):
        ops = [operand(x1), operand(x2)]
        if test:
            rd = _core.elementwise_result("elementwise_binary_test", kind,
                                          promotion_operands(ops))
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
    rd = _core.where_result(promotion_operands(ops))
    build = _builder("where", lambda types, rt: "ptensor.where %s : (%s) -> %s" % (
        _operands_text(3), ", ".join(types), rt))
    return execute(("where",), ops, [rd], [out], build(rd))


def astype(x, dtype, /, *, copy=True, device=None, out=None):
    """Conversion to `dtype` (ptensor.cast: C/NumPy semantics, float to
    integer truncates, to bool is != 0). The array API's keywords:
    `copy=False` returns `x` itself when it has that dtype already;
    `device` ("cpu", "cuda:N") moves the result as ptensor.Array.to_device."""
    if device is not None:
        from ._creation import asarray

        x = asarray(x, device=device)
    a = operand(x)
    if not hasattr(a, "shape"):
        raise TypeError("astype expects an array")
    rd = D.canonical(dtype)
    if not copy and out is None and rd == a.dtype:
        return x
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
