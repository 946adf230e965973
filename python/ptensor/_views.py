"""The array API's view functions over numpy arrays (host) and torch/CuPy
CUDA arrays: `permute_dims`, `expand_dims`, `squeeze`, `flip`, `moveaxis`,
`broadcast_to`, `broadcast_arrays` and `unstack`.

Each is a view (no kernel, no copy), like the dialect's permute_dims,
expand_dims, squeeze, flip and broadcast ops, so it is the backing
framework's own view of the array; the rules the frameworks disagree on are
the core's (broadcasting: _core.broadcast_shapes) or the array API's
(squeeze of a dim that is not 1 is an error, as the dialect's squeeze).
A ptensor.Array argument gives Arrays; other arrays give their framework's.
"""

import operator

import numpy as np

from . import _core
from ._array import Array, backing_framework
from ._errors import BroadcastError


def _on_backing(x, numpy_like, torch):
    """`numpy_like(xp, a)` (numpy or CuPy: xp is the module) or `torch(a)`
    of x's backing array, wrapped back into an Array when x is one."""
    wrap = isinstance(x, Array)
    a = x._array if wrap else x
    if not wrap and not hasattr(a, "shape"):
        a = np.asarray(a)
    fw = backing_framework(a)
    if fw == "torch":
        r = torch(a)
    else:
        xp = np
        if fw == "cupy":
            import cupy as xp
        r = numpy_like(xp, a)
    if not wrap:
        return r
    return tuple(Array._new(v) for v in r) if isinstance(r, tuple) else Array._new(r)


def _axes(axis, ndim):
    """`axis` (an int or a sequence) normalized by the core's axis rule."""
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    return tuple(_core.normalize_axes([operator.index(a) for a in axes], ndim))


def permute_dims(x, /, axes):
    """Result dim i is x's dim axes[i] (a transposed view)."""
    axes = tuple(operator.index(a) for a in axes)
    return _on_backing(x, lambda xp, a: xp.transpose(a, axes), lambda a: a.permute(axes))


def expand_dims(x, /, axis=0):
    """A size-1 dim inserted so that it becomes dim `axis` of the result."""
    axis = operator.index(axis)
    return _on_backing(x, lambda xp, a: xp.expand_dims(a, axis), lambda a: a.unsqueeze(axis))


def squeeze(x, /, axis):
    """The size-1 dims `axis` removed; a dim of another size is an error."""
    shape = tuple(x.shape)
    axes = _axes(axis, len(shape))
    for a in axes:
        if shape[a] != 1:
            raise ValueError("cannot squeeze dimension %d of size %d: only size-1 dimensions "
                             "can be removed" % (a, shape[a]))
    return _on_backing(x, lambda xp, a: xp.squeeze(a, axes),
                       lambda a: a.reshape([n for d, n in enumerate(shape) if d not in axes]))


def flip(x, /, *, axis=None):
    """The elements in reverse order along `axis` (all dims when None)."""
    ndim = len(x.shape)
    axes = tuple(range(ndim)) if axis is None else _axes(axis, ndim)
    # An index of reversed slices, ending in an Ellipsis so that numpy and
    # CuPy give a 0-d view of a 0-d array (xp.flip gives a scalar).
    index = tuple(slice(None, None, -1) if d in axes else slice(None)
                  for d in range(ndim)) + (Ellipsis,)
    return _on_backing(x, lambda xp, a: a[index], lambda a: a.flip(axes))


def moveaxis(x, source, destination, /):
    """Dims `source` moved to positions `destination` (the others keep
    their order)."""
    return _on_backing(x, lambda xp, a: xp.moveaxis(a, source, destination),
                       lambda a: a.movedim(source, destination))


def broadcast_to(x, /, shape):
    """x broadcast to `shape` by the core's rules (a zero-stride view)."""
    shape = tuple(operator.index(n) for n in shape)
    have = tuple(x.shape)
    if len(have) > len(shape) or tuple(_core.broadcast_shapes([list(have), list(shape)])) != shape:
        raise BroadcastError("cannot broadcast shape %s to shape %s" % (
            _core.format_shape(list(have)), _core.format_shape(list(shape))))
    return _on_backing(x, lambda xp, a: xp.broadcast_to(a, shape), lambda a: a.expand(shape))


def broadcast_arrays(*arrays):
    """The arrays broadcast to their common shape (the core's rules)."""
    shape = tuple(_core.broadcast_shapes([list(a.shape) for a in arrays]))
    return [broadcast_to(a, shape) for a in arrays]


def unstack(x, /, *, axis=0):
    """The views of x at each index along `axis`, as a tuple."""
    (axis,) = _axes(axis, len(x.shape))
    return _on_backing(x, lambda xp, a: _numpy_like_unstack(xp, a, axis),
                       lambda a: tuple(a.unbind(axis)))


def _numpy_like_unstack(xp, a, axis):
    """The views of a numpy or CuPy array at each index along `axis`;
    `m[i, ...]` is a 0-d view where an element of a 1-d array would be a
    scalar."""
    m = xp.moveaxis(a, axis, 0)
    return tuple(m[i, ...] for i in range(m.shape[0]))


__all__ = ["permute_dims", "expand_dims", "squeeze", "flip", "moveaxis", "broadcast_to",
           "broadcast_arrays", "unstack"]
