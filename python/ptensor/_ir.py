"""Text of the ptensor IR the frontend generates, and the kernel registry.

A kernel is one public func.func taking ptensor values of dynamic shape
(`?x?xf32`) and builtin scalars. Its *functional* form returns the results
(allocated by the compiled code); its *out* form takes one extra argument
per output and writes into it with `ptensor.write`, casting first when the
out= dtype differs from the op's result dtype.
"""

import threading

from . import _compiler

_lock = threading.Lock()
_kernels = {}  # signature key -> Function


def ptensor_type(rank, dtype, device="", dims=None):
    """`!ptensor.ptensor<?x?xf32, device = "cuda:0">`: all `rank` dims
    dynamic, or the sizes `dims` ("?" or a number each) when given."""
    dims = ["?"] * rank if dims is None else dims
    s = "!ptensor.ptensor<" + "".join("%sx" % d for d in dims) + dtype
    if device:
        s += ', device = "%s"' % device
    return s + ">"


def target_of(device):
    return "cuda" if device.startswith("cuda") else "cpu"


def kernel_function(ir, name, device, gpu_options=""):
    """The compiled Function `name` of `ir` for `device`'s target (with
    more options of the GPU pipeline, `gpu_options`, for "cuda")."""
    lib = _compiler.compile_ir(ir, target_of(device), gpu_options=gpu_options)
    if isinstance(lib, str):  # compile-only, not loadable here
        return None
    return lib.functions[name]


def cached_kernel(key, build):
    """The Function cached under `key`, else `build()` -> (ir, name, device)
    compiled (or loaded from disk) and cached."""
    with _lock:
        f = _kernels.get(key)
    if f is not None:
        return f
    ir, name, device = build()
    f = kernel_function(ir, name, device)
    if f is not None:
        with _lock:
            _kernels[key] = f
    return f


def run_kernel(key, build, *args):
    """Calls the kernel cached under `key` (see cached_kernel) with `args`;
    None when it was only compiled into the cache (compile-only mode)."""
    kernel = cached_kernel(key, build)
    return None if kernel is None else kernel(*args)


def wrap_function(name, arg_types, body_lines, result_values, result_types,
                  out_casts=None):
    """A func.func around `body_lines` (ops using %a0, %a1, ...).

    `arg_types`: MLIR types of the inputs. `result_values`/`result_types`:
    SSA names and types of the op results. `out_casts`: None for the
    functional form; otherwise a list (per result) of the out= dtype's full
    type, giving the out form (a cast is emitted where the types differ).
    """
    args = ["%%a%d: %s" % (i, t) for i, t in enumerate(arg_types)]
    lines = list(body_lines)
    if out_casts is None:
        if len(result_types) == 1:
            ret = " -> " + result_types[0]
        else:
            ret = " -> (" + ", ".join(result_types) + ")"
        lines.append("return %s : %s" % (", ".join(result_values), ", ".join(result_types)))
    else:
        ret = ""
        for i, (v, t, ot) in enumerate(zip(result_values, result_types, out_casts)):
            args.append("%%out%d: %s" % (i, ot))
            if ot != t:
                lines.append("%%cast%d = ptensor.cast %s : %s -> %s" % (i, v, t, ot))
                v = "%%cast%d" % i
            lines.append("ptensor.write %s into %%out%d : %s" % (v, i, ot))
        lines.append("return")
    text = "func.func @%s(%s)%s {\n" % (name, ", ".join(args), ret)
    text += "".join("  " + ln + "\n" for ln in "\n".join(lines).split("\n"))
    text += "}\n"
    return text
