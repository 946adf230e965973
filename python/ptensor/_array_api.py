"""The array API's data type functions and constants: `result_type`,
`can_cast`, `isdtype`, `finfo`, `iinfo`, `e`, `pi`, `inf`, `nan`,
`newaxis`.

The rules come from the compiler's semantics library through
`ptensor._core`: `result_type` is `_core.promote` (the dtype every
elementwise function gives, PyTorch's rules: an integer with a float gives
the float), `can_cast` is `_core.can_cast_by_promotion`, `isdtype` asks
`_core.dtype_info` for the kind. `finfo`/`iinfo` take their numbers from
numpy (ml_dtypes for bfloat16).
"""

import math as _math
from typing import Any, Tuple, Union

import numpy as np

from . import _arrays as A
from . import _core
from . import _dtypes as D
from ._array import API_VERSION, Array, backing_dtype
from ._dtype_objects import DTYPE_OBJECTS, DType, dtype_name
from ._info import KIND_LETTERS

__array_api_version__ = API_VERSION

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None


def _dtype_of(x: Any) -> str:
    """The compiler's dtype name of an Array, an array or a dtype."""
    if isinstance(x, Array):
        return backing_dtype(x._array)
    if isinstance(x, np.ndarray) or (A.is_tensor_like(x) and not isinstance(x, type)
                                     and hasattr(x, "shape")):
        return A.as_tensor(x).dtype
    return dtype_name(x)


def result_type(*arrays_and_dtypes: Any) -> DType:
    """The dtype ptensor's elementwise functions give for these operands
    (arrays, dtypes, and Python bool/int/float scalars, which are weak);
    DTypeError for dtypes that do not promote (ui64 with a signed type)."""
    operands = []
    for x in arrays_and_dtypes:
        if isinstance(x, (bool, int, float)):
            operands.append((A.scalar_arg(x)[0], True))
        else:
            operands.append((_dtype_of(x), False))
    if not operands:
        raise ValueError("result_type needs at least one array or dtype")
    return DTYPE_OBJECTS[_core.promote(operands)]


def can_cast(from_: Any, to: Any, /) -> bool:
    """Whether `from_` (a dtype or an array) casts to `to` by the promotion
    rules: within one category (bool, integers, floats), promoting both
    gives `to`."""
    return _core.can_cast_by_promotion(_dtype_of(from_), dtype_name(to))


def isdtype(dtype: DType, kind: Union[str, DType, Tuple[Union[str, DType], ...]]) -> bool:
    """Whether `dtype` is of `kind`: a dtype, one of "bool", "signed
    integer", "unsigned integer", "integral", "real floating", "complex
    floating", "numeric", or a tuple of those."""
    if not isinstance(dtype, DType):
        raise TypeError("isdtype expects a ptensor dtype object, got %r" % (dtype,))
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, DType):
        return kind == dtype
    if isinstance(kind, str):
        if kind not in KIND_LETTERS:
            raise ValueError("unknown dtype kind %r (expected one of %s)"
                             % (kind, ", ".join(sorted(KIND_LETTERS))))
        return _core.dtype_info(dtype.name)[0] in KIND_LETTERS[kind]
    raise TypeError("isdtype: kind must be a dtype, a kind name or a tuple, got %r"
                    % (kind,))


class finfo_object:
    """Machine limits of a floating-point dtype (`ptensor.finfo`)."""

    __slots__ = ("bits", "eps", "max", "min", "smallest_normal", "dtype")

    def __init__(self, name: str, info: Any) -> None:
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        self.dtype = DTYPE_OBJECTS[name]

    def __repr__(self) -> str:
        return ("finfo(bits=%d, eps=%r, max=%r, min=%r, smallest_normal=%r, dtype=%r)"
                % (self.bits, self.eps, self.max, self.min, self.smallest_normal, self.dtype))


class iinfo_object:
    """Limits of an integer dtype (`ptensor.iinfo`)."""

    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, name: str) -> None:
        info = np.iinfo(D.to_numpy(name))
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = DTYPE_OBJECTS[name]

    def __repr__(self) -> str:
        return "iinfo(bits=%d, max=%d, min=%d, dtype=%r)" % (self.bits, self.max, self.min,
                                                               self.dtype)


def finfo(type: Any, /) -> finfo_object:
    """Limits of a floating-point dtype (or of an array's dtype)."""
    name = _dtype_of(type)
    if _core.dtype_info(name)[0] != "f":
        raise ValueError("finfo needs a floating-point dtype, got %s"
                         % DTYPE_OBJECTS[name].api_name)
    if name == "bf16":
        import ml_dtypes

        return finfo_object(name, ml_dtypes.finfo(ml_dtypes.bfloat16))
    return finfo_object(name, np.finfo(D.to_numpy(name)))


def iinfo(type: Any, /) -> iinfo_object:
    """Limits of an integer dtype (or of an array's dtype)."""
    name = _dtype_of(type)
    if _core.dtype_info(name)[0] not in ("s", "u"):
        raise ValueError("iinfo needs an integer dtype, got %s"
                         % DTYPE_OBJECTS[name].api_name)
    return iinfo_object(name)
