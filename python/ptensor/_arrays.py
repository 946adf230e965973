"""Arrays in and out of compiled code, without copies.

`as_tensor(x)` views a numpy array, a torch tensor, a CuPy array, any object
with `__dlpack__`, or a `StridedBuffer` as a `Tensor`: dtype, device, the
address of element (0, ..., 0), shape and strides in elements (any sign, 0
allowed): what ptensor.compile_only() calls accept as descriptions of
arrays that do not exist here. The arrays of a call are read, and its
results made, in C++ (python/src/Interop.cpp).
"""

import numbers

import numpy as np

from . import _core
from . import _dtypes as D
from . import _runtime as R
from ._errors import DeviceError, DTypeError

HOST = ""


class Tensor:
    """A strided array argument, as compiled code sees it."""

    __slots__ = ("dtype", "device", "ptr", "shape", "strides", "framework", "obj", "keep")

    def __init__(self, dtype, device, ptr, shape, strides, framework, obj, keep=None):
        self.dtype = dtype            # ptensor dtype name
        self.device = device          # "" (host) or "cuda:N"
        self.ptr = ptr                # address of element (0, ..., 0)
        self.shape = tuple(int(s) for s in shape)
        self.strides = tuple(int(s) for s in strides)  # in elements
        self.framework = framework    # "numpy", "torch", "cupy" or "dlpack"
        self.obj = obj                # the caller's object
        self.keep = keep              # kept alive for the call (capsules)

    @property
    def ndim(self):
        return len(self.shape)

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n


class StridedBuffer:
    """A view of `base`'s memory with explicit shape, strides and offset in
    elements (FlagGems' StridedBuffer): strides may be negative, e.g. a flip
    of a torch tensor, which torch itself cannot express.

    `offset` counts elements from `base`'s element (0, ..., 0); `dtype`
    reinterprets the memory (same itemsize only).
    """

    def __init__(self, base, shape=None, strides=None, offset=0, dtype=None):
        self.base = base
        t = as_tensor(base)
        self.dtype = D.canonical(dtype) if dtype is not None else t.dtype
        if D.itemsize(self.dtype) != D.itemsize(t.dtype):
            raise DTypeError("StridedBuffer dtype %s must have the itemsize of the base's "
                             "dtype %s" % (self.dtype, t.dtype))
        self.shape = tuple(shape) if shape is not None else t.shape
        self.strides = tuple(strides) if strides is not None else t.strides
        if len(self.shape) != len(self.strides):
            raise ValueError("StridedBuffer: shape %s and strides %s differ in rank"
                             % (self.shape, self.strides))
        self.offset = int(offset)
        self._tensor = Tensor(self.dtype, t.device, t.ptr + self.offset * D.itemsize(t.dtype),
                              self.shape, self.strides, t.framework, base, t.keep)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def device(self):
        return self._tensor.device


# ---------------------------------------------------------------------------
# Scalars
# ---------------------------------------------------------------------------

def is_scalar(x):
    """Python bool/int/float and numpy scalars (np.generic) are weak scalars;
    0-d arrays are tensors."""
    return isinstance(x, (bool, numbers.Integral, numbers.Real, np.generic)) and not \
        isinstance(x, np.ndarray)


def scalar_arg(x, scalar_type=None):
    """(builtin scalar type, Python value) of a weak scalar. Without an
    explicit type: bool -> i1, integers -> i64, floats -> f64 (the weak rule
    only looks at the kind, so every scalar of a kind shares one kernel)."""
    if scalar_type is None:
        if isinstance(x, (bool, np.bool_)):
            scalar_type = "i1"
        elif isinstance(x, (numbers.Integral, np.integer)):
            scalar_type = "i64"
        elif isinstance(x, (numbers.Real, np.floating)):
            scalar_type = "f64"
        else:
            raise DTypeError("unsupported scalar %r (expected bool, int or float)" % (x,))
    k = D.kind(scalar_type)
    if k == "f":
        return scalar_type, float(x)
    if k == "b":
        return scalar_type, bool(x)
    if isinstance(x, (float, np.floating)):
        if float(x) != int(x):
            raise DTypeError("scalar %r is not an integer (argument type %s)"
                             % (x, scalar_type))
    v = int(x)
    w = D.width(scalar_type)
    lo, hi = (0, 2 ** w - 1) if k == "u" else (-(2 ** (w - 1)), 2 ** (w - 1) - 1)
    if not lo <= v <= hi:
        raise OverflowError("scalar %d does not fit the scalar type %s" % (v, scalar_type))
    return scalar_type, v


# ---------------------------------------------------------------------------
# Importing arrays
# ---------------------------------------------------------------------------

def _module_of(x):
    return type(x).__module__.split(".")[0]


def _elem_strides(byte_strides, itemsize, what):
    out = []
    for s in byte_strides:
        if s % itemsize:
            raise ValueError("%s has a stride of %d bytes, not a multiple of its itemsize %d"
                             % (what, s, itemsize))
        out.append(s // itemsize)
    return out


def _from_numpy(x):
    if not x.dtype.isnative:
        raise DTypeError("arrays of non-native byte order (%s) are not supported" % x.dtype)
    dt = D.from_numpy(x.dtype)
    ptr = x.__array_interface__["data"][0]
    return Tensor(dt, HOST, ptr, x.shape, _elem_strides(x.strides, x.itemsize, "array"),
                  "numpy", x)


def _from_torch(x):
    dt = D.from_torch(x.dtype)
    dev = x.device
    if dev.type == "cpu":
        device = HOST
    elif dev.type == "cuda":
        import torch

        device = "cuda:%d" % (dev.index if dev.index is not None else torch.cuda.current_device())
    else:
        raise DeviceError("torch tensors on %s are not supported (expected cpu or cuda)" % dev)
    return Tensor(dt, device, x.data_ptr(), tuple(x.shape), tuple(x.stride()), "torch", x)


def _from_cupy(x):
    dt = D.from_numpy(x.dtype)
    return Tensor(dt, "cuda:%d" % x.device.id, int(x.data.ptr), x.shape,
                  _elem_strides(x.strides, x.itemsize, "CuPy array"), "cupy", x)


def _from_dlpack(x):
    try:
        cap = x.__dlpack__()
    except TypeError:
        cap = x.__dlpack__(stream=None)
    m = R.managed_from_capsule(cap)
    t = m.contents.dl_tensor
    key = (t.dtype.code, t.dtype.bits)
    if t.dtype.lanes != 1 or key not in R.FROM_DLPACK:
        raise DTypeError("DLPack dtype (code %d, %d bits, %d lanes) is not supported"
                         % (t.dtype.code, t.dtype.bits, t.dtype.lanes))
    dt = R.FROM_DLPACK[key]
    if t.device.device_type in (R.KDL_CPU, R.KDL_CUDA_HOST):
        device = HOST
    elif t.device.device_type in (R.KDL_CUDA, R.KDL_CUDA_MANAGED):
        device = "cuda:%d" % t.device.device_id
    else:
        raise DeviceError("DLPack device type %d is not supported (expected CPU or CUDA)"
                          % t.device.device_type)
    shape = [t.shape[i] for i in range(t.ndim)]
    if t.strides:
        strides = [t.strides[i] for i in range(t.ndim)]
    else:
        strides, acc = [0] * t.ndim, 1
        for i in reversed(range(t.ndim)):
            strides[i] = acc
            acc *= shape[i]
    es = D.itemsize(dt)
    if t.byte_offset % es:
        raise ValueError("DLPack byte_offset %d is not a multiple of the itemsize %d"
                         % (t.byte_offset, es))
    ptr = (t.data or 0) + t.byte_offset
    return Tensor(dt, device, ptr, shape, strides, "dlpack", x, keep=cap)


def is_tensor_like(x):
    return isinstance(x, (np.ndarray, StridedBuffer, Tensor)) or hasattr(x, "__dlpack__") or \
        _module_of(x) in ("torch", "cupy")


def as_tensor(x):
    """The Tensor view of an array argument (no copy). Lists and tuples are
    converted with np.asarray."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, StridedBuffer):
        return x._tensor
    if isinstance(x, np.ndarray):
        return _from_numpy(x)
    mod = _module_of(x)
    if mod == "torch" and hasattr(x, "data_ptr"):
        return _from_torch(x)
    if mod == "cupy" and hasattr(x, "data") and hasattr(x, "device"):
        return _from_cupy(x)
    if _is_array_api_array(x):  # ptensor.Array: see ARRAY_PREFIX
        t = as_tensor(x._array)
        t.framework = ARRAY_PREFIX + t.framework
        return t
    if hasattr(x, "__dlpack__"):
        return _from_dlpack(x)
    if isinstance(x, (list, tuple)):
        return _from_numpy(np.asarray(x))
    raise TypeError(_core.not_an_array_message(type(x).__name__))


# ptensor.Array (the array API's array type, _array.py), the rule the C++
# call path must keep: an Array operand is read through its backing array
# (numpy on the host, torch or CuPy on CUDA) and its Tensor's framework is
# "ptensor:<backing framework>"; when any tensor operand is an Array, the
# results are Arrays over new arrays of the first Array operand's backing
# framework (_exec.result_framework, wrap_result).
ARRAY_PREFIX = "ptensor:"


def _is_array_api_array(x):
    from ._array import Array

    return isinstance(x, Array)


def backing_framework(framework):
    """The framework arrays are made with: "ptensor:numpy" -> "numpy"."""
    return framework[len(ARRAY_PREFIX):] if framework.startswith(ARRAY_PREFIX) else framework


def wrap_result(a, framework):
    """`a` as a ptensor.Array when `framework` is "ptensor:...", else `a`."""
    if not framework.startswith(ARRAY_PREFIX):
        return a
    from ._array import Array

    return Array._new(a)


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

def numpy_to_torch(a):
    import torch

    if D.is_bfloat16(a.dtype):
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def default_gpu_framework():
    try:
        import torch  # noqa: F401

        return "torch"
    except ImportError:
        pass
    try:
        import cupy  # noqa: F401

        return "cupy"
    except ImportError:
        raise DeviceError("a GPU result needs torch or CuPy to hold it") from None


def empty_like_framework(framework, shape, dt, device):
    """A new uninitialized array (used for outputs allocated in Python)."""
    if framework.startswith(ARRAY_PREFIX):
        return wrap_result(empty_like_framework(backing_framework(framework), shape, dt,
                                                device), framework)
    if framework == "torch":
        import torch

        return torch.empty(tuple(shape), dtype=D.to_torch(dt), device=device or "cpu")
    if framework == "cupy":
        import cupy

        with cupy.cuda.Device(int(device.split(":")[1])):
            return cupy.empty(tuple(shape), dtype=D.to_numpy(dt))
    return np.empty(tuple(shape), dtype=D.to_numpy(dt))


def reshape(a, shape):
    return a.reshape(tuple(shape))


def permute(a, axes):
    if list(axes) == list(range(len(axes))):
        return a
    if _module_of(a) == "torch":
        return a.permute(*axes)
    return a.transpose(tuple(axes))
