# ptensor.write (out= / in-place) is ordered with reads of the destination in
# program order, as in PyTorch: reads after the write see the new values,
# reads before it the old ones, also through views and across two writes.
# Inputs are small integers in f32, so every result is exact.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
rng = np.random.default_rng(7)
T = "!ptensor.ptensor<?x4xf32>"
V = "!ptensor.ptensor<4xf32>"
a = rng.integers(-8, 9, (3, 4)).astype(np.float32)
b = rng.integers(-8, 9, (3, 4)).astype(np.float32)
row = rng.integers(-8, 9, (4,)).astype(np.float32)
s = np.array(3, dtype=np.float32)
A, B = a.astype(np.float64), b.astype(np.float64)


def add(x, y, t=T):
    return "ptensor.elementwise_binary add %s, %s : (%s, %s) -> %s" % (x, y, t, t, t)


def mul(x, y, t=T):
    return "ptensor.elementwise_binary multiply %s, %s : (%s, %s) -> %s" % (x, y, t, t, t)


def check(name, args, body, results, inputs, expected):
    suite.check_module(name, func_text(name, args, body, results), name, inputs,
                       [(e, spec("f32", desc=name)) for e in expected])


AB = [("a", T), ("b", T)]

# A later read in another op, and the destination returned.
check("write_then_read", AB,
      ["%s = " + add("%a", "%b"), "ptensor.write %s into %a : " + T,
       "%r = " + mul("%a", "%b")],
      [("%r", T), ("%a", T)], [a, b], [(A + B) * B, A + B])

# Only the destination returned.
check("write_then_return", AB,
      ["%s = " + add("%a", "%b"), "ptensor.write %s into %a : " + T],
      [("%a", T)], [a, b], [A + B])

# Two in-place writes to one destination: the second reads the first's
# result; a read before the first write sees the input.
check("two_writes", AB,
      ["%t = " + mul("%a", "%b"),
       "%s1 = " + add("%a", "%b"), "ptensor.write %s1 into %a : " + T,
       "%s2 = " + mul("%a", "%a"), "ptensor.write %s2 into %a : " + T,
       "%r = " + add("%t", "%a")],
      [("%r", T), ("%a", T)], [a, b], [A * B + (A + B) ** 2, (A + B) ** 2])

# out= into a strided slice (every other column, rows reversed), then the
# whole destination read and returned.
SL = "!ptensor.ptensor<3x2xf32>"
expected = A.copy()
expected[::-1, 1::2] = A[::-1, 1::2] * 2
check("write_into_slice_then_read", AB,
      ["%%v = ptensor.extract_slice %%a [2, 1] [3, 2] [-1, 2] : %s -> %s" % (T, SL),
       "%w = " + add("%v", "%v", SL), "ptensor.write %w into %v : " + SL,
       "%r = " + add("%a", "%b")],
      [("%r", T), ("%a", T)], [a, b], [expected + B, expected])

# A view taken before the write reads the new values after it (views alias).
check("view_before_write", AB,
      ["%%f = ptensor.flip %%a [0] : %s -> %s" % (T, T),
       "%s = " + add("%a", "%b"), "ptensor.write %s into %a : " + T,
       "%r = " + mul("%f", "%b")],
      [("%r", T)], [a, b], [(A + B)[::-1] * B])

# The destination read through a flip while written (a = flip(a) + row):
# needs a temporary.
check("write_flipped_into_source", [("a", T), ("row", V)],
      ["%%f = ptensor.flip %%a [0] : %s -> %s" % (T, T),
       "%%s = ptensor.elementwise_binary add %%f, %%row : (%s, %s) -> %s" % (T, V, T),
       "ptensor.write %s into %a : " + T],
      [("%a", T)], [a, row], [A[::-1] + row.astype(np.float64)])

# A computed destination written through a slice, then read: the read must
# not recompute the destination from its inputs.
check("write_into_computed", AB,
      ["%t = " + add("%a", "%b"),
       "%%v = ptensor.extract_slice %%t [0, 0] [3, 2] [1, 2] : %s -> %s" % (T, SL),
       "%w = " + mul("%v", "%v", SL), "ptensor.write %w into %v : " + SL,
       "%r = " + mul("%t", "%b")],
      [("%r", T)], [a, b],
      [np.where(np.arange(4) % 2 == 0, (A + B) ** 2, A + B) * B])

sys.exit(suite.finish())
