#!/usr/bin/env python3
"""Runs a function of a library made by `ptensor-compile`, like ptensor-runner.

    aot_run.py LIB.so -e FUNC [--input a.npy]... [--output-dir DIR] [--print]

Needs only numpy (and ml_dtypes for bf16) and, for --target=cuda libraries,
libptensor_runtime.so: this is how compiled kernels run on a machine without
LLVM/MLIR (the GPU check script uses it). Inputs of ptensors on "cuda" are
copied to the device; results and written (out=) arguments come back to the
host. Errors print a message and exit with status 1.
"""

import argparse
import ctypes
import functools
import json
import os
import sys

import numpy as np

try:
    import ml_dtypes
    _BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # bf16 arguments then need ml_dtypes
    _BF16 = None

_NP = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
       "i64": np.int64, "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32,
       "ui64": np.uint64, "f16": np.float16, "f32": np.float32,
       "f64": np.float64, "index": np.int64}
_C = {"i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
      "i32": ctypes.c_int32, "i64": ctypes.c_int64, "ui8": ctypes.c_uint8,
      "ui16": ctypes.c_uint16, "ui32": ctypes.c_uint32,
      "ui64": ctypes.c_uint64, "f32": ctypes.c_float, "f64": ctypes.c_double,
      "index": ctypes.c_int64}


class RunError(Exception):
    pass


def np_dtype(name):
    if name == "bf16":
        if _BF16 is None:
            raise RunError("bf16 needs the ml_dtypes package")
        return _BF16
    return np.dtype(_NP[name])


@functools.lru_cache(maxsize=None)
def descriptor_type(rank):
    """MLIR's strided memref descriptor of rank `rank` (one class per rank:
    creating a ctypes class costs tens of microseconds)."""
    return type(f"MemRef{rank}", (ctypes.Structure,), {"_fields_": [
        ("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
        ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * rank),
        ("strides", ctypes.c_int64 * rank)]})


def extent(offset, sizes, strides, itemsize):
    """Element range [lo, hi) a strided view touches, relative to its base."""
    if any(s == 0 for s in sizes):
        return offset, offset
    lo = hi = offset
    for size, stride in zip(sizes, strides):
        span = (size - 1) * stride
        if span < 0:
            lo += span
        else:
            hi += span
    return lo, hi + 1


class Runtime:
    """libptensor_runtime.so: device memory and copies."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        self.lib.mgpuMemAlloc.restype = ctypes.c_void_p
        self.lib.mgpuMemAlloc.argtypes = [ctypes.c_uint64, ctypes.c_void_p,
                                          ctypes.c_bool]
        self.lib.mgpuMemFree.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        self.lib.mgpuMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                        ctypes.c_uint64, ctypes.c_void_p]
        self.lib.ptensor_rt_cuda_available.restype = ctypes.c_int
        self.lib.ptensor_rt_last_error.restype = ctypes.c_char_p
        self.lib.ptensor_rt_synchronize.restype = ctypes.c_int

    def check_available(self):
        if not self.lib.ptensor_rt_cuda_available():
            raise RunError(self.lib.ptensor_rt_last_error().decode())

    def to_device(self, array):
        """Copies the memory `array` spans (any strides) to the device."""
        lo, hi = extent(0, array.shape, [s // array.itemsize for s in array.strides],
                        array.itemsize)
        nbytes = max((hi - lo) * array.itemsize, 1)
        ptr = self.lib.mgpuMemAlloc(nbytes, None, False)
        host = array.ctypes.data + lo * array.itemsize
        self.lib.mgpuMemcpy(ptr, host, (hi - lo) * array.itemsize, None)
        return ptr, -lo

    def to_host(self, ptr, offset, sizes, strides, dtype):
        lo, hi = extent(offset, sizes, strides, dtype.itemsize)
        buf = np.empty(max(hi - lo, 0), dtype)
        if hi > lo:
            self.lib.mgpuMemcpy(buf.ctypes.data, ptr + lo * dtype.itemsize,
                                (hi - lo) * dtype.itemsize, None)
        if buf.size == 0:
            return np.empty(sizes, dtype)
        view = np.lib.stride_tricks.as_strided(
            buf[offset - lo:], shape=sizes,
            strides=[s * dtype.itemsize for s in strides])
        return view.copy()  # (ascontiguousarray would make 0-d arrays 1-d)


def find_runtime(lib_path):
    for d in [os.environ.get("PTENSOR_RUNTIME_DIR"), os.path.dirname(lib_path),
              os.path.join(os.path.dirname(__file__), "..", "build", "lib")]:
        if d and os.path.exists(os.path.join(d, "libptensor_runtime.so")):
            return os.path.join(d, "libptensor_runtime.so")
    raise RunError("libptensor_runtime.so not found (set PTENSOR_RUNTIME_DIR)")


def run(lib_path, func, inputs):
    """Calls `func` of `lib_path` on numpy arrays; returns (results, written)."""
    runtime = None
    if lib_path.endswith(".mlir"):  # a case compiled ahead of time beside it
        lib_path = lib_path[:-len(".mlir")] + ".so"
    if not os.path.exists(lib_path):
        raise RunError(f"cannot open {lib_path}: no such file")
    try:
        lib = ctypes.CDLL(os.path.abspath(lib_path))
    except OSError:  # a cuda library: load the runtime it needs first
        runtime = Runtime(find_runtime(lib_path))
        lib = ctypes.CDLL(os.path.abspath(lib_path))
    try:
        text = ctypes.c_char.in_dll(lib, "ptensor_module_signature")
    except ValueError:
        raise RunError(f"{lib_path} was not made by ptensor-compile")
    signature = json.loads(ctypes.string_at(ctypes.addressof(text)))
    if signature.get("abi") != 1:  # docs/ABI.md
        raise RunError(f"{lib_path} has module ABI version {signature.get('abi')}; "
                       "this runner reads version 1 (docs/ABI.md)")
    functions = {f["name"]: f for f in signature["functions"]}
    if func not in functions:
        raise RunError(f"no public function @{func} in {lib_path} (it has "
                       f"{', '.join('@' + n for n in functions) or 'none'})")
    sig = functions[func]
    if len(inputs) != len(sig["args"]):
        raise RunError(f"@{func} expects {len(sig['args'])} inputs, got {len(inputs)}")
    gpu = signature["target"] == "cuda" and any(
        a.get("device", "").startswith("cuda") for a in sig["args"] + sig["results"])
    if gpu and runtime is None:
        runtime = Runtime(find_runtime(lib_path))
    if gpu:
        runtime.check_available()
    c_args, keep, written = [], [], []
    for i, (arg, value) in enumerate(zip(sig["args"], inputs)):
        dtype = np_dtype(arg["dtype"])
        if arg["kind"] == "scalar":
            if value.ndim != 0:
                raise RunError(f"input #{i}: argument #{i} is a scalar, expected a 0-d array")
            c_args.append(_C[arg["dtype"]](value.item()))
            continue
        if value.dtype != dtype:
            raise RunError(f"input #{i}: expected dtype {arg['dtype']}, got {value.dtype}")
        if value.ndim != len(arg["shape"]):
            raise RunError(f"input #{i}: expected rank {len(arg['shape'])}, got {value.ndim}")
        for d, (want, got) in enumerate(zip(arg["shape"], value.shape)):
            if want != -1 and want != got:
                raise RunError(f"input #{i}: expected shape {arg['shape']}, got "
                               f"{list(value.shape)} (dimension {d} differs)")
        desc = descriptor_type(value.ndim)()
        strides = [s // value.itemsize for s in value.strides]
        if arg["device"].startswith("cuda"):
            ptr, offset = runtime.to_device(value)
        else:
            ptr, offset = value.ctypes.data, 0
        desc.allocated = desc.aligned = ptr
        desc.offset = offset
        desc.sizes[:] = list(value.shape)
        desc.strides[:] = strides
        keep.append((desc, value))
        if arg.get("written"):
            written.append((i, desc, value, arg))
        c_args.append(ctypes.pointer(desc))
    results = sig["results"]
    if len(results) == 1:
        res = descriptor_type(len(results[0]["shape"]))()
    elif results:
        res = type("Results", (ctypes.Structure,), {"_fields_": [
            (f"r{i}", descriptor_type(len(r["shape"]))) for i, r in enumerate(results)]})()
    entry = getattr(lib, "_mlir_ciface_" + func)
    entry.restype = None
    # Explicit argument types: floats must go in vector registers.
    entry.argtypes = ([ctypes.c_void_p] if results else []) + [
        type(a) if isinstance(a, ctypes._SimpleCData) else ctypes.c_void_p
        for a in c_args]
    if results:
        entry(ctypes.pointer(res), *c_args)
    else:
        entry(*c_args)
    if gpu:
        if runtime.lib.ptensor_rt_synchronize() != 0:
            raise RunError(runtime.lib.ptensor_rt_last_error().decode())
    outputs = []
    descs = [res] if len(results) == 1 else [getattr(res, f"r{i}") for i in range(len(results))]
    for r, d in zip(results, descs):
        dtype = np_dtype(r["dtype"])
        sizes, strides = list(d.sizes), list(d.strides)
        if r["device"].startswith("cuda"):
            outputs.append(runtime.to_host(d.aligned, d.offset, sizes, strides, dtype))
        else:
            lo, hi = extent(d.offset, sizes, strides, dtype.itemsize)
            flat = np.ctypeslib.as_array(
                (ctypes.c_byte * max((hi - lo) * dtype.itemsize, 0)).from_address(
                    d.aligned + lo * dtype.itemsize)).view(dtype) if hi > lo else np.empty(0, dtype)
            outputs.append(np.lib.stride_tricks.as_strided(
                flat[d.offset - lo:], shape=sizes,
                strides=[s * dtype.itemsize for s in strides]).copy() if hi > lo
                else np.empty(sizes, dtype))
    written_out = []
    for i, desc, value, arg in written:
        if arg["device"].startswith("cuda"):
            value = runtime.to_host(desc.aligned, desc.offset, list(desc.sizes),
                                    list(desc.strides), value.dtype)
        written_out.append((i, value))
    return outputs, written_out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library")
    parser.add_argument("-e", dest="func", required=True)
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--output-dir")
    parser.add_argument("--print", action="store_true")
    args = parser.parse_args(argv)
    try:
        inputs = []
        for i, path in enumerate(args.input):
            try:
                a = np.load(path)
            except Exception as e:  # numpy raises several kinds
                raise RunError(f"input #{i}: {path}: {e}")
            if a.dtype.kind == "V" and a.dtype.itemsize == 2 and _BF16 is not None:
                a = a.view(_BF16)
            inputs.append(a)
        outputs, written = run(args.library, args.func, inputs)
    except RunError as e:
        print(f"aot_run: error: {e}", file=sys.stderr)
        return 1
    if args.output_dir:
        os.makedirs(args.output_dir, exist_ok=True)
        for i, o in enumerate(outputs):
            if _BF16 is not None and o.dtype == _BF16:
                o = o.view(np.dtype("V2"))
            np.save(os.path.join(args.output_dir, f"out{i}.npy"), o)
        for i, o in written:
            np.save(os.path.join(args.output_dir, f"arg{i}.npy"), o)
    if args.print or not args.output_dir:
        for i, o in enumerate(outputs):
            print(f"out{i} ({o.dtype}, shape {o.shape}):\n{o}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
