"""Array API linear algebra over numpy arrays (host) and torch/CuPy CUDA
arrays (GPU): `matmul` (also the `@` operator of ptensor.Array), `vecdot`,
`tensordot` and `matrix_transpose`.

Every rule (result shape and dtype, broadcasting of batch dims, axes,
contracted sizes) is the compiler's (ptensor/Semantics/Contraction.h,
through _core); this module writes the one-op kernel, rank-generic with
dynamic sizes, and caches it per (op, ranks, dtypes, device, axes). The
compiled code calls OpenBLAS (host f32/f64) or cuBLASLt (GPU floats) for
matrix products and runs generated loops or kernels for the rest.
"""

from . import _core
from ._arrays import as_tensor
from ._ir import ptensor_type, run_kernel, wrap_function


def _dims(shape):
    return ["?" if n is None else str(n) for n in shape]


def _contract(op, x1, x2, axis=-1, lhs_axes=(), rhs_axes=()):
    a, b = as_tensor(x1), as_tensor(x2)
    device = _core.common_placement([a.device or None, b.device or None]) or ""
    lhs_axes, rhs_axes = [int(v) for v in lhs_axes], [int(v) for v in rhs_axes]
    # The real shapes first: errors name the sizes the caller passed.
    _core.contraction_result(op, list(a.shape), a.dtype, list(b.shape), b.dtype,
                             axis, lhs_axes, rhs_axes)
    key = ("contraction", op, a.ndim, a.dtype, b.ndim, b.dtype, device, axis,
           tuple(lhs_axes), tuple(rhs_axes))

    def build():
        ta = ptensor_type(a.ndim, a.dtype, device)
        tb = ptensor_type(b.ndim, b.dtype, device)
        rdt, shape = _core.contraction_result(op, [None] * a.ndim, a.dtype,
                                              [None] * b.ndim, b.dtype, axis,
                                              lhs_axes, rhs_axes)
        rt = ptensor_type(len(shape), rdt, device, _dims(shape))
        if op == "vecdot":
            attrs = " {axis = %d : i64}" % axis
        elif op == "tensordot":
            attrs = " {lhs_axes = array<i64%s>, rhs_axes = array<i64%s>}" % (
                "".join(": " + ", ".join(map(str, lhs_axes)) if lhs_axes else ""),
                "".join(": " + ", ".join(map(str, rhs_axes)) if rhs_axes else ""))
        else:
            attrs = ""
        text = "%%r = ptensor.%s %%a0, %%a1%s : (%s, %s) -> %s" % (op, attrs, ta, tb, rt)
        name = "ptensor_" + op
        return wrap_function(name, [ta, tb], [text], ["%r"], [rt]), name, device

    return run_kernel(key, build, x1, x2)


def matmul(x1, x2, /):
    """The matrix product (array API): a 1-D x1 is a row and a 1-D x2 a
    column (their dim removed from the result); the other dims before the
    last two broadcast. Dtypes promote; float16/bfloat16 sum in float32,
    integers in the result dtype (wrapping)."""
    return _contract("matmul", x1, x2)


def vecdot(x1, x2, /, *, axis=-1):
    """The dot product of x1 and x2 along `axis` (negative: counted from the
    end of both), the other dims broadcast; the sizes along `axis` must be
    equal."""
    return _contract("vecdot", x1, x2, axis=int(axis))


def tensordot(x1, x2, /, *, axes=2):
    """The sum of products over the last `axes` dims of x1 and the first
    `axes` dims of x2 (an int), or over the pairs of two sequences
    (x1's axes, x2's axes). The result has x1's other dims, then x2's."""
    if isinstance(axes, int):
        a, b = as_tensor(x1), as_tensor(x2)
        lhs, rhs = _core.tensordot_axes(axes, a.ndim, b.ndim)
    else:
        lhs, rhs = axes
        lhs = [lhs] if isinstance(lhs, int) else list(lhs)
        rhs = [rhs] if isinstance(rhs, int) else list(rhs)
    return _contract("tensordot", x1, x2, lhs_axes=lhs, rhs_axes=rhs)


def matrix_transpose(x, /):
    """The last two dims swapped, as a view (no copy); at least 2-D."""
    ndim = len(x.shape)
    if ndim < 2:
        raise ValueError("matrix_transpose needs at least 2 dimensions, got %d" % ndim)
    if hasattr(x, "mT") and not hasattr(x, "__array_interface__"):
        return x.mT  # ptensor.Array, torch
    return x.swapaxes(-1, -2)  # numpy, CuPy


__all__ = ["matmul", "vecdot", "tensordot", "matrix_transpose"]
