"""Array API indexing functions over numpy arrays (host) and torch/CuPy
CUDA arrays (GPU): `take` (ptensor.take: one generic over the result that
reads x by position, after a check of the indices).

The rules (x of rank >= 1, 1-D integer indices, the axis and when it may
be left out) are the compiler's (ptensor/Semantics/Indexing.h, through
_core). One kernel per (ranks, dtypes, axis, device), with dynamic sizes.
"""

from . import _core
from ._arrays import as_tensor
from ._ir import ptensor_type, run_kernel, wrap_function
from ._manipulation import _common_device

__all__ = ["take"]


def take(x, indices, /, *, axis=None):
    """The elements of x at `indices` (1-D, integer; negative ones count
    from the end) along `axis`, which may be left out only for a 1-D x (the
    array API's take): x's dtype and shape, the axis as long as `indices`.
    An index outside [-size, size) raises CheckError (nothing is read)."""
    t, i = as_tensor(x), as_tensor(indices)
    device = _common_device([t, i])
    # The real shapes first: errors name the sizes the caller passed.
    _core.take_result(list(t.shape), t.dtype, list(i.shape), i.dtype, axis)
    key = ("take", t.ndim, t.dtype, i.ndim, i.dtype, axis, device)

    def build():
        tx = ptensor_type(t.ndim, t.dtype, device)
        ti = ptensor_type(i.ndim, i.dtype, device)
        shape, _ = _core.take_result([None] * t.ndim, t.dtype, [None] * i.ndim,
                                     i.dtype, axis)
        rt = ptensor_type(len(shape), t.dtype, device)
        text = "%%r = ptensor.take %%a0, %%a1%s : (%s, %s) -> %s" % (
            "" if axis is None else " axis %d" % axis, tx, ti, rt)
        return (wrap_function("ptensor_take", [tx, ti], [text], ["%r"], [rt]),
                "ptensor_take", device)

    return run_kernel(key, build, x, indices)
