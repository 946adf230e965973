# Every elementwise_unary kind on f32, f64, f16, bf16, i32, i8, ui8, i64, ui64
# and bool (bitwise_invert only), against numpy; special values (NaN, +-inf,
# +-0, subnormal, max) are part of every float input. One function per dtype
# returns all kinds as results (one JIT compile per dtype).
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

# kind -> (float range, integer range for INT_TO_FLOAT kinds, extra options)
DOMAIN = {
    "acos": (-1, 1, -1, 1), "asin": (-1, 1, -1, 1), "atanh": (-0.97, 0.97, -1, 1),
    "acosh": (1, 30, 1, 100), "log": (1e-3, 1e3, 1, 1000), "log2": (1e-3, 1e3, 1, 1000),
    "log10": (1e-3, 1e3, 1, 1000), "log1p": (-0.99, 100, 0, 1000),
    "sqrt": (0, 100, 0, 10000), "rsqrt": (1e-2, 100, 1, 10000),
    "exp": (-10, 10, -10, 10), "expm1": (-10, 10, -10, 10), "cosh": (-10, 10, -10, 10),
    "sinh": (-10, 10, -10, 10), "tan": (-1.5, 1.5, -100, 100),
    "reciprocal": (-10, 10, -100, 100), "sigmoid": (-20, 20, -100, 100),
}
LOGUNIFORM = {"log", "log2", "log10", "rsqrt"}
N = 48

suite = Suite(__file__)
gen = Gen(1234)

for dt in ["f32", "f64", "f16", "bf16", "i32", "i8", "ui8", "i64", "ui64", "i1"]:
    fn = Func("unary_" + dt)
    outs = []
    for i, k in enumerate(UNARY_KINDS):
        if dt == "i1" and k != "bitwise_invert":
            continue
        if kind(dt) == "f" and k == "bitwise_invert":
            continue
        lo, hi, ilo, ihi = DOMAIN.get(k, (-10, 10, -100, 100))
        if kind(dt) == "f":
            data = gen.floats(dt, N, lo, hi, specials=float_specials(dt),
                              halves=(k == "round"), loguniform=(k in LOGUNIFORM))
        elif k in UNARY_DEFAULT:
            data = gen.values(dt, N, specials=int_specials(dt))  # full range, wraps
        else:
            data = gen.values(dt, N, ilo=ilo, ihi=ihi, specials=int_specials(dt))
        # Alternate static and dynamic shapes.
        x = fn.tensor(data, dt, dynamic=(i % 2 == 1))
        outs.append(fn.unary(k, x))
    fn.ret(*outs)
    suite.check(fn)

sys.exit(suite.finish())
