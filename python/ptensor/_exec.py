"""Running one elementwise kernel on concrete arguments: placement, meta
step, kernel lookup (memory, disk, compiler), the call, and results."""

import contextlib
import threading

from . import _arrays as A
from . import _dtypes as D
from . import _ffi
from . import _ir
from ._errors import DTypeError
from ._iterator import Plan, common_device


_mode = threading.local()


@contextlib.contextmanager
def compile_only():
    """Within this context elementwise calls compile (or load) their kernels
    and return None without running them: arguments may then be
    `ptensor.Tensor` descriptions of arrays that do not exist here, e.g.
    GPU arrays (device "cuda:0") on a machine without a GPU, to fill the
    kernel cache (PTENSOR_CACHE_DIR) for a machine without the compiler."""
    old = getattr(_mode, "compile_only", False)
    _mode.compile_only = True
    try:
        yield
    finally:
        _mode.compile_only = old


class ScalarArg:
    """A weak builtin scalar operand: its scalar type and Python value."""

    __slots__ = ("dtype", "value")

    def __init__(self, dtype, value):
        self.dtype = dtype
        self.value = value


def operand(x, scalar_type=None):
    """Tensor for arrays, ScalarArg for scalars."""
    if A.is_scalar(x):
        return ScalarArg(*A.scalar_arg(x, scalar_type))
    return A.as_tensor(x)


def spec_of(op):
    return ("t", op.dtype) if isinstance(op, A.Tensor) else ("s", op.dtype)


def promotion_operands(ops):
    """(dtype, is_weak) pairs for _dtypes.promote."""
    return [(op.dtype, not isinstance(op, A.Tensor)) for op in ops]


def result_framework(tensors):
    # Any ptensor.Array operand makes the results Arrays (_arrays.ARRAY_PREFIX).
    for t in tensors:
        if t.framework.startswith(A.ARRAY_PREFIX):
            return t.framework
    fw = tensors[0].framework if tensors else "numpy"
    return "numpy" if fw == "dlpack" and not tensors[0].device else fw


def execute(key, ops, result_dtypes, outs, build, coalesce=True):
    """Runs the kernel of `key` on `ops` (Tensor/ScalarArg).

    `result_dtypes`: the dtypes the kernel's op produces (one per output).
    `outs`: per output, an array to write into, or None.
    `build(rank, device, specs, out_dtypes)` returns (ir, function name);
    out_dtypes is None for the functional form.
    Returns one array or a tuple (several outputs).
    """
    tensors = [op for op in ops if isinstance(op, A.Tensor)]
    out_tensors = [None if o is None else A.as_tensor(o) for o in outs]
    given = [t for t in out_tensors if t is not None]
    device = common_device(tensors + given)
    framework = result_framework(tensors)
    out_objs = list(outs)
    if given:
        shape = D.broadcast_shapes([t.shape for t in tensors])
        for i, t in enumerate(out_tensors):
            if t is None:  # some outputs given: allocate the others here
                out_objs[i] = A.empty_like_framework(framework, shape, result_dtypes[i], device)
                out_tensors[i] = A.as_tensor(out_objs[i])
        for i, (t, rd) in enumerate(zip(out_tensors, result_dtypes)):
            if not D.can_cast_to_out(rd, t.dtype):
                raise DTypeError("result dtype %s can't be cast to the dtype %s of out= "
                                 "operand #%d" % (rd, t.dtype, i))
            if t.framework == "numpy" and t.obj is not None and not t.obj.flags.writeable:
                raise ValueError("out= operand #%d is a read-only array" % i)
    plan = Plan(tensors, out_tensors, coalesce=coalesce)
    values = []
    k = 0
    for op in ops:
        if isinstance(op, A.Tensor):
            values.append(plan.input(k))
            k += 1
        else:
            values.append(op.value)
    specs = tuple(spec_of(op) for op in ops)
    out_dtypes = None
    if given:
        out_dtypes = tuple(t.dtype for t in out_tensors)
        first_out = len(values)
        values += [plan.output(i) for i in range(len(out_tensors))]
        _ffi.check_written(values, range(first_out, len(values)), "operand")
    full_key = (key, plan.rank, device, specs, tuple(result_dtypes), out_dtypes)

    def build_kernel():
        ir, name = build(plan.rank, device, specs, out_dtypes)
        return ir, name, device

    fn = _ir.cached_kernel(full_key, build_kernel)
    if getattr(_mode, "compile_only", False):
        return None
    raws = fn.call_raw(values)
    if given:
        results = out_objs
    else:
        results = []
        for raw, rd in zip(raws, result_dtypes):
            r = A.make_result(raw.allocated, raw.aligned, raw.offset, raw.sizes, raw.strides,
                              rd, device, framework, raw.owns)
            results.append(A.wrap_result(plan.restore(r), framework))
    return results[0] if len(results) == 1 else tuple(results)


def arg_types(specs, rank, device):
    return [_ir.ptensor_type(rank, dt, device) if k == "t" else dt for k, dt in specs]
