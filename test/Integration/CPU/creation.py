# Creation ops against numpy: ptensor.create (fill value converted to the
# dtype; static, dynamic and rank-0 shapes), ptensor.arange (integer and
# float steps, negative steps, empty ranges, index operands, static result
# size), ptensor.linspace (with and without endpoint, num = 0 and 1, f32
# results); created tensors feeding an elementwise op.
# RUN: %python %s %t
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Inputs"))
from harness import *  # noqa: E402,F403

suite = Suite(__file__)
T = "!ptensor.ptensor<%s>"

CREATE = """
func.func @create(%n: index, %v: f32, %i: i64, %b: i1) -> (!ptensor.ptensor<4x?xf32>, !ptensor.ptensor<3xf16>, !ptensor.ptensor<?x2xi32>, !ptensor.ptensor<f64>, !ptensor.ptensor<2x?xi1>, !ptensor.ptensor<?xui8>, !ptensor.ptensor<4x?xf32>) {
  %0 = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<4x?xf32>
  %1 = ptensor.create () fill %v : f32 -> !ptensor.ptensor<3xf16>
  %2 = ptensor.create (%n) fill %i : i64 -> !ptensor.ptensor<?x2xi32>
  %3 = ptensor.create () fill %v : f32 -> !ptensor.ptensor<f64>
  %4 = ptensor.create (%n) fill %b : i1 -> !ptensor.ptensor<2x?xi1>
  %5 = ptensor.create (%n) fill %i : i64 -> !ptensor.ptensor<?xui8>
  %6 = ptensor.elementwise_binary add %0, %v : (!ptensor.ptensor<4x?xf32>, f32) -> !ptensor.ptensor<4x?xf32>
  return %0, %1, %2, %3, %4, %5, %6 : !ptensor.ptensor<4x?xf32>, !ptensor.ptensor<3xf16>, !ptensor.ptensor<?x2xi32>, !ptensor.ptensor<f64>, !ptensor.ptensor<2x?xi1>, !ptensor.ptensor<?xui8>, !ptensor.ptensor<4x?xf32>
}
"""
n, v, i = 3, -2.75, 200
suite.check_module("create", CREATE, "create",
                   [np.array(n, np.int64), np.array(v, np.float32), np.array(i, np.int64), np.array(True)],
                   [(np.full((4, n), v), spec("f32")), (np.full(3, v), spec("f16")),
                    (np.full((n, 2), i, np.int32), spec("i32")), (np.array(v), spec("f64")),
                    (np.ones((2, n), bool), spec("i1")), (np.full(n, i, np.uint8), spec("ui8")),
                    (np.full((4, n), 2 * v), spec("f32"))])

# A size-0 create.
suite.check_module("create_empty", CREATE.replace("@create", "@create_empty"), "create_empty",
                   [np.array(0, np.int64), np.array(1.0, np.float32), np.array(7, np.int64), np.array(False)],
                   [(np.zeros((4, 0)), spec("f32")), (np.ones(3), spec("f16")),
                    (np.zeros((0, 2), np.int32), spec("i32")), (np.array(1.0), spec("f64")),
                    (np.zeros((2, 0), bool), spec("i1")), (np.zeros(0, np.uint8), spec("ui8")),
                    (np.zeros((4, 0)), spec("f32"))])

ARANGE_INT = """
func.func @arange_int(%a: i64, %b: i64, %c: i64) -> !ptensor.ptensor<?xi64> {
  %r = ptensor.arange %a, %b, %c : i64 -> !ptensor.ptensor<?xi64>
  return %r : !ptensor.ptensor<?xi64>
}
"""
for k, (a, b, c) in enumerate([(3, 17, 4), (10, -3, -3), (5, 5, 1), (0, 1000, 7), (-5, 5, 20), (5, 0, 1)]):
    suite.check_module("arange_int_%d" % k, ARANGE_INT, "arange_int",
                       [np.array(a, np.int64), np.array(b, np.int64), np.array(c, np.int64)],
                       [(np.arange(a, b, c, dtype=np.int64), spec("i64", desc="arange(%d, %d, %d)" % (a, b, c)))])

ARANGE_MIX = """
func.func @arange_mix(%a: f64, %b: f64, %c: f64, %i: index, %j: index, %k: index, %s: i32, %t: i32, %u: i32) -> (!ptensor.ptensor<?xf64>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<10xf32>, !ptensor.ptensor<?xi16>) {
  %0 = ptensor.arange %a, %b, %c : f64 -> !ptensor.ptensor<?xf64>
  %1 = ptensor.arange %a, %b, %c : f64 -> !ptensor.ptensor<?xf32>
  %2 = ptensor.arange %i, %j, %k : index -> !ptensor.ptensor<?xi64>
  %3 = ptensor.arange %i, %j, %k : index -> !ptensor.ptensor<10xf32>
  %4 = ptensor.arange %s, %t, %u : i32 -> !ptensor.ptensor<?xi16>
  return %0, %1, %2, %3, %4 : !ptensor.ptensor<?xf64>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<10xf32>, !ptensor.ptensor<?xi16>
}
"""
fa, fb, fc = 0.5, 3.1, 0.25       # 11 elements: 0.5 .. 3.0
ia, ib, ic = 2, 32, 3             # 10 elements
sa, sb, sc = 100, -20, -7
ref_f = fa + np.arange(int(np.ceil((fb - fa) / fc))) * fc
atol = 4 * 2.0 ** -52 * 4
suite.check_module("arange_mix", ARANGE_MIX, "arange_mix",
                   [np.array(x, np.float64) for x in (fa, fb, fc)]
                   + [np.array(x, np.int64) for x in (ia, ib, ic)]
                   + [np.array(x, np.int32) for x in (sa, sb, sc)],
                   [(ref_f, spec("f64", "basic", desc="f64 arange", atol=atol)),
                    (ref_f, spec("f32", "basic", desc="f64 arange to f32")),
                    (np.arange(ia, ib, ic, dtype=np.int64), spec("i64", desc="index arange")),
                    (np.arange(ia, ib, ic).astype(np.float64), spec("f32", desc="static 10xf32")),
                    (np.arange(sa, sb, sc).astype(np.int16), spec("i16", desc="i32 arange to i16"))])

LINSPACE = """
func.func @linspace(%a: f64, %b: f64, %n: index) -> (!ptensor.ptensor<?xf64>, !ptensor.ptensor<?xf64>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<7xf64>) {
  %0 = ptensor.linspace %a, %b, %n : f64 -> !ptensor.ptensor<?xf64>
  %1 = ptensor.linspace %a, %b, %n {endpoint = false} : f64 -> !ptensor.ptensor<?xf64>
  %2 = ptensor.linspace %a, %b, %n : f64 -> !ptensor.ptensor<?xf32>
  %3 = ptensor.linspace %a, %b, %n {endpoint = false} : f64 -> !ptensor.ptensor<7xf64>
  return %0, %1, %2, %3 : !ptensor.ptensor<?xf64>, !ptensor.ptensor<?xf64>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<7xf64>
}
"""
for k, (a, b, num) in enumerate([(-1.0, 2.5, 7), (10.0, -10.0, 7), (3.0, 4.0, 7)]):
    at = 4 * 2.0 ** -52 * max(abs(a), abs(b))   # values near 0 in the middle
    suite.check_module("linspace_%d" % k, LINSPACE, "linspace",
                       [np.array(a), np.array(b), np.array(num, np.int64)],
                       [(np.linspace(a, b, num), spec("f64", "basic", desc="endpoint", ulps=2, atol=at)),
                        (np.linspace(a, b, num, endpoint=False), spec("f64", "basic", desc="no endpoint", ulps=2, atol=at)),
                        (np.linspace(a, b, num), spec("f32", "basic", desc="f32", atol=at * 2.0 ** 29)),
                        (np.linspace(a, b, 7, endpoint=False), spec("f64", "basic", desc="static 7", ulps=2, atol=at))])

LINSPACE_DYN = """
func.func @linspace_dyn(%a: f32, %b: f32, %n: index) -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf64>) {
  %0 = ptensor.linspace %a, %b, %n : f32 -> !ptensor.ptensor<?xf32>
  %1 = ptensor.linspace %a, %b, %n {endpoint = false} : f32 -> !ptensor.ptensor<?xf64>
  return %0, %1 : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf64>
}
"""
for num in (0, 1, 2, 33):
    suite.check_module("linspace_n%d" % num, LINSPACE_DYN, "linspace_dyn",
                       [np.array(-0.5, np.float32), np.array(1.5, np.float32), np.array(num, np.int64)],
                       [(np.linspace(-0.5, 1.5, num), spec("f32", "basic", desc="n=%d" % num, atol=2.0 ** -23)),
                        # f32 operands: the values may be computed in f32, then converted.
                        (np.linspace(-0.5, 1.5, num, endpoint=False),
                         spec("f64", "basic", desc="n=%d no endpoint" % num, ulps=2, atol=2.0 ** -21))])
sys.exit(suite.finish())
