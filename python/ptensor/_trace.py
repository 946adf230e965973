"""Symbolic tracing of scalar Python functions into the body of a
`ptensor.pointwise` op.

A traced function receives one `Scalar` per input; operators and the
functions of `ptensor.math` on Scalars append ops to the current `Body` and
return new Scalars. Values carry a semantic dtype (f32, f64, i1, i8..i64,
ui8..ui64; f16/bf16 inputs arrive widened to f32, PyTorch's opmath) and a
*weak* flag (scalar arguments and Python constants), and binary operations
promote exactly like tensors do (docs/Semantics.md), so `x + y * alpha`
with f16 tensors and a Python float alpha computes in f32.

Every elementwise kind and every conversion is written as the dialect's
scalar op (`ptensor.scalar_unary exp %x : f32`, `ptensor.scalar_cast`),
whose code the compiler emits with the elementwise ops' own scalar code:
this module holds no semantics of its own beyond choosing the dtype an
operation computes in, which it asks the semantics library for.
"""

import struct
import threading

import numpy as np

from . import _core
from . import _dtypes as D
from ._errors import DTypeError, TraceError

_state = threading.local()


def _current():
    b = getattr(_state, "body", None)
    if b is None:
        raise TraceError("ptensor.math scalar functions can only be used while a "
                         "@ptensor.pointwise function is traced")
    return b


class Body:
    """The ops of one pointwise body being traced."""

    def __init__(self):
        self.lines = []
        self.count = 0

    def __enter__(self):
        if getattr(_state, "body", None) is not None:
            raise TraceError("nested pointwise tracing is not supported")
        _state.body = self
        return self

    def __exit__(self, *exc):
        _state.body = None

    def op(self, text, dt, weak=False):
        """Appends `%vN = text` and returns its Scalar of dtype `dt`."""
        name = "%%v%d" % self.count
        self.count += 1
        self.lines.append("%s = %s" % (name, text))
        return Scalar(self, name, dt, weak)

    def const(self, value, dt, weak=False):
        return self.op("arith.constant %s" % const_literal(value, dt), dt, weak)


def const_literal(value, dt):
    """`value : type` text of an arith.constant (floats as exact bit patterns)."""
    st = D.storage_type(dt)
    if dt == "i1":
        return "true" if value else "false"
    if D.kind(dt) == "f":
        if dt == "f64":
            bits = struct.unpack("<Q", struct.pack("<d", float(value)))[0]
            return "0x%016X : f64" % bits
        if dt == "f32":
            with np.errstate(over="ignore"):
                bits = int(np.array(value, dtype=np.float32).view(np.uint32))
            return "0x%08X : f32" % bits
        if dt == "f16":
            with np.errstate(over="ignore"):
                bits = int(np.array(value, dtype=np.float16).view(np.uint16))
            return "0x%04X : f16" % bits
        bits = int(np.array(value, dtype=np.float32).astype(D.bfloat16()).view(np.uint16))
        return "0x%04X : bf16" % bits
    w = D.width(dt)
    v = int(value) & ((1 << w) - 1)
    if v >= 1 << (w - 1):  # print in the signed range
        v -= 1 << w
    return "%d : %s" % (v, st)


def _py_kind(x):
    if isinstance(x, (bool, np.bool_)):
        return "i1"
    if isinstance(x, (int, np.integer)):
        return "i64"
    if isinstance(x, (float, np.floating)):
        return "f64"
    return None


class Scalar:
    """A traced scalar value (SSA name, semantic dtype, weak flag)."""

    __slots__ = ("body", "name", "dt", "weak")
    __array_priority__ = 1000  # numpy scalars defer to our operators

    def __init__(self, body, name, dt, weak=False):
        self.body = body
        self.name = name
        self.dt = dt
        self.weak = weak

    @property
    def type(self):
        """The MLIR (storage) type."""
        return D.storage_type(self.dt)

    @property
    def dtype(self):
        return self.dt

    def __repr__(self):
        return "<traced %s%s %s>" % ("weak " if self.weak else "", self.dt, self.name)

    def __bool__(self):
        raise TraceError("a traced value has no truth value: Python control flow (if, and, "
                         "or, not, while) cannot depend on array elements; use "
                         "ptensor.math.where(cond, a, b), logical_and, ...")

    def __index__(self):
        raise TraceError("a traced value cannot be used as a Python integer")

    def __float__(self):
        raise TraceError("a traced value cannot be converted to a Python float")

    __int__ = __index__

    def __hash__(self):
        return id(self)

    # Arithmetic
    def __add__(self, o): return binary("add", self, o)
    def __radd__(self, o): return binary("add", o, self)
    def __sub__(self, o): return binary("subtract", self, o)
    def __rsub__(self, o): return binary("subtract", o, self)
    def __mul__(self, o): return binary("multiply", self, o)
    def __rmul__(self, o): return binary("multiply", o, self)
    def __truediv__(self, o): return binary("divide", self, o)
    def __rtruediv__(self, o): return binary("divide", o, self)
    def __floordiv__(self, o): return binary("floor_divide", self, o)
    def __rfloordiv__(self, o): return binary("floor_divide", o, self)
    def __mod__(self, o): return binary("remainder", self, o)
    def __rmod__(self, o): return binary("remainder", o, self)
    def __pow__(self, o): return binary("pow", self, o)
    def __rpow__(self, o): return binary("pow", o, self)
    def __and__(self, o): return binary("bitwise_and", self, o)
    def __rand__(self, o): return binary("bitwise_and", o, self)
    def __or__(self, o): return binary("bitwise_or", self, o)
    def __ror__(self, o): return binary("bitwise_or", o, self)
    def __xor__(self, o): return binary("bitwise_xor", self, o)
    def __rxor__(self, o): return binary("bitwise_xor", o, self)
    def __lshift__(self, o): return binary("bitwise_left_shift", self, o)
    def __rlshift__(self, o): return binary("bitwise_left_shift", o, self)
    def __rshift__(self, o): return binary("bitwise_right_shift", self, o)
    def __rrshift__(self, o): return binary("bitwise_right_shift", o, self)
    def __neg__(self): return unary("negative", self)
    def __pos__(self): return self
    def __abs__(self): return unary("abs", self)
    def __invert__(self): return unary("bitwise_invert", self)
    def __round__(self, n=None):
        if n is not None:
            raise TraceError("round(x, ndigits) is not supported in traced code")
        return unary("round", self)
    def __floor__(self): return unary("floor", self)
    def __ceil__(self): return unary("ceil", self)
    def __trunc__(self): return unary("trunc", self)

    # Comparisons give i1
    def __lt__(self, o): return compare("less", self, o)
    def __le__(self, o): return compare("less_equal", self, o)
    def __gt__(self, o): return compare("greater", self, o)
    def __ge__(self, o): return compare("greater_equal", self, o)
    def __eq__(self, o): return compare("equal", self, o)
    def __ne__(self, o): return compare("not_equal", self, o)


# ---------------------------------------------------------------------------
# Conversions (the compiler's convertScalar, with our signedness)
# ---------------------------------------------------------------------------

def lift(x, body=None):
    """A Scalar for `x` (Scalars pass through; Python numbers become weak
    constants of i1/i64/f64)."""
    if isinstance(x, Scalar):
        return x
    dt = _py_kind(x)
    if dt is None:
        raise TraceError("cannot use %r (%s) in a traced pointwise function"
                         % (x, type(x).__name__))
    return (body or _current()).const(x, dt, weak=True)


def _as(dt):
    """The ` as DTYPE` of a scalar op whose semantic dtype is not its
    operands' (signless) type."""
    return " as %s" % dt if D.storage_type(dt) != dt else ""


def convert(v, to, weak=None):
    """`v` converted to the semantic dtype `to` (f16/bf16 are rounded and
    kept as such; callers widen for arithmetic)."""
    weak = v.weak if weak is None else weak
    if v.dt == to:
        return v if v.weak == weak else Scalar(v.body, v.name, to, weak)
    return v.body.op("ptensor.scalar_cast %s%s to %s : %s"
                     % (v.name, _as(v.dt), to, v.type), to, weak)


def _compute(dt):
    return D.compute_type(dt)


def common(*vals):
    """(semantic dtype, weak) of a binary operation's operands."""
    strong = [v.dt for v in vals if not v.weak]
    weak = [v.dt for v in vals if v.weak]
    if not strong:  # weak with weak: the default of the strongest kind
        order = {"b": 0, "s": 1, "u": 1, "f": 2}
        k = max((D.kind(dt) for dt in weak), key=lambda k: order[k])
        return {"b": "i1", "s": "i64", "u": "i64", "f": "f64"}[k], True
    dt = D.promote([(d, False) for d in strong] + [(d, True) for d in weak])
    return _compute(dt), False


def _operands(*xs):
    body = None
    for x in xs:
        if isinstance(x, Scalar):
            body = x.body
    return [lift(x, body) for x in xs]


# ---------------------------------------------------------------------------
# Unary functions
# ---------------------------------------------------------------------------

#: The promotion method of each kind (the compiler's op-kind table).
_METHOD = {kind: method for _, kind, method, _ in _core.op_kinds()}


def _in_float(x, kind):
    """`x` in the float dtype an INT_TO_FLOAT kind computes in (f32, or f64
    for a weak Python number)."""
    if _METHOD[kind] == "INT_TO_FLOAT" and D.kind(x.dt) != "f":
        return convert(x, "f64" if x.weak else "f32")
    return x


def unary(kind, x):
    if not isinstance(x, Scalar):
        x = lift(x)
    _core.check_operand_dtypes("elementwise_unary", kind, [x.dt])  # raises like the compiler
    if kind == "positive":
        return x
    x = _in_float(x, kind)
    return x.body.op("ptensor.scalar_unary %s %s%s : %s" % (kind, x.name, _as(x.dt), x.type),
                     x.dt, x.weak)


def unary_test(kind, x):
    if not isinstance(x, Scalar):
        x = lift(x)
    _core.check_operand_dtypes("elementwise_unary_test", kind, [x.dt])
    return x.body.op("ptensor.scalar_unary_test %s %s%s : %s"
                     % (kind, x.name, _as(x.dt), x.type), "i1")


def _not(x):
    return unary_test("logical_not", x)


# ---------------------------------------------------------------------------
# Binary functions
# ---------------------------------------------------------------------------

def _binary_operands(op, kind, x, y):
    """x and y checked by the kind's operand rule and converted to the dtype
    the kind computes in."""
    x, y = _operands(x, y)
    _core.check_operand_dtypes(op, kind, [x.dt, y.dt])
    dt, weak = common(x, y)
    if _METHOD[kind] == "INT_TO_FLOAT" and D.kind(dt) != "f":
        dt = "f64" if weak else "f32"
    return convert(x, dt, weak), convert(y, dt, weak)


def binary(kind, x, y):
    x, y = _binary_operands("elementwise_binary", kind, x, y)
    return x.body.op("ptensor.scalar_binary %s %s, %s%s : %s"
                     % (kind, x.name, y.name, _as(x.dt), x.type), x.dt, x.weak)


def compare(kind, x, y):
    x, y = _binary_operands("elementwise_binary_test", kind, x, y)
    return x.body.op("ptensor.scalar_binary_test %s %s, %s%s : %s"
                     % (kind, x.name, y.name, _as(x.dt), x.type), "i1")


def where(c, x, y):
    """`c ? x : y` (NO_OPMATH: x and y promote to their common dtype)."""
    c, x, y = _operands(c, x, y)
    b = c.body
    c = convert(c, "i1", weak=False)
    dt, weak = common(x, y)
    x, y = convert(x, dt, weak), convert(y, dt, weak)
    return b.op("arith.select %s, %s, %s : %s" % (c.name, x.name, y.name, x.type), dt, weak)


def fma(x, y, z):
    x, y, z = _operands(x, y, z)
    dt, weak = common(x, y, z)
    if D.kind(dt) != "f":
        dt = "f64" if weak else "f32"
    x, y, z = (convert(v, dt, weak) for v in (x, y, z))
    return x.body.op("math.fma %s, %s, %s : %s" % (x.name, y.name, z.name,
                                                   D.storage_type(dt)), dt, weak)


def cast(x, dtype):
    """`x` converted to `dtype` (a strong value; f16/bf16 are rounded to
    that precision and computed on in f32)."""
    x = lift(x)
    to = D.canonical(dtype)
    if to == "index":
        raise DTypeError("cast to index is not supported in traced code")
    r = convert(x, to, weak=False)
    if to in ("f16", "bf16"):
        r = convert(r, "f32", weak=False)
    return r
