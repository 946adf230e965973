"""Executing tests of ptensor: IR generation, numpy references, comparison.

A test builds functions with `Func`, whose methods emit one ptensor op each
and compute its numpy reference eagerly (shape and dtype follow the promotion
and broadcasting rules of DESIGN.md, reimplemented here independently of the
compiler). `Suite.check(func)` runs the function with ptensor-runner and
compares every result:

  * dtype and shape exactly;
  * integers and bools exactly;
  * floats against a float64 reference computed from the operands converted
    to the computation dtype, within a tolerance in units in the last place
    of the result dtype (0 for exact kinds, 1 for IEEE basic arithmetic, 4
    for libm-style functions on f32/f64, 1 for everything on f16/bf16, which
    is computed in f32 and rounded once); NaN and inf positions must match.

When a function with several results fails to compile or run, each result is
retried alone so that the failing op is named.

dtypes.py holds the dtype rules and conversions, references.py the numpy
reference of every kind, compare.py the numpy-only comparison and executor
plumbing shared with check_exported.py; `from harness import *` gives all.

Environment:
  PTENSOR_RUNNER            executor command (default: ptensor-runner on PATH)
  PTENSOR_CASE_EXPORT_DIR   do not run; write every case there (compare.py's
                            layout) to be replayed by check_exported.py
  PTENSOR_TEST_DEVICE       e.g. cuda:0: add `device = "..."` to every ptensor
                            type of the generated modules
  PTENSOR_KEEP_TMP          keep the temporary directories of failed cases
  PTENSOR_TEST_RETRY_BUDGET seconds per test file after which failing batches
                            are no longer retried result by result (40)
  PTENSOR_TEST_STATIC_ONLY  Func.tensor(dynamic=True) gives static shapes
                            (tells dynamic-shape bugs from value bugs)
"""

import os
import re
import shutil
import sys
import tempfile
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare as cmp  # noqa: E402

from dtypes import *  # noqa: E402,F401,F403
from dtypes import BF16, NP, SCALAR_NP  # noqa: E402,F401
from references import *  # noqa: E402,F401,F403
from references import _int_binary, _int_unary  # noqa: E402


# ---------------------------------------------------------------------------
# Types and values
# ---------------------------------------------------------------------------

class TType:
    """A ptensor type: shape (None = dynamic) and dtype."""

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = dtype

    def __str__(self):
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        return "!ptensor.ptensor<%s%s>" % (dims, self.dtype)

    is_tensor = True


class SType:
    """A builtin scalar type (weak in promotion)."""

    def __init__(self, name):
        self.name = name
        self.dtype = name
        self.shape = ()

    def __str__(self):
        return self.name

    is_tensor = False


class Value:
    def __init__(self, name, type_, ref, deps, exact=None, tol=None, desc="",
                 sources=()):
        self.name = name
        self.type = type_
        self.ref = ref          # numpy array of the dtype (the rounded result)
        self.exact = exact      # float64 reference before rounding (floats)
        self.tol = tol
        self.desc = desc
        self.deps = deps        # frozenset of line numbers computing it
        self.sources = list(sources)

    @property
    def dtype(self):
        return self.type.dtype

    @property
    def weak(self):
        return not self.type.is_tensor

    def pdtype(self):
        """dtype for promotion (index counts as i64)."""
        return "i64" if self.dtype == "index" else self.dtype


class Func:
    """Builds one func.func whose ops carry numpy references."""

    def __init__(self, name, desc=""):
        self.name = name
        self.desc = desc or name
        self.args = []      # (Value, array to save)
        self.lines = []
        self.results = []
        self._n = 0

    # -- plumbing ---------------------------------------------------------
    def _fresh(self):
        self._n += 1
        return "%%v%d" % self._n

    def _line(self, text, operands):
        self.lines.append(text)
        deps = frozenset([len(self.lines) - 1])
        for o in operands:
            deps |= o.deps
        return deps

    def arg(self, type_, data, order="C"):
        """A function argument: TType(shape, dtype) (or a shape/dtype pair) or
        a scalar type name; `data` is its value (shape may differ where the
        type has `?`). order='F' saves a Fortran-order .npy."""
        if isinstance(type_, str):
            type_ = SType(type_)
            data = np.asarray(data, dtype=SCALAR_NP[type_.name]).reshape(())
        else:
            data = np.asarray(data)
            assert data.dtype == np.dtype(NP[type_.dtype]), (data.dtype, type_.dtype)
            assert len(data.shape) == len(type_.shape), (data.shape, type_.shape)
            for d, s in zip(type_.shape, data.shape):
                assert d is None or d == s, (data.shape, type_.shape)
        v = Value("%%arg%d" % len(self.args), type_, data, frozenset(),
                  desc="arg%d" % len(self.args))
        # (np.ascontiguousarray would turn a 0-d array into a 1-d one.)
        save = np.array(data, order="F" if order == "F" else "C", copy=True)
        self.args.append((v, save))
        return v

    def tensor(self, data, dtype, dynamic=False, order="C"):
        """Shortcut: an argument with the data's shape (all `?` if dynamic)."""
        data = np.asarray(data, dtype=NP[dtype])
        if os.environ.get("PTENSOR_TEST_STATIC_ONLY"):
            dynamic = False  # to tell dynamic-shape bugs from value bugs
        shape = [None] * data.ndim if dynamic else list(data.shape)
        return self.arg(TType(shape, dtype), data, order=order)

    def _float_result(self, name, ttype, exact, category, desc, sources, deps):
        dt = ttype.dtype
        ref = round_to(exact, dt)
        exact = np.asarray(exact, np.float64)
        # Beyond the overflow threshold the correctly rounded result is inf.
        exact = np.where(np.isinf(to_f64(ref)) & np.isfinite(exact), to_f64(ref), exact)
        return Value(name, ttype, ref, deps, exact=exact,
                     tol=tolerance(category, dt), desc=desc, sources=sources)

    def _result(self, name, ttype, ref, desc, sources, deps):
        return Value(name, ttype, np.asarray(ref, dtype=NP[ttype.dtype]), deps,
                     desc=desc, sources=sources)

    @staticmethod
    def _shape(operands):
        return broadcast_static([o.type.shape for o in operands if o.type.is_tensor])

    @staticmethod
    def _ops_desc(operands):
        return ", ".join(str(o.type) for o in operands)

    # -- elementwise ------------------------------------------------------
    def unary(self, kind_, x, tol=None):
        dt = x.dtype
        if kind_ == "bitwise_invert":
            assert kind(dt) != "f"
        else:
            assert dt != "i1", "arithmetic on bool"
        method = "DEFAULT" if kind_ in UNARY_DEFAULT else "INT_TO_FLOAT"
        rdt = apply_method(method, dt)
        rt = TType(x.type.shape, rdt)
        name = self._fresh()
        deps = self._line("%s = ptensor.elementwise_unary %s %s : (%s) -> %s"
                          % (name, kind_, x.name, x.type, rt), [x])
        desc = "%s(%s)" % (kind_, x.type)
        if kind(rdt) == "f":
            cat, fn = UNARY_FLOAT[kind_]
            with np.errstate(all="ignore"):
                exact = fn(to_f64(convert(x.ref, dt, rdt)))
            v = self._float_result(name, rt, exact, cat, desc, [("x", x)], deps)
            if tol is not None:
                v.tol = tol
            return v
        return self._result(name, rt, _int_unary(kind_, x.ref, dt), desc, [("x", x)], deps)

    def unary_test(self, kind_, x):
        rt = TType(x.type.shape, "i1")
        name = self._fresh()
        deps = self._line("%s = ptensor.elementwise_unary_test %s %s : (%s) -> %s"
                          % (name, kind_, x.name, x.type, rt), [x])
        return self._result(name, rt, unary_test_ref(kind_, x.ref, x.dtype),
                            "%s(%s)" % (kind_, x.type), [("x", x)], deps)

    def binary(self, kind_, a, b, tol=None):
        assert a.type.is_tensor or b.type.is_tensor
        if kind_ in BITWISE:
            assert kind(a.dtype) != "f" and kind(b.dtype) != "f"
            if kind_ in SHIFTS:
                assert a.dtype != "i1" and b.dtype != "i1"
        else:
            assert not (a.dtype == "i1" and b.dtype == "i1")
        common = promote([(a.pdtype(), a.weak), (b.pdtype(), b.weak)])
        method = "INT_TO_FLOAT" if kind_ in BINARY_INT_TO_FLOAT else "DEFAULT"
        rdt = apply_method(method, common)
        rt = TType(self._shape([a, b]), rdt)
        name = self._fresh()
        deps = self._line("%s = ptensor.elementwise_binary %s %s, %s : (%s, %s) -> %s"
                          % (name, kind_, a.name, b.name, a.type, b.type, rt), [a, b])
        desc = "%s(%s)" % (kind_, self._ops_desc([a, b]))
        x, y = convert(a.ref, a.dtype, rdt), convert(b.ref, b.dtype, rdt)
        if kind(rdt) == "f":
            cat, fn = BINARY_FLOAT[kind_]
            with np.errstate(all="ignore"):
                exact = fn(to_f64(x), to_f64(y))
            v = self._float_result(name, rt, exact, cat, desc, [("a", a), ("b", b)], deps)
            if tol is not None:
                v.tol = tol
            return v
        return self._result(name, rt, _int_binary(kind_, x, y, rdt), desc,
                            [("a", a), ("b", b)], deps)

    def binary_test(self, kind_, a, b):
        common = promote([(a.pdtype(), a.weak), (b.pdtype(), b.weak)])
        rt = TType(self._shape([a, b]), "i1")
        name = self._fresh()
        deps = self._line("%s = ptensor.elementwise_binary_test %s %s, %s : (%s, %s) -> %s"
                          % (name, kind_, a.name, b.name, a.type, b.type, rt), [a, b])
        x, y = convert(a.ref, a.dtype, common), convert(b.ref, b.dtype, common)
        return self._result(name, rt, binary_test_ref(kind_, x, y, common),
                            "%s(%s) in %s" % (kind_, self._ops_desc([a, b]), common),
                            [("a", a), ("b", b)], deps)

    def where(self, c, x, y):
        assert c.dtype == "i1" and c.type.is_tensor
        common = promote([("i1", False), (x.pdtype(), x.weak), (y.pdtype(), y.weak)])
        rt = TType(self._shape([c, x, y]), common)
        name = self._fresh()
        deps = self._line("%s = ptensor.where %s, %s, %s : (%s, %s, %s) -> %s"
                          % (name, c.name, x.name, y.name, c.type, x.type, y.type, rt),
                          [c, x, y])
        xr, yr = convert(x.ref, x.dtype, common), convert(y.ref, y.dtype, common)
        ref = np.where(np.asarray(c.ref, bool), xr, yr).astype(NP[common])
        desc = "where(%s)" % self._ops_desc([c, x, y])
        src = [("c", c), ("x", x), ("y", y)]
        if kind(common) == "f":
            return self._float_result(name, rt, to_f64(ref), "exact", desc, src, deps)
        return self._result(name, rt, ref, desc, src, deps)

    def cast(self, x, dt):
        rt = TType(x.type.shape, dt)
        name = self._fresh()
        deps = self._line("%s = ptensor.cast %s : %s -> %s" % (name, x.name, x.type, rt), [x])
        ref = convert(x.ref, x.dtype, dt)
        desc = "cast %s -> %s" % (x.dtype, dt)
        if kind(dt) == "f":
            v = self._float_result(name, rt, to_f64(ref), "exact", desc, [("x", x)], deps)
            return v
        return self._result(name, rt, ref, desc, [("x", x)], deps)

    # -- reductions ---------------------------------------------------------
    REDUCTION_OPS = {"max": "reduce", "min": "reduce", "mean": "reduce", "prod": "reduce",
                     "sum": "reduce", "std": "reduce", "var": "reduce", "any": "test",
                     "all": "test", "argmax": "find_index", "argmin": "find_index"}

    def reduction(self, kind_, x, axes=None, keepdims=False, dtype=None, correction=0.0):
        """ptensor.reduce/test/find_index `kind_` of `x` over `axes` (None:
        all; for argmax/argmin one int or None) with numpy's reference,
        computed in float64 (or exactly, for integers)."""
        op = self.REDUCTION_OPS[kind_]
        rank = len(x.type.shape)
        if op == "find_index":
            dims = list(range(rank)) if axes is None else [axes % rank]
        else:
            dims = list(range(rank)) if axes is None else sorted(a % rank for a in axes)
        shape = []
        for d, n in enumerate(x.type.shape):
            if d not in dims:
                shape.append(n)
            elif keepdims:
                shape.append(1)
        dt = x.dtype
        if kind_ in ("sum", "prod"):
            rdt = dtype or (dt if kind(dt) == "f" else "ui64" if kind(dt) == "u" else "i64")
        elif kind_ in ("any", "all"):
            rdt = "i1"
        elif kind_ in ("argmax", "argmin"):
            rdt = "i64"
        else:
            rdt = dt
        rt = TType(shape, rdt)
        attrs = []
        if keepdims:
            attrs.append("keepdims = true")
        if dtype:
            attrs.append("dtype = %s" % dtype)
        if correction:
            attrs.append("correction = %r : f64" % float(correction))
        where = ""
        if op == "find_index" and axes is not None:
            where = " axis %d" % axes
        elif op != "find_index" and axes is not None:
            where = " axes [%s]" % ", ".join(map(str, axes))
        name = self._fresh()
        deps = self._line("%s = ptensor.%s %s %s%s%s : %s -> %s" % (
            name, op, kind_, x.name, where, " {%s}" % ", ".join(attrs) if attrs else "",
            x.type, rt), [x])
        desc = "%s%s(%s)%s" % (kind_, where, x.type, " keepdims" if keepdims else "")
        ax = tuple(dims)
        data = x.ref
        if kind_ in ("argmax", "argmin"):
            v = to_f64(data) if kind(dt) == "f" else data
            if axes is None:
                flat = np.asarray(v).reshape(-1)
                ref = np.asarray(getattr(np, kind_)(flat)).reshape([1] * rank if keepdims else [])
            else:
                ref = getattr(np, kind_)(v, axis=dims[0], keepdims=keepdims)
            return self._result(name, rt, ref, desc, [("x", x)], deps)
        if kind_ in ("any", "all"):
            ref = getattr(np, kind_)(np.asarray(data) != 0, axis=ax, keepdims=keepdims)
            return self._result(name, rt, ref, desc, [("x", x)], deps)
        if kind(rdt) != "f":  # integer sums/products wrap; max/min exact
            if kind_ in ("max", "min"):
                ref = getattr(np, kind_)(data, axis=ax, keepdims=keepdims)
            else:
                fn = np.sum if kind_ == "sum" else np.prod
                # A requested dtype casts the input first (floats truncate).
                ref = fn(convert(data, dt, rdt), axis=ax, keepdims=keepdims,
                         dtype=NP[rdt])
            return self._result(name, rt, ref, desc, [("x", x)], deps)
        # A requested dtype casts the input first (it may round).
        v = to_f64(convert(data, dt, rdt)) if dt != rdt else to_f64(data)
        n = int(np.prod([np.asarray(data).shape[d] for d in dims]))
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy's "Mean of empty slice"
            if kind_ in ("max", "min"):
                exact = getattr(np, kind_)(v, axis=ax, keepdims=keepdims)
            elif kind_ == "sum":
                exact = np.sum(v, axis=ax, keepdims=keepdims)
            elif kind_ == "prod":
                exact = np.prod(v, axis=ax, keepdims=keepdims)
            elif kind_ == "mean":
                exact = np.mean(v, axis=ax, keepdims=keepdims)
            else:
                exact = getattr(np, kind_)(v, axis=ax, keepdims=keepdims,
                                           ddof=correction)
            # float64 accumulation: a few float64 rounding errors per element.
            scale = np.sum(np.abs(v), axis=ax, keepdims=keepdims) if n else 0.0
        out = self._float_result(name, rt, exact, "exact" if kind_ in ("max", "min") else 1.0,
                                 desc, [("x", x)], deps)
        if kind_ in ("max", "min") and x.tol is not None:
            # max/min pick an element: a computed input's error carries over.
            out.tol = dict(x.tol)
        elif kind_ in ("sum", "mean", "var", "std"):
            finite = np.asarray(scale)[np.isfinite(scale)]
            out.tol = dict(out.tol, atol=float(np.max(finite, initial=0.0)) * (n + 2) * 2.0 ** -50)
        elif kind_ == "prod":
            # Products in any order (the CPU's vector lanes): n - 1 roundings
            # of float64.
            magnitude = np.abs(np.asarray(exact))
            finite = magnitude[np.isfinite(magnitude)]
            out.tol = dict(out.tol, atol=float(np.max(finite, initial=0.0)) * (n + 2) * 2.0 ** -52)
        return out

    # -- linear algebra -----------------------------------------------------
    @staticmethod
    def _contraction_shape(op, A, B, axis, axes):
        """The static result shape (None = dynamic) of a contraction."""
        A, B = list(A), list(B)
        if op == "matmul":
            batch = list(broadcast_static([A[:-2], B[:-2]]))
            return batch + A[-2:-1] * (len(A) >= 2) + B[-1:] * (len(B) >= 2)
        if op == "vecdot":
            n = -axis if axis < 0 else len(A) - axis
            A[len(A) - n], B[len(B) - n] = 1, 1
            full = list(broadcast_static([A, B]))
            del full[len(full) - n]
            return full
        l, r = [d % len(A) for d in axes[0]], [d % len(B) for d in axes[1]]
        return ([n for d, n in enumerate(A) if d not in l]
                + [n for d, n in enumerate(B) if d not in r])

    def contraction(self, op, a, b, axis=None, axes=None):
        """ptensor.matmul / vecdot (`axis`) / tensordot (`axes`, a pair of
        lists) of `a` and `b` with numpy's reference: floats in float64 with
        a tolerance of the accumulator's rounding per product (f32 for
        f16/bf16/f32, f64 for f64), integers exactly with wrapping."""
        rdt = promote([(a.pdtype(), False), (b.pdtype(), False)])
        x, y = convert(a.ref, a.dtype, rdt), convert(b.ref, b.dtype, rdt)
        if kind(rdt) == "f":
            x, y = to_f64(x), to_f64(y)
        elif kind(rdt) == "u":
            x, y = np.asarray(x).astype(np.uint64), np.asarray(y).astype(np.uint64)
        else:
            x, y = np.asarray(x).astype(np.int64), np.asarray(y).astype(np.int64)
        attrs = ""
        if op == "matmul":
            fn = np.matmul
            k = a.ref.shape[-1]
        elif op == "vecdot":
            axis = -1 if axis is None else axis
            attrs = " {axis = %d : i64}" % axis
            fn = lambda u, v: np.sum(u * v, axis=axis if axis < 0 else axis)  # noqa: E731
            k = a.ref.shape[axis]
        else:
            l, r = axes
            attrs = " {lhs_axes = array<i64%s>, rhs_axes = array<i64%s>}" % (
                "".join(": " + ", ".join(map(str, l)) if l else ""),
                "".join(": " + ", ".join(map(str, r)) if r else ""))
            fn = lambda u, v: np.tensordot(u, v, axes=(l, r))  # noqa: E731
            k = int(np.prod([a.ref.shape[d] for d in l]))
        with np.errstate(all="ignore"):
            exact = np.asarray(fn(x, y))
            scale = np.asarray(fn(np.abs(x), np.abs(y))) if kind(rdt) == "f" else None
        rt = TType(self._contraction_shape(op, a.type.shape, b.type.shape, axis, axes), rdt)
        name = self._fresh()
        deps = self._line("%s = ptensor.%s %s, %s%s : (%s, %s) -> %s" % (
            name, op, a.name, b.name, attrs, a.type, b.type, rt), [a, b])
        desc = "%s%s(%s, %s)" % (op, attrs, a.type, b.type)
        if kind(rdt) != "f":
            return self._result(name, rt, exact.astype(NP[rdt]), desc,
                                [("a", a), ("b", b)], deps)
        out = self._float_result(name, rt, exact, 1.0, desc, [("a", a), ("b", b)], deps)
        eps = 2.0 ** -52 if rdt == "f64" else 2.0 ** -23
        finite = scale[np.isfinite(scale)]
        out.tol = dict(out.tol, atol=float(np.max(finite, initial=0.0)) * (k + 2) * eps)
        return out

    # -- views --------------------------------------------------------------
    def _view(self, text_fmt, x, shape, view, desc):
        """A view op of `x`; `view` maps an array to the same view of it."""
        rt = TType(shape, x.dtype)
        name = self._fresh()
        deps = self._line(text_fmt % {"r": name, "x": x.name, "T": x.type, "R": rt}, [x])
        v = Value(name, rt, np.asarray(view(x.ref)), deps, desc=desc, sources=[("x", x)])
        _view_tolerance(v, x, view)
        return v

    def permute_dims(self, x, axes):
        shape = [x.type.shape[a] for a in axes]
        return self._view("%%(r)s = ptensor.permute_dims %%(x)s [%s] : %%(T)s -> %%(R)s"
                          % ", ".join(map(str, axes)), x, shape,
                          lambda a: np.transpose(a, axes), "permute_dims%s" % (list(axes),))

    def flip(self, x, axes):
        return self._view("%%(r)s = ptensor.flip %%(x)s [%s] : %%(T)s -> %%(R)s"
                          % ", ".join(map(str, axes)), x, x.type.shape,
                          lambda a: np.flip(a, axis=tuple(axes)), "flip%s" % (list(axes),))

    def extract_slice(self, x, offsets, sizes, steps):
        idx = [o + np.arange(s) * st for o, s, st in zip(offsets, sizes, steps)]
        j = lambda l: ", ".join(map(str, l))
        return self._view("%%(r)s = ptensor.extract_slice %%(x)s [%s] [%s] [%s] : %%(T)s -> %%(R)s"
                          % (j(offsets), j(sizes), j(steps)), x, sizes,
                          lambda a: a[np.ix_(*idx)] if idx else a,
                          "extract_slice%s" % ([offsets, sizes, steps],))

    def expand_dims(self, x, axis):
        shape = list(x.type.shape)
        ax = axis if axis >= 0 else len(shape) + 1 + axis
        shape.insert(ax, 1)
        return self._view("%%(r)s = ptensor.expand_dims %%(x)s %d : %%(T)s -> %%(R)s" % axis,
                          x, shape, lambda a: np.expand_dims(a, ax), "expand_dims %d" % axis)

    def squeeze(self, x, axes):
        shape = [d for i, d in enumerate(x.type.shape)
                 if i not in [a % len(x.type.shape) for a in axes]]
        return self._view("%%(r)s = ptensor.squeeze %%(x)s [%s] : %%(T)s -> %%(R)s"
                          % ", ".join(map(str, axes)), x, shape,
                          lambda a: np.squeeze(a, axis=tuple(axes)), "squeeze")

    def broadcast(self, x, shape, dyn_sizes=()):
        """shape: result type shape (None = dynamic); dyn_sizes: index Values
        (one per None)."""
        assert len(dyn_sizes) == sum(d is None for d in shape)
        actual, it = [], iter(dyn_sizes)
        for d in shape:
            actual.append(int(next(it).ref) if d is None else d)
        rt = TType(shape, x.dtype)
        name = self._fresh()
        deps = self._line("%s = ptensor.broadcast %s to (%s) : %s -> %s"
                          % (name, x.name, ", ".join(v.name for v in dyn_sizes), x.type, rt),
                          [x] + list(dyn_sizes))
        view = lambda a: np.broadcast_to(a, actual)  # noqa: E731
        v = Value(name, rt, view(x.ref), deps, desc="broadcast", sources=[("x", x)])
        _view_tolerance(v, x, view)
        return v

    # -- manipulation ---------------------------------------------------------
    def reshape(self, x, shape, copy=None, sizes=()):
        """ptensor.reshape of `x` to `shape` (ints, one -1, None for a size
        given by the index Value of `sizes`, in order)."""
        it = iter(sizes)
        actual = [int(next(it).ref) if s is None else s for s in shape]
        ref = np.reshape(x.ref, actual)
        static = all(n is not None for n in x.type.shape) and None not in shape
        rshape = [ref.shape[i] if (s is not None and (s != -1 or static)) else None
                  for i, s in enumerate(shape)]
        rt = TType(rshape, x.dtype)
        name = self._fresh()
        dyn = iter(sizes)
        text = ", ".join(next(dyn).name if s is None else str(s) for s in shape)
        attrs = "" if copy is None else " {copy = %s}" % ("true" if copy else "false")
        deps = self._line("%s = ptensor.reshape %s [%s]%s : %s -> %s"
                          % (name, x.name, text, attrs, x.type, rt), [x] + list(sizes))
        v = Value(name, rt, ref, deps, desc="reshape %s" % (list(shape),), sources=[("x", x)])
        if kind(x.dtype) == "f":
            v.exact, v.tol = to_f64(ref), tolerance("exact", x.dtype)
        return v

    def combine(self, kind_, xs, axis):
        """ptensor.combine concat/stack of `xs` along `axis`, dtypes promoted."""
        rdt = promote([(x.pdtype(), False) for x in xs])
        refs = [convert(x.ref, x.dtype, rdt) for x in xs]
        shapes = [list(x.type.shape) for x in xs]
        rank = len(shapes[0])
        if kind_ == "concat":
            ax = axis % rank
            rshape = [None if any(s[d] is None for s in shapes) and d == ax else
                      next((s[d] for s in shapes if s[d] is not None), None)
                      for d in range(rank)]
            if all(s[ax] is not None for s in shapes):
                rshape[ax] = sum(s[ax] for s in shapes)
            ref = np.concatenate(refs, axis=ax)
        else:
            ax = axis % (rank + 1)
            rshape = [next((s[d] for s in shapes if s[d] is not None), None)
                      for d in range(rank)]
            rshape.insert(ax, len(xs))
            ref = np.stack(refs, axis=ax)
        rt = TType(rshape, rdt)
        name = self._fresh()
        deps = self._line("%s = ptensor.combine %s %s axis %d : (%s) -> %s" % (
            name, kind_, ", ".join(x.name for x in xs), axis,
            ", ".join(str(x.type) for x in xs), rt), list(xs))
        v = Value(name, rt, ref, deps, desc="%s axis %d" % (kind_, axis),
                  sources=[("x%d" % i, x) for i, x in enumerate(xs)])
        if kind(rdt) == "f":
            v.exact, v.tol = to_f64(ref), tolerance("exact", rdt)
        return v

    def roll(self, x, shifts, axes):
        j = lambda l: ", ".join(map(str, l))  # noqa: E731
        return self._view("%%(r)s = ptensor.roll %%(x)s shifts [%s] axes [%s] : %%(T)s -> %%(R)s"
                          % (j(shifts), j(axes)), x, x.type.shape,
                          lambda a: np.roll(a, shifts if len(shifts) > 1 else shifts[0],
                                            axis=tuple(axes)),
                          "roll %s %s" % (list(shifts), list(axes)))

    def triangle(self, kind_, x, k=0):
        fn = np.tril if kind_ == "lower" else np.triu
        return self._view("%%(r)s = ptensor.extract_triangle %s %%(x)s offset %d : %%(T)s -> %%(R)s"
                          % (kind_, k), x, x.type.shape, lambda a: fn(a, k),
                          "extract_triangle %s %d" % (kind_, k))

    def sort(self, x, axis=-1, descending=False, stable=True, indices=False,
             runs=None):
        """ptensor.sort (or ptensor.argsort with `indices`) along `axis`,
        against numpy's stable argsort (descending: the stable ascending
        order of the flipped line, flipped back, so ties keep their order
        and NaNs come first). `runs` (an i64 value) is the sort's hint of
        where sorted runs of each line end: the result is the same."""
        ref_idx = sort_indices_ref(x.ref, x.dtype, axis, descending)
        op = "argsort" if indices else "sort"
        attrs = []
        if descending:
            attrs.append("descending = true")
        if not stable:
            attrs.append("stable = false")
        attr_text = " {%s}" % ", ".join(attrs) if attrs else ""
        runs_text = ("" if runs is None else
                     " runs %s : %s" % (runs.name.replace("%", "%%"), runs.type))
        text = ("%%(r)s = ptensor.%s %%(x)s axis %d%s%s : %%(T)s -> %%(R)s"
                % (op, axis, runs_text, attr_text))
        desc = "%s axis %d%s%s" % (op, axis, " runs" if runs else "", attr_text)
        def sorted_view(a):
            return np.take_along_axis(np.asarray(a), ref_idx, axis)
        if not indices and runs is None:
            return _stable_zeros(self._view(text, x, x.type.shape, sorted_view, desc),
                                 stable)
        if indices:
            rt, ref = TType(x.type.shape, "i64"), ref_idx.astype(np.int64)
        else:
            rt, ref = TType(x.type.shape, x.dtype), sorted_view(x.ref)
        operands = [x] + ([] if runs is None else [runs])
        name = self._fresh()
        deps = self._line(text % {"r": name, "x": x.name, "T": x.type, "R": rt}, operands)
        v = Value(name, rt, ref, deps, desc=desc,
                  sources=[("x%d" % i, o) for i, o in enumerate(operands)])
        if not indices:
            _view_tolerance(v, x, sorted_view)
            _stable_zeros(v, stable)
        return v

    def searchsorted(self, s, v, side="left", sorter=None):
        """ptensor.searchsorted of the values `v` in the 1-D `s` (through
        `sorter`, when given), against numpy's searchsorted (which
        compares an integer against a float in float64 too)."""
        # bfloat16 as float32 (exact): ml_dtypes' ordering puts NaNs
        # anywhere, numpy's float32 puts them last like ptensor.sort.
        def searched(x):
            a = np.asarray(x.ref)
            return a.astype(np.float32) if a.dtype == BF16 else a
        ref = np.searchsorted(searched(s), searched(v), side=side,
                              sorter=None if sorter is None else np.asarray(sorter.ref))
        rt = TType(v.type.shape, "i64")
        operands = [s, v] + ([] if sorter is None else [sorter])
        name = self._fresh()
        deps = self._line("%s = ptensor.searchsorted %s %s, %s%s : (%s) -> %s" % (
            name, side, s.name, v.name,
            "" if sorter is None else " sorter " + sorter.name,
            ", ".join(str(o.type) for o in operands), rt), operands)
        return Value(name, rt, np.asarray(ref, np.int64),
                     deps, desc="searchsorted " + side,
                     sources=[("x%d" % i, o) for i, o in enumerate(operands)])

    def extract_mask(self, x, mask):
        """ptensor.extract_mask: x[mask] (numpy's boolean indexing)."""
        k = len(mask.type.shape)
        ref = np.asarray(x.ref)[np.asarray(mask.ref, bool)]
        rt = TType([None] + list(x.type.shape[k:]), x.dtype)
        name = self._fresh()
        deps = self._line("%s = ptensor.extract_mask %s, %s : (%s, %s) -> %s" % (
            name, x.name, mask.name, x.type, mask.type, rt), [x, mask])
        v = Value(name, rt, ref, deps, desc="extract_mask", sources=[("x", x), ("mask", mask)])
        if kind(x.dtype) == "f":
            v.exact, v.tol = to_f64(ref), tolerance("exact", x.dtype)
        return v

    def take(self, x, indices, axis=None):
        """ptensor.take: numpy's take of 1-D `indices` along `axis` (None:
        x is 1-D and no axis is written)."""
        taken = 0 if axis is None else axis % len(x.type.shape)
        ref = np.take(np.asarray(x.ref), np.asarray(indices.ref), axis=taken)
        shape = list(x.type.shape)
        shape[taken] = indices.type.shape[0]
        rt = TType(shape, x.dtype)
        name = self._fresh()
        deps = self._line("%s = ptensor.take %s, %s%s : (%s, %s) -> %s" % (
            name, x.name, indices.name,
            "" if axis is None else " axis %d" % axis, x.type, indices.type,
            rt), [x, indices])
        v = Value(name, rt, ref, deps, desc="take axis=%s" % axis,
                  sources=[("x", x), ("indices", indices)])
        if kind(x.dtype) == "f":
            v.exact, v.tol = to_f64(ref), tolerance("exact", x.dtype)
        return v

    def eye(self, shape, dtype, k=0, sizes=()):
        """ptensor.eye of static `shape` entries (None: the next index Value)."""
        it = iter(sizes)
        actual = [int(next(it).ref) if s is None else s for s in shape]
        ref = np.eye(actual[0], actual[1], k).astype(NP[dtype]) if dtype != "bf16" else \
            convert(np.eye(actual[0], actual[1], k).astype(np.float32), "f32", "bf16")
        rt = TType(list(shape), dtype)
        name = self._fresh()
        deps = self._line("%s = ptensor.eye (%s) offset %d : %s"
                          % (name, ", ".join(v.name for v in sizes), k, rt), list(sizes))
        v = Value(name, rt, ref, deps, desc="eye k=%d" % k)
        if kind(dtype) == "f":
            v.exact, v.tol = to_f64(ref), tolerance("exact", dtype)
        return v

    def meshgrid(self, indexing, xs):
        """The results of ptensor.meshgrid (a list of Values)."""
        refs = np.meshgrid(*[x.ref for x in xs], indexing=indexing)
        shape = [x.type.shape[0] for x in xs]
        if indexing == "xy" and len(xs) >= 2:
            shape[0], shape[1] = shape[1], shape[0]
        rt = TType(shape, xs[0].dtype)
        name = self._fresh()
        n = len(xs)
        deps = self._line("%s:%d = ptensor.meshgrid %s %s : (%s) -> (%s)" % (
            name, n, indexing, ", ".join(x.name for x in xs),
            ", ".join(str(x.type) for x in xs), ", ".join([str(rt)] * n)), list(xs))
        out = []
        for i, ref in enumerate(refs):
            v = Value("%s#%d" % (name, i), rt, np.asarray(ref), deps,
                      desc="meshgrid %s" % indexing,
                      sources=[("x%d" % j, x) for j, x in enumerate(xs)])
            if kind(xs[0].dtype) == "f":
                v.exact, v.tol = to_f64(ref), tolerance("exact", xs[0].dtype)
            out.append(v)
        return out

    def nonzero(self, x):
        """The results of ptensor.nonzero (a list of i64 Values, one per
        dim): numpy's nonzero (NaN is non-zero, -0.0 zero)."""
        refs = np.nonzero(np.asarray(x.ref))
        rt = TType([None], "i64")
        name = self._fresh()
        n = len(x.type.shape)
        deps = self._line("%s:%d = ptensor.nonzero %s : %s -> (%s)" % (
            name, n, x.name, x.type, ", ".join([str(rt)] * n)), [x])
        return [Value("%s#%d" % (name, d), rt, np.asarray(ref, np.int64), deps,
                      desc="nonzero", sources=[("x", x)])
                for d, ref in enumerate(refs)]

    def unique(self, x, kind_):
        """The results of ptensor.unique <kind_> (a list of Values: values,
        then indices, inverse_indices, counts as the kind has them), against
        unique_ref (numpy's stable argsort, NaNs each distinct)."""
        values, indices, inverse, counts = unique_ref(x.ref, x.dtype)
        fields = {"all": ["values", "indices", "inverse_indices", "counts"],
                  "counts": ["values", "counts"],
                  "inverse": ["values", "inverse_indices"],
                  "values": ["values"]}[kind_]
        refs = {"values": values, "indices": indices, "inverse_indices": inverse,
                "counts": counts}
        types = {"values": TType([None], x.dtype),
                 "inverse_indices": TType(x.type.shape, "i64")}
        rts = [types.get(f, TType([None], "i64")) for f in fields]
        name = self._fresh()
        deps = self._line("%s:%d = ptensor.unique %s %s : %s -> (%s)" % (
            name, len(fields), kind_, x.name, x.type, ", ".join(map(str, rts))), [x])
        results = []
        for i, (field, rt) in enumerate(zip(fields, rts)):
            v = Value("%s#%d" % (name, i), rt, np.asarray(refs[field]), deps,
                      desc="unique %s: %s" % (kind_, field), sources=[("x", x)])
            if field == "values" and kind(x.dtype) == "f":
                v.exact = to_f64(refs[field])
                v.tol = tolerance("exact", x.dtype)
            results.append(v)
        return results

    def dim(self, x, d):
        name = self._fresh()
        deps = self._line("%s = ptensor.dim %s, %d : %s" % (name, x.name, d, x.type), [x])
        return Value(name, SType("index"), np.int64(x.ref.shape[d]), deps, desc="dim")

    def constant(self, value, type_name):
        """An arith.constant scalar (weak)."""
        name = self._fresh()
        if type_name in ("f32", "f64"):
            lit = repr(float(value))
            if lit in ("inf", "-inf", "nan"):
                raise ValueError("use a function argument for non-finite scalars")
        elif type_name == "i1":
            lit = "true" if value else "false"
        else:
            lit = str(int(value))
        deps = self._line("%s = arith.constant %s : %s" % (name, lit, type_name), [])
        return Value(name, SType(type_name),
                     np.asarray(value, dtype=SCALAR_NP[type_name]), deps, desc="const")

    def ret(self, *values):
        for v in values:
            assert v.type.is_tensor, "results must be ptensors"
        self.results.extend(values)
        return self

    # -- text ---------------------------------------------------------------
    def text(self, results=None):
        results = self.results if results is None else results
        need = frozenset()
        for r in results:
            need |= r.deps
        body = ["    " + self.lines[i] for i in sorted(need)]
        args = ", ".join("%s: %s" % (v.name, v.type) for v, _ in self.args)
        rtypes = ", ".join(str(r.type) for r in results)
        body.append("    return %s : %s" % (", ".join(r.name for r in results), rtypes))
        return ("module {\n  func.func @%s(%s) -> (%s) {\n%s\n  }\n}\n"
                % (self.name, args, rtypes, "\n".join(body)))

    def inputs(self):
        return [a for _, a in self.args]


# ---------------------------------------------------------------------------
# Random inputs
# ---------------------------------------------------------------------------

def _stable_zeros(v, stable):
    """`v`, sorted float values: a stable sort keeps -0.0 and +0.0 (equal)
    in input order, so the reference's signs of zeros are checked."""
    if stable and v.tol is not None:
        v.tol = dict(v.tol, signed_zeros=True)
    return v


def _view_tolerance(v, x, view):
    """A float view `v` of `x` (through `view`, an array -> view function):
    the same view of x's unrounded reference and x's tolerance when `x` is a
    computed value (a view moves its elements without rounding them), else
    exact."""
    if kind(x.dtype) != "f":
        return
    if x.exact is not None and x.tol is not None:
        v.exact, v.tol = view(np.asarray(x.exact)), dict(x.tol)
    else:
        v.exact, v.tol = to_f64(v.ref), tolerance("exact", x.dtype)


def float_specials(dt):
    fmt = cmp.FLOAT_FORMATS[dt]
    tiny = 2.0 ** (fmt[1] - fmt[0])
    return [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, tiny, cmp.max_finite(dt)]


def int_specials(dt):
    lo, hi = int_range(dt)
    return sorted(set([lo, hi, 0, 1, hi - 1] + ([-1, lo + 1] if lo < 0 else [])))


#: Every dtype of the dialect.
ALL_DTYPES = ["i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
              "f16", "bf16", "f32", "f64"]


class Gen:
    """Seeded random inputs."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def floats(self, dt, n, lo=-10.0, hi=10.0, specials=(), nonzero=False,
               halves=False, loguniform=False):
        if loguniform:
            x = np.exp(self.rng.uniform(np.log(lo), np.log(hi), n))
        else:
            x = self.rng.uniform(lo, hi, n)
        if halves:  # exact .5 cases for half-to-even
            x[: n // 2] = np.round(x[: n // 2] * 2) / 2
        if nonzero:
            x = np.where(np.abs(x) < 0.05, 0.5, x)
        x = np.concatenate([np.asarray(specials, dtype=np.float64), x])
        return round_to(x, dt)

    def array(self, dt, shape, lo=-4.0, hi=4.0, ilo=-50, ihi=50):
        """Random values of `dt` in `shape`: floats in [lo, hi], integers
        in [ilo, ihi] (from 0 for unsigned ones), bools."""
        n = int(np.prod(shape))
        if dt == "i1":
            return self.ints("i1", n).reshape(shape)
        if kind(dt) == "f":
            return self.floats(dt, n, lo=lo, hi=hi).reshape(shape)
        return self.ints(dt, n, lo=ilo if kind(dt) == "i" else 0, hi=ihi).reshape(shape)

    def ints(self, dt, n, lo=None, hi=None, specials=()):
        if dt == "i1":
            return np.concatenate([np.asarray(specials, bool),
                                   self.rng.integers(0, 2, n).astype(bool)])
        dlo, dhi = int_range(dt)
        lo = dlo if lo is None else max(lo, dlo)
        hi = dhi if hi is None else min(hi, dhi)
        vals = self.rng.integers(lo, hi, n, endpoint=True, dtype=np.int64
                                 if hi < 2 ** 63 else np.uint64)
        sp = [s for s in specials if dlo <= s <= dhi]
        return np.concatenate([np.asarray(sp, dtype=NP[dt]), vals.astype(NP[dt])])

    def values(self, dt, n, lo=-10.0, hi=10.0, ilo=None, ihi=None, **kw):
        """Floats in [lo, hi] or integers in [ilo, ihi] (default: full range)."""
        if kind(dt) == "f":
            return self.floats(dt, n, lo, hi, **kw)
        kw.pop("halves", None)
        kw.pop("loguniform", None)
        nonzero = kw.pop("nonzero", False)
        v = self.ints(dt, n, ilo, ihi, **kw)
        if nonzero:
            v = np.where(v == 0, np.asarray(1, NP[dt]), v)
        return v


# ---------------------------------------------------------------------------
# Running and reporting
# ---------------------------------------------------------------------------

def _inputs_at(v, shape):
    def at(idx):
        parts = []
        for label, src in v.sources:
            try:
                val = np.broadcast_to(src.ref, shape)[idx] if src.type.is_tensor else src.ref
                if src.dtype == "bf16" or src.dtype == "f16":
                    val = float(val)
                parts.append("%s=%s" % (label, cmp._fmt(val.item() if hasattr(val, "item") else val)))
            except Exception:  # shapes of views differ; skip
                pass
        return ", ".join(parts)
    return at


def expected_of(v):
    """(expected array, spec) of a result Value."""
    if kind(v.dtype) == "f":
        spec = {"dtype": v.dtype, "ulps": v.tol["ulps"], "atol": v.tol["atol"],
                "ftz": v.tol.get("ftz", False),
                "signed_zeros": v.tol.get("signed_zeros", False)}
        return np.asarray(v.exact, np.float64), spec
    return np.asarray(v.ref, NP[v.dtype]), {"dtype": v.dtype, "ulps": 0, "atol": 0}


class Suite:
    """Runs cases, collects failures, prints a summary."""

    def __init__(self, test_file):
        self.test = os.path.splitext(os.path.basename(test_file))[0]
        self.failures = []
        self.cases = 0
        self.outputs = 0
        self.runs = 0
        self.start = time.time()
        self.export_dir = os.environ.get("PTENSOR_CASE_EXPORT_DIR")
        self.device = os.environ.get("PTENSOR_TEST_DEVICE")
        self.cmd = cmp.executor_command()
        if len(sys.argv) > 1:  # lit passes %t: keep failed cases there
            self.tmp_root = sys.argv[1]
            shutil.rmtree(self.tmp_root, ignore_errors=True)
            os.makedirs(self.tmp_root)
        else:
            self.tmp_root = tempfile.mkdtemp(prefix="ptensor-%s-" % self.test)
        self.retry_budget = float(os.environ.get("PTENSOR_TEST_RETRY_BUDGET", "40"))

    def _module(self, text):
        return cmp.substitute_device(text, self.device) if self.device else text

    def _run(self, name, text, func, inputs):
        self.runs += 1
        d = os.path.join(self.tmp_root, "%03d_%s" % (self.runs, name))
        os.makedirs(d)
        mpath = os.path.join(d, "module.mlir")
        with open(mpath, "w") as f:
            f.write(self._module(text))
        paths = []
        for i, a in enumerate(inputs):
            p = os.path.join(d, "in%d.npy" % i)
            np.save(p, a)
            paths.append(p)
        out = os.path.join(d, "out")
        os.makedirs(out)
        rc, log, outs = cmp.run_executor(self.cmd, mpath, func, paths, out)
        return rc, log, outs, d

    def fail(self, where, msg):
        self.failures.append((where, msg))

    def check(self, fn, name=None):
        """Runs Func `fn` and compares all its results."""
        name = name or fn.name
        self.cases += 1
        results = fn.results
        if self.export_dir:
            exp = [expected_of(r) for r in results]
            specs = []
            for r, (_, s) in zip(results, exp):
                s = dict(s)
                s["desc"] = r.desc
                specs.append(s)
            cmp.write_case(os.path.join(self.export_dir, self.test, "%03d_%s" % (self.cases, name)),
                           name, self._module(fn.text()), fn.name, fn.inputs(),
                           [e for e, _ in exp], specs)
            self.outputs += len(results)
            return True
        rc, log, outs, d = self._run(name, fn.text(), fn.name, fn.inputs())
        if rc != 0 or len(outs) != len(results):
            why = ("exit %d: %s" % (rc, _tail(log)) if rc != 0 else
                   "expected %d outputs, got %d" % (len(results), len(outs)))
            if len(results) == 1:
                self.fail("%s: %s" % (name, results[0].desc), why + "\n    module: " + d)
                return False
            # Retry each result alone to name the failing ops (within a time
            # budget per test file, so that a broken compiler stays fast).
            if time.time() - self.start > self.retry_budget:
                self.fail(name, "%s\n    module: %s\n    (not retried per result: "
                          "PTENSOR_TEST_RETRY_BUDGET=%ss spent)" % (why, d, self.retry_budget))
                return False
            ok = True
            for i, r in enumerate(results):
                rc1, log1, outs1, d1 = self._run("%s_r%d" % (name, i), fn.text([r]),
                                                 fn.name, fn.inputs())
                if rc1 != 0 or len(outs1) != 1:
                    ok = False
                    msg = _tail(log1) if rc1 else "no output"
                    self.fail("%s: result %d %s" % (name, i, r.desc),
                              "exit %d: %s\n    module: %s" % (rc1, msg, d1))
                    continue
                ok &= self._compare(name, i, r, outs1[0])
            if ok:
                self.fail(name, "batch failed but every result passed alone: " + why
                          + "\n    module: " + d)
            return False
        ok = True
        for i, r in enumerate(results):
            ok &= self._compare(name, i, r, outs[i])
        if ok and not os.environ.get("PTENSOR_KEEP_TMP"):
            shutil.rmtree(d, ignore_errors=True)
        return ok

    def _compare(self, name, i, r, got):
        self.outputs += 1
        e, spec = expected_of(r)
        msgs = cmp.compare(got, e, spec, inputs_at=_inputs_at(r, e.shape))
        for m in msgs[:1]:
            self.fail("%s: result %d %s" % (name, i, r.desc), "\n  ".join(msgs))
        return not msgs

    def check_module(self, name, text, func, inputs, expected):
        """A hand-written module: expected is a list of (array, spec) where
        array is float64 for float dtypes (see expected_of)."""
        self.cases += 1
        if self.export_dir:
            cmp.write_case(os.path.join(self.export_dir, self.test, "%03d_%s" % (self.cases, name)),
                           name, self._module(text), func, inputs,
                           [np.asarray(e) for e, _ in expected],
                           [dict(s, desc=s.get("desc", name)) for _, s in expected])
            self.outputs += len(expected)
            return True
        rc, log, outs, d = self._run(name, text, func, inputs)
        if rc != 0:
            self.fail(name, "exit %d: %s\n    module: %s" % (rc, _tail(log), d))
            return False
        if len(outs) != len(expected):
            self.fail(name, "expected %d outputs, got %d" % (len(expected), len(outs)))
            return False
        ok = True
        for i, ((e, spec), got) in enumerate(zip(expected, outs)):
            self.outputs += 1
            msgs = cmp.compare(got, np.asarray(e), spec)
            if msgs:
                ok = False
                self.fail("%s: result %d %s" % (name, i, spec.get("desc", "")), "\n  ".join(msgs))
        return ok

    def finish(self):
        el = time.time() - self.start
        if not self.failures and not os.environ.get("PTENSOR_KEEP_TMP"):
            shutil.rmtree(self.tmp_root, ignore_errors=True)
        mode = "exported" if self.export_dir else "ran"
        print("%s: %s %d cases (%d runner calls), %d outputs, %d failures, %.1fs"
              % (self.test, mode, self.cases, self.runs, self.outputs,
                 len(self.failures), el))
        for where, msg in self.failures:
            print("FAIL %s\n  %s" % (where, msg))
        return 1 if self.failures else 0


def func_text(name, args, body, results):
    """A func.func @name of `body` lines (a list) over `args` ((name, type)
    pairs) returning `results` ((value, type) pairs)."""
    sig = ", ".join("%%%s: %s" % (n, t) for n, t in args)
    rets = ", ".join(r for r, _ in results)
    types = ", ".join(t for _, t in results)
    lines = "\n  ".join(body + ["return %s : %s" % (rets, types)])
    return "func.func @%s(%s) -> (%s) {\n  %s\n}\n" % (name, sig, types, lines)


def spec(dt, category="exact", desc="", ulps=None, atol=0.0):
    """Output spec for check_module."""
    if kind(dt) == "f":
        t = tolerance(category, dt)
        if ulps is not None:
            t["ulps"] = ulps
        return {"dtype": dt, "ulps": t["ulps"], "atol": atol or t["atol"],
                "ftz": t.get("ftz", False), "desc": desc}
    return {"dtype": dt, "ulps": 0, "atol": 0, "desc": desc}


def _tail(text, n=600):
    """The essential lines of a runner log: its error lines, else the end."""
    lines = [l.strip() for l in text.strip().splitlines()]
    if "Stack dump:" in text:  # a crash: name the first ptensor frames
        frames = [re.sub(r"^#\d+ 0x[0-9a-f]+ ", "", l) for l in lines if re.match(r"#\d+ ", l)]
        ours = [f for f in frames if "ptensor" in f and "main" not in f][:2]
        return "CRASH in " + ("\n      ".join(f[:300] for f in ours) or (frames[:3] and frames[3]))
    errs = [l for l in lines if "error" in l.lower() or "note: see current" in l]
    text = "\n      ".join(errs[:3]) if errs else "\n      ".join(lines[-4:])
    return text if len(text) <= n else text[:n] + "..."


_default_suite = None


def run_case(mlir_text, func, inputs, expected, name=None):
    """Runs (or, with PTENSOR_CASE_EXPORT_DIR, exports) one hand-written case:
    `expected` is a list of (array, spec(dtype, category, ...)) pairs, float
    arrays being float64 references before rounding. Returns True when every
    output matched; failures are printed by `finish()`."""
    global _default_suite
    if _default_suite is None:
        _default_suite = Suite(sys.argv[0] or "run_case")
    return _default_suite.check_module(name or func, mlir_text, func, list(inputs), expected)


def finish():
    """Summary of the run_case calls; the exit status for sys.exit."""
    return _default_suite.finish() if _default_suite else 0
