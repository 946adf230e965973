"""Array API manipulation over numpy arrays (host) and torch/CuPy CUDA arrays
(GPU): `reshape`, `concat`, `stack`, `roll`, `tril`, `triu`, `eye`,
`meshgrid` and `extract_mask` (x[mask], also ptensor.Array's indexing with
a bool mask on the host).

Every rule (result shapes and dtypes, the inferred -1, axes, sizes that must
agree) is the compiler's (ptensor/Semantics/Manipulation.h, through _core);
this module writes the one-op kernel, rank-generic with dynamic sizes, and
caches it per (op, ranks, dtypes, device, static arguments). Sizes given at
call time (reshape's shape, eye's sizes) are index arguments, so one kernel
serves every size.
"""

import operator

import numpy as np

from . import _core
from . import _dtypes as D
from ._arrays import as_tensor
from ._ir import ptensor_type, run_kernel, wrap_function


#: Diagonal offsets beyond any matrix act like these (they keep `column -
#: row - k` in 64 bits); numpy takes any Python int.
_MAX_OFFSET = 2 ** 62


def _offset(k):
    return max(-_MAX_OFFSET, min(_MAX_OFFSET, operator.index(k)))


def _dims(shape):
    return ["?" if n is None else str(n) for n in shape]


def _array_list(values):
    return "array<i64%s>" % (": " + ", ".join(map(str, values)) if values else "")


def _common_device(tensors):
    return _core.common_placement([t.device or None for t in tensors]) or ""


def reshape(x, /, shape, *, copy=None):
    """The elements of x in row-major order, in `shape` (one -1 inferred).
    copy=None: a view of x when its strides allow, a copy otherwise (the
    compiler decides at run time); copy=True always copies; copy=False
    never does, and raises CheckError when a copy would be needed."""
    t = as_tensor(x)
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    else:
        shape = tuple(operator.index(s) for s in shape)
    _core.reshape_result(list(t.shape), list(shape))  # errors name the real shapes
    inferred = tuple(i for i, s in enumerate(shape) if s == -1)
    key = ("reshape", t.ndim, t.dtype, t.device, len(shape), inferred, copy)

    def build():
        arg = ptensor_type(t.ndim, t.dtype, t.device)
        names, sizes = [], []
        for i, s in enumerate(shape):
            if s == -1:
                sizes.append("-1")
            else:
                names.append("%%a%d" % (len(names) + 1))
                sizes.append(names[-1])
        requested = [-1 if s == -1 else None for s in shape]
        result = _core.reshape_result([None] * t.ndim, requested)
        rt = ptensor_type(len(result), t.dtype, t.device, _dims(result))
        attrs = "" if copy is None else " {copy = %s}" % ("true" if copy else "false")
        text = "%%r = ptensor.reshape %%a0 [%s]%s : %s -> %s" % (
            ", ".join(sizes), attrs, arg, rt)
        return (wrap_function("ptensor_reshape", [arg] + ["index"] * len(names), [text],
                              ["%r"], [rt]), "ptensor_reshape", t.device)

    return run_kernel(key, build, x, *[s for s in shape if s != -1])


def _combine(kind, arrays, axis):
    arrays = list(arrays)
    tensors = [as_tensor(a) for a in arrays]
    device = _common_device(tensors)
    dtypes = [t.dtype for t in tensors]
    _core.combine_result(kind, [list(t.shape) for t in tensors], dtypes, axis)
    key = ("combine", kind, tuple((t.ndim, t.dtype) for t in tensors), device, axis)

    def build():
        types = [ptensor_type(t.ndim, t.dtype, device) for t in tensors]
        rdt, shape, _ = _core.combine_result(kind, [[None] * t.ndim for t in tensors],
                                             dtypes, axis)
        rt = ptensor_type(len(shape), rdt, device, _dims(shape))
        names = ", ".join("%%a%d" % i for i in range(len(types)))
        text = "%%r = ptensor.combine %s %s axis %d : (%s) -> %s" % (
            kind, names, axis, ", ".join(types), rt)
        return (wrap_function("ptensor_" + kind, types, [text], ["%r"], [rt]),
                "ptensor_" + kind, device)

    return run_kernel(key, build, *arrays)


def concat(arrays, /, *, axis=0):
    """The arrays joined along `axis` (their other sizes must agree; dtypes
    promote). axis=None joins the flattened arrays."""
    if axis is None:
        return _combine("concat", [reshape(a, (-1,)) for a in arrays], 0)
    return _combine("concat", arrays, int(axis))


def stack(arrays, /, *, axis=0):
    """The arrays (of one shape) joined along a new dim `axis` of the result."""
    return _combine("stack", arrays, int(axis))


def roll(x, /, shift, *, axis=None):
    """Elements shifted by `shift` along `axis` (ints or tuples, as
    numpy.roll); axis=None rolls the flattened array and keeps the shape."""
    t = as_tensor(x)
    shifts = ([operator.index(shift)] if isinstance(shift, (int, np.integer))
              else [operator.index(s) for s in shift])
    if axis is None:
        if len(shifts) != 1:
            raise ValueError("roll of the flattened array takes one shift, got %d"
                             % len(shifts))
        flat = roll(reshape(x, (-1,)), shifts[0], axis=0)
        return reshape(flat, tuple(t.shape))
    axes = [axis] if isinstance(axis, (int, np.integer)) else [int(a) for a in axis]
    # A shift beyond 64 bits: the same roll as its remainder by the size.
    if any(not -2 ** 63 <= s < 2 ** 63 for s in shifts):
        if len(shifts) == 1:
            shifts = shifts * len(axes)
        shifts = [s % t.shape[a] if t.shape[a] else 0 for s, a in zip(shifts, axes)]
    _core.roll_shifts(t.ndim, shifts, axes)
    key = ("roll", t.ndim, t.dtype, t.device, tuple(shifts), tuple(axes))

    def build():
        ty = ptensor_type(t.ndim, t.dtype, t.device)
        text = "%%r = ptensor.roll %%a0 shifts [%s] axes [%s] : %s -> %s" % (
            ", ".join(map(str, shifts)), ", ".join(map(str, axes)), ty, ty)
        return wrap_function("ptensor_roll", [ty], [text], ["%r"], [ty]), "ptensor_roll", t.device

    return run_kernel(key, build, x)


def _triangle(kind, x, k):
    k = _offset(k)
    t = as_tensor(x)
    _core.check_triangle(list(t.shape))
    key = ("extract_triangle", kind, t.ndim, t.dtype, t.device, int(k))

    def build():
        ty = ptensor_type(t.ndim, t.dtype, t.device)
        text = "%%r = ptensor.extract_triangle %s %%a0 offset %d : %s -> %s" % (
            kind, int(k), ty, ty)
        name = "ptensor_tri" + kind[0]
        return wrap_function(name, [ty], [text], ["%r"], [ty]), name, t.device

    return run_kernel(key, build, x)


def tril(x, /, *, k=0):
    """The lower triangle of the matrices in the last two dims of x (the
    elements with column - row <= k), zeros above it."""
    return _triangle("lower", x, k)


def triu(x, /, *, k=0):
    """The upper triangle (column - row >= k), zeros below it."""
    return _triangle("upper", x, k)


def eye_kernel(n_rows, n_cols, k, dtype, device):
    """The identity-like n_rows x n_cols matrix of `dtype` on `device`
    (ptensor.eye), in the kernel's native framework (numpy on the host)."""
    dt = D.canonical(dtype)
    k = _offset(k)
    key = ("eye", dt, device, k)

    def build():
        rt = ptensor_type(2, dt, device)
        text = "%%r = ptensor.eye (%%a0, %%a1) offset %d : %s" % (int(k), rt)
        return (wrap_function("ptensor_eye", ["index", "index"], [text], ["%r"], [rt]),
                "ptensor_eye", device)

    return run_kernel(key, build, int(n_rows), int(n_cols))


def extract_mask(x, mask, /):
    """x[mask] for a bool `mask` covering the first mask.ndim dims of x: the
    selected elements (or sub-arrays) in row-major order (ptensor.extract_mask;
    host arrays: the GPU lowering is not there yet)."""
    t, m = as_tensor(x), as_tensor(mask)
    device = _common_device([t, m])
    key = ("extract_mask", t.ndim, t.dtype, m.ndim, m.dtype, device)

    def build():
        tx, tm = ptensor_type(t.ndim, t.dtype, device), ptensor_type(m.ndim, m.dtype, device)
        rt = ptensor_type(1 + t.ndim - m.ndim, t.dtype, device)
        text = "%%r = ptensor.extract_mask %%a0, %%a1 : (%s, %s) -> %s" % (tx, tm, rt)
        return (wrap_function("ptensor_extract_mask", [tx, tm], [text], ["%r"], [rt]),
                "ptensor_extract_mask", device)

    return run_kernel(key, build, x, mask)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate grids of 1-D arrays (indexing "xy", the default, or "ij"):
    a list of arrays of one shape, each repeating its input along the other
    dims."""
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid indexing must be 'xy' or 'ij', got %r" % (indexing,))
    tensors = [as_tensor(a) for a in arrays]
    if not tensors:
        return []
    device = _common_device(tensors)
    key = ("meshgrid", indexing, tuple((t.ndim, t.dtype) for t in tensors), device)

    def build():
        types = [ptensor_type(t.ndim, t.dtype, device) for t in tensors]
        n = len(types)
        rt = ptensor_type(n, tensors[0].dtype, device)
        results = ["%%r#%d" % i for i in range(n)] if n > 1 else ["%r"]
        text = "%%r%s = ptensor.meshgrid %s %s : (%s) -> (%s)" % (
            ":%d" % n if n > 1 else "", indexing,
            ", ".join("%%a%d" % i for i in range(n)), ", ".join(types),
            ", ".join([rt] * n))
        return (wrap_function("ptensor_meshgrid", types, [text], results, [rt] * n),
                "ptensor_meshgrid", device)

    out = run_kernel(key, build, *arrays)
    if out is None:  # compile-only mode
        return [None] * len(tensors)
    return list(out) if isinstance(out, (tuple, list)) else [out]


__all__ = ["reshape", "concat", "stack", "roll", "tril", "triu", "meshgrid", "extract_mask"]
