"""Calling functions of a library built by ptensor-compile, through ctypes.

The ABI (docs/ABI.md): the library exports the JSON
`ptensor_module_signature` and, per function `f`,

    void _mlir_ciface_f(RES *res, DESC *arg0, ..., <scalar by value>, ...)

where DESC of a rank-r tensor is {void *allocated; void *aligned; int64_t
offset; int64_t sizes[r]; int64_t strides[r];} (strides in elements), RES
is omitted without results, one DESC for one result and a struct of DESCs
for several. Results are freshly allocated (malloc on the host,
mgpuMemAlloc on the GPU) unless `allocated` is one of the arguments' base
pointers (a view of an argument).
"""

import ctypes
import json
import struct
import threading

import numpy as np

from . import _arrays as A
from . import _core
from . import _dtypes as D
from . import _runtime as R
from ._errors import BroadcastError, CompileError, DeviceError, DTypeError

#: The compiled-module ABI this reader understands (docs/ABI.md; the
#: compiler's kModuleABIVersion, written into every signature as "abi").
MODULE_ABI_VERSION = 1

_desc_lock = threading.Lock()
_desc_types = {}


def desc_type(rank):
    """The ctypes struct of a rank-`rank` memref descriptor."""
    with _desc_lock:
        t = _desc_types.get(rank)
        if t is None:
            t = type("MemRefDescriptor%d" % rank, (ctypes.Structure,), {
                "_fields_": [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                             ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * rank),
                             ("strides", ctypes.c_int64 * rank)]})
            _desc_types[rank] = t
        return t


_SCALAR_CTYPES = {
    "i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32,
    "i64": ctypes.c_int64, "ui8": ctypes.c_uint8, "ui16": ctypes.c_uint16,
    "ui32": ctypes.c_uint32, "ui64": ctypes.c_uint64, "index": ctypes.c_int64,
    "f16": ctypes.c_uint16, "bf16": ctypes.c_uint16, "f32": ctypes.c_float,
    "f64": ctypes.c_double,
}


def scalar_to_c(dt, value):
    """The by-value C argument of a scalar (f16/bf16 as their bits)."""
    if dt == "f16":
        return int(np.array(value, dtype=np.float16).view(np.uint16))
    if dt == "bf16":
        return int(np.array(value, dtype=np.float32).astype(D.BFLOAT16).view(np.uint16))
    if D.kind(dt) in ("s", "u") and dt != "index" and not isinstance(value, bool):
        return int(value)
    return value


def check_written(args, written, name="argument"):
    """The semantics library's memory-overlap rule (Overlap.h, as the JIT
    and the C API check it): a written tensor must not have zero strides
    nor partially overlap another operand; the very same view is fine."""
    written = list(written)
    if not written:
        return
    views = [(t.ptr, D.itemsize(t.dtype), list(t.shape), list(t.strides), t.device or "")
             if isinstance(t, A.Tensor) else None for t in args]
    _core.check_written_overlap(views, written, name)


class RawResult:
    """One result descriptor as returned, and whether we must free it."""

    __slots__ = ("allocated", "aligned", "offset", "sizes", "strides", "owns")

    def __init__(self, allocated, aligned, offset, sizes, strides, owns):
        self.allocated = allocated
        self.aligned = aligned
        self.offset = offset
        self.sizes = sizes
        self.strides = strides
        self.owns = owns


_device_indices = {}


def _device_index(device):
    i = _device_indices.get(device)
    if i is None:
        i = _device_indices[device] = int(device.split(":")[1]) if ":" in device else 0
    return i


def _descriptor_format(rank):
    """struct format of a rank-`rank` memref descriptor (desc_type's layout:
    two pointers, then offset, sizes and strides as int64)."""
    return "QQq" + "q" * (2 * rank)


class Function:
    """One compiled function; call it with arrays and scalars."""

    def __init__(self, library, sig):
        self.library = library
        self.name = sig["name"]
        self.args = sig["args"]
        self.results = sig["results"]
        self.written = [i for i, a in enumerate(self.args) if a.get("written")]
        cfunc = getattr(library.lib, "_mlir_ciface_" + self.name)
        # Every call packs the descriptors into one buffer: the results'
        # (written by the callee; a struct of descriptors without padding
        # for several), then one per tensor argument. Pointers to them are
        # passed as addresses.
        self._result_ranks = [len(r["shape"]) for r in self.results]
        res_fmt = "".join(_descriptor_format(r) for r in self._result_ranks)
        self._res_struct = struct.Struct("<" + res_fmt)
        argtypes = [ctypes.c_void_p] if self.results else []
        # Per argument: (rank, byte offset of its descriptor) for tensors,
        # (None, scalar dtype) for scalars.
        self._plan = []
        arg_fmt = ""
        offset = self._res_struct.size
        for a in self.args:
            if a["kind"] == "tensor":
                rank = len(a["shape"])
                self._plan.append((rank, offset))
                arg_fmt += _descriptor_format(rank)
                offset += 8 * (3 + 2 * rank)
                argtypes.append(ctypes.c_void_p)
            else:
                self._plan.append((None, a["dtype"]))
                argtypes.append(_SCALAR_CTYPES[a["dtype"]])
        self._arg_struct = struct.Struct("<" + arg_fmt)
        self._buffer_size = max(offset, 8)
        cfunc.argtypes = argtypes
        cfunc.restype = None
        self._cfunc = cfunc
        self._cuda = library.target == "cuda"

    def __repr__(self):
        return "<ptensor.Function %s of %s>" % (self.name, self.library.path)

    # -- low level: prepared Tensors and scalar values ------------------------

    def call_raw(self, values):
        """Calls with `values`: Tensors (shapes already checked) and Python
        scalars; returns a RawResult per result."""
        buf = ctypes.create_string_buffer(self._buffer_size)
        address = ctypes.addressof(buf)
        cargs = [address] if self.results else []
        packed = []
        bases = set()
        device = ""
        for (rank, info), v in zip(self._plan, values):
            if rank is None:
                cargs.append(scalar_to_c(info, v))
                continue
            if len(v.shape) != rank:
                raise ValueError("@%s: a rank-%d tensor for a rank-%d argument"
                                 % (self.name, len(v.shape), rank))
            base, off = v.base_and_offset()
            packed += (base, base, off)
            packed += v.shape
            packed += v.strides
            bases.add(base)
            cargs.append(address + info)
            device = device or v.device
        self._arg_struct.pack_into(buf, self._res_struct.size, *packed)
        if self._cuda:
            A.synchronize_inputs([v for v in values if isinstance(v, A.Tensor)])
            R.set_default_device(_device_index(device))
        self._cfunc(*cargs)
        out = []
        if not self.results:
            return out
        words = self._res_struct.unpack_from(buf, 0)
        seen = set()
        k = 0
        for rank in self._result_ranks:
            alloc, aligned, off = words[k], words[k + 1], words[k + 2]
            sizes = list(words[k + 3:k + 3 + rank])
            strides = list(words[k + 3 + rank:k + 3 + 2 * rank])
            k += 3 + 2 * rank
            owns = alloc != 0 and alloc not in bases and alloc not in seen
            seen.add(alloc)
            out.append(RawResult(alloc, aligned, off, sizes, strides, owns))
        return out

    def _which(self, i):
        return "@%s: argument #%d" % (self.name, i)

    def _argument_error(self, i, a, t):
        """Raises the error of tensor argument #i `t` not matching `a`."""
        which = self._which(i)
        if t.dtype != a["dtype"]:
            raise DTypeError("%s: expected dtype %s, got %s" % (which, a["dtype"], t.dtype))
        if t.ndim != len(a["shape"]):
            raise BroadcastError("%s: expected rank %d, got rank %d with shape %s"
                                 % (which, len(a["shape"]), t.ndim, D.format_shape(t.shape)))
        for d, (want, got) in enumerate(zip(a["shape"], t.shape)):
            if want >= 0 and want != got:
                raise BroadcastError(
                    "%s: expected shape %s, got %s (dimension %d differs)"
                    % (which, D.format_shape(a["shape"]),
                       D.format_shape(t.shape), d))
        want_dev = a.get("device", "") or ""
        raise DeviceError("%s: expected %s memory, got %s"
                          % (which, want_dev or "host", t.device or "host"))

    # -- high level: any arrays ------------------------------------------------

    def __call__(self, *args):
        """Calls with arrays (numpy, torch, CuPy, DLPack, StridedBuffer) and
        scalars in the order of the signature; returns the results (None, one
        array, or a tuple) as arrays of the first tensor argument's
        framework. Arguments are checked like lib/JIT/ArgumentCheck.cpp."""
        if len(args) != len(self.args):
            raise TypeError("@%s: expected %d arguments, got %d"
                            % (self.name, len(self.args), len(args)))
        values = []
        framework = None
        for i, (a, x) in enumerate(zip(self.args, args)):
            if a["kind"] == "tensor":
                if A.is_scalar(x):
                    raise TypeError("%s: expected a tensor, got a scalar" % self._which(i))
                t = A.as_tensor(x)
                shape = a["shape"]
                if t.dtype != a["dtype"] or len(t.shape) != len(shape) or \
                        t.device != (a.get("device", "") or ""):
                    self._argument_error(i, a, t)
                for want, got in zip(shape, t.shape):
                    if want >= 0 and want != got:
                        self._argument_error(i, a, t)
                framework = framework or t.framework
                values.append(t)
            else:
                if not A.is_scalar(x):
                    raise TypeError("%s: expected a scalar, got %s"
                                    % (self._which(i), type(x).__name__))
                values.append(A.scalar_arg(x, a["dtype"])[1])
        check_written(values, self.written, "argument")
        raws = self.call_raw(values)
        outs = []
        for r, raw in zip(self.results, raws):
            outs.append(A.make_result(raw.allocated, raw.aligned, raw.offset, raw.sizes,
                                      raw.strides, r["dtype"], r.get("device", "") or "",
                                      framework or "numpy", raw.owns))
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else tuple(outs)


class Library:
    """A loaded library of ptensor-compile with its signature."""

    def __init__(self, path, target):
        self.path = path
        self.target = target
        if target == "cuda":
            # The runtime's mgpu* symbols must be global before the kernels
            # load, and loading runs the kernels' module constructors, which
            # would end the process without a driver: check first.
            if not R.cuda_available():
                raise DeviceError("cannot load CUDA kernels %s: %s" % (
                    path, R.last_error() or "no CUDA device"))
        self.lib = ctypes.CDLL(path)
        sym = ctypes.c_char.in_dll(self.lib, "ptensor_module_signature")
        text = ctypes.string_at(ctypes.addressof(sym)).decode()
        self.signature = json.loads(text)
        abi = self.signature.get("abi")
        if abi != MODULE_ABI_VERSION:
            raise CompileError(
                "%s has module ABI version %s; this ptensor reads version %d "
                "(docs/ABI.md): recompile it with this ptensor-compile"
                % (path, abi, MODULE_ABI_VERSION), "", "")
        self.functions = {f["name"]: Function(self, f) for f in self.signature["functions"]}

    def __getitem__(self, name):
        return self.functions[name]

    def __getattr__(self, name):
        try:
            return self.__dict__["functions"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        return "<ptensor.Library %s (%s): %s>" % (self.path, self.target,
                                                  ", ".join(self.functions))
