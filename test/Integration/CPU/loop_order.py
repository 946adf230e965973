# Run-time loop order (ptensor-coalesce-dims{reorder-loops}): each loop nest
# runs in the logical order or reversed, picked from the operands' run-time
# strides (outputs first), and fresh results follow the inputs' order when
# they all agree. Whatever runs, results equal numpy's. The cases cover what
# picks each version: column-major (Fortran) inputs and transposed views
# (reversed, with its flat fast path), 3-D permutations that neither order
# fits, mixed orders (the versions disagree), broadcasts (zero strides do
# not vote), flips (negative strides vote by magnitude), size-0 and size-1
# dims, rank 0, and outputs written in place.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(97)
DYN2 = [None, None]
DYN3 = [None, None, None]


def vals(dt, *shape):
    return gen.values(dt, int(np.prod(shape))).reshape(shape)


# Column-major inputs (numpy's x.T of a C array): the reversed loop nest over
# one flat loop; the result is allocated column-major. Several dtypes, a
# fused chain, 2-D and 3-D, static and dynamic shapes.
fn = Func("fortran")
a = fn.arg(TType(DYN2, "f32"), vals("f32", 37, 19), order="F")
b = fn.arg(TType(DYN2, "f32"), vals("f32", 37, 19), order="F")
c = fn.arg(TType(DYN3, "f64"), vals("f64", 3, 4, 5), order="F")
d = fn.arg(TType([3, 4, 5], "f64"), vals("f64", 3, 4, 5), order="F")
i = fn.arg(TType(DYN2, "i32"), vals("i32", 6, 7), order="F")
fn.ret(fn.binary("add", a, b), fn.unary("exp", fn.binary("multiply", a, b)),
       fn.binary("subtract", c, d), fn.unary("negative", c),
       fn.binary("add", i, i))
suite.check(fn)

# Transposed views of row-major arrays (permute_dims of an argument that
# the other operand does not share, so ptensor-layout cannot hoist it): the
# transposed operand is column-major at run time.
fn = Func("transposed")
a = fn.arg(TType([19, 37], "f32"), vals("f32", 19, 37))
b = fn.arg(TType(DYN2, "f32"), vals("f32", 37, 19), order="F")
c = fn.arg(TType(DYN3, "f32"), vals("f32", 5, 4, 3))
e = fn.arg(TType(DYN3, "f32"), vals("f32", 3, 4, 5), order="F")
fn.ret(fn.binary("add", fn.permute_dims(a, [1, 0]), b),
       fn.binary("multiply", fn.permute_dims(c, [2, 1, 0]), e),
       fn.unary("exp", fn.permute_dims(a, [1, 0])))
suite.check(fn)

# 3-D permutations that neither the logical nor the reversed order walks in
# memory order (innermost stride 1 only in the middle dim): the vote picks
# one, both give numpy's result.
fn = Func("permuted3")
a = fn.arg(TType(DYN3, "f32"), vals("f32", 4, 5, 6))
b = fn.arg(TType(DYN3, "f32"), vals("f32", 4, 6, 5))
c = fn.arg(TType(DYN3, "f32"), vals("f32", 6, 4, 5))
fn.ret(fn.binary("add", fn.permute_dims(a, [1, 0, 2]), fn.permute_dims(b, [2, 0, 1])),
       fn.binary("add", fn.permute_dims(a, [0, 2, 1]), fn.permute_dims(c, [1, 0, 2])),
       fn.unary("negative", fn.permute_dims(b, [1, 2, 0])))
suite.check(fn)

# Mixed orders: a row-major and a column-major input disagree (the result
# is row-major, the first input with distinct strides decides the loop
# order); chains where an intermediate follows one input.
fn = Func("mixed")
a = fn.arg(TType(DYN2, "f32"), vals("f32", 23, 29))
b = fn.arg(TType(DYN2, "f32"), vals("f32", 23, 29), order="F")
c = fn.arg(TType(DYN3, "i64"), vals("i64", 3, 4, 5), order="F")
d = fn.arg(TType(DYN3, "i64"), vals("i64", 3, 4, 5))
fn.ret(fn.binary("add", a, b), fn.binary("subtract", b, a),
       fn.binary("multiply", c, d), fn.binary("add", d, c),
       fn.binary("add", fn.binary("multiply", b, b), a))
suite.check(fn)

# Broadcasts with transposed operands: a row or column broadcast (the
# broadcast operand does not vote), a dynamic size-1 dim broadcast at run
# time (zero stride), a scalar.
fn = Func("broadcast_transposed")
a = fn.arg(TType(DYN2, "f32"), vals("f32", 11, 13), order="F")
row = fn.arg(TType([13], "f32"), vals("f32", 13))
col = fn.arg(TType([11, 1], "f32"), vals("f32", 11, 1))
y = fn.arg(TType(DYN2, "f32"), vals("f32", 1, 13))
s = fn.arg("f32", 2.5)
g = fn.arg(TType(DYN3, "f64"), vals("f64", 2, 3, 4), order="F")
r3 = fn.arg(TType(DYN3, "f64"), vals("f64", 1, 1, 4))
fn.ret(fn.binary("add", a, row), fn.binary("multiply", a, col),
       fn.binary("subtract", a, y), fn.binary("add", a, s),
       fn.binary("add", g, r3), fn.binary("multiply", fn.permute_dims(a, [1, 0]), fn.permute_dims(col, [1, 0])))
suite.check(fn)

# Flips (negative strides vote by their magnitude) of column-major and
# row-major inputs, mixed with unflipped ones.
fn = Func("flipped")
a = fn.arg(TType(DYN2, "f32"), vals("f32", 9, 14), order="F")
b = fn.arg(TType(DYN2, "f32"), vals("f32", 9, 14))
c = fn.arg(TType(DYN3, "i32"), vals("i32", 3, 4, 5), order="F")
fn.ret(fn.binary("add", fn.flip(a, [0]), a), fn.binary("add", fn.flip(a, [0, 1]), fn.flip(a, [1])),
       fn.binary("subtract", fn.flip(b, [1]), a), fn.unary("negative", fn.flip(c, [2])),
       fn.binary("add", fn.flip(c, [0]), c))
suite.check(fn)

# Size-1 and size-0 dims (a size-1 dim's stride does not vote), rank 0.
fn = Func("degenerate")
a = fn.arg(TType(DYN2, "f32"), vals("f32", 1, 17), order="F")
b = fn.arg(TType(DYN2, "f32"), vals("f32", 17, 1), order="F")
c = fn.arg(TType(DYN3, "f32"), vals("f32", 5, 1, 6), order="F")
z = fn.arg(TType(DYN2, "f32"), vals("f32", 0, 7), order="F")
z2 = fn.arg(TType(DYN2, "f32"), vals("f32", 7, 0), order="F")
r0 = fn.arg(TType([], "f64"), vals("f64"))
fn.ret(fn.binary("add", a, a), fn.binary("multiply", b, b), fn.unary("negative", c),
       fn.binary("add", c, c), fn.binary("add", z, z), fn.unary("exp", z2),
       fn.binary("add", r0, r0))
suite.check(fn)

# Outputs written in place (ptensor.write into an argument, the runner
# gives the argument back): the written argument keeps its own strides.
INPLACE = """func.func @inplace(%%a: %(T)s, %%b: %(T)s) {
  %%s = ptensor.elementwise_binary %(op)s %%a, %%b : (%(T)s, %(T)s) -> %(T)s
  ptensor.write %%s into %%a : %(T)s
  return
}
"""
if not suite.export_dir:
    for name, op, order_a, order_b, shape in [
            ("inplace_ff", "add", "F", "F", (31, 17)),
            ("inplace_fc", "subtract", "F", "C", (31, 17)),
            ("inplace_cf", "multiply", "C", "F", (31, 17)),
            ("inplace_f3", "add", "F", "F", (3, 4, 5))]:
        suite.cases += 1
        t = str(TType([None] * len(shape), "f32"))
        x, y = vals("f32", *shape), vals("f32", *shape)
        ins = [np.array(x, order=order_a), np.array(y, order=order_b)]
        rc, log, _, d = suite._run(name, INPLACE % {"T": t, "op": op}, "inplace", ins)
        written = os.path.join(d, "out", "arg0.npy")
        if rc != 0 or not os.path.exists(written):
            suite.fail(name, "exit %d: %s" % (rc, log[-400:]))
            continue
        ref = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply}[op](x, y)
        got = np.load(written)
        suite.outputs += 1
        if not np.array_equal(got, ref):
            suite.fail(name, "in-place result differs from numpy")
sys.exit(suite.finish())
