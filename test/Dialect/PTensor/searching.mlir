// RUN: ptensor-opt %s | FileCheck %s
// RUN: ptensor-opt %s --mlir-print-op-generic | ptensor-opt | FileCheck %s

// Result type of searchsorted (ptensor/Semantics/Searching.h): i64 in the
// shape of the values, with the operands' device and team; the side is
// printed only when it is not the default (left). The verifier rejects any
// other (searching-invalid.mlir).

// CHECK-LABEL: func.func @searchsorted(
func.func @searchsorted(%s: !ptensor.ptensor<?xf32>, %v: !ptensor.ptensor<?x3xf16>, %x: !ptensor.ptensor<f32>) {
  // CHECK: ptensor.searchsorted %{{.*}}, %{{.*}} : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?x3xf16>) -> !ptensor.ptensor<?x3xi64>
  %0 = ptensor.searchsorted left %s, %v : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?x3xf16>) -> !ptensor.ptensor<?x3xi64>
  // CHECK: ptensor.searchsorted right %{{.*}}, %{{.*}} : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<f32>) -> !ptensor.ptensor<i64>
  %1 = ptensor.searchsorted right %s, %x : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<f32>) -> !ptensor.ptensor<i64>
  return
}

// A sorter of any integer dtype; a device and a team shared by all.
// CHECK-LABEL: func.func @sorter(
func.func @sorter(%s: !ptensor.ptensor<5xui8, device = "cuda:0", team = 1>, %v: !ptensor.ptensor<2x?xi32, device = "cuda:0", team = 1>, %p: !ptensor.ptensor<?xui16, device = "cuda:0", team = 1>) {
  // CHECK: ptensor.searchsorted right %{{.*}}, %{{.*}} sorter %{{.*}} : (!ptensor.ptensor<5xui8, device = "cuda:0", team = 1>, !ptensor.ptensor<2x?xi32, device = "cuda:0", team = 1>, !ptensor.ptensor<?xui16, device = "cuda:0", team = 1>) -> !ptensor.ptensor<2x?xi64, device = "cuda:0", team = 1>
  %0 = ptensor.searchsorted right %s, %v sorter %p : (!ptensor.ptensor<5xui8, device = "cuda:0", team = 1>, !ptensor.ptensor<2x?xi32, device = "cuda:0", team = 1>, !ptensor.ptensor<?xui16, device = "cuda:0", team = 1>) -> !ptensor.ptensor<2x?xi64, device = "cuda:0", team = 1>
  return
}
