# ptensor.where: the condition, x and y broadcast together (static, dynamic,
# rank-0 operands), the result dtype is the NO_OPMATH promotion of x and y
# (f16 stays f16, f16 with bf16 gives f32, weak scalars), values converted.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(21)


def cond(shape):
    return gen.rng.integers(0, 2, shape).astype(bool)


fn = Func("where_mix")
c = fn.arg(TType([4, 1], "i1"), cond((4, 1)))
cd = fn.arg(TType([None, None], "i1"), cond((4, 5)))
c0 = fn.arg(TType([], "i1"), np.array(True))
xf16 = fn.arg(TType([5], "f16"), gen.floats("f16", 5))
ybf = fn.arg(TType([4, 5], "bf16"), gen.floats("bf16", 20).reshape(4, 5))
xi8 = fn.arg(TType([None], "i8"), gen.values("i8", 5))
yu8 = fn.arg(TType([4, 1], "ui8"), gen.values("ui8", 4).reshape(4, 1))
yf64 = fn.arg(TType([1, 5], "f64"), gen.floats("f64", 4, specials=[np.nan]).reshape(1, 5))
xi1 = fn.arg(TType([4, 5], "i1"), cond((4, 5)))
s32 = fn.arg("f32", 2.5)
si = fn.arg("i64", -7)
x64 = fn.arg(TType([], "i64"), np.array(123456789012, np.int64))
fn.ret(
    fn.where(c, xf16, ybf),        # f16 with bf16 -> f32, 4x5
    fn.where(c, xf16, s32),        # f16 with weak f32 -> f16
    fn.where(cd, xi8, yu8),        # i8 with ui8 -> i16, dynamic cond
    fn.where(c, xi8, yf64),        # i8 with f64 -> f64
    fn.where(cd, xi1, si),         # bool with weak int -> i64
    fn.where(c0, yu8, s32),        # rank-0 cond; ui8 with weak float -> f32
    fn.where(c, s32, si),          # two scalars: weak float wins -> f32
    fn.where(cd, x64, xi8),        # rank-0 i64 tensor
    fn.where(c, xi1, xi1),         # bool stays bool
)
suite.check(fn)

# Every dtype as x and y (same dtype), with a broadcast condition.
fn = Func("where_dtypes")
c = fn.arg(TType([3, 1], "i1"), cond((3, 1)))
outs = []
for dt in ALL_DTYPES:
    x = fn.tensor(gen.values(dt, 7, specials=()).reshape(1, 7), dt)
    y = fn.tensor(gen.values(dt, 21).reshape(3, 7), dt, dynamic=True)
    outs.append(fn.where(c, x, y))
fn.ret(*outs)
suite.check(fn)
sys.exit(suite.finish())
