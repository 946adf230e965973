"""Symbolic tracing of scalar Python functions into the body of a
`ptensor.pointwise` op (arith and math dialect text).

A traced function receives one `Scalar` per input; operators and the
functions of `ptensor.math` on Scalars append ops to the current `Body` and
return new Scalars. Values carry a semantic dtype (f32, f64, i1, i8..i64,
ui8..ui64; f16/bf16 inputs arrive widened to f32, PyTorch's opmath) and a
*weak* flag (scalar arguments and Python constants), and binary operations
promote exactly like tensors do (docs/Semantics.md), so `x + y * alpha`
with f16 tensors and a Python float alpha computes in f32.

Integer semantics follow the compiler's elementwise kinds (ScalarOps.cpp):
division and remainder by zero give 0, floor division and remainder round
toward -inf, shifts past the width give 0 (or -1).
"""

import struct
import threading

import numpy as np

from . import _core
from . import _dtypes as D
from ._errors import DTypeError, TraceError
from ._emit import (_cmpf, _cmpi, _float_remainder, _hypot, _int_division, _is_negative,
                    _logaddexp, _sel, _shift)

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
        bits = int(np.array(value, dtype=np.float32).astype(D.BFLOAT16).view(np.uint16))
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


def convert(v, to, weak=None):
    """`v` converted to the semantic dtype `to` (f16/bf16 are rounded and
    kept as such; callers widen for arithmetic)."""
    weak = v.weak if weak is None else weak
    frm = v.dt
    b = v.body
    if frm == to:
        return v if v.weak == weak else Scalar(b, v.name, to, weak)
    fk, tk = D.kind(frm), D.kind(to)
    fs, ts = D.storage_type(frm), D.storage_type(to)
    if to == "i1":
        if fk == "f":
            z = b.const(0.0, frm)
            return b.op("arith.cmpf une, %s, %s : %s" % (v.name, z.name, fs), "i1", weak)
        z = b.const(0, frm)
        return b.op("arith.cmpi ne, %s, %s : %s" % (v.name, z.name, fs), "i1", weak)
    from_unsigned = fk in ("u", "b")
    if fk == "f" and tk == "f":
        fw, tw = D.width(frm), D.width(to)
        if fw == tw:  # f16 <-> bf16 through f32
            w = b.op("arith.extf %s : %s to f32" % (v.name, fs), "f32", weak)
            return b.op("arith.truncf %s : f32 to %s" % (w.name, ts), to, weak)
        op = "extf" if fw < tw else "truncf"
        return b.op("arith.%s %s : %s to %s" % (op, v.name, fs, ts), to, weak)
    if fk != "f" and tk == "f":
        op = "uitofp" if from_unsigned else "sitofp"
        return b.op("arith.%s %s : %s to %s" % (op, v.name, fs, ts), to, weak)
    if fk == "f" and tk != "f":
        op = "fptoui" if tk == "u" else "fptosi"
        return b.op("arith.%s %s : %s to %s" % (op, v.name, fs, ts), to, weak)
    fw, tw = D.width(frm), D.width(to)
    if fw == tw:
        return Scalar(b, v.name, to, weak)
    if fw > tw:
        return b.op("arith.trunci %s : %s to %s" % (v.name, fs, ts), to, weak)
    op = "extui" if from_unsigned else "extsi"
    return b.op("arith.%s %s : %s to %s" % (op, v.name, fs, ts), to, weak)


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

_FLOAT_UNARY_MATH = {
    "acos": "math.acos", "acosh": "math.acosh", "asin": "math.asin", "asinh": "math.asinh",
    "atan": "math.atan", "atanh": "math.atanh", "ceil": "math.ceil", "cos": "math.cos",
    "cosh": "math.cosh", "erf": "math.erf", "exp": "math.exp", "expm1": "math.expm1",
    "floor": "math.floor", "log": "math.log", "log1p": "math.log1p", "log2": "math.log2",
    "log10": "math.log10", "round": "math.roundeven", "rsqrt": "math.rsqrt",
    "sin": "math.sin", "sinh": "math.sinh", "sqrt": "math.sqrt", "tan": "math.tan",
    "tanh": "math.tanh", "trunc": "math.trunc", "abs": "math.absf",
}
#: The promotion method of each kind (the compiler's op-kind table).
_METHOD = {kind: method for _, kind, method, _ in _core.op_kinds()}


def _float_op(b, op, args, t, weak):
    return b.op("%s %s : %s" % (op, ", ".join(a.name for a in args), t), t, weak)


def unary(kind, x):
    if not isinstance(x, Scalar):
        x = lift(x)
    b = x.body
    dt, weak = x.dt, x.weak
    _core.check_operand_dtypes("elementwise_unary", kind, [dt])  # raises like the compiler
    if kind == "bitwise_invert":
        ones = b.const(-1 if dt != "i1" else True, dt)
        return b.op("arith.xori %s, %s : %s" % (x.name, ones.name, x.type), dt, weak)
    if kind == "positive":
        return x
    if D.kind(dt) != "f":
        if _METHOD[kind] == "INT_TO_FLOAT":
            x = convert(x, "f64" if weak else "f32")
            return unary(kind, x)
        t = x.type
        if kind == "abs":
            return x if D.kind(dt) == "u" else b.op("math.absi %s : %s" % (x.name, t), dt, weak)
        if kind == "negative":
            z = b.const(0, dt)
            return b.op("arith.subi %s, %s : %s" % (z.name, x.name, t), dt, weak)
        if kind in ("ceil", "floor", "round", "trunc"):
            return x
        if kind == "square":
            return b.op("arith.muli %s, %s : %s" % (x.name, x.name, t), dt, weak)
        if kind == "sign":
            zero, one, m1 = b.const(0, dt), b.const(1, dt), b.const(-1, dt)
            gt = b.op("arith.cmpi %s, %s, %s : %s" % ("ugt" if D.kind(dt) == "u" else "sgt",
                                                      x.name, zero.name, t), "i1")
            pos = b.op("arith.select %s, %s, %s : %s" % (gt.name, one.name, zero.name, t), dt)
            if D.kind(dt) == "u":
                return Scalar(b, pos.name, dt, weak)
            lt = b.op("arith.cmpi slt, %s, %s : %s" % (x.name, zero.name, t), "i1")
            return b.op("arith.select %s, %s, %s : %s" % (lt.name, m1.name, pos.name, t), dt,
                        weak)
        raise AssertionError(kind)
    t = x.type
    if kind in _FLOAT_UNARY_MATH:
        return _float_op(b, _FLOAT_UNARY_MATH[kind], [x], t, weak)
    if kind == "negative":
        return _float_op(b, "arith.negf", [x], t, weak)
    if kind == "square":
        return b.op("arith.mulf %s, %s : %s" % (x.name, x.name, t), dt, weak)
    if kind == "reciprocal":
        one = b.const(1.0, dt)
        return b.op("arith.divf %s, %s : %s" % (one.name, x.name, t), dt, weak)
    if kind == "sigmoid":
        one = b.const(1.0, dt)
        n = _float_op(b, "arith.negf", [x], t, weak)
        e = _float_op(b, "math.exp", [n], t, weak)
        s = b.op("arith.addf %s, %s : %s" % (one.name, e.name, t), dt, weak)
        return b.op("arith.divf %s, %s : %s" % (one.name, s.name, t), dt, weak)
    if kind == "sign":
        zero, one, m1 = b.const(0.0, dt), b.const(1.0, dt), b.const(-1.0, dt)
        lt = b.op("arith.cmpf olt, %s, %s : %s" % (x.name, zero.name, t), "i1")
        neg = b.op("arith.select %s, %s, %s : %s" % (lt.name, m1.name, x.name, t), dt)
        gt = b.op("arith.cmpf ogt, %s, %s : %s" % (x.name, zero.name, t), "i1")
        return b.op("arith.select %s, %s, %s : %s" % (gt.name, one.name, neg.name, t), dt, weak)
    raise TraceError("unknown unary function %r" % kind)


def unary_test(kind, x):
    if not isinstance(x, Scalar):
        x = lift(x)
    b = x.body
    dt, t = x.dt, x.type
    isf = D.kind(dt) == "f"
    if kind in ("isfinite", "isinf", "isnan"):
        if not isf:
            return b.const(kind == "isfinite", "i1")
        return b.op("math.%s %s : %s" % (kind, x.name, t), "i1")
    if kind == "logical_not":
        return _not(x)
    if kind == "signbit":
        if not isf:
            if D.kind(dt) in ("u", "b"):
                return b.const(False, "i1")
            z = b.const(0, dt)
            return b.op("arith.cmpi slt, %s, %s : %s" % (x.name, z.name, t), "i1")
        bits = "i%d" % D.width(dt)
        c = b.op("arith.bitcast %s : %s to %s" % (x.name, t, bits), "i%d" % D.width(dt))
        z = b.const(0, c.dt)
        return b.op("arith.cmpi slt, %s, %s : %s" % (c.name, z.name, bits), "i1")
    raise TraceError("unknown test %r" % kind)


def _not(x):
    truth = convert(x, "i1", weak=False)
    b = truth.body
    one = b.const(True, "i1")
    return b.op("arith.xori %s, %s : i1" % (truth.name, one.name), "i1")


# ---------------------------------------------------------------------------
# Binary functions
# ---------------------------------------------------------------------------

def binary(kind, x, y):
    x, y = _operands(x, y)
    b = x.body
    # The kind's operand rule, with the compiler's messages.
    _core.check_operand_dtypes("elementwise_binary", kind, [x.dt, y.dt])
    dt, weak = common(x, y)
    if _METHOD[kind] == "INT_TO_FLOAT" and D.kind(dt) != "f":
        dt = "f64" if weak else "f32"
    x, y = convert(x, dt, weak), convert(y, dt, weak)
    t = D.storage_type(dt)
    isf = D.kind(dt) == "f"
    uns = D.kind(dt) in ("u", "b")

    def op(name, a=x, c=y):
        return b.op("%s %s, %s : %s" % (name, a.name, c.name, t), dt, weak)

    if kind in ("add", "subtract", "multiply"):
        base = {"add": "add", "subtract": "sub", "multiply": "mul"}[kind]
        return op("arith.%s%s" % (base, "f" if isf else "i"))
    if kind == "divide":
        return op("arith.divf")
    if kind in ("maximum", "minimum"):
        if isf:
            return op("arith.%sf" % kind)
        return op("arith.%s%s" % ("max" if kind == "maximum" else "min", "ui" if uns else "si"))
    if kind == "atan2":
        return op("math.atan2")
    if kind == "copysign":
        return op("math.copysign")
    if kind == "pow":
        return op("math.powf" if isf else "math.ipowi")
    if kind == "bitwise_and":
        return op("arith.andi")
    if kind == "bitwise_or":
        return op("arith.ori")
    if kind == "bitwise_xor":
        return op("arith.xori")
    if kind in ("bitwise_left_shift", "bitwise_right_shift"):
        return _shift(b, kind == "bitwise_left_shift", x, y, dt, weak)
    if kind in ("floor_divide", "remainder"):
        if isf:
            if kind == "floor_divide":
                q = op("arith.divf")
                return b.op("math.floor %s : %s" % (q.name, t), dt, weak)
            return _float_remainder(b, x, y, dt, weak)
        return _int_division(b, kind == "remainder", x, y, dt, weak)
    if kind == "hypot":
        return _hypot(b, x, y, dt, weak)
    if kind == "logaddexp":
        return _logaddexp(b, x, y, dt, weak)
    raise TraceError("unknown binary function %r" % kind)


_CMP = {
    "equal": ("oeq", "eq", "eq"), "not_equal": ("une", "ne", "ne"),
    "greater": ("ogt", "sgt", "ugt"), "greater_equal": ("oge", "sge", "uge"),
    "less": ("olt", "slt", "ult"), "less_equal": ("ole", "sle", "ule"),
}


def compare(kind, x, y):
    x, y = _operands(x, y)
    b = x.body
    if kind in ("logical_and", "logical_or", "logical_xor"):
        tx, ty = convert(x, "i1", weak=False), convert(y, "i1", weak=False)
        op = {"logical_and": "andi", "logical_or": "ori", "logical_xor": "xori"}[kind]
        return b.op("arith.%s %s, %s : i1" % (op, tx.name, ty.name), "i1")
    dt, weak = common(x, y)
    x, y = convert(x, dt, weak), convert(y, dt, weak)
    f, s, u = _CMP[kind]
    k = D.kind(dt)
    if k == "f":
        return _cmpf(b, f, x, y)
    return _cmpi(b, u if k in ("u", "b") else s, x, y)


def where(c, x, y):
    """`c ? x : y` (NO_OPMATH: x and y promote to their common dtype)."""
    c, x, y = _operands(c, x, y)
    b = c.body
    c = convert(c, "i1", weak=False)
    dt, weak = common(x, y)
    x, y = convert(x, dt, weak), convert(y, dt, weak)
    return _sel(b, c, x, y, dt, weak)


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
