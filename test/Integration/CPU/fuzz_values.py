# Value-level fuzzing (issue 17): random valid programs (elementwise chains
# with broadcasting and promotion, where, views, reductions) on random
# shapes (rank 0 to 3, sizes 0, 1 and others, static or dynamic) and dtypes
# run through ptensor-runner and compared with numpy references computed
# independently (../Inputs/harness.py); then programs that must fail
# (sizes that do not broadcast at run time, negative and huge sizes) must
# give an error and exit status 1, never a crash. The seed is fixed (CI runs
# the same programs); run with another seed and count to explore:
#   python3 test/Integration/CPU/fuzz_values.py /tmp/out SEED COUNT
# RUN: %python %s %t
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
count = int(sys.argv[3]) if len(sys.argv) > 3 else 40
suite = Suite(__file__)
gen = Gen(seed)
rng = np.random.default_rng(seed)

FLOAT_UNARY = ["exp", "tanh", "sqrt", "abs", "negative", "floor", "sin", "log1p", "square"]
INT_UNARY = ["abs", "negative", "square", "bitwise_invert"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum"]
DTYPES = ["f32", "f64", "f16", "i32", "i64", "i8", "ui8"]
SIZES = [0, 1, 1, 2, 3, 5, 8, 17]


def pick(xs):
    return xs[int(rng.integers(len(xs)))]


def random_shape():
    return [pick(SIZES) for _ in range(int(rng.integers(0, 4)))]


def operand_shape(shape):
    """A shape that broadcasts to `shape`: leading dims dropped, some 1s."""
    lead = int(rng.integers(0, len(shape) + 1))
    return [1 if rng.random() < 0.3 else d for d in shape[lead:]]


def operand(fn, shape, dtype):
    data = gen.array(dtype, operand_shape(shape), lo=-3, hi=3, ilo=-20, ihi=20)
    return fn.tensor(data, dtype, dynamic=bool(rng.random() < 0.5))


def unary(fn, x):
    if x.dtype in ("i1",):
        return x
    kinds = FLOAT_UNARY if kind(x.dtype) == "f" else INT_UNARY
    if x.dtype.startswith("ui"):
        kinds = ["square", "bitwise_invert"]
    return fn.unary(pick(kinds), x)


def step(fn, x, dtype):
    shape = list(x.ref.shape)  # permute_dims changes it
    r = rng.random()
    if r < 0.35:
        return unary(fn, x)
    if r < 0.7:
        y = operand(fn, shape, pick([dtype, pick(DTYPES)]) if kind(dtype) == "f" else dtype)
        if kind(y.dtype) != kind(x.dtype):
            y = operand(fn, shape, x.dtype)
        return fn.binary(pick(BINARY), x, y)
    if r < 0.8:
        y = operand(fn, shape, x.dtype)
        return fn.where(fn.binary_test(pick(["less", "greater_equal"]), x, y), x, y)
    if r < 0.9 and len(x.type.shape) >= 2:
        axes = list(rng.permutation(len(x.type.shape)))
        return fn.permute_dims(x, [int(a) for a in axes])
    if len(x.type.shape) >= 1:
        return fn.flip(x, [int(rng.integers(len(x.type.shape)))])
    return unary(fn, x)


def reduce(fn, x):
    rank = len(x.type.shape)
    if rank == 0:
        return x
    axes = sorted({int(a) for a in rng.integers(0, rank, int(rng.integers(1, rank + 1)))})
    sizes = x.ref.shape
    empty = any(sizes[a] == 0 for a in axes)
    kinds = ["sum"] if empty else ["sum", "max", "min"]
    if kind(x.dtype) == "f" and not empty:
        kinds.append("mean")
    return fn.reduction(pick(kinds), x, axes=axes, keepdims=bool(rng.random() < 0.5))


EPS = {"f16": 2.0 ** -10, "bf16": 2.0 ** -7, "f32": 2.0 ** -23, "f64": 2.0 ** -52}


def chain_tolerance(values, dt):
    """Each op is within its own tolerance of the exact result of its
    rounded operands; along a chain those errors add up (a subtraction can
    cancel the leading digits): a few ulps plus an absolute error in units
    of the largest intermediate value."""
    mags = [np.max(np.abs(to_f64(v.ref)[np.isfinite(to_f64(v.ref))]), initial=0.0)
            for v in values if kind(v.dtype) == "f"]
    return {"ulps": 16.0, "atol": 64 * EPS[dt] * max([1.0] + mags), "ftz": True}


for case in range(count):
    shape = random_shape()
    dtype = pick(DTYPES)
    fn = Func("fuzz%d" % case)
    x = operand(fn, shape, dtype)
    chain = [x]
    for _ in range(int(rng.integers(1, 5))):
        x = step(fn, x, dtype)
        chain.append(x)
    results = [x]
    if rng.random() < 0.4:
        results.append(reduce(fn, x))
    for r in results:
        if kind(r.dtype) == "f" and len(chain) > 2:
            r.tol = chain_tolerance(chain, r.dtype)
    fn.ret(*results)
    suite.check(fn)

# Programs that must fail: a clean error (exit status 1, "error:"), no crash.
BAD = {
    "mismatch": ("""func.func @f(%a: !ptensor.ptensor<?x?xf32>, %b: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?x?xf32> {
  %r = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?x?xf32>
  return %r : !ptensor.ptensor<?x?xf32>
}""", lambda n: [np.ones((n, n + 1), np.float32), np.ones(n + 2, np.float32)], "cannot broadcast"),
    "negative": ("""func.func @f(%n: index, %m: index) -> !ptensor.ptensor<?x?xi16> {
  %v = arith.constant 3 : i16
  %t = ptensor.create (%n, %m) fill %v : i16 -> !ptensor.ptensor<?x?xi16>
  return %t : !ptensor.ptensor<?x?xi16>
}""", lambda n: [np.int64(-n), np.int64(n)], "invalid size"),
    "huge": ("""func.func @f(%n: index) -> !ptensor.ptensor<?x?xf64> {
  %v = arith.constant 1.0 : f64
  %t = ptensor.create (%n, %n) fill %v : f64 -> !ptensor.ptensor<?x?xf64>
  return %t : !ptensor.ptensor<?x?xf64>
}""", lambda n: [np.int64(3037000500 * n)], "needs more than 2^62 bytes"),
}
bad_runs = 0
for name, (ir, inputs_of, message) in BAD.items():
    for n in (1, 3, 6):
        d = os.path.join(suite.tmp_root, "bad_%s_%d" % (name, n))
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "m.mlir")
        with open(path, "w") as f:
            f.write(ir)
        args = []
        for i, a in enumerate(inputs_of(n)):
            p = os.path.join(d, "in%d.npy" % i)
            np.save(p, a)
            args += ["--input", p]
        out = subprocess.run(suite.cmd + [path, "-e", "f"] + args + ["--output-dir", os.path.join(d, "out")],
                             capture_output=True, text=True, timeout=300)
        bad_runs += 1
        if out.returncode != 1 or message not in out.stderr or os.path.exists(os.path.join(d, "out")):
            suite.fail("bad program %s (n=%d)" % (name, n),
                       "exit %d, expected 1 with %r and no output:\n%s" % (
                           out.returncode, message, out.stderr[-800:]))
print("fuzz_values: %d random programs, %d bad programs (seed %d)" % (count, bad_runs, seed))
sys.exit(suite.finish())
