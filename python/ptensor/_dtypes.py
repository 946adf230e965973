"""ptensor dtypes and their numpy/torch/cupy counterparts. The rules (type
promotion, promotion methods, broadcasting, dtype kinds and widths) are not
here: they are the compiler's semantics library (lib/Semantics), asked
through the binding `ptensor._core`, so Python and the compiler give the
same results and the same messages.

A dtype is named by its ptensor spelling: "i1" (bool), "i8" ... "i64",
"ui8" ... "ui64", "f16", "bf16", "f32", "f64". Builtin scalar operands have
a scalar type ("i1", "i64", "f64", ... or "index") and are *weak*.
"""

import numpy as np

from . import _core
from ._errors import DTypeError

#: numpy's bfloat16 dtype once looked for: False before, None without
#: ml_dtypes.
_bfloat16 = False


def bfloat16():
    """numpy's bfloat16 dtype (ml_dtypes', optional), or None without
    ml_dtypes. Imported on first use, not with ptensor: importing ml_dtypes
    0.7 takes half a second."""
    global _bfloat16
    if _bfloat16 is False:
        try:
            import ml_dtypes
        except ImportError:  # pragma: no cover - present where tests run
            _bfloat16 = None
        else:
            _bfloat16 = np.dtype(ml_dtypes.bfloat16)
    return _bfloat16


def is_bfloat16(dtype):
    """Whether numpy dtype `dtype` is ml_dtypes' bfloat16 (ml_dtypes is
    imported only for a dtype of that name, which it made)."""
    return getattr(dtype, "name", None) == "bfloat16" and dtype == bfloat16()

#: Every ptensor dtype, weakest first within each kind.
DTYPES = tuple(_core.dtype_names())
FLOATS = tuple(d for d in DTYPES if _core.dtype_info(d)[0] == "f")
SIGNED = tuple(d for d in DTYPES if _core.dtype_info(d)[0] == "s")
UNSIGNED = tuple(d for d in DTYPES if _core.dtype_info(d)[0] == "u")

_NUMPY_NAMES = {
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
    "f16": "float16", "f32": "float32", "f64": "float64",
}


def kind(dt):
    """'b' (bool), 's' (signed), 'u' (unsigned) or 'f' (float) of a dtype or
    scalar type; "index" is signed."""
    return _core.dtype_info(dt)[0]


def width(dt):
    """Bit width (1 for i1, 64 for index)."""
    return _core.dtype_info(dt)[1]


def itemsize(dt):
    """Bytes per element in memory (bool takes one byte)."""
    return _core.dtype_info(dt)[2]


def storage_type(dt):
    """The signless MLIR type holding `dt` (ui8 -> i8); floats unchanged."""
    if dt.startswith("ui"):
        return dt[1:]
    return dt


def compute_type(dt):
    """opmath: f16 and bf16 compute in f32."""
    return _core.compute_dtype(dt)


# ---------------------------------------------------------------------------
# numpy / torch / cupy dtype maps
# ---------------------------------------------------------------------------

def to_numpy(dt):
    """numpy dtype of a ptensor dtype (bf16 needs ml_dtypes)."""
    if dt == "bf16":
        if bfloat16() is None:
            raise DTypeError("bf16 needs the ml_dtypes package for numpy arrays")
        return bfloat16()
    try:
        return np.dtype(_NUMPY_NAMES[dt])
    except KeyError:
        raise DTypeError("unknown ptensor dtype %r" % (dt,)) from None


#: numpy dtype -> ptensor dtype name: the one table, which the C++ interop
#: (python/src/Interop.cpp) reads too; ml_dtypes' bfloat16 joins it when first
#: seen (late_numpy_dtype: ptensor does not import ml_dtypes itself).
FROM_NUMPY = {np.dtype(v): k for k, v in _NUMPY_NAMES.items()}


def late_numpy_dtype(dtype):
    """The ptensor name of a numpy dtype missing from FROM_NUMPY, added to
    it, or None: ml_dtypes' bfloat16 (an array of it means ml_dtypes is
    imported)."""
    if is_bfloat16(dtype):
        FROM_NUMPY[dtype] = "bf16"
        return "bf16"
    return None


def from_numpy(dtype):
    """ptensor dtype of a numpy dtype; DTypeError for unsupported ones."""
    dtype = np.dtype(dtype)
    name = FROM_NUMPY.get(dtype) or late_numpy_dtype(dtype)
    if name is None:
        raise DTypeError(
            "dtype %s is not supported by ptensor (expected one of bool, int8..int64, "
            "uint8..uint64, float16, bfloat16, float32, float64)" % dtype)
    return name


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
# The rules, from the compiler's semantics library
# ---------------------------------------------------------------------------

def promote(operands):
    """Common dtype of `operands`, a list of (dtype, is_weak) pairs; weak
    operands are builtin scalars. Raises DTypeError like the compiler."""
    return _core.promote(list(operands))


def normalize_method(method):
    """A promotion method name of the dialect. FlagGems' COMPLEX_TO_FLOAT is
    DEFAULT here (ptensor has no complex dtypes); enum members of other
    libraries are accepted by name."""
    name = getattr(method, "name", method)
    if not isinstance(name, str):
        raise ValueError("promotion method must be a string, got %r" % (method,))
    return _core.normalize_method(name)


def apply_method(method, common):
    """Result dtype of promotion `method` applied to the common dtype."""
    return _core.apply_method(method, common)


def can_cast_to_out(src, dst):
    """torch's rule for writing a result into an out= operand of another
    dtype: the out dtype's kind (bool < integer < float) is not weaker."""
    return _core.can_cast_to_out(src, dst)


def format_shape(shape):
    """A shape as the compiler's messages print it: [2, ?]; a negative size
    (a signature's dynamic dim) prints as `?`."""
    return _core.format_shape([-2 ** 63 if s < 0 else s for s in shape])


def broadcast_shapes(shapes):
    """NumPy broadcast of concrete shapes; BroadcastError names every shape."""
    return tuple(_core.broadcast_shapes([list(s) for s in shapes]))
