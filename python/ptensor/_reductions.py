"""Array API reductions over numpy arrays (host) and torch/CuPy CUDA arrays
(GPU): `sum`, `prod`, `max`, `min`, `mean`, `var`, `std` (ptensor.reduce),
`any`, `all` (ptensor.test) and `argmax`, `argmin` (ptensor.find_index).

Every rule (reduced axes, result dtype, accumulation, correction, empty
axes) is the compiler's (ptensor/Semantics/Reductions.h, through _core);
this module writes the one-op kernel and caches it per (kind, rank, dtype,
device, reduced dims, keepdims, dtype argument, correction).
"""

from . import _core
from . import _dtypes as D
from ._arrays import as_tensor
from ._ir import ptensor_type, run_kernel, wrap_function


def _axes(axis):
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        return [int(a) for a in axis]
    return [int(axis)]


def _result_type(rank, dims, keepdims, dtype, device):
    shape = ["1" if d in dims else "?" for d in range(rank) if keepdims or d not in dims]
    return ptensor_type(len(shape), dtype, device, shape)


def _reduce(op, kind, x, axes, keepdims, dtype=None, correction=0.0):
    t = as_tensor(x)
    requested = None if dtype is None else D.canonical(dtype)
    rdt, dims = _core.reduction_result(op, kind, t.dtype, t.ndim, axes, requested,
                                       float(correction))
    keepdims = bool(keepdims)
    key = ("reduction", op, kind, t.ndim, t.dtype, t.device, tuple(dims), keepdims,
           requested, float(correction))

    def build():
        arg = ptensor_type(t.ndim, t.dtype, t.device)
        rt = _result_type(t.ndim, dims, keepdims, rdt, t.device)
        attrs = []
        if keepdims:
            attrs.append("keepdims = true")
        if requested is not None:
            attrs.append("dtype = %s" % requested)
        if correction:
            attrs.append("correction = %.17e : f64" % float(correction))  # MLIR wants a "."
        if op == "find_index":
            where = "" if axes is None else " axis %d" % dims[0]
        else:
            where = " axes [%s]" % ", ".join(map(str, dims))
        text = "%%r = ptensor.%s %s %%a0%s%s : %s -> %s" % (
            op, kind, where, " {%s}" % ", ".join(attrs) if attrs else "", arg, rt)
        name = "ptensor_" + kind
        return wrap_function(name, [arg], [text], ["%r"], [rt]), name, t.device

    return run_kernel(key, build, x)


def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    """The sum over `axis` (int, tuple or None: all). Bool and signed
    integers give int64, unsigned uint64, floats keep their dtype (summed in
    float64); a `dtype` is the result's, and x is cast to it first
    (it may be narrower, or of another kind), as the array API says."""
    return _reduce("reduce", "sum", x, _axes(axis), keepdims, dtype)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """The product over `axis`; result dtypes as `sum`'s."""
    return _reduce("reduce", "prod", x, _axes(axis), keepdims, dtype)


def max(x, /, *, axis=None, keepdims=False):  # noqa: A001
    """The largest element over `axis` (NaN propagates); an empty axis is
    an error."""
    return _reduce("reduce", "max", x, _axes(axis), keepdims)


def min(x, /, *, axis=None, keepdims=False):  # noqa: A001
    """The smallest element over `axis` (NaN propagates); an empty axis is
    an error."""
    return _reduce("reduce", "min", x, _axes(axis), keepdims)


def mean(x, /, *, axis=None, keepdims=False):
    """The arithmetic mean over `axis` of a float array (NaN when empty)."""
    return _reduce("reduce", "mean", x, _axes(axis), keepdims)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The variance over `axis` of a float array, divided by
    max(N - correction, 0) (numpy's ddof); two passes in float64."""
    return _reduce("reduce", "var", x, _axes(axis), keepdims, correction=correction)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """The standard deviation (the root of `var`)."""
    return _reduce("reduce", "std", x, _axes(axis), keepdims, correction=correction)


def any(x, /, *, axis=None, keepdims=False):  # noqa: A001
    """Whether any element over `axis` is non-zero (bool; False when empty)."""
    return _reduce("test", "any", x, _axes(axis), keepdims)


def all(x, /, *, axis=None, keepdims=False):  # noqa: A001
    """Whether every element over `axis` is non-zero (bool; True when empty)."""
    return _reduce("test", "all", x, _axes(axis), keepdims)


def argmax(x, /, *, axis=None, keepdims=False):
    """The index (int64) of the first largest element along `axis`, or into
    the flattened array when None; the first NaN wins (numpy)."""
    return _reduce("find_index", "argmax", x, _axes(axis), keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    """The index (int64) of the first smallest element along `axis`, or into
    the flattened array when None; the first NaN wins (numpy)."""
    return _reduce("find_index", "argmin", x, _axes(axis), keepdims)


__all__ = ["sum", "prod", "max", "min", "mean", "var", "std", "any", "all", "argmax",
           "argmin"]
