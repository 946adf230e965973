# matmul, vecdot and tensordot against numpy: every numeric dtype and mixed
# dtypes (promotion; f16/bf16 accumulate in f32); 1-D operands; batch dims
# that broadcast, statically and at run time; views (transposed, sliced
# with steps) as operands; sizes 0, 1 and odd; fused elementwise producers
# and consumers; tensordot with int-like and listed axes and none.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(29)

NUMERIC = ["i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64",
           "f16", "bf16", "f32", "f64"]


def data(dt, shape):
    n = int(np.prod(shape))
    if kind(dt) == "f":
        return gen.floats(dt, n, lo=-2.0, hi=2.0).reshape(shape)
    return gen.ints(dt, n, lo=-3 if kind(dt) == "i" else 0, hi=3).reshape(shape)


# Every dtype: matrix x matrix (static and dynamic), matrix x vector,
# vector x matrix, vector x vector.
for dt in NUMERIC:
    fn = Func("matmul_" + dt)
    a = fn.tensor(data(dt, (5, 7)), dt)
    b = fn.tensor(data(dt, (7, 3)), dt)
    ad = fn.tensor(data(dt, (4, 6)), dt, dynamic=True)
    bd = fn.tensor(data(dt, (6, 9)), dt, dynamic=True)
    v = fn.tensor(data(dt, (7,)), dt)
    w = fn.tensor(data(dt, (5,)), dt)
    fn.ret(fn.contraction("matmul", a, b), fn.contraction("matmul", ad, bd),
           fn.contraction("matmul", a, v), fn.contraction("matmul", w, a),
           fn.contraction("matmul", v, v))
    suite.check(fn)

# Mixed dtypes promote; integer products wrap in the result dtype.
fn = Func("mixed")
a = fn.tensor(data("f16", (3, 4)), "f16")
b = fn.tensor(data("f32", (4, 2)), "f32")
c = fn.tensor(data("i8", (4, 2)), "i8")
d = fn.tensor(data("ui8", (2, 5)), "ui8")
big = fn.tensor(gen.ints("i8", 12, lo=100, hi=127).reshape(3, 4), "i8")
fn.ret(fn.contraction("matmul", a, b), fn.contraction("matmul", a, c),
       fn.contraction("matmul", c, d), fn.contraction("matmul", big, c))
suite.check(fn)

# Batch dims: equal, broadcast statically (1 and missing), and at run time
# (a dynamic size that is 1).
fn = Func("batch")
a = fn.tensor(data("f32", (2, 3, 4, 5)), "f32")
b = fn.tensor(data("f32", (3, 5, 6)), "f32")
c = fn.tensor(data("f32", (2, 1, 5, 2)), "f32")
one = fn.tensor(data("f32", (1, 4, 5)), "f32", dynamic=True)
many = fn.tensor(data("f32", (3, 5, 2)), "f32", dynamic=True)
v = fn.tensor(data("f32", (5,)), "f32")
small = fn.tensor(data("f32", (1, 2, 3)), "f32", dynamic=True)
fn.ret(fn.contraction("matmul", a, b), fn.contraction("matmul", a, c),
       fn.contraction("matmul", one, many), fn.contraction("matmul", many, small),
       fn.contraction("matmul", a, v), fn.contraction("matmul", v, b))
suite.check(fn)

# Views as operands: a transposed matrix (column-major), a slice of every
# other row (row-major, larger leading dimension) — both go to the BLAS as
# they are —, every other column (neither layout: generated loops), and a
# batch whose rhs is broadcast (batch stride 0).
fn = Func("views")
a = fn.tensor(data("f32", (6, 8)), "f32")
b = fn.tensor(data("f64", (8, 6)), "f64", dynamic=True)
c = fn.tensor(data("f32", (8, 12)), "f32", dynamic=True)
p = fn.tensor(data("f32", (3, 5, 6)), "f32")
at = fn.permute_dims(a, [1, 0])
bs = fn.extract_slice(b, [1, 0], [3, 6], [2, 1])
cs = fn.extract_slice(c, [0, 1], [8, 6], [1, 2])
fn.ret(fn.contraction("matmul", at, fn.permute_dims(b, [1, 0])),
       fn.contraction("matmul", bs, a), fn.contraction("matmul", a, cs),
       fn.contraction("matmul", fn.permute_dims(cs, [1, 0]), at),
       fn.contraction("matmul", p, a), fn.contraction("matmul", p, fn.permute_dims(p, [0, 2, 1])))
suite.check(fn)

# Sizes 0 and 1; a contraction over an empty dim gives zeros.
fn = Func("sizes")
z = fn.tensor(data("f32", (3, 0)), "f32", dynamic=True)
zt = fn.tensor(data("f32", (0, 4)), "f32", dynamic=True)
e = fn.tensor(data("f32", (0, 5)), "f32")
f = fn.tensor(data("f32", (5, 1)), "f32")
fn.ret(fn.contraction("matmul", z, zt), fn.contraction("matmul", e, f),
       fn.contraction("matmul", f, fn.tensor(data("f32", (1, 1)), "f32")))
suite.check(fn)

# A producer and a consumer: (a * 2) @ b + 1 (the scaling stays its own
# pass so that the matrix product can go to the BLAS).
fn = Func("fused")
a = fn.tensor(data("f32", (4, 5)), "f32")
b = fn.tensor(data("f32", (5, 3)), "f32")
two = fn.constant(2.0, "f32")
one = fn.constant(1.0, "f32")
m = fn.contraction("matmul", fn.binary("multiply", a, two), b)
# The sum's rounding error carries over into the add.
fn.ret(fn.binary("add", m, one, tol=dict(m.tol, ulps=1.0)))
suite.check(fn)

# A linear layer, static shapes: x @ w + b (on the GPU the bias is
# cuBLASLt's epilogue), and with a product consumer (not an epilogue).
fn = Func("linear")
x = fn.tensor(data("f32", (16, 12)), "f32")
w = fn.tensor(data("f32", (12, 10)), "f32")
w2 = fn.tensor(data("f32", (12, 10)), "f32")
bias = fn.tensor(data("f32", (10,)), "f32")
# Two weights: two equal products would be one after CSE, with two readers.
# (Their inits are one fill after CSE too, which bufferization copies: the
# first product's sums then have another writer and get no epilogue.)
m1 = fn.contraction("matmul", x, w)
m2 = fn.contraction("matmul", x, w2)
fn.ret(fn.binary("add", m1, bias, tol=dict(m1.tol, ulps=1.0)),
       fn.binary("multiply", m2, bias, tol=dict(m2.tol, ulps=1.0, atol=m2.tol["atol"] * 2)))
suite.check(fn)

# relu(x @ w + b) with dynamic sizes: on the GPU cuBLASLt's epilogue where
# the sums are read unbroadcast at run time (the first); a bias of size 1
# (cuBLASLt's bias is a vector: declined at run time) and a product of one
# column broadcast against the bias (declined in the compiled code) run
# the generated loops. Each product right before its consumers.
fn = Func("linear_dynamic")
x = fn.tensor(data("f32", (16, 12)), "f32", dynamic=True)
w = fn.tensor(data("f32", (12, 10)), "f32", dynamic=True)
bias = fn.tensor(data("f32", (10,)), "f32", dynamic=True)
w2 = fn.tensor(data("f32", (12, 10)), "f32", dynamic=True)
scalar_bias = fn.tensor(data("f32", (1,)), "f32", dynamic=True)
column = fn.tensor(data("f32", (12, 1)), "f32", dynamic=True)
results = []
for weight, b in [(w, bias), (w2, scalar_bias), (column, bias)]:
    m = fn.contraction("matmul", x, weight)
    carried = dict(m.tol, ulps=1.0)
    results.append(fn.binary("maximum", fn.binary("add", m, b, tol=carried),
                             fn.constant(0.0, "f32"), tol=carried))
fn.ret(*results)
suite.check(fn)

# Activations after the bias (on the GPU, cuBLASLt's epilogues; f32 and
# bf16): relu(x @ w + b) as maximum with 0, and GELU's tanh form
# 0.5 y (1 + tanh(0.79788456 (y + 0.044715 y^3))) of y = 0.5 (x @ w) + b,
# written op by op. The tolerances carry the product's (GELU's slope is
# below 1.2) and allow the tanh's error where 1 + tanh cancels.
for dt in ["f32", "bf16"]:
    fn = Func("linear_activations_" + dt)
    x = fn.tensor(data(dt, (16, 12)), dt)
    w = fn.tensor(data(dt, (12, 10)), dt)
    bias = fn.tensor(data(dt, (10,)), dt)
    # Another shape for the second product: equal ones would share their
    # init (one fill after CSE, copied by bufferization) and the first
    # would get no epilogue.
    w2 = fn.tensor(data(dt, (12, 6)), dt)
    bias2 = fn.tensor(data(dt, (6,)), dt)
    # Each product right before its consumers (the library pass moves no
    # call past another op writing memory).
    m1 = fn.contraction("matmul", x, w)
    # bf16: the product's rounding may go the other way than the exact
    # sum's (summed in f32): an ulp of the product carried into the add.
    flip = float(np.max(np.abs(to_f64(m1.ref)))) * 2.0 ** -7 if dt == "bf16" else 0.0
    carried = dict(m1.tol, ulps=1.0, atol=m1.tol["atol"] + flip)
    relu = fn.binary("maximum", fn.binary("add", m1, bias, tol=carried),
                     fn.constant(0.0, "f32"), tol=carried)
    m2 = fn.contraction("matmul", x, w2)
    y = fn.binary("add", fn.binary("multiply", m2, fn.constant(0.5, "f32"), tol=carried),
                  bias2, tol=carried)
    cube = fn.binary("multiply", fn.binary("multiply", y, y, tol=carried), y, tol=carried)
    inner = fn.binary("add", y, fn.binary("multiply", fn.constant(0.044715, "f32"), cube,
                                          tol=carried), tol=carried)
    t = fn.unary("tanh", fn.binary("multiply", fn.constant(0.7978845608028654, "f32"),
                                   inner, tol=carried), tol=carried)
    half_y = fn.binary("multiply", fn.constant(0.5, "f32"), y, tol=carried)
    # An error of a few ulps of 1 in the tanh (bf16: one rounding of t)
    # moves 1 + t by that much where t is near -1: times 0.5 |y|.
    tanh_atol = 0.5 * float(np.max(np.abs(to_f64(y.ref)))) * (2.0 ** -7 if dt == "bf16" else 2.0 ** -21)
    gelu = fn.binary("multiply", half_y, fn.binary("add", fn.constant(1.0, "f32"), t,
                                                   tol=carried),
                     tol=dict(carried, ulps=4.0, atol=carried["atol"] * 1.2 + tanh_atol))
    fn.ret(relu, gelu)
    suite.check(fn)

# vecdot: last axis, another axis, broadcasting, integers, dynamic.
fn = Func("vecdot")
a = fn.tensor(data("f32", (4, 3)), "f32")
b = fn.tensor(data("f32", (3,)), "f32")
c = fn.tensor(data("f64", (2, 1, 3)), "f64", dynamic=True)
i = fn.tensor(data("i32", (5, 4)), "i32")
j = fn.tensor(data("i64", (5, 4)), "i64")
fn.ret(fn.contraction("vecdot", a, b), fn.contraction("vecdot", a, c),
       fn.contraction("vecdot", i, j, axis=-2), fn.contraction("vecdot", i, j, axis=1),
       fn.contraction("vecdot", a, a, axis=0))
suite.check(fn)

# tensordot: axes=2 (as lists), listed pairs out of order, none (outer).
fn = Func("tensordot")
a = fn.tensor(data("f64", (2, 3, 4)), "f64")
b = fn.tensor(data("f64", (3, 4, 5)), "f64", dynamic=True)
c = fn.tensor(data("f32", (4, 3)), "f32")
fn.ret(fn.contraction("tensordot", a, b, axes=([1, 2], [0, 1])),
       fn.contraction("tensordot", a, c, axes=([-1, 1], [0, 1])),
       fn.contraction("tensordot", c, c, axes=([], [])))
suite.check(fn)

# tensordot over two pairs of axes: one contracted loop of their product
# for the library where both operands nest them (contiguous, f32 and f16
# summed in f32 on the GPU); the generated loops where they do not (the
# first 4 of each row of 8: stride 8 over rows of 4, which one loop of 24
# with stride 1 would misread) and for stepped views, whose nested loops'
# stride the library declines.
fn = Func("tensordot_two_axes")
a = fn.tensor(data("f32", (5, 6, 8)), "f32")
b = fn.tensor(data("f32", (7, 6, 8)), "f32", dynamic=True)
h = fn.tensor(data("f16", (5, 6, 8)), "f16")
stepped = fn.extract_slice(b, [0, 0, 0], [7, 6, 4], [1, 1, 2])
fn.ret(fn.contraction("tensordot", a, b, axes=([1, 2], [1, 2])),
       fn.contraction("tensordot", h, h, axes=([1, 2], [1, 2])),
       fn.contraction("tensordot", fn.extract_slice(a, [0, 0, 0], [5, 6, 4], [1, 1, 1]),
                      fn.extract_slice(b, [0, 0, 4], [7, 6, 4], [1, 1, 1]),
                      axes=([1, 2], [1, 2])),
       fn.contraction("tensordot", fn.extract_slice(a, [0, 0, 1], [5, 6, 4], [1, 1, 2]),
                      stepped, axes=([1, 2], [1, 2])))
suite.check(fn)

sys.exit(suite.finish())
