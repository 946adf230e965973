"""Array API searching functions beyond the reductions (argmax/argmin are in
_reductions), over numpy arrays (host) and torch/CuPy CUDA arrays (GPU):
`nonzero` (ptensor.nonzero: the count and the positions through CUB on the
GPU) and `searchsorted` (ptensor.searchsorted: a binary search per value).

The rules (nonzero: rank 1 or more, one int64 index array per dim;
searchsorted: a 1-D sorted array, the sides, the promoted comparison, the
sorter) are the compiler's (ptensor/Semantics/Searching.h, through _core).
One kernel per (op, ranks, dtypes, device, side), with dynamic sizes.
"""


import numpy as np

from . import _core
from ._arrays import as_tensor, is_scalar, scalar_arg
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
    1-D x1 to keep it sorted (int64, x2's shape; 0-d for a Python scalar
    x2): with side "left" the number of elements of x1 less than each
    value, with "right" the number not greater. x1 is ascending in sort's
    order (NaNs last), or `sorter` (1-D integer, e.g. argsort(x1)) gives the
    indices that sort it. Both are compared in their promoted dtype, an
    integer against a float in float64 (numpy's rule); a scalar x2 is weak
    against a float x1 (Searching.h's searchsortedScalarType)."""
    s = as_tensor(x1)
    scalar = is_scalar(x2)
    if scalar:
        # The kernel takes the value as a float64, int64, uint64 or bool
        # argument, and `create` converts it to the value's dtype.
        value = x2.item() if isinstance(x2, np.generic) else x2
        value_dtype, arg_type = _core.searchsorted_scalar_type(s.dtype, value)
        x2 = scalar_arg(x2, arg_type)[1]
    arrays = [x1] if scalar else [x1, x2]
    if sorter is not None:
        arrays.append(sorter)
    tensors = [as_tensor(a) for a in arrays]
    device = _core.common_placement([t.device or None for t in tensors]) or ""
    p = tensors[-1] if sorter is not None else None
    v_shape, v_dtype = ([], value_dtype) if scalar else (list(tensors[1].shape), tensors[1].dtype)
    # The real shapes first: errors name the sizes the caller passed.
    _core.searchsorted_result(list(s.shape), s.dtype, v_shape, v_dtype,
                              None if p is None else list(p.shape),
                              None if p is None else p.dtype, side)
    key = ("searchsorted", side, tuple((t.ndim, t.dtype) for t in tensors),
           value_dtype if scalar else None, device)

    def build():
        types = [ptensor_type(t.ndim, t.dtype, device) for t in tensors]
        lines = []
        values = "%a1"
        arg_types = list(types)
        if scalar:
            value_type = ptensor_type(0, v_dtype, device)
            arg_types.insert(1, arg_type)
            lines.append("%%v = ptensor.create () fill %%a1 : %s -> %s" % (arg_type, value_type))
            values = "%v"
            types.insert(1, value_type)
        rdt, _ = _core.searchsorted_result(
            [None], s.dtype, [None] * len(v_shape), v_dtype,
            None if p is None else [None], None if p is None else p.dtype, side)
        rt = ptensor_type(len(v_shape), rdt, device)
        lines.append("%%r = ptensor.searchsorted %s %%a0, %s%s : (%s) -> %s" % (
            side, values, "" if p is None else " sorter %a2", ", ".join(types), rt))
        name = "ptensor_searchsorted"
        return wrap_function(name, arg_types, lines, ["%r"], [rt]), name, device

    args = [x1, x2] + ([] if sorter is None else [sorter])
    return run_kernel(key, build, *args)
