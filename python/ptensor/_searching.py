"""Array API searching functions beyond the reductions (argmax/argmin are in
_reductions), over numpy arrays (host) and torch/CuPy CUDA arrays (GPU):
`nonzero` (ptensor.nonzero: the count and the positions through CUB on the
GPU) and `searchsorted` (ptensor.searchsorted: a binary search per value).

The rules (nonzero: rank 1 or more, one int64 index array per dim;
searchsorted: a 1-D sorted array, the sides, the promoted comparison, the
sorter) are the compiler's (ptensor/Semantics/Searching.h, through _core).
One kernel per (op, ranks, dtypes, device, side), with dynamic sizes.
"""

from . import _core
from ._arrays import as_tensor
from ._ir import ptensor_type, run_kernel, wrap_function

__all__ = ["nonzero", "searchsorted"]


def nonzero(x, /):
    """The indices of the non-zero elements of x (NaN counts as non-zero),
    in row-major order: a tuple of one int64 array per dim of x."""
    t = as_tensor(x)
    _core.check_nonzero(list(t.shape))
    key = ("nonzero", t.ndim, t.dtype, t.device)

    def build():
        ty = ptensor_type(t.ndim, t.dtype, t.device)
        rt = ptensor_type(1, "i64", t.device)
        results = ", ".join([rt] * t.ndim)
        name = "ptensor_nonzero"
        text = "%%r:%d = ptensor.nonzero %%a0 : %s -> (%s)" % (t.ndim, ty, results)
        values = ["%%r#%d" % d for d in range(t.ndim)]
        return wrap_function(name, [ty], [text], values, [rt] * t.ndim), name, t.device

    result = run_kernel(key, build, x)
    if result is None:
        return None
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """The indices at which the elements of x2 would be inserted into the
    1-D x1 to keep it sorted (int64, x2's shape): with side "left" the
    number of elements of x1 less than each value, with "right" the number
    not greater. x1 is ascending in sort's order (NaNs last), or `sorter`
    (1-D integer, e.g. argsort(x1)) gives the indices that sort it. Both
    are compared in their promoted dtype, an integer against a float in
    float64 (numpy's rule)."""
    arrays = [x1, x2] if sorter is None else [x1, x2, sorter]
    tensors = [as_tensor(a) for a in arrays]
    device = _core.common_placement([t.device or None for t in tensors]) or ""
    s, v = tensors[0], tensors[1]
    p = tensors[2] if sorter is not None else None
    # The real shapes first: errors name the sizes the caller passed.
    _core.searchsorted_result(list(s.shape), s.dtype, list(v.shape), v.dtype,
                              None if p is None else list(p.shape),
                              None if p is None else p.dtype, side)
    key = ("searchsorted", side, tuple((t.ndim, t.dtype) for t in tensors), device)

    def build():
        types = [ptensor_type(t.ndim, t.dtype, device) for t in tensors]
        rdt, _ = _core.searchsorted_result(
            [None], s.dtype, [None] * v.ndim, v.dtype,
            None if p is None else [None], None if p is None else p.dtype, side)
        rt = ptensor_type(v.ndim, rdt, device)
        text = "%%r = ptensor.searchsorted %s %%a0, %%a1%s : (%s) -> %s" % (
            side, "" if p is None else " sorter %a2", ", ".join(types), rt)
        name = "ptensor_searchsorted"
        return wrap_function(name, types, [text], ["%r"], [rt]), name, device

    return run_kernel(key, build, *arrays)
