"""ctypes bindings of libptensor_runtime.so (GPU memory, DLPack export) and
of the DLPack structs, for importing and exporting device arrays without
copies. Python loads the runtime for GPU operands only (compiled host
code links it for its allocator and checks, and loads it itself).

The copy that compiled code already loaded comes first (one runtime per
process); otherwise the library is found at $PTENSOR_RUNTIME_LIBRARY, $PTENSOR_BUILD_DIR/lib,
the build/lib of the source tree this package lives in, or by the dynamic
loader's search (ctypes.util.find_library("ptensor_runtime")). It is loaded
with RTLD_GLOBAL before any CUDA-target kernel library, whose host code calls
its mgpu* functions; each function gets its ctypes prototype when first
called (_Runtime).
"""

import ctypes
import os
import threading

from . import _core
from ._errors import RuntimeUnavailableError

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------
# DLPack (dlpack.h, the unversioned DLManagedTensor every framework speaks)
# ---------------------------------------------------------------------------

KDL_CPU = 1
KDL_CUDA = 2
KDL_CUDA_HOST = 3
KDL_CUDA_MANAGED = 13

KDL_INT, KDL_UINT, KDL_FLOAT, KDL_BFLOAT, KDL_BOOL = 0, 1, 2, 4, 6


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DLDeleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", DLDeleter)]

MAX_RANK = 8


class StridedDesc(ctypes.Structure):
    """ptensor_rt_strided_desc (PTensorRuntime.h; 168 bytes)."""
    _fields_ = [("data", ctypes.c_void_p), ("offset_elems", ctypes.c_int64),
                ("rank", ctypes.c_int32), ("reserved0", ctypes.c_int32),
                ("sizes", ctypes.c_int64 * MAX_RANK), ("strides", ctypes.c_int64 * MAX_RANK),
                ("dtype_code", ctypes.c_uint8), ("dtype_bits", ctypes.c_uint8),
                ("dtype_lanes", ctypes.c_uint16), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("reserved1", ctypes.c_int32)]


assert ctypes.sizeof(StridedDesc) == 168

DLPACK_CODES = {
    "i1": (KDL_BOOL, 8), "i8": (KDL_INT, 8), "i16": (KDL_INT, 16), "i32": (KDL_INT, 32),
    "i64": (KDL_INT, 64), "ui8": (KDL_UINT, 8), "ui16": (KDL_UINT, 16),
    "ui32": (KDL_UINT, 32), "ui64": (KDL_UINT, 64), "f16": (KDL_FLOAT, 16),
    "bf16": (KDL_BFLOAT, 16), "f32": (KDL_FLOAT, 32), "f64": (KDL_FLOAT, 64),
}
FROM_DLPACK = {v: k for k, v in DLPACK_CODES.items()}

# Python C API through ctypes (no compiled extension). Private prototypes, so
# that other users of ctypes.pythonapi cannot change their argtypes.
_P = ctypes.pythonapi
_PyCapsule_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p,
                                   ctypes.c_void_p)(("PyCapsule_New", _P))
_PyCapsule_GetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object,
                                          ctypes.c_char_p)(("PyCapsule_GetPointer", _P))
_PyCapsule_IsValid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object,
                                       ctypes.c_char_p)(("PyCapsule_IsValid", _P))
# The destructor sees a capsule whose reference count is already 0: it must
# not be wrapped in a Python object again, so these take a raw PyObject*.
_RawIsValid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                                ctypes.c_char_p)(("PyCapsule_IsValid", _P))
_RawGetPointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p,
                                   ctypes.c_char_p)(("PyCapsule_GetPointer", _P))

_CapsuleDestructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


@_CapsuleDestructor
def _capsule_destructor(capsule_ptr):
    """Deletes a DLManagedTensor whose capsule was never consumed (a consumer
    renames the capsule to "used_dltensor" and owns the tensor)."""
    if _RawIsValid(capsule_ptr, b"dltensor"):
        p = _RawGetPointer(capsule_ptr, b"dltensor")
        m = ctypes.cast(p, ctypes.POINTER(DLManagedTensor))
        if m.contents.deleter:
            m.contents.deleter(m)


def capsule_from_managed(managed_ptr):
    """A "dltensor" PyCapsule owning the DLManagedTensor at `managed_ptr`."""
    return _PyCapsule_New(managed_ptr, b"dltensor",
                          ctypes.cast(_capsule_destructor, ctypes.c_void_p))


def managed_from_capsule(capsule):
    """The DLManagedTensor* inside a "dltensor" capsule (not consumed)."""
    if not _PyCapsule_IsValid(capsule, b"dltensor"):
        raise TypeError("expected a DLPack capsule named 'dltensor'")
    p = _PyCapsule_GetPointer(capsule, b"dltensor")
    return ctypes.cast(p, ctypes.POINTER(DLManagedTensor))


class DLPackHolder:
    """Hands one capsule to a consumer's from_dlpack (torch, cupy, numpy)."""

    def __init__(self, capsule, device):
        self._capsule = capsule
        self._device = device

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        cap, self._capsule = self._capsule, None
        if cap is None:
            raise BufferError("the DLPack capsule was already consumed")
        return cap

    def __dlpack_device__(self):
        return self._device


# ---------------------------------------------------------------------------
# libptensor_runtime.so
# ---------------------------------------------------------------------------

_lock = threading.Lock()
_rt = None
_rt_error = None


def _candidates():
    env = os.environ.get("PTENSOR_RUNTIME_LIBRARY")
    if env:
        return [env]
    names = []
    if os.environ.get("PTENSOR_BUILD_DIR"):
        names.append(os.path.join(os.environ["PTENSOR_BUILD_DIR"], "lib",
                                  "libptensor_runtime.so"))
    names.append(os.path.join(_PKG_DIR, "lib", "libptensor_runtime.so"))  # pip
    names.append(os.path.normpath(os.path.join(_PKG_DIR, "..", "..", "build", "lib",
                                               "libptensor_runtime.so")))
    return names


def _search_order():
    """_candidates(), then (unless PTENSOR_RUNTIME_LIBRARY names the one)
    the dynamic loader's search, ctypes.util.find_library: last, and only
    when reached, since its import and search take milliseconds."""
    yield from _candidates()
    if not os.environ.get("PTENSOR_RUNTIME_LIBRARY"):
        import ctypes.util

        found = ctypes.util.find_library("ptensor_runtime")
        if found:
            yield found


def library_dir():
    """The directory of the libptensor_runtime.so CUDA kernels link (their
    rpath): the first candidate that exists."""
    for path in _candidates():
        if os.sep in path and os.path.exists(path):
            return os.path.dirname(os.path.abspath(path))
    return os.path.join(_PKG_DIR, "lib")


class AllocatorStats(ctypes.Structure):
    """ptensor_rt_allocator_stats."""
    _fields_ = [("bytes_in_use", ctypes.c_uint64), ("bytes_cached", ctypes.c_uint64),
                ("peak_bytes_in_use", ctypes.c_uint64), ("alloc_count", ctypes.c_uint64),
                ("reuse_count", ctypes.c_uint64)]


#: The runtime functions Python calls, each with a function of ctypes giving
#: its (restype, argtypes): made when the function is first called, since
#: ctypes' pointer types cost a tenth of a millisecond together, which a
#: first call would otherwise pay for functions it never calls.
_SIGNATURES = {
    "ptensor_rt_last_error": lambda c: (c.c_char_p, []),
    "ptensor_rt_cuda_available": lambda c: (c.c_int, []),
    "ptensor_rt_device_count": lambda c: (c.c_int, [c.POINTER(c.c_int)]),
    "ptensor_rt_alloc": lambda c: (c.c_int, [c.c_int, c.c_size_t, c.c_void_p,
                                             c.POINTER(c.c_void_p)]),
    "ptensor_rt_free": lambda c: (c.c_int, [c.c_void_p, c.c_void_p]),
    "ptensor_rt_dlpack_export": lambda c: (c.c_void_p, [c.POINTER(StridedDesc), c.c_void_p,
                                                        c.c_void_p]),
    "ptensor_rt_get_allocator_stats": lambda c: (c.c_int, [c.c_int,
                                                           c.POINTER(AllocatorStats)]),
    "ptensor_rt_empty_cache": lambda c: (c.c_int, []),
    "ptensor_rt_set_allow_tf32": lambda c: (None, [c.c_bool]),
    "ptensor_rt_get_allow_tf32": lambda c: (c.c_bool, []),
    "mgpuMemFree": lambda c: (None, [c.c_void_p, c.c_void_p]),
    "mgpuMemcpy": lambda c: (None, [c.c_void_p, c.c_void_p, c.c_size_t, c.c_void_p]),
    "mgpuStreamSynchronize": lambda c: (None, [c.c_void_p]),
    "mgpuSetDefaultDevice": lambda c: (None, [c.c_int32]),
}


class _Runtime:
    """The loaded runtime library: its handle (from _core.load_shared_library)
    and path. A function of _SIGNATURES becomes a ctypes function when it
    is first used, from its address (_core.library_symbol): no ctypes.CDLL,
    whose class and lookups cost a tenth of a millisecond of the first GPU
    call."""

    def __init__(self, handle, path):
        self._handle = handle
        self.path = path

    def address(self, name):
        """The address of the runtime's function `name`."""
        return _core.library_symbol(self._handle, self.path, name)

    def __getattr__(self, name):
        signature = _SIGNATURES.get(name)
        if signature is None:
            raise AttributeError("Python calls no runtime function named %r" % name)
        restype, argtypes = signature(ctypes)
        f = ctypes.CFUNCTYPE(restype, *argtypes)(self.address(name))
        setattr(self, name, f)
        return f

    def __repr__(self):
        return "<libptensor_runtime at %s>" % self.path


def _already_loaded():
    """The runtime that compiled code already loaded into this process (by
    its file name, never loading one), or None. It comes before every
    candidate: a second copy would have an allocator and statistics of its
    own (allocator_stats("cpu") would not see the host buffers of compiled
    code, and a GPU buffer would be freed by a runtime that did not make it).
    A copy that lacks functions Python calls (another version) is an error
    (RuntimeUnavailableError naming it and what it lacks), not a reason to
    load a second one. The loader's list of objects is asked first: dlopen's
    RTLD_NOLOAD of a bare soname searches the file system when it is not
    loaded (0.27 ms of a first call)."""
    path = _core.loaded_library_path("libptensor_runtime.so")
    if path is None:
        return None
    try:
        # Loaded already: this takes a reference (and makes its symbols
        # global for CUDA kernel libraries).
        handle = _core.load_shared_library(path, lazy=True, global_=True)
    except OSError:
        return None
    rt = _Runtime(handle, path)
    missing = []
    for name in _SIGNATURES:
        try:
            rt.address(name)
        except OSError:
            missing.append(name)
    if missing:
        raise RuntimeUnavailableError(
            "the libptensor_runtime.so already loaded in this process (%s) is another "
            "version: it lacks %s%s; load this ptensor's runtime first (PTENSOR_RUNTIME_LIBRARY "
            "or PTENSOR_BUILD_DIR) or leave the other one out of the process"
            % (path, ", ".join(missing[:3]),
               " and %d more" % (len(missing) - 3) if len(missing) > 3 else ""))
    return rt


def runtime(required=True):
    """The loaded runtime library, or None (required=False) when missing."""
    global _rt, _rt_error
    with _lock:
        if _rt is None and _rt_error is None:
            try:
                _rt = _already_loaded()
            except RuntimeUnavailableError as e:
                _rt_error = str(e)
        if _rt is None and _rt_error is None:
            errors = []
            for path in _search_order():
                if not os.path.exists(path) and os.sep in path:
                    errors.append("%s: no such file" % path)
                    continue
                try:
                    # Lazy binding: the runtime's own imports are the C and
                    # C++ libraries' (their versions are checked at load).
                    # A library without one of the functions Python calls is
                    # not this runtime (another version): the next is tried.
                    handle = _core.load_shared_library(path, lazy=True, global_=True,
                                                       required=list(_SIGNATURES))
                    _rt = _Runtime(handle, path)
                    break
                except OSError as e:
                    errors.append("%s: %s" % (path, e))
            if _rt is None:
                _rt_error = ("libptensor_runtime.so not found (set PTENSOR_RUNTIME_LIBRARY or "
                             "PTENSOR_BUILD_DIR); tried: " + "; ".join(errors or ["nothing"]))
    if _rt is None and required:
        raise RuntimeUnavailableError(_rt_error)
    return _rt


_set_default_device = None


def set_default_device(index):
    """mgpuSetDefaultDevice(index): the device the calling thread's next
    compiled call runs on."""
    global _set_default_device
    if _set_default_device is None:
        _set_default_device = runtime().mgpuSetDefaultDevice
    _set_default_device(index)


def cuda_available():
    """True when the runtime loads and sees a CUDA driver and device."""
    rt = runtime(required=False)
    # Through _core: a ctypes function's first call costs 40 µs more.
    return bool(rt is not None and
                _core.call_int_function(rt.address("ptensor_rt_cuda_available")))


def last_error():
    rt = runtime(required=False)
    return rt.ptensor_rt_last_error().decode() if rt is not None else ""


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _release_device(ptr):
    """DLPack deleter hook of exported results: frees the device buffer."""
    if ptr and _rt is not None:
        _rt.ptensor_rt_free(ptr, None)


def export_device_buffer(allocated, aligned, offset, sizes, strides, dtype, device_id,
                         owns):
    """A DLPackHolder viewing device memory; when `owns`, the consumer's
    final release frees `allocated` (memory from mgpuMemAlloc)."""
    rt = runtime()
    rank = len(sizes)
    if rank > MAX_RANK:
        raise ValueError("rank %d exceeds the runtime's maximum of %d" % (rank, MAX_RANK))
    d = StridedDesc()
    d.data = aligned
    d.offset_elems = offset
    d.rank = rank
    for i in range(rank):
        d.sizes[i] = sizes[i]
        d.strides[i] = strides[i]
    d.dtype_code, d.dtype_bits = DLPACK_CODES[dtype]
    d.dtype_lanes = 1
    d.device_type = KDL_CUDA
    d.device_id = device_id
    release = ctypes.cast(_release_device, ctypes.c_void_p) if owns else None
    managed = rt.ptensor_rt_dlpack_export(ctypes.byref(d), release,
                                          allocated if owns else None)
    if not managed:
        raise RuntimeError(last_error())
    return DLPackHolder(capsule_from_managed(managed), (KDL_CUDA, device_id))


def free_device(ptr):
    if ptr:
        runtime().ptensor_rt_free(ptr, None)


#: The `device` of the host allocator (PTENSOR_RT_HOST_DEVICE).
HOST_DEVICE = -1


def allocator_stats(device=0):
    """The runtime's caching-allocator counters of `device` as a dict: a GPU
    ordinal (the memory of GPU results that ptensor allocated), or "cpu"
    (also -1) for host buffers of compiled code."""
    if device in ("cpu", HOST_DEVICE):
        device = HOST_DEVICE
    elif isinstance(device, str) and device.startswith("cuda"):
        device = int(device.partition(":")[2] or 0)
    st = AllocatorStats()
    rt = runtime()
    if rt.ptensor_rt_get_allocator_stats(device, ctypes.byref(st)) != 0:
        raise RuntimeError(last_error())
    return {name: getattr(st, name) for name, _ in AllocatorStats._fields_}


def empty_cache():
    """Returns the blocks the runtime's caching allocators keep for reuse
    (freed results) to where they came from: torch's allocator (when torch
    is in use; torch then counts them as free) or the CUDA driver, after
    synchronizing each device; and the host's to free(). Like
    `torch.cuda.empty_cache()`."""
    rt = runtime()
    if rt.ptensor_rt_empty_cache() != 0:
        raise RuntimeError(last_error())


def set_allow_tf32(allow):
    """Lets float32 matrix products on the GPU round their operands to TF32
    (tensor cores: several times faster, about 3 decimal digits), like
    `torch.backends.cuda.matmul.allow_tf32 = True`. Off by default (or with
    PTENSOR_ALLOW_TF32=1 in the environment); process-wide."""
    runtime().ptensor_rt_set_allow_tf32(bool(allow))


def get_allow_tf32():
    """Whether float32 matrix products on the GPU may use TF32."""
    return bool(runtime().ptensor_rt_get_allow_tf32())
