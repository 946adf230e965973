# Every elementwise_binary_test kind (comparisons and logical ops, result i1)
# on same and mixed dtypes and with builtin scalars on either side. Values come
# from small sets so that equal elements are common; floats include NaN, +-inf
# and +-0 (NaN compares unequal, is truthy in logical ops). Comparisons happen
# in the promoted dtype (i64 vs f32 scalar compares in f32).
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

FVALS = [-2.5, -1.0, -0.0, 0.0, 1.0, 2.0, 2.5, np.nan, np.inf, -np.inf]
N = 60
suite = Suite(__file__)
gen = Gen(11)


def data(dt):
    if kind(dt) == "f":
        return round_to(gen.rng.choice(FVALS, N), dt)
    if dt == "i1":
        return gen.rng.integers(0, 2, N).astype(bool)
    lo, hi = int_range(dt)
    v = gen.rng.integers(max(lo, -3), min(hi, 3), N, endpoint=True)
    v[:4] = [min(hi, 2 ** 40), lo if lo >= -2 ** 62 else lo, hi if hi < 2 ** 62 else 7, 0]
    return v.astype(NP[dt])


PAIRS = [(dt, dt) for dt in ALL_DTYPES] + [
    ("i8", "ui8"), ("ui32", "i32"), ("i1", "i32"), ("i64", "f32"), ("ui8", "f16"),
    ("f16", "bf16"), ("f32", "f64"), ("i16", "bf16"), ("ui64", "ui8"),
]
# Two functions keep each module moderate.
for group in (PAIRS[:11], PAIRS[11:]):
    fn = Func("cmp_%s_%s" % group[0])
    outs = []
    for i, (da, db) in enumerate(group):
        a = fn.tensor(data(da), da, dynamic=(i % 2 == 0))
        b = fn.tensor(data(db), db)
        for k in BINARY_TEST_KINDS:
            outs.append(fn.binary_test(k, a, b))
    fn.ret(*outs)
    suite.check(fn)

# Builtin scalars (weak) on either side.
SCALAR_CASES = [("i32", "f32", 2.5), ("i64", "f64", 2.0), ("f16", "f32", 2.5), ("ui8", "i64", 2),
                ("i1", "i1", True), ("i1", "i64", 1), ("f32", "i32", 1), ("bf16", "f64", -1.0)]
fn = Func("cmp_scalars")
outs = []
for i, (t, s, val) in enumerate(SCALAR_CASES):
    x = fn.tensor(data(t), t, dynamic=True)
    c = fn.arg(s, val)
    for k in BINARY_TEST_KINDS:
        outs.append(fn.binary_test(k, x, c) if i % 2 == 0 else fn.binary_test(k, c, x))
fn.ret(*outs)
suite.check(fn)
sys.exit(suite.finish())
