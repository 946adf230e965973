// RUN: ptensor-opt %s | FileCheck %s
// RUN: ptensor-opt %s --mlir-print-op-generic | ptensor-opt | FileCheck %s

// Result types of unique (ptensor/Semantics/Sets.h; SetOps.cpp): values of
// the input's dtype and a dynamic size; indices and counts i64 of that
// size; inverse_indices i64 of the input's shape; all on the input's device
// and team. The results of each kind in the array API's order. Any other
// types are rejected (sets-invalid.mlir).

// CHECK-LABEL: func.func @kinds(
func.func @kinds(%a: !ptensor.ptensor<?x4xf32>) {
  // CHECK: ptensor.unique all %{{.*}} : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<?x4xi64>, !ptensor.ptensor<?xi64>)
  %0:4 = ptensor.unique all %a : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<?x4xi64>, !ptensor.ptensor<?xi64>)
  // CHECK: ptensor.unique counts %{{.*}} : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>)
  %1:2 = ptensor.unique counts %a : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>)
  // CHECK: ptensor.unique inverse %{{.*}} : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?x4xi64>)
  %2:2 = ptensor.unique inverse %a : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?x4xi64>)
  // CHECK: ptensor.unique values %{{.*}} : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xf32>)
  %3 = ptensor.unique values %a : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xf32>)
  return
}

// CHECK-LABEL: func.func @placement(
func.func @placement(%s: !ptensor.ptensor<ui8>, %g: !ptensor.ptensor<3x5xbf16, device = "cuda:0", team = 1>) {
  // A 0-d input: inverse_indices is 0-d.
  // CHECK: ptensor.unique inverse %{{.*}} : !ptensor.ptensor<ui8> -> (!ptensor.ptensor<?xui8>, !ptensor.ptensor<i64>)
  %0:2 = ptensor.unique inverse %s : !ptensor.ptensor<ui8> -> (!ptensor.ptensor<?xui8>, !ptensor.ptensor<i64>)
  // CHECK: ptensor.unique counts %{{.*}} : !ptensor.ptensor<3x5xbf16, device = "cuda:0", team = 1> -> (!ptensor.ptensor<?xbf16, device = "cuda:0", team = 1>, !ptensor.ptensor<?xi64, device = "cuda:0", team = 1>)
  %1:2 = ptensor.unique counts %g : !ptensor.ptensor<3x5xbf16, device = "cuda:0", team = 1> -> (!ptensor.ptensor<?xbf16, device = "cuda:0", team = 1>, !ptensor.ptensor<?xi64, device = "cuda:0", team = 1>)
  return
}

// bool and f16 inputs with a static dim: values keep the dtype.
// CHECK-LABEL: func.func @dtypes(
func.func @dtypes(%b: !ptensor.ptensor<7xi1>, %h: !ptensor.ptensor<2x?xf16>) {
  // CHECK: ptensor.unique all %{{.*}} : !ptensor.ptensor<7xi1> -> (!ptensor.ptensor<?xi1>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<7xi64>, !ptensor.ptensor<?xi64>)
  %0:4 = ptensor.unique all %b : !ptensor.ptensor<7xi1> -> (!ptensor.ptensor<?xi1>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<7xi64>, !ptensor.ptensor<?xi64>)
  // CHECK: ptensor.unique inverse %{{.*}} : !ptensor.ptensor<2x?xf16> -> (!ptensor.ptensor<?xf16>, !ptensor.ptensor<2x?xi64>)
  %1:2 = ptensor.unique inverse %h : !ptensor.ptensor<2x?xf16> -> (!ptensor.ptensor<?xf16>, !ptensor.ptensor<2x?xi64>)
  return
}
