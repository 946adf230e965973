"""Running elementwise kernels: the kernel tables, the builder callback and
compile-only mode. The call itself (meta step, table lookup, the call and
the results) is C++ (`_core.execute`, `_core.ElementwiseOp`); Python only
generates and compiles a kernel the first time a key is seen."""

import contextlib
import threading

from . import _core
from . import _ir

_lock = threading.Lock()
_caches = {}  # key -> _core.KernelCache
_ops = []  # every _core.ElementwiseOp (op functions hold their own tables)


def elementwise_op(op, kind, build, scalar_message=""):
    """A `_core.ElementwiseOp` whose kernel table clear_kernel_tables()
    empties."""
    call = _core.ElementwiseOp(op, kind, kernel_builder(build), scalar_message)
    _ops.append(call)
    return call


def clear_kernel_tables():
    """Forgets every loaded kernel of this process (the next call looks in
    the disk cache again)."""
    with _lock:
        _caches.clear()
        for op in _ops:
            op.clear()


@contextlib.contextmanager
def compile_only():
    """Within this context elementwise calls compile (or load) their kernels
    and return None without running them: arguments may then be
    `ptensor.Tensor` descriptions of arrays that do not exist here, e.g.
    GPU arrays (device "cuda:0") on a machine without a GPU, to fill the
    kernel cache (PTENSOR_CACHE_DIR) for a machine without the compiler."""
    old = _core.set_compile_only(True)
    try:
        yield
    finally:
        _core.set_compile_only(old)


def kernel_builder(build):
    """The callback the C++ calls on a table miss: `build(rank, device,
    specs, result_dtypes, out_dtypes)` gives (ir, function name), which is
    compiled (or loaded from the cache) into a Kernel (None when it is not
    loadable here: CUDA kernels in compile-only mode) with the GPU pipeline
    options the C++ chose for the call (`gpu_options`: "strided-paths=0"
    where every operand is contiguous)."""

    def kernel(rank, device, specs, result_dtypes, out_dtypes, gpu_options=""):
        ir, name = build(rank, device, specs, result_dtypes, out_dtypes)
        return _ir.kernel_function(ir, name, device, gpu_options)

    return kernel


def execute(key, args, scalar_types, result_dtypes, outs, build, coalesce=True):
    """Runs the kernel of `key` on `args` (arrays and scalars; a scalar is of
    `scalar_types[i]` when given, else weak) with results of
    `result_dtypes`, written into `outs[i]` where not None. Returns one
    array or a tuple (several outputs)."""
    with _lock:
        cache = _caches.get(key)
        if cache is None:
            cache = _caches[key] = _core.KernelCache()
    return _core.execute(cache, args, scalar_types, result_dtypes, outs,
                         kernel_builder(build), coalesce)


def arg_types(specs, rank, device):
    """The MLIR types of operand `specs` ((kind, dtype, dims) each: a tensor's
    dims are "?" or 1 per task dim, a 1 being a broadcast; all "?" when
    empty)."""
    return [_ir.ptensor_type(rank, dt, device, dims or None) if k == "t" else dt
            for k, dt, dims in specs]
