# Layout decisions (ptensor-coalesce-dims, linalg-fold-unit-extent-dims):
# each elementwise loop nest runs its flat contiguous fast path when the
# run-time strides of all its operands are row-major (size-1 dims ignored)
# and its strided loop nest otherwise; both give numpy's answer. Every case
# names the path it takes; contiguous views of non-trivial IR (a permuted
# Fortran array, a row slice with an offset, a flip of a flip) take the
# fast path, which must then honour the view's offset.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(83)
DYN3 = [None, None, None]


def vals(dt, *shape):
    return gen.values(dt, int(np.prod(shape))).reshape(shape)


# Contiguous operands (fast path), static and dynamic shapes, several dtypes
# and a fused chain; the allocated results are contiguous too.
fn = Func("contiguous")
a = fn.arg(TType(DYN3, "f32"), vals("f32", 4, 5, 6))
b = fn.arg(TType([4, 5, 6], "f32"), vals("f32", 4, 5, 6))
c = fn.arg(TType([None, 7], "i32"), vals("i32", 3, 7))
d = fn.arg(TType([3, 7], "i8"), vals("i8", 3, 7))
h = fn.arg(TType([2, 3, 4, 5], "bf16"), vals("bf16", 2, 3, 4, 5))
fn.ret(fn.binary("add", a, b), fn.unary("exp", fn.binary("multiply", a, b)),
       fn.binary("subtract", c, d), fn.unary("negative", h), fn.binary("add", h, h))
suite.check(fn)

# Fortran-order and mixed-order operands (strided path: one operand that is
# not row-major is enough); a permutation that makes a Fortran array
# row-major again (fast path).
fn = Func("fortran")
a = fn.arg(TType(DYN3, "f64"), vals("f64", 4, 5, 6), order="F")
b = fn.arg(TType(DYN3, "f64"), vals("f64", 4, 5, 6))
f = fn.arg(TType([6, 5, 4], "f64"), vals("f64", 6, 5, 4), order="F")
fn.ret(fn.binary("add", a, b), fn.unary("sqrt", fn.unary("abs", a)),
       fn.binary("multiply", fn.permute_dims(f, [2, 1, 0]), b))
suite.check(fn)

# Transposes (strided path, result allocated row-major or in the inputs'
# order), flips (negative strides: strided path) and a flip of a flip.
fn = Func("transpose_flip")
a = fn.arg(TType([5, 6], "f32"), vals("f32", 5, 6))
b = fn.arg(TType([None, None], "f32"), vals("f32", 6, 5))
c = fn.arg(TType([3, 4, 5], "i16"), vals("i16", 3, 4, 5))
at = fn.permute_dims(a, [1, 0])
fn.ret(fn.binary("add", at, b), fn.binary("multiply", at, at),
       fn.binary("subtract", fn.flip(c, [2]), c), fn.unary("negative", fn.flip(c, [0, 1])),
       fn.binary("add", fn.flip(fn.flip(a, [0]), [0]), a))
suite.check(fn)

# Slices: whole rows at an offset (row-major: fast path through the view's
# offset), partial rows and steps (strided path), a negative step.
fn = Func("slices")
a = fn.arg(TType([6, 5, 4], "f32"), vals("f32", 6, 5, 4))
b = fn.arg(TType([2, 5, 4], "f32"), vals("f32", 2, 5, 4))
rows = fn.extract_slice(a, [3, 0, 0], [2, 5, 4], [1, 1, 1])
part = fn.extract_slice(a, [1, 1, 0], [2, 3, 4], [1, 1, 1])
step = fn.extract_slice(a, [0, 0, 1], [2, 5, 2], [3, 1, 2])
back = fn.extract_slice(a, [5, 4, 3], [2, 5, 4], [-1, -1, -1])
fn.ret(fn.binary("add", rows, b), fn.unary("exp", rows), fn.binary("multiply", part, part),
       fn.binary("subtract", step, fn.extract_slice(b, [0, 0, 0], [2, 5, 2], [1, 1, 2])),
       fn.binary("add", back, b))
suite.check(fn)

# Broadcasts: a row (the outer dims merge: two loops), a column (nothing
# merges, unit innermost stride), a scalar, and dynamic shapes that
# broadcast at run time (zero strides: strided path) or do not (fast path).
fn = Func("broadcast")
a = fn.arg(TType([4, 5, 6], "f32"), vals("f32", 4, 5, 6))
row = fn.arg(TType([6], "f32"), vals("f32", 6))
col = fn.arg(TType([5, 1], "f32"), vals("f32", 5, 1))
col6 = fn.arg(TType([6, 1], "f32"), vals("f32", 6, 1))
s = fn.arg("f32", 1.5)
x = fn.arg(TType(DYN3, "f32"), vals("f32", 4, 5, 6))
y1 = fn.arg(TType(DYN3, "f32"), vals("f32", 1, 5, 6))
y2 = fn.arg(TType(DYN3, "f32"), vals("f32", 4, 5, 6))
fn.ret(fn.binary("add", a, row), fn.binary("multiply", a, col), fn.binary("add", a, s),
       fn.binary("subtract", x, y1), fn.binary("subtract", x, y2),
       fn.binary("add", fn.permute_dims(a, [0, 2, 1]), col6))
suite.check(fn)

# Size-1 dims: static ones are dropped at compile time; dynamic ones are
# ignored by the run-time check whatever their stride (a Fortran-order
# 1x1x7 array is row-major); a Fortran 4x1x6 array is not.
fn = Func("unit_dims")
a = fn.arg(TType([4, 1, 6], "f32"), vals("f32", 4, 1, 6))
b = fn.arg(TType([4, 1, 6], "f32"), vals("f32", 4, 1, 6), order="F")
c = fn.arg(TType(DYN3, "i64"), vals("i64", 1, 1, 7), order="F")
d = fn.arg(TType(DYN3, "i64"), vals("i64", 1, 1, 7))
e = fn.arg(TType(DYN3, "f64"), vals("f64", 4, 1, 6), order="F")
g = fn.arg(TType(DYN3, "f64"), vals("f64", 4, 1, 6))
fn.ret(fn.binary("add", a, a), fn.binary("multiply", a, b), fn.binary("add", c, d),
       fn.binary("subtract", e, g), fn.unary("negative", e),
       fn.binary("add", fn.squeeze(a, [1]), fn.expand_dims(fn.squeeze(b, [1]), 0)))
suite.check(fn)
sys.exit(suite.finish())
