"""The meta step on concrete arrays (TensorIterator in small): broadcast
shape, placement, dimension order and coalescing.

Broadcasting happens here, as zero strides, so every tensor operand of a
kernel has the task shape and the compiled code's run-time broadcast checks
always pass (a failing one would stop the process; here it is an exception).
Dimensions are then reordered outer-to-inner by the operands' strides (when
they agree, else kept row-major) and adjacent dimensions that are contiguous
in every operand are merged: all-contiguous operands of any shape run as one
rank-1 kernel, so kernels are compiled per coalesced rank, not per shape.
Results computed in the coalesced space are reshaped and transposed back
(views, no copies).
"""

from . import _arrays as A
from . import _core
from . import _dtypes as D
from ._errors import BroadcastError


def common_device(tensors):
    """The device all tensors share ("" for the host); DeviceError with the
    compiler's message (the semantics library's placement rule) otherwise."""
    return _core.common_placement([t.device or None for t in tensors]) or ""


def _expanded_strides(t, shape):
    rank = len(shape)
    pad = rank - t.ndim
    sh = [1] * pad + list(t.shape)
    st = [0] * pad + list(t.strides)
    return [0 if sh[i] == 1 else st[i] for i in range(rank)]


class Plan:
    """How one elementwise call maps onto a kernel of rank `self.rank`."""

    def __init__(self, inputs, outputs, coalesce=True):
        """`inputs`: tensor operands (Tensor); `outputs`: Tensor or None per
        output (None: allocated by the compiled code)."""
        self.shape = D.broadcast_shapes([t.shape for t in inputs])
        for i, o in enumerate(outputs):
            if o is not None and tuple(o.shape) != self.shape:
                raise BroadcastError(
                    "out= operand #%d has shape %s, but the broadcast shape of the inputs is %s"
                    % (i, D.format_shape(o.shape), D.format_shape(self.shape)))
        self.inputs = inputs
        self.outputs = outputs
        shape = self.shape
        rank = len(shape)
        in_strides = [_expanded_strides(t, shape) for t in inputs]
        out_strides = [list(o.strides) for o in outputs if o is not None]
        if not coalesce:
            self.perm = list(range(rank))
            self.groups = [[d] for d in range(rank)]
        else:
            # The semantics library's rule (Iteration.h).
            strides = out_strides + in_strides
            self.perm = _core.order_dimensions(list(shape), strides)
            self.groups = _core.coalesce_dimensions(list(shape), strides, self.perm)
        self.task_shape = []
        for g in self.groups:
            n = 1
            for d in g:
                n *= shape[d]
            self.task_shape.append(n)
        if not self.groups:  # rank 0, or only size-1 dims: one element
            self.task_shape = [1] if coalesce else []
        if 0 in shape and coalesce:
            self.task_shape = [0]
            self.groups = None
        self.rank = len(self.task_shape)
        self.in_strides = in_strides
        self.out_strides = [None if o is None else list(o.strides) for o in outputs]

    def _task_strides(self, strides):
        if self.groups is None:  # empty
            return [1]
        if not self.groups:
            return [0] * self.rank
        return [strides[g[-1]] for g in self.groups]

    def input(self, i):
        """Tensor input `i` viewed in the task space."""
        t = self.inputs[i]
        return A.Tensor(t.dtype, t.device, t.ptr, self.task_shape,
                        self._task_strides(self.in_strides[i]), t.framework, t.obj, t.keep)

    def output(self, i):
        """Given output `i` viewed in the task space."""
        o = self.outputs[i]
        return A.Tensor(o.dtype, o.device, o.ptr, self.task_shape,
                        self._task_strides(self.out_strides[i]), o.framework, o.obj, o.keep)

    def restore(self, result):
        """A result array of the task space as an array of the broadcast
        shape, in the original dimension order."""
        if self.groups is None or list(result.shape) == list(self.shape) and \
                self.perm == list(range(len(self.shape))):
            return A.reshape(result, self.shape)
        permuted = [self.shape[d] for d in self.perm]
        r = A.reshape(result, permuted)
        inv = [0] * len(self.perm)
        for i, d in enumerate(self.perm):
            inv[d] = i
        return A.permute(r, inv)
