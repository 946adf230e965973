# elementwise_binary with a builtin scalar operand (weak in promotion) on
# either side: a float scalar with an integer or bool tensor gives f32, an
# integer scalar with a bool tensor gives i64, otherwise the tensor's dtype
# wins (f16 + f32 scalar is f16, i8 + i64 scalar is i8). Scalar values are
# exactly representable in the result dtype. Scalars may be unsigned (ui8 ...
# ui64 function arguments).
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from binary_cases import *  # noqa: E402,F403

# (tensor dtype, scalar type, scalar on the left?)
CASES = [
    ("i32", "f32", False), ("i32", "f64", True), ("i1", "i64", False), ("i1", "f64", True),
    ("i8", "i64", False), ("ui8", "i32", True), ("f16", "f32", True), ("bf16", "f64", False),
    ("f64", "f32", False), ("f32", "i32", True), ("i64", "index", False), ("i16", "i1", True),
    ("ui16", "f32", False), ("i1", "i1", False),
    # unsigned scalars (reinterpreted as signless, extended as unsigned)
    ("ui8", "ui16", False), ("ui16", "ui8", True), ("f32", "ui16", True),
    ("ui64", "ui64", False), ("i32", "ui8", False), ("f64", "ui32", False),
]

# Scalar values per kind: (float choices, int choices).
SCALARS = {
    "floor_divide": ([1.5, -2.5, 4.0], [3, -2, 0]), "remainder": ([1.5, -2.5, 4.0], [3, -2, 0]),
    "divide": ([1.5, -2.5, 0.25], [3, -2, 0]), "pow": ([2.0, -1.5, 0.5], [2, 3, 0]),
    "bitwise_left_shift": ([], [1, 3, 5]), "bitwise_right_shift": ([], [1, 3, 5]),
    "logaddexp": ([1.5, -2.5], [3, -2]),
}
DEFAULT_SCALARS = ([1.5, -2.5, 0.75, 3.0], [3, -2, 5, 1])

suite = Suite(__file__)
gen = Gen(9)
for t, s, left in CASES:
    fn = Func("scalar_%s_%s_%s" % (t, s, "l" if left else "r"))
    outs = []
    for k in BINARY_KINDS:
        if not legal(k, t, s if s != "index" else "i64"):
            continue
        fchoices, ichoices = SCALARS.get(k, DEFAULT_SCALARS)
        if s == "i1":
            val = True
        elif s in ("f32", "f64"):
            val = gen.rng.choice(fchoices)
        else:
            ic = [v for v in ichoices if not ("u" in (kind(t), kind(s)) and v < 0)]
            val = int(gen.rng.choice(ic))
            if left and k in ("pow",):
                val = abs(val)
        if k == "pow" and kind(t) != "f" and s not in ("f32", "f64"):
            # integer pow: small bases, exponents >= 0
            data = gen.values(t, 30, ilo=0 if left else -4, ihi=6 if left else 4)
            if left:
                data = gen.values(t, 30, ilo=0, ihi=5)
        elif k.startswith("bitwise") and "shift" in k:
            w = width(promote([(t, False), ("i64" if s == "index" else s, True)]))
            data = gen.values(t, 30, ilo=0 if left else None, ihi=w - 1 if left else None)
        elif kind(t) == "f":
            data = gen.values(t, 30, -50, 50, nonzero=True)
        elif s in ("f32", "f64"):
            data = gen.values(t, 30, ilo=-100, ihi=100, nonzero=True)
        else:
            data = gen.values(t, 30, ilo=-100, ihi=100)
        x = fn.tensor(data, t, dynamic=True)
        c = fn.arg(s, val)
        outs.append(fn.binary(k, c, x) if left else fn.binary(k, x, c))
    fn.ret(*outs)
    suite.check(fn)
sys.exit(suite.finish())
