# sort and argsort against numpy's stable argsort: every dtype, ascending
# and descending, every axis; NaN, -0.0/0.0, ±inf and many ties (the
# stability and NaN order are checked through argsort's indices); short
# lines (comparison sort) and long ones (radix sort, full integer ranges);
# transposed, stepped, flipped and broadcast inputs; static and dynamic
# shapes; sizes 0 and 1; an elementwise producer fused into the copy; the
# runs hint.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(47)

SPECIALS = [np.nan, -np.nan, -0.0, 0.0, np.inf, -np.inf, 1.0, 1.0, -0.0, np.nan]


def data(dt, shape, full_range=False):
    n = int(np.prod(shape))
    if kind(dt) == "f":
        x = gen.floats(dt, n, lo=-3.0, hi=3.0, specials=SPECIALS[: min(n, len(SPECIALS))])
        x = x[:n]
        # Ties: round half of the values to quarters.
        half = x[: n // 2].astype(np.float64)
        x[: n // 2] = round_to(np.round(half * 4) / 4, dt)
        gen.rng.shuffle(x)
        return x.reshape(shape)
    if full_range:
        return gen.ints(dt, n).reshape(shape)
    return gen.array(dt, shape, ilo=-9, ihi=9)


def both(fn, x, **kw):
    return [fn.sort(x, **kw), fn.sort(x, indices=True, **kw)]


# Every dtype: short lines, both directions, both axes, static and dynamic.
for dt in ALL_DTYPES:
    fn = Func("all_" + dt)
    a = fn.tensor(data(dt, (5, 7)), dt)
    b = fn.tensor(data(dt, (6, 4)), dt, dynamic=True)
    fn.ret(*both(fn, a), *both(fn, a, axis=0, descending=True),
           *both(fn, b, descending=True), *both(fn, b, axis=-2),
           fn.sort(a, stable=False), fn.sort(b, axis=0, descending=True, stable=False))
    suite.check(fn)

# Long lines: the radix sort, with full integer ranges (every key byte
# differs) and floats with specials and ties.
for dt in ALL_DTYPES:
    fn = Func("long_" + dt)
    a = fn.tensor(data(dt, (3, 1500), full_range=True), dt, dynamic=True)
    fn.ret(*both(fn, a), *both(fn, a, descending=True))
    suite.check(fn)

# One line of floats (a GPU sorts it with one radix sort): contiguous into
# a new result (CUB reads the input itself; negative NaNs moved after the
# sort, or before it descending) and a stepped view (the gather path).
for dt in ["f16", "bf16", "f32", "f64"]:
    fn = Func("one_line_" + dt)
    a = fn.tensor(data(dt, (2000,)), dt, dynamic=True)
    stepped = fn.extract_slice(a, [1], [999], [2])
    fn.ret(fn.sort(a), fn.sort(a, descending=True), fn.sort(stepped),
           fn.sort(stepped, descending=True))
    suite.check(fn)

# Lines of middle lengths, many of them on a GPU: past the lengths that
# CUB's segmented sort merge-sorts in a warp (112 keys of up to 4 bytes, 64
# of 8), each line is sorted by a warp (up to 128 and 256 elements), then
# by the smallest block that holds it (up to 512, 1024, 2048 and 4096 of up
# to 4 bytes; the views below have lines of 300, the long ones 1500).
for dt in ALL_DTYPES:
    fn = Func("middle_" + dt)
    a = fn.tensor(data(dt, (3, 120)), dt, dynamic=True)
    b = fn.tensor(data(dt, (2, 200), full_range=True), dt)
    c = fn.tensor(data(dt, (2, 700)), dt)
    d = fn.tensor(data(dt, (2, 3000)), dt)
    fn.ret(*both(fn, a), *both(fn, a, descending=True), *both(fn, b),
           *both(fn, b, descending=True), *both(fn, c, descending=True), *both(fn, d))
    suite.check(fn)

# The runs hint (what a process of a sample sort receives): lines made of
# runs each sorted in the op's order, merged (an empty run, the last end
# left out); runs that are not sorted (the line is sorted whole); always
# numpy's result.
def sorted_runs(x, dt, ends, descending):
    """2-D `x` with each run of its lines sorted in the op's order."""
    out = np.array(x)
    bounds = [0] + list(ends) + [x.shape[-1]]
    for lo, hi in zip(bounds, bounds[1:]):
        part = out[:, lo:hi]
        out[:, lo:hi] = np.take_along_axis(part, sort_indices_ref(part, dt, 1, descending), 1)
    return out


for dt in ALL_DTYPES:
    fn = Func("runs_" + dt)
    x = data(dt, (3, 40))
    ends = [7, 7, 25]
    r = fn.tensor(np.array(ends, np.int64), "i64", dynamic=True)
    up = fn.tensor(sorted_runs(x, dt, ends, False), dt, dynamic=True)
    down = fn.tensor(sorted_runs(x, dt, ends, True), dt)
    whole = fn.tensor(x, dt, dynamic=True)
    fn.ret(*both(fn, up, runs=r), *both(fn, down, descending=True, runs=r),
           *both(fn, whole, runs=r))
    suite.check(fn)

# Inputs that are views: transposed, stepped, flipped, broadcast; a 3-D
# tensor along its middle axis.
fn = Func("views")
a = fn.tensor(data("f32", (6, 300)), "f32", dynamic=True)
s = fn.tensor(data("i16", (5,)), "i16")
c = fn.tensor(data("bf16", (3, 4, 5)), "bf16")
at = fn.permute_dims(a, [1, 0])
stepped = fn.extract_slice(a, [1, 0], [2, 300], [2, 1])
flipped = fn.flip(a, [1])
bcast = fn.broadcast(fn.expand_dims(s, 0), [3, 5])
fn.ret(*both(fn, at), *both(fn, at, axis=0), *both(fn, stepped, descending=True),
       *both(fn, flipped), *both(fn, bcast, axis=0), *both(fn, c, axis=1, descending=True))
suite.check(fn)

# Sizes 0 and 1.
fn = Func("small")
z = fn.tensor(data("f64", (0, 3)), "f64", dynamic=True)
o = fn.tensor(data("i32", (4, 1)), "i32", dynamic=True)
fn.ret(*both(fn, z), *both(fn, z, axis=0), *both(fn, o), *both(fn, o, axis=0))
suite.check(fn)

# An elementwise producer computed into the sort's copy.
fn = Func("fused")
a = fn.tensor(data("f32", (4, 9)), "f32", dynamic=True)
fn.ret(fn.sort(fn.binary("multiply", a, a)), fn.sort(fn.binary("add", a, fn.arg("f32", 1.5)), indices=True))
suite.check(fn)

sys.exit(suite.finish())
