"""The array API's inspection namespace, `ptensor.__array_namespace_info__()`:
capabilities, devices and default dtypes.

The default dtypes are the array API's choice for values without a dtype
(Python scalars and sequences given to `asarray`, `zeros` without `dtype=`):
int64 and float64, like numpy's on the host. They are not a promotion rule:
how dtypes combine is the compiler's (docs/Semantics.md).
"""

from typing import Any, Dict, List, Optional, Union

from . import _core
from ._array import api_device, parse_device
from ._dtype_objects import DTYPE_OBJECTS, DType

#: The compiler's name of the default dtype of each array API kind.
DEFAULT_DTYPES = {"real floating": "f64", "integral": "i64", "indexing": "i64"}

#: The array API's dtype kinds (isdtype) as sets of the semantics library's
#: kind letters (_core.dtype_info: b, s, u, f); ptensor has no complex dtypes.
KIND_LETTERS = {
    "bool": "b", "signed integer": "s", "unsigned integer": "u", "integral": "su",
    "real floating": "f", "complex floating": "", "numeric": "suf",
}

#: The dtypes of the standard (float16 and bfloat16 are ptensor's extensions).
STANDARD_DTYPES = ("i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
                   "f32", "f64")


def default_dtype_name(kind: str) -> str:
    """The compiler's name of the default dtype of "real floating",
    "integral" or "indexing"."""
    return DEFAULT_DTYPES[kind]


def cuda_device_count() -> int:
    """The number of CUDA devices torch or CuPy see (0 without a GPU)."""
    from ._runtime import cuda_available

    if not cuda_available():
        return 0
    try:
        import torch

        return int(torch.cuda.device_count())
    except ImportError:
        pass
    try:
        import cupy

        return int(cupy.cuda.runtime.getDeviceCount())
    except ImportError:
        return 0


class Info:
    """The object `ptensor.__array_namespace_info__()` returns."""

    __slots__ = ()

    def capabilities(self) -> Dict[str, Union[bool, Optional[int]]]:
        """Boolean indexing and data-dependent shapes are the backing
        framework's (a boolean Array mask in `x[mask]`)."""
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": None}

    def default_device(self) -> str:
        return "cpu"

    def default_dtypes(self, *, device: Any = None) -> Dict[str, Optional[DType]]:
        parse_device(device)
        out: Dict[str, Optional[DType]] = {
            k: DTYPE_OBJECTS[v] for k, v in DEFAULT_DTYPES.items()}
        out["complex floating"] = None
        return out

    def dtypes(self, *, device: Any = None, kind: Any = None) -> Dict[str, DType]:
        """The standard's dtypes ptensor supports, by name; `kind` as in
        isdtype (a name or a tuple of names)."""
        parse_device(device)
        names = [n for n in STANDARD_DTYPES]
        if kind is not None:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            letters = ""
            for k in kinds:
                if k not in KIND_LETTERS:
                    raise ValueError("unknown dtype kind %r" % (k,))
                letters += KIND_LETTERS[k]
            names = [n for n in names if _core.dtype_info(n)[0] in letters]
        return {DTYPE_OBJECTS[n].api_name: DTYPE_OBJECTS[n] for n in names}

    def devices(self) -> List[str]:
        return ["cpu"] + [api_device("cuda:%d" % i) for i in range(cuda_device_count())]


def __array_namespace_info__() -> Info:
    """The array API's inspection namespace of ptensor."""
    return Info()
