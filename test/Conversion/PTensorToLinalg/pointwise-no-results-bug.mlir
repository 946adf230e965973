// RUN: ptensor-opt %s --convert-ptensor-to-linalg | FileCheck %s

// Regression test (fixed). Was BUG: a ptensor.pointwise without outputs (valid: the yield may be omitted
// then, see test/Dialect/PTensor/ops.mlir) crashes convert-ptensor-to-linalg:
// PointwisePattern reads op.getResult(0) to get the iteration shape, and
// there is no result (segfault / assertion). ptensor-to-cpu-pipeline hides
// it because its first canonicalize erases the side-effect-free op.
// Expected: the op is erased (it has no results and no effects), or a
// diagnostic; never a crash.

// CHECK-LABEL: func.func @pointwise_no_results(
// CHECK-NOT:     ptensor.pointwise
// CHECK:         return
func.func @pointwise_no_results(%r: !ptensor.ptensor<?xf32>) {
  ptensor.pointwise (%r) promotion [] : (!ptensor.ptensor<?xf32>) -> () {
  ^bb0(%m: f32):
  }
  return
}
