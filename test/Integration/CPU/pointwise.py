# ptensor.pointwise: a user-defined scalar body with several inputs and
# outputs. polar -> (re, im); output dtypes from promotion methods over all
# inputs (DEFAULT, INT_TO_FLOAT, ALWAYS_BOOL, BOOL_TO_LONG, NO_OPMATH); inputs
# converted to the block argument types, yields converted to the output
# dtypes; broadcasting, dynamic shapes and a weak scalar input.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
gen = Gen(71)

# polar: magnitude (?), angle (?) -> re, im.
r = gen.floats("f32", 50, 0, 10)
t = gen.floats("f32", 50, -np.pi, np.pi)
POLAR = """
func.func @polar(%r: !ptensor.ptensor<?xf32>, %t: !ptensor.ptensor<?xf32>) -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) {
  %re, %im = ptensor.pointwise (%r, %t) promotion [DEFAULT, DEFAULT]
      : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>)
      -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) {
  ^bb0(%m: f32, %a: f32):
    %c = math.cos %a : f32
    %s = math.sin %a : f32
    %x = arith.mulf %m, %c : f32
    %y = arith.mulf %m, %s : f32
    ptensor.yield %x, %y : f32, f32
  }
  return %re, %im : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>
}
"""
r64, t64 = to_f64(r), to_f64(t)
# cos/sin then a rounded multiply: a few ulp, plus an absolute term for
# results near 0 (cos near pi/2 loses relative precision in the product).
tol = dict(ulps=6, atol=8 * 2.0 ** -24 * 10)
suite.check_module("polar", POLAR, "polar", [r, t],
                   [(r64 * np.cos(t64), spec("f32", desc="re", **tol)),
                    (r64 * np.sin(t64), spec("f32", desc="im", **tol))])

# Promotion methods over (i32 ?x1, f16 5): DEFAULT/NO_OPMATH -> f16,
# INT_TO_FLOAT -> f16, ALWAYS_BOOL -> i1; BOOL_TO_LONG over (i1, i1) -> i64.
a = gen.values("i32", 4, ilo=-50, ihi=50).reshape(4, 1)
b = gen.floats("f16", 5, -4, 4)
c1 = gen.rng.integers(0, 2, 5).astype(bool)
c2 = gen.rng.integers(0, 2, (3, 5)).astype(bool)
METHODS = """
func.func @methods(%a: !ptensor.ptensor<?x1xi32>, %b: !ptensor.ptensor<5xf16>, %s: f32)
    -> (!ptensor.ptensor<?x5xf16>, !ptensor.ptensor<?x5xf16>, !ptensor.ptensor<?x5xi1>, !ptensor.ptensor<?x5xf16>) {
  %o:4 = ptensor.pointwise (%a, %b, %s) promotion [DEFAULT, INT_TO_FLOAT, ALWAYS_BOOL, NO_OPMATH]
      : (!ptensor.ptensor<?x1xi32>, !ptensor.ptensor<5xf16>, f32)
      -> (!ptensor.ptensor<?x5xf16>, !ptensor.ptensor<?x5xf16>, !ptensor.ptensor<?x5xi1>, !ptensor.ptensor<?x5xf16>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    %n = arith.addf %m, %z : f32
    %d = arith.divf %n, %z : f32
    %l = arith.cmpf olt, %x, %y : f32
    %e = arith.subf %x, %y : f32
    ptensor.yield %n, %d, %l, %e : f32, f32, i1, f32
  }
  return %o#0, %o#1, %o#2, %o#3 : !ptensor.ptensor<?x5xf16>, !ptensor.ptensor<?x5xf16>, !ptensor.ptensor<?x5xi1>, !ptensor.ptensor<?x5xf16>
}
"""
s = np.float32(0.75)
x32 = to_f64(a.astype(np.float32))        # i32 -> f32 block argument
y32 = to_f64(b)                           # f16 -> f32
n = to_f64(round_to(x32 * y32, "f32")) + 0.75   # two f32 ops, then -> f16
d = to_f64(round_to(n, "f32")) / 0.75
suite.check_module("methods", METHODS, "methods", [a, b, np.array(s, np.float32)], [
    (n, spec("f16", "basic", desc="DEFAULT f16")),
    (d, spec("f16", "basic", desc="INT_TO_FLOAT f16")),
    (np.broadcast_to(x32 < y32, (4, 5)), spec("i1", desc="ALWAYS_BOOL")),
    (x32 - y32, spec("f16", "basic", desc="NO_OPMATH f16")),
])

# BOOL_TO_LONG over (i1, i1) -> i64; bools converted to i64 block arguments.
BOOL_TO_LONG = """
func.func @bool_to_long(%p: !ptensor.ptensor<5xi1>, %q: !ptensor.ptensor<3x5xi1>) -> (!ptensor.ptensor<3x5xi64>, !ptensor.ptensor<3x5xi1>) {
  %w:2 = ptensor.pointwise (%p, %q) promotion [BOOL_TO_LONG, DEFAULT]
      : (!ptensor.ptensor<5xi1>, !ptensor.ptensor<3x5xi1>)
      -> (!ptensor.ptensor<3x5xi64>, !ptensor.ptensor<3x5xi1>) {
  ^bb0(%u: i64, %v: i1):
    %k = arith.extui %v : i1 to i64
    %sum = arith.addi %u, %k : i64
    %ten = arith.constant 10 : i64
    %t2 = arith.muli %sum, %ten : i64
    %nv = arith.xori %v, %u_true : i1
    ptensor.yield %t2, %nv : i64, i1
  }
  return %w#0, %w#1 : !ptensor.ptensor<3x5xi64>, !ptensor.ptensor<3x5xi1>
}
""".replace("%u_true", "%true").replace("%ten = arith", "%true = arith.constant true\n    %ten = arith")
suite.check_module("bool_to_long", BOOL_TO_LONG, "bool_to_long", [c1, c2], [
    ((c1.astype(np.int64) + c2.astype(np.int64)) * 10, spec("i64", desc="BOOL_TO_LONG i64")),
    (~c2, spec("i1", desc="not q")),
])

# A body whose yield does not depend on the inputs (a constant).
CONST = """
func.func @const_yield(%p: !ptensor.ptensor<4x?xf32>) -> (!ptensor.ptensor<4x?xf32>, !ptensor.ptensor<4x?xf32>) {
  %w:2 = ptensor.pointwise (%p) promotion [DEFAULT, DEFAULT]
      : (!ptensor.ptensor<4x?xf32>) -> (!ptensor.ptensor<4x?xf32>, !ptensor.ptensor<4x?xf32>) {
  ^bb0(%u: f32):
    %c = arith.constant 2.5 : f32
    %d = arith.mulf %u, %c : f32
    ptensor.yield %c, %d : f32, f32
  }
  return %w#0, %w#1 : !ptensor.ptensor<4x?xf32>, !ptensor.ptensor<4x?xf32>
}
"""
pc = gen.floats("f32", 12).reshape(4, 3)
suite.check_module("const_yield", CONST, "const_yield", [pc], [
    (np.full((4, 3), 2.5), spec("f32", desc="constant")),
    (to_f64(pc) * 2.5, spec("f32", "basic", desc="times 2.5")),
])

# Integer body with an unsigned input: ui8 values converted to i32 block args
# (zero-extended), result promoted to i16 (ui8 with i8).
u = gen.values("ui8", 12).reshape(3, 4)
v = gen.values("i8", 4)
INTS = """
func.func @ints(%u: !ptensor.ptensor<3x4xui8>, %v: !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<3x4xi16> {
  %o = ptensor.pointwise (%u, %v) promotion [DEFAULT]
      : (!ptensor.ptensor<3x4xui8>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<3x4xi16> {
  ^bb0(%x: i32, %y: i32):
    %d = arith.subi %x, %y : i32
    ptensor.yield %d : i32
  }
  return %o : !ptensor.ptensor<3x4xi16>
}
"""
suite.check_module("ints", INTS, "ints", [u, v],
                   [((u.astype(np.int64) - v.astype(np.int64)).astype(np.int16), spec("i16"))])
sys.exit(suite.finish())
