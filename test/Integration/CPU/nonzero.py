# nonzero against numpy: every dtype (NaN non-zero, -0.0 zero); ranks 1 to
# 3; transposed, stepped and flipped inputs; static and dynamic shapes; no
# non-zero element, all of them, size 0; a computed input (a comparison)
# and a consumer of the indices. Exported to the GPU check.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(53)


def sparse(dt, shape):
    """About a third non-zero; floats with NaN and -0.0."""
    x = gen.array(dt, shape)
    keep = gen.rng.random(shape) < 0.35
    x = np.where(keep, x, np.zeros_like(x))
    if kind(dt) == "f" and x.size >= 3:
        flat = x.reshape(-1)
        flat[0] = round_to(np.array([np.nan]), dt)[0]
        flat[1] = round_to(np.array([-0.0]), dt)[0]
    return x


for dt in ALL_DTYPES:
    fn = Func("dtype_" + dt)
    a = fn.tensor(sparse(dt, (5, 6)), dt)
    b = fn.tensor(sparse(dt, (9,)), dt, dynamic=True)
    c = fn.tensor(sparse(dt, (2, 3, 4)), dt, dynamic=True)
    fn.ret(*fn.nonzero(a), *fn.nonzero(b), *fn.nonzero(c))
    suite.check(fn)

# Views: transposed, stepped, flipped.
fn = Func("views")
a = fn.tensor(sparse("f32", (6, 8)), "f32", dynamic=True)
fn.ret(*fn.nonzero(fn.permute_dims(a, [1, 0])),
       *fn.nonzero(fn.extract_slice(a, [1, 0], [2, 8], [2, 1])),
       *fn.nonzero(fn.flip(a, [1])))
suite.check(fn)

# None, all, and size 0.
fn = Func("edges")
z = fn.tensor(np.zeros((3, 4), np.int32), "i32", dynamic=True)
o = fn.tensor(np.ones((2, 3), np.int8), "i8")
e = fn.tensor(np.zeros((0, 5), np.float32), "f32", dynamic=True)
fn.ret(*fn.nonzero(z), *fn.nonzero(o), *fn.nonzero(e))
suite.check(fn)

# A comparison as the input, and the indices used by an elementwise op.
fn = Func("computed")
a = fn.tensor(gen.array("f32", (4, 7)), "f32", dynamic=True)
rows, cols = fn.nonzero(fn.binary_test("greater", a, fn.arg("f32", 0.5)))
fn.ret(rows, fn.binary("add", cols, fn.arg("i64", 10)))
suite.check(fn)

sys.exit(suite.finish())
