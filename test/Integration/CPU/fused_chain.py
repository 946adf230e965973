# Values of fused elementwise chains (>= 5 ops, with broadcasting, promotion,
# weak scalars and a select), on static, dynamic and larger shapes; and the
# per-op rounding of f16/bf16 results inside a fused chain: every op's result
# has its dtype, so (x + y) - x with y below half an ulp of x is exactly 0 even
# when both ops run in one loop in f32.
# fused-chain-one-generic.mlir checks that the first chain is one loop nest.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(61)
CHAIN_TOL = {"ulps": 8.0, "atol": 2.0 ** -21, "ftz": True}


def chain(fn, a, b, c, s):
    """tanh(a*b + c) - sqrt(|a|)*s, then where(> s, itself, exp(itself))."""
    t = fn.unary("tanh", fn.binary("add", fn.binary("multiply", a, b), c))
    u = fn.binary("multiply", fn.unary("sqrt", fn.unary("abs", a)), s)
    d = fn.binary("subtract", t, u)
    r = fn.where(fn.binary_test("greater", d, s), d, fn.unary("exp", d))
    r.tol = CHAIN_TOL
    return r


# The chain of fused-chain-one-generic.mlir.
fn = Func("chain_static")
a = fn.arg(TType([4, 1], "f32"), gen.floats("f32", 4, -2, 2).reshape(4, 1))
b = fn.arg(TType([5], "f16"), gen.floats("f16", 5, -2, 2))
c = fn.arg(TType([4, 5], "f32"), gen.floats("f32", 20, -2, 2).reshape(4, 5))
s = fn.arg("f32", 0.25)
fn.ret(chain(fn, a, b, c, s))
suite.check(fn)

# Dynamic shapes, an integer input promoted to f32; larger than a vector.
fn = Func("chain_dynamic")
a = fn.arg(TType([None, None], "f32"), gen.floats("f32", 37 * 70, -3, 3).reshape(37, 70))
i = fn.arg(TType([None], "i32"), gen.values("i32", 70, ilo=-5, ihi=5))
s = fn.arg("f32", 1.5)
x = fn.unary("sin", fn.binary("add", a, i))
y = fn.unary("square", fn.binary("multiply", x, s))
r = fn.unary("negative", fn.binary("maximum", y, a))
r.tol = CHAIN_TOL
fn.ret(r, chain(fn, a, fn.binary("divide", i, fn.constant(7.0, "f32")), a, s))
suite.check(fn)

# Integer chain (exact, wrapping) with a transposed and a flipped input.
fn = Func("chain_int")
p = fn.arg(TType([6, 9], "i16"), gen.values("i16", 54).reshape(6, 9))
q = fn.arg(TType([9, 6], "i16"), gen.values("i16", 54).reshape(9, 6), order="F")
k = fn.arg("i64", 3)
v = fn.binary("multiply", p, fn.permute_dims(q, [1, 0]))
v = fn.binary("bitwise_xor", v, fn.flip(p, [1]))
v = fn.binary("remainder", v, fn.binary("add", fn.unary("abs", p), k))
v = fn.binary("bitwise_left_shift", v, fn.binary("bitwise_and", p, k))
fn.ret(fn.binary("subtract", v, k), fn.unary_test("logical_not", v))
suite.check(fn)

# f16 / bf16: each op rounds to its dtype, also when fused.
fn = Func("low_precision_rounding")
x16 = fn.arg(TType([8], "f16"), round_to(gen.rng.choice([1.0, 2.0, -1.0, 4.0], 8), "f16"))
y16 = fn.arg(TType([8], "f16"), round_to(np.full(8, 2.0 ** -12), "f16"))
xb = fn.arg(TType([8], "bf16"), round_to(gen.rng.choice([1.0, 2.0, -1.0, 4.0], 8), "bf16"))
yb = fn.arg(TType([8], "bf16"), round_to(np.full(8, 2.0 ** -9), "bf16"))
d16 = fn.binary("subtract", fn.binary("add", x16, y16), x16)   # exactly 0 in f16
db = fn.binary("subtract", fn.binary("add", xb, yb), xb)       # exactly 0 in bf16
# A longer chain: (x + y + y + y + y) - x: 0 per op, 4*y if never rounded.
e = x16
for _ in range(4):
    e = fn.binary("add", e, y16)
fn.ret(d16, db, fn.binary("subtract", e, x16), fn.unary("exp", fn.unary("log", xb)))
suite.check(fn)
sys.exit(suite.finish())
