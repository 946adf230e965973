"""Array API set functions over numpy arrays (host) and torch/CuPy CUDA
arrays (GPU: CUB's sort, count, select and scan): `unique_all`,
`unique_counts`, `unique_inverse` and `unique_values` (ptensor.unique).

Which results each gives, their order, shapes and dtypes are the
compiler's (ptensor/Semantics/Sets.h, through _core); the named tuples take
their field names from it. The order of the values is ptensor.sort's; `-0.0`
equals `0.0` and each NaN is its own value. One kernel per (kind, rank,
dtype, device), with dynamic sizes.
"""

from collections import namedtuple

from . import _core
from ._arrays import as_tensor
from ._ir import ptensor_type, run_kernel, wrap_function

UniqueAllResult = namedtuple("UniqueAllResult", _core.unique_results("all"))
UniqueCountsResult = namedtuple("UniqueCountsResult", _core.unique_results("counts"))
UniqueInverseResult = namedtuple("UniqueInverseResult", _core.unique_results("inverse"))

__all__ = ["UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult",
           "unique_all", "unique_counts", "unique_inverse", "unique_values"]


def _unique(kind, x):
    t = as_tensor(x)
    names = _core.unique_results(kind)
    key = ("unique", kind, t.ndim, t.dtype, t.device)

    def build():
        ty = ptensor_type(t.ndim, t.dtype, t.device)
        results = _core.unique_result_types(kind, [None] * t.ndim, t.dtype)
        types = [ptensor_type(len(shape), dtype, t.device) for shape, dtype in results]
        text = "%%r:%d = ptensor.unique %s %%a0 : %s -> (%s)" % (
            len(names), kind, ty, ", ".join(types))
        values = ["%%r#%d" % i for i in range(len(names))]
        name = "ptensor_unique_" + kind
        return wrap_function(name, [ty], [text], values, types), name, t.device

    result = run_kernel(key, build, x)
    if result is None:
        return None
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


def unique_all(x, /):
    """The sorted unique values of x (flattened), the index of the first
    occurrence of each, the position in values of each element of x
    (shaped like x) and how often each occurs."""
    r = _unique("all", x)
    return None if r is None else UniqueAllResult(*r)


def unique_counts(x, /):
    """The sorted unique values of x (flattened) and how often each occurs."""
    r = _unique("counts", x)
    return None if r is None else UniqueCountsResult(*r)


def unique_inverse(x, /):
    """The sorted unique values of x (flattened) and the position in values
    of each element of x (shaped like x)."""
    r = _unique("inverse", x)
    return None if r is None else UniqueInverseResult(*r)


def unique_values(x, /):
    """The sorted unique values of x (flattened)."""
    r = _unique("values", x)
    return None if r is None else r[0]
