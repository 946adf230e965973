"""The array API's dtype objects: `ptensor.bool`, `ptensor.int8` ...
`ptensor.float64` (and the extensions `ptensor.float16`,
`ptensor.bfloat16`).

Each object names one dtype of the compiler (its `name` is the compiler's
spelling: "i1", "i8", ..., "f32"); what a dtype *is* (kind, width, how it
promotes) is asked from the semantics library through `ptensor._core`.
Functions that take `dtype=` accept these objects, the compiler's names,
numpy dtypes and torch dtypes. A dtype object also has a `.dtype` attribute
(its numpy dtype), so `np.dtype(ptensor.float32)` and
`np.zeros(3, dtype=ptensor.float32)` work.
"""

from typing import Any, Dict, Tuple

import numpy as np

from . import _dtypes as D
from ._errors import DTypeError

#: Array API names of the compiler's dtypes; float16 and bfloat16 are
#: extensions (the standard has neither).
_API_NAMES = {
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
}


class DType:
    """A ptensor data type. Compares equal only to itself; hashable.

    Attributes:
      name: the compiler's name ("f32").
      api_name: the array API's name ("float32").
    """

    __slots__ = ("name", "api_name")

    name: str
    api_name: str

    def __init__(self, name: str, api_name: str) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "api_name", api_name)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("ptensor dtype objects are immutable")

    def __repr__(self) -> str:
        return "ptensor." + self.api_name

    def __str__(self) -> str:
        return self.api_name

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __hash__(self) -> int:
        return hash(("ptensor.DType", self.name))

    def __reduce__(self) -> Tuple[Any, Tuple[str]]:
        return dtype_object, (self.name,)

    @property
    def dtype(self) -> np.dtype:
        """The numpy dtype (bfloat16: ml_dtypes'); numpy accepts objects
        with this attribute wherever it takes a dtype."""
        return D.to_numpy(self.name)

    @property
    def itemsize(self) -> int:
        """Bytes per element (bool takes one byte)."""
        return D.itemsize(self.name)


#: The dtype objects by compiler name, in the compiler's order.
DTYPE_OBJECTS: Dict[str, DType] = {n: DType(n, _API_NAMES[n]) for n in D.DTYPES}


def dtype_object(dtype: Any) -> DType:
    """The dtype object of anything `dtype=` takes: a dtype object, a
    compiler name ("f32"), an array API / numpy name ("float32"), a numpy or
    torch dtype, or the Python types bool/int/float."""
    if isinstance(dtype, DType):
        return dtype
    return DTYPE_OBJECTS[D.canonical(dtype)]


def dtype_name(dtype: Any) -> str:
    """The compiler's name of anything `dtype=` takes (see dtype_object)."""
    if isinstance(dtype, DType):
        return dtype.name
    try:
        return D.canonical(dtype)
    except (DTypeError, TypeError, ValueError):
        raise DTypeError("cannot interpret %r as a ptensor dtype" % (dtype,)) from None


def api_namespace() -> Dict[str, DType]:
    """The dtype objects by array API name ("bool", "int8", ...), for the
    package namespace (not installed here: they would hide the builtin
    `bool` in this module)."""
    return {obj.api_name: obj for obj in DTYPE_OBJECTS.values()}
