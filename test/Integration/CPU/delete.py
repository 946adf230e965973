# ptensor.delete frees a temporary early and never changes a result: the
# functions below compute with and around deleted tensors (materialized
# temporaries, fused ones, arguments, views, written tensors) and compare
# with numpy. Under the sanitizer build a buffer freed too early is a
# use-after-free.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
rng = np.random.default_rng(11)


def types(dt):
    return ("!ptensor.ptensor<?x?x%s>" % dt, "!ptensor.ptensor<?x%s>" % dt,
            "!ptensor.ptensor<%s>" % dt)


def check(name, dt, args, body, results, inputs, expected, category="exact", atol=0.0):
    suite.check_module(name, func_text(name, args, body, results), name, inputs,
                       [(e, spec(dt, category, desc=name, atol=atol)) for e in expected])


for dt, np_dt in (("f64", np.float64), ("f32", np.float32)):
    M, V, S = types(dt)
    a = rng.uniform(-2, 2, (37, 19)).astype(np_dt)
    A = a.astype(np.float64)
    # Row sums materialized (f64) or accumulated in f64 with the cast fused
    # into the max (f32), deleted before the next allocation.
    check("row_sums_" + dt, dt, [("a", M)],
          ["%t = ptensor.reduce sum %a axes [1] : " + M + " -> " + V,
           "%s = ptensor.reduce max %t : " + V + " -> " + S,
           "ptensor.delete %t : " + V,
           "%u = ptensor.elementwise_unary tanh %a : (" + M + ") -> " + M,
           "%r = ptensor.elementwise_binary add %u, %s : (" + M + ", " + S + ") -> " + M],
          [("%r", M)], [a], [np.tanh(A) + A.sum(axis=1).max()], "transc",
          atol=1e-5 if dt == "f32" else 1e-13)

M, V, S = types("f32")
a = rng.integers(-8, 9, (6, 5)).astype(np.float32)
b = rng.integers(-8, 9, (6, 5)).astype(np.float32)
A, B = a.astype(np.float64), b.astype(np.float64)

# An argument deleted: the caller's storage; only its use ends.
check("argument", "f32", [("a", M)],
      ["%s = ptensor.reduce sum %a : " + M + " -> " + S,
       "ptensor.delete %a : " + M],
      [("%s", S)], [a], [A.sum()])

# A fused temporary (its producer fused into the sum): nothing to free.
check("fused", "f32", [("a", M), ("b", M)],
      ["%t = ptensor.elementwise_binary multiply %a, %b : (" + M + ", " + M + ") -> " + M,
       "%s = ptensor.reduce sum %t : " + M + " -> " + S,
       "ptensor.delete %t : " + M,
       "%r = ptensor.elementwise_binary subtract %a, %s : (" + M + ", " + S + ") -> " + M],
      [("%r", M)], [a, b], [A - (A * B).sum()])

# A view of the temporary read before the delete, its result returned.
K, T = "!ptensor.ptensor<?x1xf32>", "!ptensor.ptensor<1x?xf32>"
check("view_before", "f32", [("a", M)],
      ["%t = ptensor.reduce sum %a axes [1] {keepdims = true} : " + M + " -> " + K,
       "%v = ptensor.permute_dims %t [1, 0] : " + K + " -> " + T,
       "%r = ptensor.elementwise_binary multiply %v, %v : (" + T + ", " + T + ") -> " + T,
       "ptensor.delete %t : " + K],
      [("%r", T)], [a], [(A.sum(axis=1, keepdims=True) ** 2).T])

# Written, read, deleted; a second temporary made after the delete.
check("written", "f32", [("a", M), ("b", M)],
      ["%t = ptensor.reduce sum %a axes [0] : " + M + " -> " + V,
       "%c = ptensor.reduce max %b axes [0] : " + M + " -> " + V,
       "ptensor.write %c into %t : " + V,
       "%s = ptensor.reduce sum %t : " + V + " -> " + S,
       "ptensor.delete %t : " + V,
       "%u = ptensor.reduce min %a axes [0] : " + M + " -> " + V,
       "%r = ptensor.elementwise_binary add %u, %s : (" + V + ", " + S + ") -> " + V],
      [("%r", V), ("%c", V)], [a, b], [A.min(axis=0) + B.max(axis=0).sum(), B.max(axis=0)])

sys.exit(suite.finish())
