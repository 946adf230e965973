# unique_all/counts/inverse/values against numpy (unique_ref: a stable
# argsort, NaNs each distinct, -0.0 equal to 0.0 with the first kept):
# every dtype with duplicates, NaN, ±0 and ±inf; ranks 0 to 3; transposed,
# stepped and flipped inputs (flattened in row-major order of the view);
# static and dynamic shapes; size 0, 1, all equal, all distinct, already
# sorted and reversed; a computed input and consumers of the results.
# Exported to the GPU check.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(61)


def with_duplicates(dt, shape):
    """Values drawn from a few distinct ones; floats with NaNs, ±0, ±inf."""
    pool = gen.array(dt, (5,))
    x = pool[gen.rng.integers(0, 5, size=shape)]
    if kind(dt) == "f" and x.size >= 6:
        flat = x.reshape(-1)
        special = round_to(np.array([np.nan, -0.0, 0.0, np.inf, np.nan, -np.inf]), dt)
        flat[:6] = special
        gen.rng.shuffle(flat)
    return x


for dt in ALL_DTYPES:
    fn = Func("dtype_" + dt)
    a = fn.tensor(with_duplicates(dt, (5, 6)), dt)
    b = fn.tensor(with_duplicates(dt, (17,)), dt, dynamic=True)
    fn.ret(*fn.unique(a, "all"), *fn.unique(b, "all"))
    suite.check(fn)

for kind_ in ("counts", "inverse", "values"):
    fn = Func("kind_" + kind_)
    a = fn.tensor(with_duplicates("f32", (4, 9)), "f32", dynamic=True)
    c = fn.tensor(with_duplicates("i16", (2, 3, 4)), "i16", dynamic=True)
    fn.ret(*fn.unique(a, kind_), *fn.unique(c, kind_))
    suite.check(fn)

# Views: flattened in the view's row-major order.
fn = Func("views")
a = fn.tensor(with_duplicates("f64", (6, 8)), "f64", dynamic=True)
fn.ret(*fn.unique(fn.permute_dims(a, [1, 0]), "all"),
       *fn.unique(fn.extract_slice(a, [1, 0], [2, 8], [2, 1]), "all"),
       *fn.unique(fn.flip(a, [1]), "inverse"))
suite.check(fn)

# Edges: 0-d, size 0, size 1, all equal, all distinct, sorted, reversed.
fn = Func("edges")
scalar = fn.tensor(np.array(3, np.int32), "i32")
empty = fn.tensor(np.zeros((0, 5), np.float32), "f32", dynamic=True)
single = fn.tensor(np.array([7], np.uint8), "ui8", dynamic=True)
same = fn.tensor(np.full((3, 4), 2.5, np.float32), "f32", dynamic=True)
distinct = fn.tensor(gen.rng.permutation(50).astype(np.int64), "i64", dynamic=True)
ascending = fn.tensor(np.repeat(np.arange(10, dtype=np.int32), 3), "i32", dynamic=True)
descending = fn.tensor(np.repeat(np.arange(10, dtype=np.int32), 3)[::-1].copy(), "i32")
fn.ret(*fn.unique(scalar, "all"), *fn.unique(empty, "all"), *fn.unique(single, "all"),
       *fn.unique(same, "all"), *fn.unique(distinct, "all"),
       *fn.unique(ascending, "counts"), *fn.unique(descending, "inverse"))
suite.check(fn)

# A comparison as the input, and the results used by elementwise ops.
fn = Func("computed")
a = fn.tensor(gen.array("f32", (4, 7)), "f32", dynamic=True)
values, counts = fn.unique(fn.binary_test("greater", a, fn.arg("f32", 0.5)), "counts")
b = fn.tensor(with_duplicates("i32", (3, 5)), "i32", dynamic=True)
v, inverse = fn.unique(b, "inverse")
fn.ret(values, fn.binary("add", counts, fn.arg("i64", 10)),
       fn.binary("multiply", inverse, fn.arg("i64", 2)), v)
suite.check(fn)

sys.exit(suite.finish())
