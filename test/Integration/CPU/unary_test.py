# Every elementwise_unary_test kind (isfinite, isinf, isnan, logical_not,
# signbit) on every dtype, with NaN, +-inf, -0.0, subnormals and the integer
# extremes; the result is always i1. One function takes one argument per
# dtype and returns all 65 results.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(99)

fn = Func("unary_test_all")
outs = []
for i, dt in enumerate(ALL_DTYPES):
    if kind(dt) == "f":
        sp = float_specials(dt) + [-np.nan, -cmp.max_finite(dt), -2.0 ** -20]
        data = gen.floats(dt, 20, -3, 3, specials=sp)
    else:
        data = gen.values(dt, 20, specials=int_specials(dt))
    x = fn.tensor(data, dt, dynamic=(i % 2 == 0))
    for k in UNARY_TEST_KINDS:
        outs.append(fn.unary_test(k, x))
fn.ret(*outs)
suite.check(fn)

# A 2-D strided (Fortran-order) input and a rank-0 input.
fn = Func("unary_test_shapes")
a = fn.tensor(gen.floats("f32", 15, specials=[np.nan, -0.0, np.inf]).reshape(3, 6), "f32",
              order="F")
s = fn.tensor(np.array(-0.0, np.float64), "f64")
fn.ret(fn.unary_test("signbit", a), fn.unary_test("isnan", a), fn.unary_test("signbit", s),
       fn.unary_test("logical_not", s))
suite.check(fn)

sys.exit(suite.finish())
