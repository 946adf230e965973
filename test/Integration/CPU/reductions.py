# Reductions (ptensor.reduce, ptensor.test, ptensor.find_index) against
# numpy: every kind over every dtype it takes; axes none, one, several,
# negative and all, with and without keepdims; inputs that are views
# (transposed, sliced with steps, flipped, 0-stride broadcasts, Fortran-order
# files); sizes 0, 1, odd and larger than one block; static and dynamic
# shapes; NaN propagation and argmax's first NaN; fused elementwise
# producers; float sums that need an accurate accumulator.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(13)

ALL_DTYPES = ["i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
              "f16", "bf16", "f32", "f64"]
FLOATS = ["f16", "bf16", "f32", "f64"]


def data(dt, shape, **kw):
    n = int(np.prod(shape))
    if kind(dt) == "f":
        return gen.floats(dt, n, **kw).reshape(shape)
    if dt == "i1":
        return gen.ints(dt, n).reshape(shape)
    # Small integers: products of a row stay exact in every result dtype.
    return gen.ints(dt, n, lo=-3 if kind(dt) == "i" else 0, hi=3).reshape(shape)


# Every kind over every dtype it takes, all axes and one axis, with a
# dynamic leading dim and keepdims.
for dt in ALL_DTYPES:
    fn = Func("kinds_" + dt)
    x = fn.tensor(data(dt, (5, 7)), dt)
    y = fn.arg(TType([None, 7], dt), data(dt, (3, 7)))
    outs = []
    for k in ["sum", "prod", "max", "min", "any", "all", "argmax", "argmin"]:
        if k == "prod" and kind(dt) == "f":
            # |x| near 1: a product of 35 values stays in range.
            continue
        outs += [fn.reduction(k, x), fn.reduction(k, y, [1] if k[:3] != "arg" else 1),
                 fn.reduction(k, y, [0] if k[:3] != "arg" else 0, keepdims=True)]
    if kind(dt) == "f":
        p = fn.tensor(data(dt, (4, 9), lo=0.5, hi=1.5), dt)
        outs += [fn.reduction("prod", p), fn.reduction("prod", p, [-1])]
        for k in ["mean", "var", "std"]:
            outs += [fn.reduction(k, x), fn.reduction(k, y, [-1]),
                     fn.reduction(k, y, [0], keepdims=True)]
        outs += [fn.reduction("var", y, [1], correction=1.0),
                 fn.reduction("std", x, [0], correction=1.0)]
    fn.ret(*outs)
    suite.check(fn)

# Axes: several, negative, all of a 3-D tensor, keepdims; empty axes list.
fn = Func("axes")
x = fn.tensor(data("f32", (3, 4, 5)), "f32", dynamic=True)
i = fn.tensor(data("i32", (3, 4, 5)), "i32")
fn.ret(fn.reduction("sum", x, [0, 2]), fn.reduction("sum", x, [-1, 0], keepdims=True),
       fn.reduction("max", x, [1, 2]), fn.reduction("min", i, [0, 1, 2], keepdims=True),
       fn.reduction("mean", x, [0, 1]), fn.reduction("var", x, [2, 0]),
       fn.reduction("sum", i, []), fn.reduction("any", i, [-2]),
       fn.reduction("argmax", x, -2, keepdims=True), fn.reduction("argmin", i, None, keepdims=True))
suite.check(fn)

# Result dtypes: sum/prod with `dtype`.
fn = Func("dtype_arg")
a = fn.tensor(data("i8", (6, 5)), "i8")
h = fn.tensor(data("f16", (6, 5)), "f16")
u = fn.tensor(data("ui16", (6, 5)), "ui16")
fn.ret(fn.reduction("sum", a, [1], dtype="i16"), fn.reduction("sum", h, dtype="f32"),
       fn.reduction("prod", u, [0], dtype="f64"), fn.reduction("sum", a, dtype="f32"))
suite.check(fn)

# A requested dtype narrower than the input, or of another kind: the input
# is cast to it first (the array API's rule; numpy's and torch's too), so
# integers wrap, floats round to it (then accumulate in f64) and truncate
# toward zero to integers.
fn = Func("dtype_arg_cast_first")
w = fn.tensor(gen.ints("i32", 40, lo=-70000, hi=70000).reshape(8, 5), "i32")
d = fn.tensor(gen.floats("f64", 40, lo=-1e4, hi=1e4).reshape(8, 5), "f64")
# 1.0039 rounds to 1 in bf16: the cast-first sum is exactly 0 (0.078 without).
c = fn.tensor(np.array([1.0039, -1.0] * 20).reshape(8, 5), "f64")
fn.ret(fn.reduction("sum", w, [1], dtype="i8"), fn.reduction("sum", w, dtype="ui16"),
       fn.reduction("sum", d, [0], dtype="f32"), fn.reduction("sum", d, [1], dtype="bf16"),
       fn.reduction("sum", d, dtype="i32"), fn.reduction("prod", w, [1], dtype="i16"),
       fn.reduction("sum", c, dtype="bf16"))
suite.check(fn)

# Views as inputs: transposed, sliced with steps, flipped, 0-stride
# broadcast, Fortran order.
fn = Func("views")
a = fn.tensor(data("f32", (6, 8)), "f32", dynamic=True)
f = fn.tensor(data("i16", (5, 7)), "i16", order="F")
n = fn.arg("index", 4)
t = fn.permute_dims(a, [1, 0])
s = fn.extract_slice(a, [5, 1], [3, 3], [-2, 2])
fl = fn.flip(a, [1])
b = fn.broadcast(fn.expand_dims(fn.extract_slice(a, [0, 0], [1, 8], [1, 1]), 0), [None, 1, 8], [n])
fn.ret(fn.reduction("sum", t, [1]), fn.reduction("max", t, [0]), fn.reduction("argmax", t, 1),
       fn.reduction("mean", s, [0]), fn.reduction("argmin", fl, 1), fn.reduction("sum", fl),
       fn.reduction("sum", b, [0]), fn.reduction("argmax", b, 0), fn.reduction("var", b, [0, 2]),
       fn.reduction("sum", f, [0]), fn.reduction("argmax", f, None), fn.reduction("prod", f, [1]))
suite.check(fn)

# Rows that are columns in memory, past one block: the reductions run with
# their loops swapped (decided at run time for the dynamic view).
fn = Func("views_swapped")
a = fn.tensor(data("f32", (517, 300)), "f32", dynamic=True)
f = fn.tensor(data("i16", (257, 130)), "i16", order="F")
t = fn.permute_dims(a, [1, 0])
fn.ret(fn.reduction("sum", t, [1]), fn.reduction("mean", t, [0]), fn.reduction("argmin", t, 1),
       fn.reduction("var", t, [1]), fn.reduction("max", t, [1]), fn.reduction("sum", f, [1]),
       fn.reduction("argmax", f, 0))
suite.check(fn)

# Sizes: 0 (identities, NaN means), 1, odd, larger than one GPU block.
fn = Func("sizes")
e = fn.arg(TType([None, 3], "f32"), np.zeros((0, 3), np.float32))
one = fn.tensor(data("f64", (1, 1)), "f64", dynamic=True)
scalar = fn.tensor(np.asarray(2.5, np.float32), "f32")
big = fn.tensor(data("f32", (3, 5000)), "f32", dynamic=True)
tall = fn.tensor(data("i32", (4099, 3)), "i32", dynamic=True)
fn.ret(fn.reduction("sum", e, [0]), fn.reduction("prod", e, [0]), fn.reduction("mean", e, [0]),
       fn.reduction("var", e), fn.reduction("any", e, [0]), fn.reduction("all", e),
       fn.reduction("max", e, [1]), fn.reduction("argmax", e, 1),
       fn.reduction("max", one), fn.reduction("argmin", one, None), fn.reduction("std", one, [1]),
       fn.reduction("argmax", scalar, None), fn.reduction("sum", scalar), fn.reduction("var", scalar),
       fn.reduction("sum", big, [1]), fn.reduction("max", big), fn.reduction("argmax", big, -1),
       fn.reduction("var", big, [1], correction=1.0), fn.reduction("sum", tall, [0]),
       fn.reduction("argmin", tall, 0), fn.reduction("sum", tall))
suite.check(fn)

# NaN propagates through max/min/sum/mean; argmax/argmin give the first
# NaN; ties give the first occurrence; infinities.
fn = Func("specials")
v = np.array([[1.0, np.nan, 3.0, np.nan], [2.0, 2.0, -1.0, 2.0], [np.inf, -np.inf, 0.0, -0.0],
              [-np.inf, -np.inf, -np.inf, -np.inf]], np.float32)
x = fn.tensor(v, "f32")
h = fn.tensor(v.astype(np.float16), "f16", dynamic=True)
fn.ret(*[fn.reduction(k, x, 1 if k[:3] == "arg" else [1])
         for k in ["max", "min", "sum", "mean", "argmax", "argmin", "any", "all"]],
       fn.reduction("argmax", h, 1), fn.reduction("argmin", h, None), fn.reduction("max", h, [0]))
suite.check(fn)

# Folds in order (a GPU thread's argmax/argmin fold has no tie rule, its
# merges do): rows equal to the identity's value everywhere (unsigned
# zeros, INT_MIN and -inf for argmax, the greatest values for argmin);
# rows longer than a block whose extremum repeats in every thread and
# accumulator set; a NaN late in a long row after an earlier NaN-free
# maximum; along the columns (the column kernel) as well.
fn = Func("in_order")
u = fn.tensor(np.zeros((3, 9), np.uint8), "ui8")
imin = fn.tensor(np.full((2, 11), np.iinfo(np.int32).min, np.int32), "i32")
ninf = fn.tensor(np.full((2, 6000), -np.inf, np.float32), "f32", dynamic=True)
pinf = fn.tensor(np.full((3, 7), np.inf, np.float32), "f32")
imax = fn.tensor(np.full((4, 5), np.iinfo(np.int64).max, np.int64), "i64")
rep = np.tile(np.arange(64, dtype=np.float32) % 5, (3, 100))  # 4.0 every 5th
late = gen.floats("f32", 3 * 6400).reshape(3, 6400)
late[:, 6399] = np.nan
late[1, 17] = np.nan
r = fn.tensor(rep, "f32")
n = fn.tensor(late, "f32")
c = fn.tensor(np.ascontiguousarray(rep.T), "f32")
fn.ret(fn.reduction("argmax", u, 1), fn.reduction("argmax", u, 0), fn.reduction("argmax", u, None),
       fn.reduction("argmax", imin, 1), fn.reduction("argmax", ninf, 1),
       fn.reduction("argmin", pinf, 1), fn.reduction("argmin", imax, 0),
       fn.reduction("argmax", r, 1), fn.reduction("argmin", r, 1), fn.reduction("argmax", c, 0),
       fn.reduction("argmax", n, 1), fn.reduction("argmin", n, -1), fn.reduction("argmax", n, None))
suite.check(fn)

# Elementwise producers fuse into the reduction: sum((a - b)**2).
fn = Func("fused")
a = fn.tensor(data("f32", (7, 33)), "f32", dynamic=True)
b = fn.tensor(data("f32", (7, 33)), "f32", dynamic=True)
d = fn.binary("subtract", a, b)
fn.ret(fn.reduction("sum", fn.binary("multiply", d, d), [1]),
       fn.reduction("max", fn.unary("exp", fn.binary("multiply", a, fn.constant(0.1, "f32"))), [0]))
suite.check(fn)

# Normalisations: reductions whose results are broadcast back into later
# passes over the same rows (softmax; (x - mean) / std) over the last axis.
# On the GPU each function's passes run as one row-group kernel where the
# rows fill it (LinalgToGPU/RowGroups.h) and as separate kernels where they
# do not (3 rows of 5000); rows of 64 take the vector loads, rows of 37 the
# scalar ones; a dynamic shape; a transposed input (one pass per kernel).
for name, shape, dynamic, transposed in [("norm_rows", (40, 64), False, False),
                                         ("norm_odd", (9, 37), True, False),
                                         ("norm_long", (3, 5000), False, False),
                                         ("norm_transposed", (16, 24), False, True)]:
    fn = Func(name)
    x = fn.tensor(data("f32", shape), "f32", dynamic=dynamic)
    if transposed:
        x = fn.permute_dims(x, [1, 0])
    m = fn.reduction("max", x, [1], keepdims=True)
    e = fn.unary("exp", fn.binary("subtract", x, m))
    # Bounds for three-op chains in f32 (the exp is recomputed, the mean
    # rounded to f32 before the subtraction: about 1e-6 absolute at |x| <= 10).
    softmax = fn.binary("divide", e, fn.reduction("sum", e, [1], keepdims=True),
                        tol=dict(ulps=8.0, atol=0.0))
    centred = fn.binary("subtract", x, fn.reduction("mean", x, [1], keepdims=True))
    fn.ret(softmax, fn.binary("divide", centred, fn.reduction("std", x, [1], keepdims=True),
                              tol=dict(ulps=8.0, atol=1e-6)))
    suite.check(fn)

# Accuracy: 2^25 float32 ones (a 0-stride broadcast) sum exactly; a naive
# float32 accumulator stops at 2^24.
text = """module {
  func.func @ones(%x: !ptensor.ptensor<1xf32>, %n: index) -> !ptensor.ptensor<f32> {
    %b = ptensor.broadcast %x to (%n) : !ptensor.ptensor<1xf32> -> !ptensor.ptensor<?xf32>
    %s = ptensor.reduce sum %b : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<f32>
    return %s : !ptensor.ptensor<f32>
  }
}
"""
suite.check_module("sum_of_2^25_ones", text, "ones",
                   [np.ones(1, np.float32), np.asarray(2 ** 25, np.int64).reshape(())],
                   [(np.asarray(2.0 ** 25), spec("f32", "exact"))])
sys.exit(suite.finish())
