"""ptensor: compiled elementwise kernels for numpy arrays (host) and
torch/CuPy CUDA arrays (GPU), from the ptensor MLIR dialect.

Array API functions (`ptensor.add`, `ptensor.exp`, `ptensor.less`,
`ptensor.where`, ...) build one-op kernels; `@ptensor.pointwise` traces a
scalar Python function into a `ptensor.pointwise` kernel (FlagGems'
`pointwise_dynamic`). Kernels are compiled by ptensor-compile and cached in
memory and on disk (PTENSOR_CACHE_DIR), keyed by the IR and the target only,
so a cache filled here runs on a machine without the compiler.
"""

from ._errors import (BroadcastError, CheckError, CompileError, DeviceError, DTypeError,
                      ExecutionError, OutOfMemoryError, OverlapError, PTensorError,
                      RuntimeUnavailableError, TraceError)
from ._arrays import StridedBuffer, Tensor
from . import _interop  # noqa: F401  (the C++ call path's Python side)
from ._exec import compile_only
from ._compiler import CACHE_VERSION, cache_dir, compile_ir, compiler_version, find_compiler
from ._ffi import Function, Library
from ._runtime import allocator_stats, cuda_available, empty_cache, get_allow_tf32, set_allow_tf32
from ._ops import *  # noqa: F401,F403
from ._ops import __all__ as _ops_all
from ._reductions import (all, any, argmax, argmin, max, mean, min, prod, std,  # noqa: A004
                          sum, var)
from ._reductions import __all__ as _reductions_all
from ._indexing import take
from ._indexing import __all__ as _indexing_all
from ._linalg import matmul, matrix_transpose, tensordot, vecdot
from ._linalg import __all__ as _linalg_all
from ._manipulation import concat, extract_mask, meshgrid, reshape, roll, stack, tril, triu
from ._manipulation import __all__ as _manipulation_all
from ._searching import nonzero, searchsorted
from ._searching import __all__ as _searching_all
from ._sets import (UniqueAllResult, UniqueCountsResult, UniqueInverseResult, unique_all,
                    unique_counts, unique_inverse, unique_values)
from ._sets import __all__ as _sets_all
from ._sorting import argsort, sort
from ._sorting import __all__ as _sorting_all
from ._views import (broadcast_arrays, broadcast_to, expand_dims, flip, moveaxis,
                     permute_dims, squeeze, unstack)
from ._views import __all__ as _views_all
from . import math  # noqa: F401
from ._pointwise import PointwiseFunction, pointwise

def _version():
    """CMakeLists.txt's project VERSION (also the distribution's, through
    pyproject.toml), which the binding was built with; else the installed
    distribution's; "unknown" for a source checkout."""
    from . import _core

    if getattr(_core, "VERSION", None):
        return _core.VERSION
    from importlib import metadata

    try:
        return metadata.version("ptensor")
    except metadata.PackageNotFoundError:
        return "unknown"


def __getattr__(name):
    """`__version__`, found when first asked for (importlib.metadata alone
    takes ~10 ms to import)."""
    if name == "__version__":
        global __version__
        __version__ = _version()
        return __version__
    raise AttributeError("module 'ptensor' has no attribute %r" % name)


def compile_module(ir, target="cpu"):
    """Compiles MLIR text with public func.func's over ptensor values (or
    loads it from the cache) and returns the Library; its functions are
    callable with arrays and scalars: `compile_module(ir)["f"](x, y)`.

    A CPU module with team tensors joins the MPI job the process runs in
    (under mpirun; one process otherwise) and is compiled for its size:
    every process passes the whole arrays and gets the whole results, and
    computes only its block of rows (docs/Teams.md)."""
    from . import _core
    from . import _runtime

    lib = compile_ir(ir, target)
    if target == "cpu" and lib.uses_teams:
        # libptensor_team is found beside the runtime (TeamLibrary.h).
        _runtime.runtime(required=False)
        _rank, processes = _core.team_join()
        if processes > 1:
            return compile_ir(ir, target, team_size=processes)
    return lib


__all__ = list(_ops_all) + list(_reductions_all) + list(_indexing_all) + list(_linalg_all) + list(
    _manipulation_all) + list(_searching_all) + list(_sets_all) + list(_sorting_all) + list(_views_all) + [
    "BroadcastError", "CheckError", "CompileError", "DeviceError", "DTypeError",
    "ExecutionError", "OutOfMemoryError", "OverlapError",
    "PTensorError", "RuntimeUnavailableError", "TraceError", "StridedBuffer",
    "Tensor", "compile_only",
    "CACHE_VERSION", "cache_dir", "compile_ir", "compile_module", "compiler_version",
    "find_compiler", "Function", "Library", "cuda_available", "allocator_stats", "empty_cache",
    "get_allow_tf32", "set_allow_tf32", "math", "pointwise",
    "PointwiseFunction",
]

# The array API namespace (2023.12): dtype objects, the array type,
# creation, data type functions, constants and the inspection namespace.
from ._dtype_objects import DType, api_namespace as _api_dtypes
from ._array import Array, delete
from ._array_api import (__array_api_version__, can_cast, e, finfo, iinfo, inf, isdtype,
                         nan, newaxis, pi, result_type)
from ._creation import (arange, asarray, empty, empty_like, eye, from_dlpack, full,
                        full_like, linspace, ones, ones_like, zeros, zeros_like)
from ._info import __array_namespace_info__

globals().update(_api_dtypes())  # ptensor.bool, ptensor.int8, ..., ptensor.float64

__all__ += list(_api_dtypes()) + [
    "DType", "Array", "delete", "__array_api_version__", "__array_namespace_info__", "can_cast",
    "e", "finfo", "iinfo", "inf", "isdtype", "nan", "newaxis", "pi", "result_type",
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
    "linspace", "ones", "ones_like", "zeros", "zeros_like",
]
