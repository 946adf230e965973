"""Array API elementwise functions over numpy arrays (host) and torch/CuPy
CUDA arrays (GPU, no copies): each builds a one-op kernel
(`ptensor.elementwise_unary exp`, `ptensor.elementwise_binary add`, ...),
compiled once per (rank after coalescing, operand dtypes, the dims where
each host input is broadcast, device, form).

Broadcasting and type promotion follow docs/Semantics.md: Python and numpy
scalars are weak, integer with float gives the float (PyTorch's rule), f16
and bf16 compute in f32. `out=` writes in place (casting to the out dtype
when it is of the same or a stronger kind).
"""

import numpy as np

from . import _core
from . import _dtypes as D
from ._exec import arg_types, elementwise_op
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


# ---------------------------------------------------------------------------
# Builders
# ---------------------------------------------------------------------------

def _builder(opname, text):
    """The kernel builder of a one-op kernel: `text(types, result_type)`
    gives the op's text for the argument types and result type."""

    def build(rank, device, specs, result_dtypes, out_dtypes):
        types = arg_types(specs, rank, device)
        rt = ptensor_type(rank, result_dtypes[0], device)
        body = ["%%r = %s" % text(types, rt)]
        outs = None if out_dtypes is None else [ptensor_type(rank, out_dtypes[0], device)]
        name = "ptensor_" + opname
        return wrap_function(name, types, body, ["%r"], [rt], outs), name

    return build


def _operands_text(n):
    return ", ".join("%%a%d" % i for i in range(n))


def _unary(kind, test=False):
    op = "elementwise_unary_test" if test else "elementwise_unary"
    text = lambda types, rt: "ptensor.%s %s %%a0 : (%s) -> %s" % (op, kind, types[0], rt)  # noqa: E731
    call = elementwise_op(op, kind, _builder(kind, text),
                               "%s expects an array, got a scalar" % kind)

    def f(x, /, *, out=None):
        return call((x,), out)

    f.__name__ = f.__qualname__ = kind
    f.__doc__ = ("Elementwise `%s` (ptensor.%s %s); result dtype: promotion method %s."
                 % (kind, op, kind, _METHOD[kind]))
    return f


def _binary(kind, test=False):
    op = "elementwise_binary_test" if test else "elementwise_binary"
    text = lambda types, rt: "ptensor.%s %s %%a0, %%a1 : (%s, %s) -> %s" % (  # noqa: E731
        op, kind, types[0], types[1], rt)
    call = elementwise_op(op, kind, _builder(kind, text))

    def f(x1, x2, /, *, out=None):
        return call((x1, x2), out)

    f.__name__ = f.__qualname__ = kind
    f.__doc__ = "Elementwise `%s` with broadcasting (ptensor.%s %s)." % (kind, op, kind)
    return f


_where = elementwise_op(
    "where", "", _builder("where", lambda types, rt: "ptensor.where %s : (%s) -> %s" % (
        _operands_text(3), ", ".join(types), rt)),
    "where: the condition must be an array")


def where(condition, x1, x2, /, *, out=None):
    """`condition ? x1 : x2` with broadcasting; `condition` must be a bool
    array; x1/x2 arrays or scalars (NO_OPMATH: f16 stays f16)."""
    return _where((condition, x1, x2), out)


_cast = elementwise_op(
    "cast", "", _builder("cast", lambda types, rt: "ptensor.cast %%a0 : %s -> %s" % (
        types[0], rt)), "astype expects an array")


def astype(x, dtype, /, *, copy=True, device=None, out=None):
    """Conversion to `dtype` (ptensor.cast: C/NumPy semantics, float to
    integer truncates, to bool is != 0). `copy=False` returns `x` itself
    when it has that dtype already and stays where it is; `device`
    ("cpu", "cuda:N") moves it there first (the array API's astype)."""
    rd = D.canonical(dtype)
    if device is not None:
        # (_array imports this module: imported here.)
        from ._array import Array, move_backing, parse_device

        if isinstance(x, (list, tuple)):
            x = np.asarray(x)  # as the views take them
        if isinstance(x, Array):
            x = x.to_device(device)
        elif hasattr(x, "shape"):  # else: _cast's error
            x = move_backing(x, parse_device(device))
    if not copy and out is None and getattr(x, "dtype", None) is not None and \
            D.canonical(x.dtype) == rd:
        return x
    return _cast((x,), out, rd)


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
