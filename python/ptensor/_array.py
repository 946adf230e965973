"""`ptensor.Array`, the array API's array object.

An Array holds a backing array (read as `_array`): a numpy array for host
memory, a torch tensor or a CuPy array for CUDA memory. It adds no copy and
no rule of its own: operators call ptensor's elementwise functions
(`x + y` is `ptensor.add(x, y)`, compiled by the compiler with its promotion
rules), indexing is the backing framework's basic indexing (a view), and
`.shape`, `.dtype` and `.device` describe the backing array.

Devices are strings: "cpu" (host) and "cuda:N".
"""

import math as _math
import pickle
from typing import Any, Optional, Tuple, Union

import numpy as np

from . import _arrays as A
from . import _dtypes as D
from . import _ops as O
from . import _linalg as L
from . import _reductions as R
from ._dtype_objects import DType, DTYPE_OBJECTS
from ._errors import DeviceError

#: Array API versions whose namespace ptensor's is (`__array_namespace__`).
SUPPORTED_API_VERSIONS = ("2021.12", "2022.12", "2023.12")
API_VERSION = "2023.12"

Device = str
Scalar = Union[bool, int, float]


# ---------------------------------------------------------------------------
# Devices and backing arrays
# ---------------------------------------------------------------------------

def api_device(device: str) -> Device:
    """The array API's device string of a Tensor device ("" is "cpu")."""
    return device or "cpu"


def parse_device(device: Any) -> Optional[str]:
    """The Tensor device ("" for the host, "cuda:N") of a `device=`
    argument: None (unspecified, returned as None), "cpu", "cuda",
    "cuda:N", or an object whose str() is one of those (a torch.device)."""
    if device is None:
        return None
    text = str(device)
    if text == "cpu":
        return A.HOST
    if text == "cuda":
        return "cuda:0"
    if text.startswith("cuda:") and text[5:].isdigit():
        return "cuda:%d" % int(text[5:])
    raise DeviceError("unknown device %r (expected 'cpu' or 'cuda:N')" % (device,))


def backing_framework(a: Any) -> str:
    """"numpy", "torch" or "cupy": the framework of a backing array."""
    if isinstance(a, np.ndarray):
        return "numpy"
    mod = type(a).__module__.split(".")[0]
    if mod in ("torch", "cupy"):
        return mod
    raise TypeError("a ptensor.Array is backed by a numpy array, a torch tensor or a "
                    "CuPy array, not %s" % type(a).__name__)


def backing_device(a: Any) -> str:
    """The Tensor device of a backing array ("" for the host)."""
    fw = backing_framework(a)
    if fw == "numpy":
        return A.HOST
    if fw == "cupy":
        return "cuda:%d" % a.device.id
    if a.device.type == "cpu":
        return A.HOST
    return "cuda:%d" % (a.device.index or 0)


def backing_dtype(a: Any) -> str:
    """The compiler's dtype name of a backing array."""
    if backing_framework(a) == "torch":
        return D.from_torch(a.dtype)
    return D.from_numpy(a.dtype)


def require_cuda(device: str) -> None:
    """DeviceError unless CUDA arrays can be made here (a GPU, and torch or
    CuPy to hold them)."""
    from ._runtime import cuda_available

    if not cuda_available():
        raise DeviceError("device %r: no CUDA device is available here (ptensor found no "
                          "CUDA driver and GPU)" % device)
    A.default_gpu_framework()


def host_numpy(a: Any) -> np.ndarray:
    """A numpy array of a backing array's values: the array itself on the
    host, a copy of device memory otherwise."""
    fw = backing_framework(a)
    if fw == "numpy":
        return a
    if fw == "cupy":
        import cupy

        return cupy.asnumpy(a)
    t = a.detach().cpu()
    if backing_dtype(a) == "bf16":
        import torch

        return t.view(torch.int16).numpy().view(D.bfloat16())
    return t.numpy()


def move_backing(a: Any, device: str) -> Any:
    """A backing array on `device` ("" or "cuda:N"): `a` itself when it is
    there already, a copy otherwise (host: numpy; CUDA: the framework of
    `a` when it is a GPU framework, else torch, else CuPy)."""
    here = backing_device(a)
    if here == device:
        return a
    if not device:
        return host_numpy(a)
    require_cuda(device)
    index = int(device.split(":")[1])
    fw = backing_framework(a)
    if fw == "numpy":
        fw = A.default_gpu_framework()
        if fw == "torch":
            # (not np.ascontiguousarray: it makes 0-d arrays 1-d)
            a = A.numpy_to_torch(a if a.flags.c_contiguous else a.copy(order="C"))
    if fw == "torch":
        return a.to(device)
    import cupy

    with cupy.cuda.Device(index):
        return cupy.asarray(a)


# ---------------------------------------------------------------------------
# Indexing helpers
# ---------------------------------------------------------------------------

def _unwrap_key(key: Any) -> Any:
    """An index with Arrays replaced by their backing arrays."""
    if isinstance(key, Array):
        return key._array
    if isinstance(key, tuple):
        return tuple(k._array if isinstance(k, Array) else k for k in key)
    return key


def positive_step_key(shape: Tuple[int, ...], key: Any) -> Tuple[Any, Tuple[int, ...]]:
    """(key', dims): a basic index without negative steps and the result
    dimensions to flip afterwards, so that `flip(a[key'], dims)` equals
    `a[key]` (for torch, which has no negative strides). Keys with arrays
    in them are returned unchanged."""
    items = list(key) if isinstance(key, tuple) else [key]
    if any(not (k is None or k is Ellipsis or isinstance(k, (int, slice, np.integer)))
           or isinstance(k, bool) for k in items):
        return key, ()
    used = sum(1 for k in items if k is not None and k is not Ellipsis)
    if Ellipsis in items:
        i = items.index(Ellipsis)
        items[i:i + 1] = [slice(None)] * max(len(shape) - used, 0)
    out, flips, dim, odim = [], [], 0, 0
    for k in items:
        if k is None:
            out.append(k)
            odim += 1
            continue
        if isinstance(k, slice) and k.step is not None and k.step < 0 and dim < len(shape):
            start, stop, step = k.indices(shape[dim])
            n = len(range(start, stop, step))
            if n:
                last = start + (n - 1) * step
                k = slice(last, start + 1, -step)
            else:
                k = slice(0, 0)
            flips.append(odim)
        out.append(k)
        dim += 1
        if isinstance(k, slice):
            odim += 1
    return tuple(out), tuple(flips)


def _index_backing(a: Any, key: Any) -> Any:
    """a[key] through the backing framework, as an array (a view for basic
    indexing): numpy's integer indexing of every dimension gives a 0-d view
    instead of a scalar; torch gets negative steps as flips."""
    key = _unwrap_key(key)
    fw = backing_framework(a)
    if fw == "numpy":
        items = key if isinstance(key, tuple) else (key,)
        if not any(k is Ellipsis for k in items):
            key = items + (Ellipsis,)
        return a[key]
    if fw == "torch":
        key, flips = positive_step_key(tuple(a.shape), key)
        r = a[key]
        return r.flip(flips) if flips else r
    return a[key]


# ---------------------------------------------------------------------------
# Operators
# ---------------------------------------------------------------------------

def _other(x: Any) -> Any:
    """The operand an operator passes on, or NotImplemented for objects the
    array API does not combine with arrays."""
    if isinstance(x, (Array, bool, int, float)):
        return x
    if A.is_scalar(x) or A.is_tensor_like(x):
        return x
    return NotImplemented


def _binary(fn_name: str):
    # Bound once: _ops is complete when this module is imported, so no
    # getattr is needed per call.
    fn = getattr(O, fn_name)

    def forward(self, other):
        other = _other(other)
        if other is NotImplemented:
            return NotImplemented
        return fn(self, other)

    def reflected(self, other):
        other = _other(other)
        if other is NotImplemented:
            return NotImplemented
        return fn(other, self)

    def inplace(self, other):
        other = _other(other)
        if other is NotImplemented:
            return NotImplemented
        fn(self, other, out=self)
        return self

    forward.__doc__ = "ptensor.%s(self, other)." % fn_name
    reflected.__doc__ = "ptensor.%s(other, self)." % fn_name
    inplace.__doc__ = ("In place: ptensor.%s(self, other, out=self); the result keeps "
                       "self's dtype." % fn_name)
    return forward, reflected, inplace


def _unary(fn_name: str):
    fn = getattr(O, fn_name)

    def op(self):
        return fn(self)

    op.__doc__ = "ptensor.%s(self)." % fn_name
    return op


class Array:
    """An array of the array API over a numpy array (host) or a torch
    tensor / CuPy array (CUDA), without copies. Made by `ptensor.asarray`,
    the creation functions, and ptensor's functions called with Arrays."""

    __slots__ = ("_backing", "__weakref__")

    #: numpy ufuncs and binary operators defer to Array's own operators.
    __array_ufunc__ = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("ptensor.Array is not constructed directly; use ptensor.asarray")

    @classmethod
    def _new(cls, backing: Any) -> "Array":
        """An Array over `backing` (numpy, torch or CuPy; not copied)."""
        backing_framework(backing)
        self = object.__new__(cls)
        object.__setattr__(self, "_backing", backing)
        return self

    def __setstate__(self, state: Any) -> None:
        """Unpickling, also of Arrays pickled when the slot was `_array`, and
        of subclasses with attributes or slots of their own (state `(dict,
        slots)`)."""
        attributes, slots = state if isinstance(state, tuple) else (None, state)
        slots = slots or {}
        if "_backing" in slots:
            backing = slots["_backing"]
        elif "_array" in slots:
            backing = slots["_array"]
        else:
            raise pickle.UnpicklingError(
                "the pickled state of a ptensor.Array has no array (expected a '_backing' "
                "or '_array' slot, got %s)" % (sorted(slots) or "none"))
        object.__setattr__(self, "_backing", backing)
        for name, value in slots.items():  # a subclass's own slots
            if name not in ("_backing", "_array"):
                object.__setattr__(self, name, value)
        if attributes:
            self.__dict__.update(attributes)

    @property
    def _array(self) -> Any:
        """The backing array; an error once `ptensor.delete` released it."""
        backing = self._backing
        if backing is None:
            raise ValueError("this ptensor.Array was deleted (ptensor.delete released its "
                             "storage); it cannot be used")
        return backing

    # -- attributes ----------------------------------------------------------

    @property
    def dtype(self) -> DType:
        """The data type (`ptensor.float32`, ...)."""
        return DTYPE_OBJECTS[backing_dtype(self._array)]

    @property
    def device(self) -> Device:
        """"cpu" or "cuda:N"."""
        return api_device(backing_device(self._array))

    @property
    def shape(self) -> Tuple[int, ...]:
        return tuple(int(s) for s in self._array.shape)

    @property
    def ndim(self) -> int:
        return len(self._array.shape)

    @property
    def size(self) -> int:
        return _math.prod(self.shape)

    @property
    def T(self) -> "Array":
        """The transpose of a 2-D array (a view)."""
        if self.ndim != 2:
            raise ValueError("x.T needs a 2-D array, got %d dimensions (use x.mT for stacks "
                             "of matrices)" % self.ndim)
        return Array._new(self._array.swapaxes(0, 1))

    @property
    def mT(self) -> "Array":
        """The last two dimensions swapped (a view); at least 2-D."""
        if self.ndim < 2:
            raise ValueError("x.mT needs at least 2 dimensions, got %d" % self.ndim)
        return Array._new(self._array.swapaxes(-1, -2))

    # -- operators: installed from _OPERATORS below ----------------------------

    __hash__ = None  # type: ignore[assignment]
    # -- conversion to Python scalars -------------------------------------------

    def _item(self) -> Any:
        if self.size != 1:
            raise TypeError("only arrays of one element convert to Python scalars, got "
                            "shape %s" % (self.shape,))
        return self._array.item()

    def __bool__(self) -> bool:
        return bool(self._item())

    def __int__(self) -> int:
        return int(self._item())

    def __float__(self) -> float:
        return float(self._item())

    def __complex__(self) -> complex:
        return complex(float(self._item()))

    def __index__(self) -> int:
        if D.kind(backing_dtype(self._array)) not in ("s", "u"):
            raise TypeError("only integer arrays can be used as an index, got %s"
                            % self.dtype)
        return int(self._item())

    # -- indexing -------------------------------------------------------------

    def __getitem__(self, key: Any) -> "Array":
        """Basic indexing (integers, slices with steps, `...`, None) gives
        a view; a boolean Array mask gives a copy (ptensor.extract_mask on
        the host, the backing framework's indexing on a GPU)."""
        # A mask of 1 to ndim dims covering x's first ones; other masks
        # (0-d, wrong sizes: an IndexError) are the framework's.
        if (isinstance(key, Array) and backing_dtype(key._array) == "i1" and
                backing_device(self._array) == A.HOST and
                backing_device(key._array) == A.HOST and
                1 <= key.ndim <= self.ndim and key.shape == self.shape[:key.ndim]):
            from ._manipulation import extract_mask

            return Array._new(extract_mask(self._array, key._array))
        return Array._new(_index_backing(self._array, key))

    def __setitem__(self, key: Any, value: Any) -> None:
        """Writes `value` (an Array on this device, an array or a Python
        scalar) into the elements `key` selects, broadcasting it."""
        if isinstance(value, Array):
            if value.device != self.device:
                raise DeviceError("x[key] = value: value is on %s, x on %s"
                                  % (value.device, self.device))
            value = value._array
        a = self._array
        key = _unwrap_key(key)
        if backing_framework(a) != "torch":
            a[key] = value
            return
        import torch

        key, flips = positive_step_key(tuple(a.shape), key)
        if not flips:
            a[key] = value
            return
        target = a[key]
        v = torch.as_tensor(value, dtype=a.dtype, device=a.device)
        target.copy_(torch.broadcast_to(v, target.shape).flip(flips))

    # -- interchange ------------------------------------------------------------

    def __array_namespace__(self, /, *, api_version: Optional[str] = None) -> Any:
        """The `ptensor` module (the namespace of the array API
        `API_VERSION`)."""
        if api_version is not None and api_version not in SUPPORTED_API_VERSIONS:
            raise ValueError("ptensor does not implement array API version %r (supported: "
                             "%s)" % (api_version, ", ".join(SUPPORTED_API_VERSIONS)))
        import ptensor

        return ptensor

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None,
                   dl_device: Any = None, copy: Optional[bool] = None) -> Any:
        """The backing array's DLPack capsule (no copy unless `copy`)."""
        kwargs = {k: v for k, v in (("max_version", max_version), ("dl_device", dl_device),
                                    ("copy", copy)) if v is not None}
        if stream is not None:
            kwargs["stream"] = stream
        try:
            return self._array.__dlpack__(**kwargs)
        except TypeError:
            if max_version is None and dl_device is None and copy is None:
                raise
            # An older framework: the unversioned protocol.
            return self._array.__dlpack__(**({"stream": stream} if stream is not None else {}))

    def __dlpack_device__(self) -> Tuple[int, int]:
        return self._array.__dlpack_device__()

    def to_device(self, device: Any, /, *, stream: Any = None) -> "Array":
        """This array on `device` ("cpu", "cuda:N"): itself when it is
        there, a copy otherwise. DeviceError without a GPU."""
        moved = move_backing(self._array, parse_device(device))
        return self if moved is self._array else Array._new(moved)

    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> np.ndarray:
        """numpy interop on the host (no copy unless needed); DeviceError
        for CUDA arrays (call x.to_device("cpu") first)."""
        if backing_device(self._array):
            raise DeviceError("ptensor.Array on %s does not convert to numpy implicitly; "
                              "call x.to_device('cpu') first" % self.device)
        if copy is None:
            return np.asarray(self._array, dtype=dtype)
        return np.array(self._array, dtype=dtype, copy=copy)

    def __repr__(self) -> str:
        if self._backing is None:
            return "ptensor.Array(<deleted>)"
        body = np.array2string(host_numpy(self._array), separator=", ", prefix="ptensor.Array(")
        return "ptensor.Array(%s, dtype=%r, device=%r)" % (body, self.dtype, self.device)

    __str__ = __repr__


def delete(x: Array, /) -> None:
    """Releases the storage of `x` now (the RFC's `delete`; ptensor.delete in
    the IR): a later use of `x` raises ValueError. The memory goes back to
    the backing framework (numpy, or torch's / CuPy's CUDA allocator) when
    no other array views it, as with `del`. Only a ptensor.Array can be
    deleted: a numpy, torch or CuPy array belongs to its framework."""
    if not isinstance(x, Array):
        raise TypeError("ptensor.delete takes a ptensor.Array, not %s (an array of another "
                        "framework is released by that framework: `del` it)"
                        % type(x).__name__)
    x._array  # a second delete is an error, as in the IR
    object.__setattr__(x, "_backing", None)


#: Operator method stems and the ptensor functions they call: `__add__`,
#: `__radd__` and `__iadd__` call ptensor.add.
_BINARY_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
}
#: Comparisons: no reflected or in-place forms (Python swaps `<` and `>`).
_COMPARISONS = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
                "eq": "equal", "ne": "not_equal"}
_UNARY_OPERATORS = {"neg": "negative", "pos": "positive", "abs": "abs",
                    "invert": "bitwise_invert"}


#: numpy-style methods: `x.sum(axis=1)` is `ptensor.sum(x, axis=1)`.
_REDUCTIONS = ("sum", "prod", "max", "min", "mean", "var", "std", "any", "all", "argmax",
               "argmin")


def _reduction(fn_name: str):
    def method(self, **kwargs):
        return getattr(R, fn_name)(self, **kwargs)

    method.__doc__ = "ptensor.%s(self, **kwargs)." % fn_name
    return method


def _matmul(reflected: bool):
    def op(self, other):
        other = _other(other)
        if other is NotImplemented or not isinstance(other, Array) and not (
                A.is_tensor_like(other)):
            return NotImplemented
        return L.matmul(other, self) if reflected else L.matmul(self, other)

    op.__doc__ = "ptensor.matmul(%s)." % ("other, self" if reflected else "self, other")
    return op


def _install_operators() -> None:
    def put(method, impl):
        impl.__name__ = impl.__qualname__ = method
        setattr(Array, method, impl)

    for stem, fn_name in _BINARY_OPERATORS.items():
        forward, reflected, inplace = _binary(fn_name)
        put("__%s__" % stem, forward)
        put("__r%s__" % stem, reflected)
        put("__i%s__" % stem, inplace)
    for stem, fn_name in _COMPARISONS.items():
        put("__%s__" % stem, _binary(fn_name)[0])
    for stem, fn_name in _UNARY_OPERATORS.items():
        put("__%s__" % stem, _unary(fn_name))
    for fn_name in _REDUCTIONS:
        put(fn_name, _reduction(fn_name))
    put("__matmul__", _matmul(reflected=False))
    put("__rmatmul__", _matmul(reflected=True))


_install_operators()


def wrap(backing: Any) -> Array:
    """An Array over a numpy, torch or CuPy array (not copied)."""
    return Array._new(backing)
