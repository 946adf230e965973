"""Runs a function of a compiled library, like ptensor-runner:

    python -m ptensor.run LIB.so -e FUNC [--input a.npy]... [--output-dir DIR] [--print]

LIB.so is a library of `ptensor-compile` (or of `ptensor.compile_ir`; a
path ending in .mlir names the library compiled beside it). Each `.npy`
binds the next argument (a 0-d array for a scalar parameter); results are
written to DIR/out0.npy ..., arguments the function writes (out=) to
DIR/argI.npy. The call is the package's own (`ptensor.Library`, docs/ABI.md):
no compiler is needed, so this is how kernels compiled elsewhere run on a
machine without LLVM. Inputs of parameters on "cuda" are moved to the GPU
(through the array framework ptensor.Array uses there: torch or CuPy) and
results come back to the host. Errors print one line and exit with status 1.
"""

import argparse
import json
import os
import sys

import numpy as np

from . import _dtypes as D
from ._array import Array
from ._errors import PTensorError
from ._ffi import Library


class RunError(Exception):
    pass


def _load_input(i, path):
    try:
        a = np.load(path)
    except Exception as e:  # numpy raises several kinds
        raise RunError("input #%d: %s: %s" % (i, path, e)) from None
    if a.dtype.kind == "V" and a.dtype.itemsize == 2 and D.bfloat16() is not None:
        a = a.view(D.bfloat16())  # bf16 is saved as 2-byte void
    return a


def _to_host(x):
    """A result or written argument (an Array, or an array of the framework
    compiled code returned: numpy, torch or CuPy) as a numpy array."""
    if not isinstance(x, Array):
        x = Array._new(x)
    return np.array(x.to_device("cpu"), copy=True)


def _saveable(a):
    return a.view(np.dtype("V2")) if D.is_bfloat16(a.dtype) else a


def _library_target(library):
    """The `target` of a library's signature JSON, read from the file
    without loading it (loading a CUDA library runs its kernels' module
    constructors, which need a driver)."""
    with open(library, "rb") as f:
        data = f.read()
    start = data.find(b'{"abi":')
    if start < 0:
        raise RunError("%s was not made by ptensor-compile" % library)
    text = data[start:data.index(b"\0", start)].decode()
    try:
        return json.loads(text).get("target", "cpu")
    except ValueError:
        raise RunError("%s has a malformed signature (docs/ABI.md)" % library) from None


def run(library, func, inputs):
    """Calls `func` of the library at `library` on numpy `inputs`; returns
    (results, [(argument index, written value)])."""
    if library.endswith(".mlir"):
        library = library[:-len(".mlir")] + ".so"
    if not os.path.exists(library):
        raise RunError("cannot open %s: no such file" % library)
    target = _library_target(library)
    lib = Library(os.path.abspath(library), target)
    functions = {f["name"]: f for f in lib.signature["functions"]}
    if func not in functions:
        raise RunError("no public function @%s in %s (it has %s)" % (
            func, library, ", ".join("@" + n for n in functions) or "none"))
    params = functions[func]["args"]
    if len(inputs) != len(params):
        raise RunError("@%s expects %d inputs, got %d" % (func, len(params), len(inputs)))
    args, written = [], []
    for i, (p, value) in enumerate(zip(params, inputs)):
        if p["kind"] == "scalar":
            if value.ndim != 0:
                raise RunError("input #%d: argument #%d is a scalar, expected a 0-d array"
                               % (i, i))
            args.append(value[()])
            continue
        x = Array._new(value)
        if p.get("device", "").startswith("cuda"):
            x = x.to_device(p["device"] if ":" in p["device"] else "cuda:0")
        args.append(x)
        if p.get("written"):
            written.append(i)
    out = lib[func](*args)
    results = [] if out is None else list(out) if isinstance(out, tuple) else [out]
    return ([_to_host(r) for r in results], [(i, _to_host(args[i])) for i in written])


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m ptensor.run",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("library")
    parser.add_argument("-e", dest="func", required=True, help="the function to run")
    parser.add_argument("--input", action="append", default=[], help=".npy of the next argument")
    parser.add_argument("--output-dir", help="where out0.npy ... are written")
    parser.add_argument("--print", action="store_true", help="print the results")
    args = parser.parse_args(argv)
    try:
        inputs = [_load_input(i, p) for i, p in enumerate(args.input)]
        outputs, written = run(args.library, args.func, inputs)
    except (RunError, PTensorError, TypeError, ValueError, OverflowError) as e:
        print("ptensor.run: error: %s" % e, file=sys.stderr)
        return 1
    if args.output_dir:
        os.makedirs(args.output_dir, exist_ok=True)
        for i, o in enumerate(outputs):
            np.save(os.path.join(args.output_dir, "out%d.npy" % i), _saveable(o))
        for i, o in written:
            np.save(os.path.join(args.output_dir, "arg%d.npy" % i), _saveable(o))
    if args.print or not args.output_dir:
        for i, o in enumerate(outputs):
            print("out%d (%s, shape %s):\n%s" % (i, o.dtype, o.shape, o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
