// RUN: ptensor-opt %s --convert-ptensor-to-linalg | FileCheck %s

// ptensor.delete becomes ptensor.release_buffer of the builtin tensor; after
// a write, of the written tensor (the write's result: reads and the delete
// come after the write).

!v = !ptensor.ptensor<?xf32>
!s = !ptensor.ptensor<f32>

// CHECK-LABEL: func.func @delete(
// CHECK:         %[[T:.*]] = linalg.generic
// CHECK:         math.exp
// CHECK:         %[[W:.*]] = ptensor.strided_write %{{.*}} into %[[T]]
// CHECK:         linalg.generic {{.*}} ins(%[[W]] : tensor<?xf32>)
// CHECK:         ptensor.release_buffer %[[W]] : tensor<?xf32>
// CHECK-NOT:     ptensor.delete
func.func @delete(%a: !v, %b: !v) -> !s {
  %t = ptensor.elementwise_unary exp %a : (!v) -> !v
  ptensor.write %b into %t : !v
  %s = ptensor.reduce max %t : !v -> !s
  ptensor.delete %t : !v
  return %s : !s
}
