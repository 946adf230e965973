# searchsorted against numpy's: every dtype, both sides, values of any rank
# (0-d included) with exact hits, ties, values outside the range, NaN,
# -0.0/0.0 and ±inf; mixed dtypes (compared in the promoted one); a sorter
# (argsort's indices, of several integer dtypes); sorted inputs that are
# views (stepped, flipped through a sorter); static and dynamic shapes;
# empty sorted and empty values.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(61)

SPECIALS = [np.nan, -0.0, 0.0, np.inf, -np.inf, 1.0, 1.0, np.nan]


def values(dt, shape):
    n = int(np.prod(shape))
    if kind(dt) == "f":
        x = gen.floats(dt, n, lo=-4.0, hi=4.0, specials=SPECIALS[: min(n, len(SPECIALS))])[:n]
        # Ties and exact hits: half of the values on a grid of halves.
        half = x[: n // 2].astype(np.float64)
        x[: n // 2] = round_to(np.round(half * 2) / 2, dt)
        gen.rng.shuffle(x)
        return x.reshape(shape)
    return gen.array(dt, shape, ilo=-6, ihi=6)


def sorted_line(dt, n):
    """n values in sort's order (NaNs last), with runs of equal ones."""
    x = values(dt, (n,))
    order = sort_indices_ref(x, dt, 0, False)
    return x[order]


# Every dtype, both sides, dynamic and static, 0-d to 2-D values.
for dt in ALL_DTYPES:
    fn = Func("all_" + dt)
    s = fn.tensor(sorted_line(dt, 23), dt, dynamic=True)
    s7 = fn.tensor(sorted_line(dt, 7), dt)
    v = fn.tensor(values(dt, (4, 9)), dt, dynamic=True)
    w = fn.tensor(values(dt, (5,)), dt)
    z = fn.tensor(values(dt, ()), dt)
    fn.ret(fn.searchsorted(s, v), fn.searchsorted(s, v, side="right"),
           fn.searchsorted(s7, w), fn.searchsorted(s7, w, side="right"),
           fn.searchsorted(s, z, side="right"), fn.searchsorted(s7, s7))
    suite.check(fn)

# A sorter: the indices that sort an unsorted line (numpy's stable
# argsort), in several integer dtypes; right and left.
for dt, sorter_dt in [("f32", "i64"), ("i16", "i32"), ("f16", "ui8"),
                      ("ui32", "ui16"), ("bf16", "i64"), ("i1", "i8")]:
    fn = Func("sorter_%s_%s" % (dt, sorter_dt))
    raw = values(dt, (17,))
    order = sort_indices_ref(raw, dt, 0, False)
    u = fn.tensor(raw, dt, dynamic=True)
    p = fn.tensor(order.astype(NP[sorter_dt]), sorter_dt, dynamic=True)
    v = fn.tensor(values(dt, (3, 6)), dt)
    fn.ret(fn.searchsorted(u, v, sorter=p), fn.searchsorted(u, v, side="right", sorter=p))
    suite.check(fn)

# Mixed dtypes: compared in the promoted dtype (integers widened, f16 in
# f32), integers against floats in f64 (numpy's rule), bool in the other.
for sdt, vdt in [("ui8", "i32"), ("i8", "i64"), ("f16", "f32"), ("f64", "f32"),
                 ("i32", "f64"), ("i1", "i16"), ("i32", "f32"), ("f16", "i64"),
                 ("ui16", "bf16"), ("i1", "f32")]:
    fn = Func("mixed_%s_%s" % (sdt, vdt))
    s = fn.tensor(sorted_line(sdt, 12), sdt, dynamic=True)
    v = fn.tensor(values(vdt, (2, 8)), vdt, dynamic=True)
    fn.ret(fn.searchsorted(s, v), fn.searchsorted(s, v, side="right"))
    suite.check(fn)

# Views: a stepped sorted line, values that are a transposed matrix, and a
# flipped (descending) line searched through the sorter that reverses it.
fn = Func("views")
a = fn.tensor(sorted_line("f32", 40), "f32", dynamic=True)
m = fn.tensor(values("f32", (6, 5)), "f32", dynamic=True)
stepped = fn.extract_slice(a, [1], [13], [3])
flipped = fn.flip(a, [0])
reverse = fn.tensor(np.arange(39, -1, -1, dtype=np.int64), "i64")
fn.ret(fn.searchsorted(stepped, fn.permute_dims(m, [1, 0])),
       fn.searchsorted(flipped, m, side="right", sorter=reverse))
suite.check(fn)

# Sizes 0 and 1: nothing to search in, nothing to search for.
fn = Func("small")
e = fn.tensor(sorted_line("f64", 0), "f64", dynamic=True)
one = fn.tensor(sorted_line("i64", 1), "i64", dynamic=True)
v = fn.tensor(values("f64", (3,)), "f64", dynamic=True)
none = fn.tensor(values("i64", (0, 4)), "i64", dynamic=True)
vi = fn.tensor(np.array([-7, 0, 7], np.int64), "i64")
fn.ret(fn.searchsorted(e, v), fn.searchsorted(e, v, side="right"),
       fn.searchsorted(one, vi), fn.searchsorted(one, vi, side="right"),
       fn.searchsorted(one, none))
suite.check(fn)

sys.exit(suite.finish())
