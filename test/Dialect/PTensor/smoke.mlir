// RUN: ptensor-opt %s | ptensor-opt | FileCheck %s
// CHECK-LABEL: func.func @f
// CHECK: ptensor.elementwise_binary add
func.func @f(%a: !ptensor.ptensor<4x1xf32>, %b: !ptensor.ptensor<5xf16>, %s: f32) -> !ptensor.ptensor<4x5xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<5xf16>) -> !ptensor.ptensor<4x5xf32>
  %d = ptensor.elementwise_unary negative %c : (!ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
  %e = ptensor.elementwise_unary negative %d : (!ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
  %r:2 = ptensor.pointwise (%e, %s) promotion [DEFAULT, ALWAYS_BOOL] : (!ptensor.ptensor<4x5xf32>, f32) -> (!ptensor.ptensor<4x5xf32>, !ptensor.ptensor<4x5xi1>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    %q = arith.cmpf olt, %x, %y : f32
    ptensor.yield %z, %q : f32, i1
  }
  return %r#0 : !ptensor.ptensor<4x5xf32>
}
