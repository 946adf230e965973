"""Array API searching functions beyond the reductions (argmax/argmin are in
_reductions): `nonzero` — ptensor.nonzero over numpy arrays (host) and
torch/CuPy CUDA arrays (GPU: the count and the positions through CUB).

The rule (rank 1 or more, one int64 index array per dim) is the compiler's
(ptensor/Semantics/Searching.h, through _core). One
kernel per (rank, dtype, device), with dynamic sizes.
"""

from . import _core
from ._arrays import as_tensor
from ._ir import ptensor_type, run_kernel, wrap_function

__all__ = ["nonzero"]


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
