"""ptensor dtypes, their numpy/torch/cupy counterparts, and the meta step:
type promotion and broadcasting exactly as docs/Semantics.md states them
(and lib/Dialect/PTensor/IR/PTensorSemantics.cpp implements them), with the
same error messages.

A dtype is named by its ptensor spelling: "i1" (bool), "i8" ... "i64",
"ui8" ... "ui64", "f16", "bf16", "f32", "f64". Builtin scalar operands have
a scalar type ("i1", "i64", "f64", ... or "index") and are *weak*.
"""

import numpy as np

from ._errors import BroadcastError, DTypeError

try:  # bf16 in numpy comes from ml_dtypes (optional).
    import ml_dtypes as _ml_dtypes

    BFLOAT16 = np.dtype(_ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - ml_dtypes is present where tests run
    _ml_dtypes = None
    BFLOAT16 = None

#: Every ptensor dtype, weakest first within each kind.
DTYPES = ("i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
          "f16", "bf16", "f32", "f64")
FLOATS = ("f16", "bf16", "f32", "f64")
SIGNED = ("i8", "i16", "i32", "i64")
UNSIGNED = ("ui8", "ui16", "ui32", "ui64")

_NUMPY_NAMES = {
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
    "f16": "float16", "f32": "float32", "f64": "float64",
}


def kind(dt):
    """'b' (bool), 's' (signed), 'u' (unsigned) or 'f' (float) of a dtype or
    scalar type; "index" is signed."""
    if dt == "i1":
        return "b"
    if dt == "index":
        return "s"
    if dt.startswith("ui"):
        return "u"
    if dt.startswith("i"):
        return "s"
    if dt.startswith("f") or dt == "bf16":
        return "f"
    raise DTypeError("unknown dtype %r" % (dt,))


def width(dt):
    """Bit width (1 for i1, 64 for index)."""
    if dt == "index":
        return 64
    return int("".join(c for c in dt if c.isdigit()))


def itemsize(dt):
    """Bytes per element in memory (bool takes one byte)."""
    return 1 if dt == "i1" else width(dt) // 8


def storage_type(dt):
    """The signless MLIR type holding `dt` (ui8 -> i8); floats unchanged."""
    if dt.startswith("ui"):
        return dt[1:]
    return dt


def compute_type(dt):
    """opmath: f16 and bf16 compute in f32."""
    return "f32" if dt in ("f16", "bf16") else dt


# ---------------------------------------------------------------------------
# numpy / torch / cupy dtype maps
# ---------------------------------------------------------------------------

def to_numpy(dt):
    """numpy dtype of a ptensor dtype (bf16 needs ml_dtypes)."""
    if dt == "bf16":
        if BFLOAT16 is None:
            raise DTypeError("bf16 needs the ml_dtypes package for numpy arrays")
        return BFLOAT16
    try:
        return np.dtype(_NUMPY_NAMES[dt])
    except KeyError:
        raise DTypeError("unknown ptensor dtype %r" % (dt,)) from None


_FROM_NUMPY = {np.dtype(v): k for k, v in _NUMPY_NAMES.items()}
if BFLOAT16 is not None:
    _FROM_NUMPY[BFLOAT16] = "bf16"


def from_numpy(dtype):
    """ptensor dtype of a numpy dtype; DTypeError for unsupported ones."""
    dtype = np.dtype(dtype)
    try:
        return _FROM_NUMPY[dtype]
    except KeyError:
        raise DTypeError(
            "dtype %s is not supported by ptensor (expected one of bool, int8..int64, "
            "uint8..uint64, float16, bfloat16, float32, float64)" % dtype) from None


_TORCH_NAMES = {
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
}
_FROM_TORCH = {"torch." + v: k for k, v in _TORCH_NAMES.items()}


def from_torch(dtype):
    """ptensor dtype of a torch dtype (matched by name: no torch import)."""
    try:
        return _FROM_TORCH[str(dtype)]
    except KeyError:
        raise DTypeError("dtype %s is not supported by ptensor" % (dtype,)) from None


def to_torch(dt):
    import torch

    return getattr(torch, _TORCH_NAMES[dt])


def canonical(dtype):
    """Accepts a ptensor dtype name, a numpy dtype (or anything np.dtype
    takes, e.g. np.float32 or "float32"), a torch dtype, or the Python types
    bool/int/float; returns the ptensor name."""
    if isinstance(dtype, str) and (dtype in DTYPES or dtype == "index"):
        return dtype
    if dtype is bool:
        return "i1"
    if dtype is int:
        return "i64"
    if dtype is float:
        return "f64"
    if str(dtype) in _FROM_TORCH:
        return _FROM_TORCH[str(dtype)]
    try:
        return from_numpy(np.dtype(dtype))
    except TypeError:
        raise DTypeError("cannot interpret %r as a ptensor dtype" % (dtype,)) from None


# ---------------------------------------------------------------------------
# Type promotion (docs/Semantics.md "Type promotion")
# ---------------------------------------------------------------------------

def _promote_pair(a, b):
    if a == b:
        return a
    ka, kb = kind(a), kind(b)
    if ka == "f" and kb == "f":
        if width(a) == width(b):  # f16 with bf16
            return "f32"
        return a if width(a) > width(b) else b
    if ka == "f":
        return a
    if kb == "f":
        return b
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka == kb:
        return a if width(a) > width(b) else b
    s, u = (a, b) if ka == "s" else (b, a)
    if width(u) == 64:
        raise DTypeError("cannot promote '%s' with signed '%s': no integer type holds "
                         "both (cast one operand first)" % (u, s))
    return "i%d" % max(width(s), 2 * width(u))


_KIND_ORDER = {"b": 0, "s": 1, "f": 2}


def promote(operands):
    """Common dtype of `operands`, a list of (dtype, is_weak) pairs; weak
    operands are builtin scalars. Raises DTypeError like the compiler."""
    has_float = any(not weak and kind(dt) == "f" for dt, weak in operands)
    strong = None
    weak_kind = None
    for dt, weak in operands:
        if weak:
            k = kind(dt)
            k = "s" if k == "u" else k
            if weak_kind is None or _KIND_ORDER[k] > _KIND_ORDER[weak_kind]:
                weak_kind = k
            continue
        if has_float and kind(dt) != "f":
            continue
        strong = dt if strong is None else _promote_pair(strong, dt)
    if strong is None:
        raise DTypeError("expected at least one ptensor operand, but all operands are "
                         "builtin scalars")
    if weak_kind == "f" and kind(strong) != "f":
        return "f32"
    if weak_kind == "s" and kind(strong) == "b":
        return "i64"
    return strong


METHODS = ("DEFAULT", "NO_OPMATH", "INT_TO_FLOAT", "ALWAYS_BOOL", "BOOL_TO_LONG")


def normalize_method(method):
    """A promotion method name of the dialect. FlagGems' COMPLEX_TO_FLOAT is
    DEFAULT here (ptensor has no complex dtypes); enum members of other
    libraries are accepted by name."""
    name = getattr(method, "name", method)
    if not isinstance(name, str):
        raise ValueError("promotion method must be a string, got %r" % (method,))
    name = name.upper()
    if name == "COMPLEX_TO_FLOAT":
        return "DEFAULT"
    if name not in METHODS:
        raise ValueError("unknown promotion method '%s', expected DEFAULT, NO_OPMATH, "
                         "INT_TO_FLOAT, ALWAYS_BOOL or BOOL_TO_LONG" % name)
    return name


def apply_method(method, common):
    """Result dtype of promotion `method` applied to the common dtype."""
    if method in ("DEFAULT", "NO_OPMATH"):
        return common
    if method == "INT_TO_FLOAT":
        return common if kind(common) == "f" else "f32"
    if method == "ALWAYS_BOOL":
        return "i1"
    if method == "BOOL_TO_LONG":
        return "i64" if common == "i1" else common
    raise ValueError(method)


def can_cast_to_out(src, dst):
    """torch's rule for writing a result into an out= operand of another
    dtype: the out dtype's kind (bool < integer < float) is not weaker."""
    order = {"b": 0, "s": 1, "u": 1, "f": 2}
    return order[kind(dst)] >= order[kind(src)]


# ---------------------------------------------------------------------------
# Broadcasting (docs/Semantics.md "Broadcasting"); shapes are concrete here.
# ---------------------------------------------------------------------------

def format_shape(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


def broadcast_shapes(shapes):
    """NumPy broadcast of concrete shapes; BroadcastError names every shape."""
    rank = max([len(s) for s in shapes] + [0])
    out = [1] * rank
    for i in range(rank):
        cur = 1
        for s in shapes:
            if i >= len(s):
                continue
            d = s[len(s) - 1 - i]
            if d == 1:
                continue
            if cur != 1 and cur != d:
                raise BroadcastError(
                    "cannot broadcast shapes %s: sizes %d and %d of dimension -%d "
                    "(right-aligned) differ and neither is 1"
                    % (" and ".join(format_shape(s) for s in shapes), cur, d, i + 1))
            cur = d
        out[rank - 1 - i] = cur
    return tuple(out)
