# take against numpy's: every dtype, 1-D to 3-D sources along each axis
# (negative axes too), indices of several integer dtypes with negative
# ones, repeats and every position; sources that are views (transposed,
# flipped, stepped); static and dynamic shapes; empty indices and an empty
# source dim beside them.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(67)


def positions(n, count, dt):
    """`count` indices into an axis of n elements: each position, some
    negative (counted from the end) where the dtype is signed, repeats."""
    at = gen.rng.integers(0, n, count)
    if not dt.startswith("ui"):
        flip = gen.rng.random(count) < 0.4
        at = np.where(flip, at - n, at)
    return at.astype(NP[dt])


# Every dtype: a 1-D source (no axis) and a 2-D one along each axis.
for dt in ALL_DTYPES:
    fn = Func("all_" + dt)
    line = fn.tensor(gen.array(dt, (11,)), dt, dynamic=True)
    m = fn.tensor(gen.array(dt, (5, 7)), dt)
    i = fn.tensor(positions(11, 9, "i64"), "i64", dynamic=True)
    r = fn.tensor(positions(5, 6, "i32"), "i32")
    c = fn.tensor(positions(7, 4, "i64"), "i64", dynamic=True)
    fn.ret(fn.take(line, i), fn.take(m, r, axis=0), fn.take(m, c, axis=-1))
    suite.check(fn)

# Index dtypes, 3-D sources along the middle axis, negative axes.
for idt in ["i8", "ui8", "i16", "ui16", "i32", "ui32", "ui64"]:
    fn = Func("indices_" + idt)
    x = fn.tensor(gen.array("f32", (3, 6, 4)), "f32", dynamic=True)
    i = fn.tensor(positions(6, 10, idt), idt, dynamic=True)
    j = fn.tensor(positions(3, 5, idt), idt)
    fn.ret(fn.take(x, i, axis=1), fn.take(x, j, axis=-3))
    suite.check(fn)

# Views: a transposed, a flipped and a stepped source.
fn = Func("views")
a = fn.tensor(gen.array("f64", (6, 9)), "f64", dynamic=True)
i = fn.tensor(positions(6, 8, "i64"), "i64", dynamic=True)
j = fn.tensor(positions(3, 4, "i32"), "i32")
fn.ret(fn.take(fn.permute_dims(a, [1, 0]), i, axis=1),
       fn.take(fn.flip(a, [0]), i, axis=0),
       fn.take(fn.extract_slice(a, [1, 0], [3, 9], [2, 1]), j, axis=0))
suite.check(fn)

# Nothing taken, from a source with an empty dim beside the axis.
fn = Func("empty")
x = fn.tensor(gen.array("i32", (0, 5)), "i32", dynamic=True)
none = fn.tensor(np.zeros(0, np.int64), "i64", dynamic=True)
i = fn.tensor(positions(5, 3, "i64"), "i64")
y = fn.tensor(gen.array("f32", (4,)), "f32")
fn.ret(fn.take(x, i, axis=1), fn.take(y, none), fn.take(x, none, axis=1))
suite.check(fn)

sys.exit(suite.finish())
