# IEEE special values through every float binary kind (all pairs of NaN,
# +-inf, +-0, +-1, +-2.5, the smallest subnormal and the largest finite
# value), with NumPy's results as the reference (C99 Annex F for pow, atan2,
# hypot; NumPy's floor_divide/remainder definitions, e.g. 1.0 // 0.1 == 9);
# and the sign of zero results of the kinds that define it.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
FLOAT_BINARY = sorted(BINARY_FLOAT)


def special_values(dt):
    fmt = cmp.FLOAT_FORMATS[dt]
    return [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -2.5,
            2.0 ** (fmt[1] - fmt[0]), cmp.max_finite(dt)]


# Pairs where NumPy's floor_divide/remainder differ from floor(a / b) and
# fmod: the quotient 1/0.1 rounds up to 10 while the true quotient is < 10.
EXTRA = [(1.0, 0.1), (-1.0, 0.1), (1.0, -0.1), (0.7, 0.1), (5.0, np.inf), (-5.0, np.inf),
         (-4.0, 2.0), (4.0, -2.0), (3.0, 1.5)]

for dt in FLOATS:
    sv = special_values(dt)
    a = [x for x in sv for _ in sv] + [p[0] for p in EXTRA]
    b = [y for _ in sv for y in sv] + [p[1] for p in EXTRA]
    fn = Func("special_" + dt)
    x = fn.tensor(round_to(np.array(a), dt), dt)
    y = fn.tensor(round_to(np.array(b), dt), dt)
    fn.ret(*[fn.binary(k, x, y) for k in FLOAT_BINARY])
    suite.check(fn)

# Signed zeros: results whose sign of zero is defined by IEEE 754 / NumPy.
SIGNED_UNARY = ["abs", "negative", "positive", "ceil", "floor", "round", "trunc", "sign",
                "sqrt", "sin", "tan", "tanh", "sinh", "asin", "atan", "asinh", "atanh",
                "expm1", "log1p", "erf", "square"]
SIGNED_BINARY = ["add", "subtract", "multiply", "copysign", "divide"]
for dt in FLOATS:
    fn = Func("signed_zero_" + dt)
    z = fn.tensor(round_to(np.array([0.0, -0.0, -0.25, 0.25, -0.5, 0.5, -1e-30, 1e-30]), dt), dt)
    w = fn.tensor(round_to(np.array([-0.0, -0.0, 0.0, -0.0, 1.0, -1.0, 0.0, -0.0]), dt), dt)
    outs = [fn.unary(k, z) for k in SIGNED_UNARY] + [fn.binary(k, z, w) for k in SIGNED_BINARY]
    for o in outs:
        o.tol = dict(o.tol, signed_zeros=True)
    fn.ret(*outs)
    suite.check(fn)
sys.exit(suite.finish())
