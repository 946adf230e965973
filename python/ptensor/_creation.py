"""The array API's `asarray`, `from_dlpack` and the creation functions that
the backing frameworks make directly: `empty`, `zeros`, `ones`, `full`,
their `_like` forms, `arange`, `linspace`.

Host arrays are made by numpy, CUDA arrays (`device="cuda:N"`) by torch,
or by CuPy without torch, and wrapped as `ptensor.Array` without a copy.
A dtype conversion of an existing array is `ptensor.astype` (the
compiler's cast); without `dtype=`, Python values get the default dtypes
(`_info.DEFAULT_DTYPES`: bool, int64, float64).
"""

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _arrays as A
from . import _dtypes as D
from . import _ops as O
from ._array import (Array, backing_device, backing_dtype, backing_framework, host_numpy,
                     move_backing, parse_device, require_cuda)
from ._dtype_objects import dtype_name
from ._errors import DTypeError
from ._info import default_dtype_name

Shape = Union[int, Sequence[int]]

#: DLPack device types of host memory (kDLCPU, kDLCUDAHost).
_DLPACK_HOST = (1, 3)


def _shape(shape: Shape) -> Tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _framework_for(device: str) -> str:
    """The framework that makes new arrays on `device`."""
    if not device:
        return "numpy"
    require_cuda(device)
    return A.default_gpu_framework()


def _make(fn: str, device: Optional[str], dt: str, *args: Any, **kwargs: Any) -> Array:
    """An Array from numpy's / torch's / CuPy's creation function `fn`
    (`np.zeros(*args, dtype=..., **kwargs)`) on `device`."""
    device = device or A.HOST
    fw = _framework_for(device)
    if fw == "numpy":
        return Array._new(getattr(np, fn)(*args, dtype=D.to_numpy(dt), **kwargs))
    if fw == "torch":
        import torch

        return Array._new(getattr(torch, fn)(*args, dtype=D.to_torch(dt), device=device,
                                             **kwargs))
    import cupy

    with cupy.cuda.Device(int(device.split(":")[1])):
        return Array._new(getattr(cupy, fn)(*args, dtype=D.to_numpy(dt), **kwargs))


def _scalar_dtype(value: Any) -> str:
    """The default dtype of a Python scalar (bool, int, float)."""
    if isinstance(value, (bool, np.bool_)):
        return "i1"
    if isinstance(value, (int, np.integer)):
        return default_dtype_name("integral")
    if isinstance(value, (float, np.floating)):
        return default_dtype_name("real floating")
    raise DTypeError("unsupported fill value %r (expected bool, int or float)" % (value,))


# ---------------------------------------------------------------------------
# asarray, from_dlpack
# ---------------------------------------------------------------------------

def _copy_backing(a: Any) -> Any:
    fw = backing_framework(a)
    if fw == "torch":
        return a.clone()
    return a.copy()


def _from_values(obj: Any, dt: Optional[str], copy: Optional[bool]) -> np.ndarray:
    """A numpy array of Python values (scalars, nested sequences, buffers)."""
    if dt is None:
        # The default dtypes for Python values; numpy's own otherwise.
        if isinstance(obj, bool):
            dt = "i1"
        elif isinstance(obj, int):
            dt = default_dtype_name("integral")
        elif isinstance(obj, float):
            dt = default_dtype_name("real floating")
    a = np.asarray(obj, dtype=None if dt is None else D.to_numpy(dt), copy=copy)
    D.from_numpy(a.dtype)  # DTypeError for dtypes ptensor does not have
    return a


def _to_backing(obj: Any) -> Optional[Any]:
    """The backing array of an array object (numpy, torch, CuPy, Array,
    DLPack), without a copy; None for other objects (Python values)."""
    if isinstance(obj, Array):
        return obj._array
    if isinstance(obj, np.ndarray):
        return obj
    mod = type(obj).__module__.split(".")[0]
    if mod == "torch" and hasattr(obj, "data_ptr"):
        return obj if obj.device.type != "cpu" else host_numpy(obj)
    if mod == "cupy" and hasattr(obj, "device"):
        return obj
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        return from_dlpack(obj)._array
    return None


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None,
            copy: Optional[bool] = None) -> Array:
    """An Array of `obj`: an Array, a numpy array, a torch tensor, a CuPy
    array, anything with `__dlpack__`, a Python scalar or a nested sequence.

    Arrays are not copied unless `copy=True`, a dtype conversion
    (`ptensor.astype`) or a device change needs it; `copy=False` raises
    ValueError when a copy would be needed."""
    target = parse_device(device)
    dt = None if dtype is None else dtype_name(dtype)
    backing = _to_backing(obj)
    if backing is None:
        a = _from_values(obj, dt, copy)
        if target:
            if copy is False:
                raise ValueError("asarray: copy=False, but the values must be copied to %s"
                                 % device)
            a = move_backing(a, target)
        return Array._new(a)
    copied = False
    if target is not None and backing_device(backing) != target:
        if copy is False:
            raise ValueError("asarray: copy=False, but the array is on %s, not %s"
                             % (Array._new(backing).device, device))
        backing = move_backing(backing, target)
        copied = True
    if dt is not None and backing_dtype(backing) != dt:
        if copy is False:
            raise ValueError("asarray: copy=False, but converting %s to %s needs a copy"
                             % (Array._new(backing).dtype, dtype))
        return O.astype(Array._new(backing), dt)
    if copy and not copied:
        backing = _copy_backing(backing)
    return Array._new(backing)


def from_dlpack(x: Any, /, *, device: Any = None, copy: Optional[bool] = None) -> Array:
    """An Array over the memory of an object with `__dlpack__` (no copy):
    host memory through numpy, CUDA memory through torch (or CuPy)."""
    if isinstance(x, Array):
        return asarray(x, device=device, copy=copy)
    dev_type, dev_id = x.__dlpack_device__()
    if int(dev_type) in _DLPACK_HOST:
        backing = np.from_dlpack(x)
    else:
        fw = A.default_gpu_framework()
        if fw == "torch":
            import torch

            backing = torch.from_dlpack(x)
        else:
            import cupy

            backing = cupy.from_dlpack(x)
    return asarray(Array._new(backing), device=device, copy=copy)


# ---------------------------------------------------------------------------
# Creation functions
# ---------------------------------------------------------------------------

def _dt(dtype: Any, default_kind: str = "real floating") -> str:
    return default_dtype_name(default_kind) if dtype is None else dtype_name(dtype)


def eye(n_rows: int, n_cols: Optional[int] = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None) -> Array:
    """Ones on the k-th diagonal (column - row == k) of an n_rows x n_cols
    array (square when n_cols is None), zeros elsewhere; compiled from
    ptensor.eye."""
    from ._manipulation import eye_kernel

    n_cols = n_rows if n_cols is None else n_cols
    if n_rows < 0 or n_cols < 0:
        raise ValueError("eye needs sizes >= 0, got %d x %d" % (n_rows, n_cols))
    dev = parse_device(device) or A.HOST
    if dev != A.HOST:
        require_cuda(dev)
    result = eye_kernel(n_rows, n_cols, k, _dt(dtype), "" if dev == A.HOST else dev)
    if result is None:  # compile-only mode
        return None
    return Array._new(_to_backing(result))


def empty(shape: Shape, *, dtype: Any = None, device: Any = None) -> Array:
    """An uninitialized array (default dtype float64)."""
    return _make("empty", parse_device(device), _dt(dtype), _shape(shape))


def zeros(shape: Shape, *, dtype: Any = None, device: Any = None) -> Array:
    """An array of zeros (default dtype float64)."""
    return _make("zeros", parse_device(device), _dt(dtype), _shape(shape))


def ones(shape: Shape, *, dtype: Any = None, device: Any = None) -> Array:
    """An array of ones (default dtype float64)."""
    return _make("ones", parse_device(device), _dt(dtype), _shape(shape))


def full(shape: Shape, fill_value: Union[bool, int, float], *, dtype: Any = None,
         device: Any = None) -> Array:
    """An array filled with `fill_value` (default dtype: bool, int64 or
    float64 after the value's type)."""
    dt = _scalar_dtype(fill_value) if dtype is None else dtype_name(dtype)
    return _make("full", parse_device(device), dt, _shape(shape), fill_value)


def _like(x: Any, dtype: Any, device: Any) -> Tuple[Tuple[int, ...], str, Optional[str]]:
    x = x if isinstance(x, Array) else asarray(x)
    dt = backing_dtype(x._array) if dtype is None else dtype_name(dtype)
    dev = backing_device(x._array) if device is None else parse_device(device)
    return x.shape, dt, dev


def empty_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Array:
    """An uninitialized array of x's shape (and dtype and device)."""
    shape, dt, dev = _like(x, dtype, device)
    return _make("empty", dev, dt, shape)


def zeros_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Array:
    """Zeros of x's shape (and dtype and device)."""
    shape, dt, dev = _like(x, dtype, device)
    return _make("zeros", dev, dt, shape)


def ones_like(x: Any, /, *, dtype: Any = None, device: Any = None) -> Array:
    """Ones of x's shape (and dtype and device)."""
    shape, dt, dev = _like(x, dtype, device)
    return _make("ones", dev, dt, shape)


def full_like(x: Any, /, fill_value: Union[bool, int, float], *, dtype: Any = None,
              device: Any = None) -> Array:
    """`fill_value` in x's shape (and dtype and device)."""
    shape, dt, dev = _like(x, dtype, device)
    return _make("full", dev, dt, shape, fill_value)


def arange(start: Union[int, float], /, stop: Optional[Union[int, float]] = None,
           step: Union[int, float] = 1, *, dtype: Any = None, device: Any = None) -> Array:
    """Values from `start` (0 with one argument) up to `stop` (excluded)
    by `step` (default dtype int64 for integer arguments, else float64)."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        ints = all(isinstance(v, (int, np.integer)) for v in (start, stop, step))
        dt = default_dtype_name("integral" if ints else "real floating")
    else:
        dt = dtype_name(dtype)
    if step == 0:
        raise ValueError("arange: step must not be 0")
    return _make("arange", parse_device(device), dt, start, stop, step)


def linspace(start: Union[int, float], stop: Union[int, float], /, num: int, *,
             dtype: Any = None, device: Any = None, endpoint: bool = True) -> Array:
    """`num` evenly spaced values from `start` to `stop` (included when
    `endpoint`); default dtype float64."""
    dt = _dt(dtype)
    dev = parse_device(device) or A.HOST
    if _framework_for(dev) == "torch":
        # torch.linspace always includes the end point.
        if endpoint or num == 0:
            return _make("linspace", dev, dt, start, stop, num)
        step = (stop - start) / num
        return _make("linspace", dev, dt, start, stop - step, num)
    return _make("linspace", dev, dt, start, stop, num, endpoint=endpoint)
