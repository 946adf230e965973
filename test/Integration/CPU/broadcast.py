# Broadcasting (NumPy rules, right-aligned): static shapes, dynamic `?` dims
# resolved at run time (a `?` of size 1 stretches), rank-0 tensors, size-0
# dimensions, and the explicit ptensor.broadcast op with dynamic result sizes.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(41)


def f32(*shape):
    return gen.floats("f32", int(np.prod(shape))).reshape(shape)


def i32(*shape):
    return gen.values("i32", int(np.prod(shape)), ilo=-1000, ihi=1000).reshape(shape)


# Static shapes.
fn = Func("static")
a = fn.arg(TType([4, 1], "f32"), f32(4, 1))
b = fn.arg(TType([5], "f16"), gen.floats("f16", 5))
c = fn.arg(TType([2, 1, 3], "i32"), i32(2, 1, 3))
d = fn.arg(TType([1, 4, 1], "i32"), i32(1, 4, 1))
e = fn.arg(TType([1], "f32"), f32(1))
g = fn.arg(TType([3, 1, 2], "f64"), gen.floats("f64", 6).reshape(3, 1, 2))
fn.ret(fn.binary("add", a, b), fn.binary("multiply", c, d), fn.binary("subtract", e, g),
       fn.binary("maximum", d, c), fn.binary_test("less", a, b))
suite.check(fn)

# Dynamic dims: sizes known only at run time, some of them 1.
fn = Func("dynamic")
a = fn.arg(TType([None, None], "f32"), f32(3, 1))
b = fn.arg(TType([None, None], "f32"), f32(1, 4))
c = fn.arg(TType([None], "i32"), i32(5))
d = fn.arg(TType([4, 1], "i32"), i32(4, 1))
e = fn.arg(TType([None], "f32"), f32(1))       # ? of size 1 against 7
h = fn.arg(TType([7], "f32"), f32(7))
p = fn.arg(TType([None, 6], "f64"), gen.floats("f64", 12).reshape(2, 6))
q = fn.arg(TType([None, None], "f64"), gen.floats("f64", 12).reshape(2, 6))
fn.ret(fn.binary("add", a, b), fn.binary("multiply", c, d), fn.binary("subtract", e, h),
       fn.binary("divide", p, q), fn.where(fn.binary_test("greater", a, b), a, b))
suite.check(fn)

# Rank 0.
fn = Func("rank0")
s = fn.arg(TType([], "f32"), np.array(1.25, np.float32))
t = fn.arg(TType([], "i8"), np.array(3, np.int8))
m = fn.arg(TType([3, 4], "f32"), f32(3, 4))
v = fn.arg(TType([None], "i8"), gen.values("i8", 6))
fn.ret(fn.binary("add", s, m), fn.binary("multiply", t, v), fn.binary("subtract", s, t),
       fn.unary("exp", s), fn.binary("pow", t, t), fn.binary_test("equal", t, v))
suite.check(fn)

# Size 0.
fn = Func("size0")
z = fn.arg(TType([0, 3], "f32"), np.zeros((0, 3), np.float32))
r = fn.arg(TType([3], "f32"), f32(3))
zd = fn.arg(TType([None, 3], "i32"), np.zeros((0, 3), np.int32))
o = fn.arg(TType([1, 3], "i32"), i32(1, 3))
e0 = fn.arg(TType([None], "f64"), np.zeros((0,), np.float64))
e1 = fn.arg(TType([None], "f64"), gen.floats("f64", 1))
fn.ret(fn.binary("add", z, r), fn.binary("multiply", zd, o), fn.binary("add", e0, e1),
       fn.unary("sqrt", z), fn.cast(zd, "f16"), fn.binary_test("less", e0, e1))
suite.check(fn)

# The explicit broadcast op, static and dynamic result sizes (ptensor.dim).
fn = Func("broadcast_op")
a = fn.arg(TType([4, 1], "f32"), f32(4, 1))
n = fn.arg("index", 3)
dyn = fn.arg(TType([None, 1], "i16"), gen.values("i16", 2).reshape(2, 1))
w = fn.arg(TType([None], "i16"), gen.values("i16", 5))
b1 = fn.broadcast(a, [None, 4, 7], [n])
b2 = fn.broadcast(a, [2, 4, 5])
b3 = fn.broadcast(dyn, [None, None], [fn.dim(dyn, 0), fn.dim(w, 0)])
b4 = fn.broadcast(fn.unary("negative", a), [4, 3])
fn.ret(b1, b2, b3, b4, fn.binary("add", b3, w))
suite.check(fn)
sys.exit(suite.finish())
