# reshape, concat, stack, roll, tril/triu, eye and meshgrid against numpy:
# every dtype; contiguous, transposed, sliced-with-steps, flipped and
# zero-stride (broadcast) operands; static and dynamic shapes; sizes 0 and
# 1; mixed dtypes (promotion) in concat/stack; reshape as a view, as a copy
# (copy = true) and chosen at run time; elementwise producers and consumers
# fused with the copies.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(31)

ALL = ALL_DTYPES


def data(dt, shape):
    return gen.array(dt, shape)


# Every dtype through every op, static and dynamic.
for dt in ALL:
    fn = Func("all_" + dt)
    a = fn.tensor(data(dt, (4, 6)), dt)
    b = fn.tensor(data(dt, (3, 6)), dt, dynamic=True)
    fn.ret(fn.reshape(a, [3, -1]), fn.reshape(b, [-1]),
           fn.combine("concat", [a, b], 0), fn.combine("stack", [b, b], -1),
           fn.roll(a, [1, -2], [0, 1]), fn.roll(b, [7], [1]),
           fn.triangle("lower", a, 1), fn.triangle("upper", b, -1))
    suite.check(fn)

# reshape of views: transposed, stepped, flipped, broadcast (zero strides):
# copies (chosen at run time, or forced), and views of a contiguous slice
# (a leading offset). A dynamic size operand, the inferred -1 and 0-d.
fn = Func("reshape_views")
a = fn.tensor(data("f32", (6, 8)), "f32", dynamic=True)
s = fn.tensor(data("f64", (5,)), "f64")
n = fn.arg("index", 4)
at = fn.permute_dims(a, [1, 0])
stepped = fn.extract_slice(a, [1, 0], [2, 8], [2, 1])
rows = fn.extract_slice(a, [2, 0], [3, 8], [1, 1])
flipped = fn.flip(a, [0])
bcast = fn.broadcast(fn.expand_dims(s, 0), [3, 5])
one = fn.extract_slice(s, [2], [1], [1])
fn.ret(fn.reshape(at, [-1]), fn.reshape(at, [4, -1], copy=True),
       fn.reshape(stepped, [16]), fn.reshape(rows, [None, 6], sizes=[n]),
       fn.reshape(rows, [-1], copy=False), fn.reshape(flipped, [2, 3, 8]),
       fn.reshape(bcast, [15]), fn.reshape(one, []), fn.reshape(fn.reshape(one, []), [1, 1]))
suite.check(fn)

# Size 0: reshape, concat with an empty part, roll and tril of empty dims.
fn = Func("empty")
z = fn.tensor(data("f32", (0, 3)), "f32", dynamic=True)
a = fn.tensor(data("f32", (2, 3)), "f32", dynamic=True)
fn.ret(fn.reshape(z, [3, 0]), fn.combine("concat", [z, a, z], 0),
       fn.roll(z, [2], [0]), fn.triangle("lower", z))
suite.check(fn)

# concat/stack: mixed dtypes and layouts, three operands, every axis.
fn = Func("combine_mixed")
a = fn.tensor(data("f16", (2, 3, 4)), "f16")
b = fn.tensor(data("f32", (4, 3, 2)), "f32", dynamic=True)
c = fn.tensor(data("i8", (2, 3, 4)), "i8")
d = fn.tensor(data("i1", (2, 3, 4)), "i1")
bt = fn.permute_dims(b, [2, 1, 0])
cf = fn.flip(c, [1])
fn.ret(fn.combine("concat", [a, bt, cf], 0), fn.combine("concat", [a, bt], 1),
       fn.combine("concat", [a, cf, d], -1), fn.combine("stack", [a, bt, cf], 0),
       fn.combine("stack", [c, d], 2), fn.combine("stack", [d, cf], -1),
       fn.combine("concat", [d, d], 0))
suite.check(fn)

# roll: shifts larger than the size, negative, repeated axes (they add up),
# one shift for several axes, 3-D with a transposed operand.
fn = Func("roll_shifts")
a = fn.tensor(data("i32", (5, 7)), "i32", dynamic=True)
b = fn.tensor(data("f32", (3, 4, 5)), "f32")
fn.ret(fn.roll(a, [12], [0]), fn.roll(a, [-3], [-1]), fn.roll(a, [2, 3], [1, 1]),
       fn.roll(a, [4], [0, 1]), fn.roll(fn.permute_dims(b, [2, 0, 1]), [1, -1, 2], [0, 1, 2]),
       fn.roll(a, [0], [0]), fn.roll(a, [5], [0]))
suite.check(fn)

# Row parts starting at any column (on the GPU: the row-vector path with a
# lead before each row's first aligned element and a rest after its last
# whole vector): rolls along rows of sizes a multiple of the vector width,
# concat along columns with parts of odd widths, in 1-, 2- and 4-byte
# dtypes; a part of one column (the general path).
fn = Func("row_parts")
a = fn.tensor(data("f32", (5, 40)), "f32", dynamic=True)
h = fn.tensor(data("f16", (3, 40)), "f16")
q = fn.tensor(data("i8", (4, 64)), "i8", dynamic=True)
l = fn.tensor(data("f32", (3, 13)), "f32")
r = fn.tensor(data("f32", (3, 19)), "f32", dynamic=True)
fn.ret(fn.roll(a, [3], [1]), fn.roll(a, [-5], [1]), fn.roll(h, [3], [1]),
       fn.roll(q, [5], [1]), fn.roll(q, [-17], [1]),
       fn.combine("concat", [l, r], 1), fn.combine("concat", [r, l, l], 1))
suite.check(fn)

# tril/triu with batch dims, offsets beyond the matrix, non-square, views.
fn = Func("triangles")
a = fn.tensor(data("f64", (2, 3, 4, 5)), "f64", dynamic=True)
b = fn.tensor(data("ui8", (6, 4)), "ui8")
for k in (-2, 0, 3, 9):
    fn.ret(fn.triangle("lower", a, k), fn.triangle("upper", a, k))
fn.ret(fn.triangle("lower", fn.permute_dims(b, [1, 0]), -1),
       fn.triangle("upper", fn.flip(b, [0]), 1))
suite.check(fn)

# Fused neighbours: an elementwise producer of a concat operand, a consumer
# of a roll and of a triangle, a reshape between two elementwise ops.
fn = Func("fused")
a = fn.tensor(data("f32", (4, 6)), "f32", dynamic=True)
b = fn.tensor(data("f32", (4, 6)), "f32", dynamic=True)
sq = fn.binary("multiply", a, a)
cat = fn.combine("concat", [sq, b], 1)
rolled = fn.binary("add", fn.roll(a, [1], [1]), b)
tri = fn.binary("subtract", fn.triangle("lower", a), b)
flat = fn.unary("negative", fn.reshape(fn.binary("add", a, b), [-1]))
fn.ret(cat, rolled, tri, flat)
suite.check(fn)

# eye: static and dynamic sizes, offsets, dtypes; meshgrid xy and ij.
fn = Func("eye_meshgrid")
n = fn.arg("index", 5)
x = fn.tensor(data("f32", (3,)), "f32")
y = fn.tensor(data("f32", (4,)), "f32", dynamic=True)
z = fn.tensor(data("f32", (2,)), "f32")
results = [fn.eye([4, 4], "f32"), fn.eye([None, 3], "i32", k=1, sizes=[n]),
           fn.eye([3, None], "bf16", k=-2, sizes=[n]), fn.eye([2, 6], "i1", k=4)]
results += fn.meshgrid("xy", [x, y]) + fn.meshgrid("ij", [x, y, z]) + fn.meshgrid("xy", [y])
fn.ret(*results)
suite.check(fn)

sys.exit(suite.finish())
