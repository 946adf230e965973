# Strided inputs: Fortran-order .npy files, permute_dims (transposed views),
# flip (negative strides), extract_slice with steps (negative included),
# expand_dims + broadcast (zero strides), squeeze; views feeding elementwise
# ops and views returned directly, static and dynamic shapes.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(51)


def f32(*shape):
    return gen.floats("f32", int(np.prod(shape))).reshape(shape)


# Fortran-order inputs mixed with C-order ones.
fn = Func("fortran")
a = fn.arg(TType([5, 7], "f32"), f32(5, 7), order="F")
b = fn.arg(TType([5, 7], "f32"), f32(5, 7))
c = fn.arg(TType([None, None, None], "i16"), gen.values("i16", 60).reshape(3, 4, 5), order="F")
d = fn.arg(TType([3, 4, 5], "i16"), gen.values("i16", 60).reshape(3, 4, 5), order="F")
h = fn.arg(TType([5, 7], "bf16"), gen.floats("bf16", 35).reshape(5, 7), order="F")
fn.ret(fn.binary("add", a, b), fn.binary("multiply", a, a), fn.binary("subtract", c, d),
       fn.unary("exp", h), fn.binary("add", h, a), fn.unary("negative", c))
suite.check(fn)

# permute_dims: transposes of 2-D and 3-D tensors, with static/dynamic dims.
fn = Func("permute")
a = fn.arg(TType([4, 6], "f32"), f32(4, 6))
b = fn.arg(TType([6, 4], "f32"), f32(6, 4))
c = fn.arg(TType([None, 3, None], "i32"), gen.values("i32", 2 * 3 * 5).reshape(2, 3, 5))
e = fn.arg(TType([5, 2, 3], "i32"), gen.values("i32", 30).reshape(5, 2, 3), order="F")
at = fn.permute_dims(a, [1, 0])
ct = fn.permute_dims(c, [2, 0, 1])
fn.ret(fn.binary("add", at, b), at, fn.binary("multiply", ct, e),
       fn.permute_dims(c, [1, 2, 0]), fn.unary("sqrt", fn.permute_dims(b, [-1, -2])))
suite.check(fn)

# flip: negative strides on one or several axes.
fn = Func("flip")
a = fn.arg(TType([4, 6], "f64"), gen.floats("f64", 24).reshape(4, 6))
b = fn.arg(TType([None], "ui8"), gen.values("ui8", 9))
c = fn.arg(TType([2, 3, 4], "f16"), gen.floats("f16", 24).reshape(2, 3, 4))
fa = fn.flip(a, [1])
fn.ret(fn.binary("subtract", fa, a), fn.flip(a, [0, 1]), fn.binary("add", fn.flip(b, [0]), b),
       fn.unary("sin", fn.flip(c, [0, -1])), fn.flip(fn.permute_dims(a, [1, 0]), [0]))
suite.check(fn)

# extract_slice: offsets, sizes, steps (negative steps read backwards).
fn = Func("slice")
a = fn.arg(TType([4, 8], "f32"), f32(4, 8))
b = fn.arg(TType([4, 4], "f32"), f32(4, 4))
c = fn.arg(TType([10], "i64"), gen.values("i64", 10))
d = fn.arg(TType([3, 5, 7], "i8"), gen.values("i8", 105).reshape(3, 5, 7), order="F")
s1 = fn.extract_slice(a, [0, 7], [4, 4], [1, -2])       # odd columns, reversed
s2 = fn.extract_slice(a, [3, 1], [2, 3], [-2, 3])
s3 = fn.extract_slice(c, [9], [5], [-2])
s4 = fn.extract_slice(c, [1], [3], [3])
s5 = fn.extract_slice(d, [2, 4, 1], [2, 3, 3], [-1, -2, 2])
fn.ret(fn.binary("add", s1, b), s2, fn.binary("multiply", s3, s3), fn.binary("subtract", s4, fn.extract_slice(c, [8], [3], [-3])),
       fn.unary("bitwise_invert", s5), s1)
suite.check(fn)

# expand_dims + broadcast (zero strides), squeeze.
fn = Func("expand")
a = fn.arg(TType([5], "f32"), f32(5))
b = fn.arg(TType([None], "i32"), gen.values("i32", 3, ilo=-100, ihi=100))
c = fn.arg(TType([1, 6, 1], "f64"), gen.floats("f64", 6).reshape(1, 6, 1))
n = fn.arg("index", 4)
ea = fn.expand_dims(a, 0)                        # 1x5
eb = fn.expand_dims(b, -1)                       # ?x1
ba = fn.broadcast(ea, [None, 5], [n])            # ?x5, stride 0 along dim 0
fn.ret(fn.binary("add", ea, eb), ba, fn.binary("multiply", ba, ba),
       fn.squeeze(c, [0, 2]), fn.binary("add", fn.squeeze(c, [-1]), fn.expand_dims(fn.squeeze(c, [0, 2]), 1)))
suite.check(fn)
sys.exit(suite.finish())
