"""`@ptensor.pointwise`: FlagGems' `pointwise_dynamic` on ptensor.

    @ptensor.pointwise(is_tensor=[True, True, False], dtypes=[None, None, float],
                       promotion_methods=[(0, 1, "DEFAULT")])
    def add_func(x, y, alpha):
        return x + y * alpha

    add_func(a, b, 0.5)             # broadcasting, promotion, new output
    add_func(a, b, 0.5, out0=a)     # in place

The function is traced with one symbolic scalar per input (see _trace.py)
into the body of a `ptensor.pointwise` op, once per kernel signature: rank
after coalescing, operand dtypes, device, functional or out= form. Kernels
are cached in memory and on disk like every other ptensor kernel.

promotion_methods has one entry per output: `(i, j, ..., METHOD)`,
`((i, j), METHOD)` or just `METHOD` (all inputs). The dialect's op types
each output by its method over *all* inputs; when the listed inputs give a
different dtype, the output is cast to it (the computation itself does not
change: it happens in the wider type).
"""

import inspect
import itertools

from . import _dtypes as D
from . import _trace as T
from ._arrays import StridedBuffer, as_tensor, is_scalar, scalar_arg
from ._errors import BroadcastError, TraceError
from ._exec import arg_types, execute
from ._ir import ptensor_type, wrap_function

_ids = itertools.count()


class _Scalar:
    """A scalar operand's type (weak unless declared) for the meta step."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = dtype


def _promotion_operands(ops):
    """(dtype, is_weak) pairs of described operands."""
    return [(op.dtype, isinstance(op, _Scalar)) for op in ops]


def _normalize_methods(promotion_methods, num_inputs, num_outputs):
    if promotion_methods is None:
        promotion_methods = ["DEFAULT"] * (num_outputs or 1)
    if isinstance(promotion_methods, (str, tuple)) or hasattr(promotion_methods, "name"):
        promotion_methods = [promotion_methods]
    out = []
    for entry in promotion_methods:
        if isinstance(entry, str) or hasattr(entry, "name"):
            idx, method = tuple(range(num_inputs)), entry
        else:
            entry = tuple(entry)
            if not entry:
                raise ValueError("empty promotion method entry")
            method = entry[-1]
            idx = entry[:-1]
            if len(idx) == 1 and isinstance(idx[0], (tuple, list)):
                idx = tuple(idx[0])
            if not idx:
                idx = tuple(range(num_inputs))
        for i in idx:
            if not isinstance(i, int) or not 0 <= i < num_inputs:
                raise ValueError("promotion method argument index %r is out of range for %d "
                                 "inputs" % (i, num_inputs))
        out.append((tuple(idx), D.normalize_method(method)))
    if num_outputs is not None and len(out) != num_outputs:
        raise ValueError("num_outputs=%d but %d promotion methods are given"
                         % (num_outputs, len(out)))
    return out


class PointwiseFunction:
    """The callable a `@ptensor.pointwise` decoration returns."""

    def __init__(self, fn, is_tensor=None, dtypes=None, promotion_methods=None,
                 num_inputs=None, num_outputs=None, name=None):
        fn = getattr(fn, "fn", fn)  # accept a triton.jit-style wrapper
        self.fn = fn
        if num_inputs is None:
            if is_tensor is not None:
                num_inputs = len(is_tensor)
            elif dtypes is not None:
                num_inputs = len(dtypes)
            else:
                params = inspect.signature(fn).parameters.values()
                num_inputs = sum(1 for p in params if p.kind in (
                    p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
        self.num_inputs = num_inputs
        self.is_tensor = list(is_tensor) if is_tensor is not None else [True] * num_inputs
        self.dtypes = list(dtypes) if dtypes is not None else [None] * num_inputs
        if len(self.is_tensor) != num_inputs or len(self.dtypes) != num_inputs:
            raise ValueError("is_tensor and dtypes must have one entry per input (%d)"
                             % num_inputs)
        self.promotion_methods = _normalize_methods(promotion_methods, num_inputs, num_outputs)
        self.num_outputs = len(self.promotion_methods)
        base = name or getattr(fn, "__name__", "pointwise")
        self.name = "pointwise_" + "".join(c if c.isalnum() or c == "_" else "_" for c in base)
        self._key = ("pointwise", next(_ids))
        self.__name__ = getattr(fn, "__name__", "pointwise")
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn

    def __repr__(self):
        return "<ptensor.PointwiseFunction %s (%d inputs, %d outputs)>" % (
            self.__name__, self.num_inputs, self.num_outputs)

    # -- meta -----------------------------------------------------------------

    def _operands(self, args):
        """(operand descriptions, declared scalar types): a Tensor per array,
        a _Scalar per scalar."""
        if len(args) != self.num_inputs:
            raise TypeError("%s expects %d inputs (outputs go by keyword: out0=...), got %d"
                            % (self.__name__, self.num_inputs, len(args)))
        ops, scalar_types = [], []
        for i, (x, tensor, dt) in enumerate(zip(args, self.is_tensor, self.dtypes)):
            if is_scalar(x):
                st = None
                if not tensor and dt is not None:
                    st = D.canonical(dt)
                    if st == "index":
                        st = "i64"
                ops.append(_Scalar(scalar_arg(x, st)[0]))
                scalar_types.append(st)
            else:
                if not tensor:
                    raise TypeError("%s: input #%d is declared a non-tensor (is_tensor) but "
                                    "got %s" % (self.__name__, i, type(x).__name__))
                ops.append(as_tensor(x))
                scalar_types.append(None)
        return ops, scalar_types

    def _outputs(self, kwargs):
        outs = [None] * self.num_outputs
        kwargs = dict(kwargs)
        if "out" in kwargs:
            if self.num_outputs != 1:
                raise TypeError("out= is only for single-output functions; use out0=, out1=")
            outs[0] = kwargs.pop("out")
        for i in range(self.num_outputs):
            v = kwargs.pop("out%d" % i, None)
            if v is not None:
                outs[i] = v
        if kwargs:
            raise TypeError("%s got unexpected keyword arguments %s (inputs are positional, "
                            "outputs out0=...)" % (self.__name__, sorted(kwargs)))
        return outs

    def result_dtypes(self, ops):
        """(declared dtypes over all inputs, final dtypes over each output's
        listed inputs)."""
        allp = _promotion_operands(ops)
        common = D.promote(allp)
        declared, final = [], []
        for idx, method in self.promotion_methods:
            declared.append(D.apply_method(method, common))
            sub = D.promote([allp[i] for i in idx])
            final.append(D.apply_method(method, sub))
        return declared, final

    # -- IR -------------------------------------------------------------------

    def trace(self, specs, declared):
        """Body lines (block header, ops, yield) for operand `specs`."""
        body = T.Body()
        params, args = [], []
        for i, (k, dt, _) in enumerate(specs):
            if k == "t":
                sem, weak = D.compute_type(dt), False
            else:
                sem, weak = ("i64" if dt == "index" else dt), True
            s = T.Scalar(body, "%%x%d" % i, sem, weak)
            args.append(s)
            params.append("%s: %s" % (s.name, s.type))
        with body:
            res = self.fn(*args)
            results = list(res) if isinstance(res, (tuple, list)) else [res]
            if len(results) != self.num_outputs:
                raise TraceError("%s returned %d values, but %d outputs are declared "
                                 "(promotion_methods / num_outputs)"
                                 % (self.__name__, len(results), self.num_outputs))
            yields = []
            for r, dt in zip(results, declared):
                try:
                    v = T.lift(r, body)
                except TraceError:
                    raise TraceError("%s returned %r, which is not a traced scalar or a number"
                                     % (self.__name__, r)) from None
                yields.append(T.convert(v, dt, weak=False))
        lines = ["^bb0(%s):" % ", ".join(params)]
        lines += ["  " + ln for ln in body.lines]
        lines.append("  ptensor.yield %s : %s" % (", ".join(v.name for v in yields),
                                                  ", ".join(v.type for v in yields)))
        return lines

    def _build(self, declared, final):
        def build(rank, device, specs, result_dtypes, out_dtypes):
            types = arg_types(specs, rank, device)
            dtypes_decl = [ptensor_type(rank, dt, device) for dt in declared]
            n = self.num_outputs
            res = "%p" if n == 1 else "%%p:%d" % n
            vals = ["%p"] if n == 1 else ["%%p#%d" % i for i in range(n)]
            lines = ["%s = ptensor.pointwise (%s) promotion [%s] : (%s) -> (%s) {" % (
                res, ", ".join("%%a%d" % i for i in range(len(specs))),
                ", ".join(m for _, m in self.promotion_methods), ", ".join(types),
                ", ".join(dtypes_decl))]
            lines += self.trace(specs, declared)
            lines.append("}")
            final_types = []
            for i, (v, d, f) in enumerate(zip(list(vals), declared, final)):
                ft = ptensor_type(rank, f, device)
                final_types.append(ft)
                if d != f:
                    lines.append("%%sub%d = ptensor.cast %s : %s -> %s" % (
                        i, v, dtypes_decl[i], ft))
                    vals[i] = "%%sub%d" % i
            outs = None
            if out_dtypes is not None:
                outs = [ptensor_type(rank, dt, device) for dt in out_dtypes]
            return wrap_function(self.name, types, lines, vals, final_types, outs), self.name
        return build

    def ir(self, *args, **kwargs):
        """The IR text of the kernel these arguments would use (for
        inspection; rank is that of the broadcast shape, uncoalesced)."""
        ops, _ = self._operands(args)
        outs = self._outputs(kwargs)
        declared, final = self.result_dtypes(ops)
        rank = len(D.broadcast_shapes([op.shape for op in ops if hasattr(op, "shape")]))
        device = next((op.device for op in ops if hasattr(op, "shape")), "")
        specs = tuple(("t" if hasattr(op, "shape") else "s", op.dtype, ()) for op in ops)
        out_dtypes = None
        if any(o is not None for o in outs):
            from ._arrays import as_tensor
            out_dtypes = tuple(as_tensor(o).dtype if o is not None else f
                               for o, f in zip(outs, final))
        return self._build(declared, final)(rank, device, specs, final, out_dtypes)[0]

    # -- calls ----------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        ops, scalar_types = self._operands(args)
        outs = self._outputs(kwargs)
        declared, final = self.result_dtypes(ops)
        return execute(self._key + (tuple(declared),), args, scalar_types, final, outs,
                       self._build(declared, final))

    def instantiate(self, rank):
        """The kernel of task rank `rank` without the meta step's broadcast
        and coalescing: every tensor input (arrays or StridedBuffers, any
        strides, negative ones included) must have the output shape, and
        outputs (out0=...) are written as given."""
        return _Overload(self, rank)


class _Overload:
    def __init__(self, fn, rank):
        self.fn = fn
        self.rank = rank

    def __repr__(self):
        return "<ptensor pointwise overload %s rank %d>" % (self.fn.__name__, self.rank)

    def __call__(self, *args, **kwargs):
        f = self.fn
        ops, scalar_types = f._operands(args)
        outs = f._outputs(kwargs)
        shapes = [op.shape for op in ops if hasattr(op, "shape")]
        for o in outs:
            if o is not None:
                shapes.append(o.shape if isinstance(o, StridedBuffer) else tuple(o.shape))
        for s in shapes:
            if len(s) != self.rank or tuple(s) != tuple(shapes[0]):
                raise BroadcastError(
                    "%s.instantiate(%d): every tensor must have one shape of rank %d, got %s"
                    % (f.__name__, self.rank, self.rank,
                       " and ".join(D.format_shape(x) for x in shapes)))
        declared, final = f.result_dtypes(ops)
        return execute(f._key + (tuple(declared), "instantiated"), args, scalar_types,
                       final, outs, f._build(declared, final), coalesce=False)


def pointwise(fn=None, *, is_tensor=None, dtypes=None, promotion_methods=None,
              num_inputs=None, num_outputs=None, name=None):
    """Decorator turning a scalar function into a broadcasting elementwise
    kernel (see the module docstring). Usable bare (`@ptensor.pointwise`,
    all inputs tensors, one DEFAULT output) or with arguments."""

    def deco(f):
        return PointwiseFunction(f, is_tensor=is_tensor, dtypes=dtypes,
                                 promotion_methods=promotion_methods, num_inputs=num_inputs,
                                 num_outputs=num_outputs, name=name)

    return deco(fn) if fn is not None else deco
