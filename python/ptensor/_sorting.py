"""Array API sorting functions over numpy arrays (host) and torch/CuPy CUDA
arrays (GPU, through CUB): `sort` and `argsort` (ptensor.sort /
ptensor.argsort).

The rules (the axis, argsort's int64 result, the order: NaNs last, -0.0
equal to 0.0, stable ties in both directions) are the compiler's
(ptensor/Semantics/Sorting.h, through _core) and the runtime's sort. One
kernel per (op, rank, dtype, device, axis, direction, stability), with
dynamic sizes.
"""

from . import _core
from ._arrays import as_tensor
from ._ir import ptensor_type, run_kernel, wrap_function

__all__ = ["argsort", "sort"]


def _sort(op, x, axis, descending, stable):
    t = as_tensor(x)
    dim = _core.sort_axis(op == "argsort", int(axis), t.ndim)
    descending, stable = bool(descending), bool(stable)
    key = (op, t.ndim, t.dtype, t.device, dim, descending, stable)

    def build():
        ty = ptensor_type(t.ndim, t.dtype, t.device)
        rt = ptensor_type(t.ndim, "i64" if op == "argsort" else t.dtype, t.device)
        attrs = "descending = %s, stable = %s" % (str(descending).lower(),
                                                  str(stable).lower())
        text = "%%r = ptensor.%s %%a0 axis %d {%s} : %s -> %s" % (op, dim, attrs, ty, rt)
        name = "ptensor_" + op
        return wrap_function(name, [ty], [text], ["%r"], [rt]), name, t.device

    return run_kernel(key, build, x)


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """A sorted copy of x along `axis`: ascending, or descending; NaNs after
    +inf (first when descending), -0.0 equal to 0.0, ties in input order
    when `stable` (the default)."""
    return _sort("sort", x, axis, descending, stable)


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """The int64 indices that sort x along `axis` (the order of `sort`):
    element i of a line is the position of its i-th element in sorted
    order; ties keep input order in both directions."""
    return _sort("argsort", x, axis, descending, stable)
