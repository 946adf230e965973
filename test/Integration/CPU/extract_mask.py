# extract_mask (x[mask]) against numpy: every dtype; masks of the full rank
# and of fewer dims (rows selected); contiguous, transposed, sliced and
# flipped operands and masks; static and dynamic shapes; no element, every
# element and size-0 inputs; a computed mask (a comparison) and a consumer
# of the result. Exported to the GPU check like every suite.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(37)

ALL = ALL_DTYPES


def data(dt, shape):
    return gen.array(dt, shape)


for dt in ALL:
    fn = Func("dtype_" + dt)
    x = fn.tensor(data(dt, (5, 6)), dt)
    m = fn.tensor(data("i1", (5, 6)), "i1")
    y = fn.tensor(data(dt, (7,)), dt, dynamic=True)
    n = fn.tensor(data("i1", (7,)), "i1", dynamic=True)
    fn.ret(fn.extract_mask(x, m), fn.extract_mask(y, n))
    suite.check(fn)

# Views as operands and masks; a row mask of a 3-D tensor (sub-tensors
# selected); all-false and all-true masks; an empty input.
fn = Func("views")
x = fn.tensor(data("f32", (6, 4)), "f32", dynamic=True)
m = fn.tensor(data("i1", (4, 6)), "i1")
r = fn.tensor(data("i32", (5, 3, 2)), "i32", dynamic=True)
rows = fn.tensor(data("i1", (5,)), "i1")
none = fn.tensor(np.zeros((3, 3), bool), "i1")
every = fn.tensor(np.ones((3, 3), bool), "i1")
sq = fn.tensor(data("f64", (3, 3)), "f64")
empty = fn.tensor(data("f32", (0, 4)), "f32", dynamic=True)
emask = fn.tensor(np.zeros((0, 4), bool), "i1", dynamic=True)
fn.ret(fn.extract_mask(fn.permute_dims(x, [1, 0]), m),
       fn.extract_mask(fn.flip(x, [0]), fn.permute_dims(m, [1, 0])),
       fn.extract_mask(fn.extract_slice(x, [0, 1], [3, 2], [2, 2]),
                       fn.extract_slice(m, [1, 0], [3, 2], [1, 3])),
       fn.extract_mask(r, rows), fn.extract_mask(fn.permute_dims(r, [0, 2, 1]), rows),
       fn.extract_mask(sq, none), fn.extract_mask(sq, every),
       fn.extract_mask(empty, emask))
suite.check(fn)

# A computed mask and a consumer: (x * 2)[x > 0] + 1.
fn = Func("computed")
x = fn.tensor(data("f32", (4, 5)), "f32", dynamic=True)
zero = fn.constant(0.0, "f32")
one = fn.constant(1.0, "f32")
pos = fn.binary_test("greater", x, zero)
sel = fn.extract_mask(fn.binary("multiply", x, x), pos)
fn.ret(fn.binary("add", sel, one))
suite.check(fn)

sys.exit(suite.finish())
