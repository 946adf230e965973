# ptensor.cast between all 169 dtype pairs: integers wrap modulo 2**width,
# float -> integer truncates toward zero (in-range values only), anything ->
# bool is `!= 0` (NaN is true), bool -> x is 0/1, float -> float rounds to
# nearest even (correctly rounded references; f64 -> bf16 is rounded once).
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(31)
N = 40

for src in ALL_DTYPES:
    fn = Func("cast_from_" + src)
    outs = []
    if kind(src) == "f":
        # In range of every integer target: [0, 127) with fractions.
        pos = gen.floats(src, N, 0, 126.9, specials=[0.0, -0.0, 0.5, 1.5, 2.5, 126.75])
        x = fn.tensor(pos, src)
        outs += [fn.cast(x, dt) for dt in ALL_DTYPES]
        # Negative values to signed integers; wide values and specials to floats.
        neg = gen.floats(src, N, -127.9, 0, specials=[-0.5, -1.5, -127.5])
        y = fn.tensor(neg, src, dynamic=True)
        outs += [fn.cast(y, dt) for dt in ["i1"] + SIGNED + FLOATS]
        wide = gen.floats(src, N, -1e6, 1e6, specials=float_specials(src)
                          + [2.0 ** -20, 1.0 + 2.0 ** -8 + 2.0 ** -30,  # bf16 halfway + tiny
                             1.0 + 2.0 ** -11 + 2.0 ** -40, 65519.99, 65520.0])  # f16
        wide = np.concatenate([wide, round_to(gen.rng.uniform(-1, 1, N) * 10.0 ** gen.rng.integers(-30, 30, N), src)])
        z = fn.tensor(wide, src)
        outs += [fn.cast(z, dt) for dt in ["i1"] + FLOATS]
        if src in ("f32", "f64"):
            # Large in-range values to the wide integers.
            big = round_to(gen.rng.uniform(-2.0 ** 30, 2.0 ** 30, N), src)
            w = fn.tensor(big, src)
            outs += [fn.cast(w, dt) for dt in ["i32", "i64"]]
            huge = round_to(gen.rng.uniform(0, 2.0 ** 62, N), src)
            h = fn.tensor(huge, src)
            outs += [fn.cast(h, dt) for dt in ["i64", "ui64"]]
    else:
        # Full range: integer targets wrap; to f32/f64 one correct rounding.
        full = gen.values(src, N, specials=int_specials(src))
        x = fn.tensor(full, src, dynamic=True)
        outs += [fn.cast(x, dt) for dt in ["i1"] + INTS + ["f32", "f64"]]
        # |x| < 2**24 so that the f16/bf16 references are single roundings.
        mid = gen.values(src, N, ilo=-(2 ** 24), ihi=2 ** 24,
                         specials=[0, 1, 255, 256, 257, 2049, 65519, 65520, 70000, -70000])
        y = fn.tensor(mid, src)
        outs += [fn.cast(y, dt) for dt in ALL_DTYPES]
    fn.ret(*outs)
    suite.check(fn)
sys.exit(suite.finish())
