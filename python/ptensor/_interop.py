"""The Python side of the C++ call path (python/src/Interop.cpp).

The calls themselves (reading arrays, the meta step, the kernel table, the
call and the result arrays) are C++ in `ptensor._core`. This module gives
it what only Python has: the frameworks' dtype objects, allocation of new
arrays of a framework, stream synchronization, the runtime's function
addresses, and the Python types that describe arrays (Tensor,
StridedBuffer, ptensor.Array).
"""

import os
import sys

import numpy as np

from . import _core
from . import _dtypes as D
from . import _runtime as R

#: numpy dtype -> ptensor dtype name (CuPy arrays use numpy dtypes), and the
#: hook that adds bf16 when first seen: _dtypes' table, which C++ reads.
numpy_dtypes = D.FROM_NUMPY
late_numpy_dtype = D.late_numpy_dtype

#: PTENSOR_SYNC_LAUNCHES=1: compiled code runs on streams of its own, so
#: framework work on inputs is always waited for.
sync_launches = os.environ.get("PTENSOR_SYNC_LAUNCHES") == "1"


def torch_dtypes():
    """torch dtype -> ptensor dtype name (asked once torch is in use)."""
    import torch

    out = {}
    for dt in D.DTYPES:
        try:
            out[D.to_torch(dt)] = dt
        except (AttributeError, KeyError):
            pass
    return out


def as_bfloat16(a):
    """A uint16 numpy array viewed as ml_dtypes' bfloat16."""
    return a.view(D.bfloat16())


def empty(framework, shape, dtype, device):
    """A new uninitialized array of `framework` ("numpy", "torch", "cupy")."""
    from ._arrays import empty_like_framework

    return empty_like_framework(framework, shape, dtype, device)


_classes = None


def _array_classes():
    """(Array, Tensor, StridedBuffer), imported on first use (the modules
    import this one) and kept: an import statement per call costs more than
    the call of a small kernel."""
    global _classes
    if _classes is None:
        from ._array import Array
        from ._arrays import StridedBuffer, Tensor

        _classes = (Array, Tensor, StridedBuffer)
    return _classes


def array_type():
    """ptensor.Array (its arrays are read through their backing array)."""
    return _array_classes()[0]


def classify(x):
    """("description", Tensor) for a Tensor or StridedBuffer, ("sequence",
    numpy array) for a list or tuple, ("other", None) for anything else
    (read through DLPack)."""
    _, Tensor, StridedBuffer = _array_classes()
    if isinstance(x, Tensor):
        return "description", x
    if isinstance(x, StridedBuffer):
        return "description", x._tensor
    if isinstance(x, (list, tuple)):
        return "sequence", np.asarray(x)
    return "other", None


def default_gpu_framework():
    from ._arrays import default_gpu_framework as f

    return f()


def runtime_functions():
    """Addresses of libptensor_runtime's mgpuSetDefaultDevice,
    ptensor_rt_free and ptensor_rt_set_device_memory_source (the first GPU
    call loads the runtime)."""
    rt = R.runtime()
    return (rt.address("mgpuSetDefaultDevice"), rt.address("ptensor_rt_free"),
            rt.address("ptensor_rt_set_device_memory_source"))


def torch_raw_stream():
    """torch's function giving a device's current stream handle, or None."""
    import torch

    return getattr(torch._C, "_cuda_getCurrentRawStream", None)


def torch_from_capsule():
    """torch's C-level import of a DLPack capsule (no stream handshake), or
    None (results then go through torch.utils.dlpack.from_dlpack)."""
    import torch

    return getattr(torch._C, "_from_dlpack", None)


def synchronize(framework, device):
    """Waits for `framework`'s current stream on `device` (not the legacy
    default stream, or always with PTENSOR_SYNC_LAUNCHES=1)."""
    if framework == "torch":
        import torch

        torch.cuda.current_stream(torch.device(device)).synchronize()
    elif framework == "cupy":
        import cupy

        stream = cupy.cuda.get_current_stream()
        if stream.ptr != 0 or sync_launches:
            stream.synchronize()


_core.init_interop(sys.modules[__name__])
