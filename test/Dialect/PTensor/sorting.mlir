// RUN: ptensor-opt %s | FileCheck %s
// RUN: ptensor-opt %s --mlir-print-op-generic | ptensor-opt | FileCheck %s

// Result types of sort and argsort (ptensor/Semantics/Sorting.h): the
// input's shape, device and team; the input's dtype for sort, i64 for
// argsort; and of nonzero (Searching.h). The verifier rejects any other
// (sorting-invalid.mlir).

// CHECK-LABEL: func.func @sort(
func.func @sort(%a: !ptensor.ptensor<?x4xf32>, %b: !ptensor.ptensor<7xui8, device = "cuda:0", team = 1>) {
  // CHECK: ptensor.sort %{{.*}} : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
  %0 = ptensor.sort %a : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
  // CHECK: ptensor.sort %{{.*}} axis 0 {descending = true, stable = false} : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
  %1 = ptensor.sort %a axis 0 {descending = true, stable = false} : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
  // CHECK: ptensor.sort %{{.*}} : !ptensor.ptensor<7xui8, device = "cuda:0", team = 1> -> !ptensor.ptensor<7xui8, device = "cuda:0", team = 1>
  %2 = ptensor.sort %b axis -1 : !ptensor.ptensor<7xui8, device = "cuda:0", team = 1> -> !ptensor.ptensor<7xui8, device = "cuda:0", team = 1>
  return
}

// CHECK-LABEL: func.func @argsort(
func.func @argsort(%a: !ptensor.ptensor<?x4xbf16>, %b: !ptensor.ptensor<3xi1>) {
  // CHECK: ptensor.argsort %{{.*}} axis -2 : !ptensor.ptensor<?x4xbf16> -> !ptensor.ptensor<?x4xi64>
  %0 = ptensor.argsort %a axis -2 : !ptensor.ptensor<?x4xbf16> -> !ptensor.ptensor<?x4xi64>
  // CHECK: ptensor.argsort %{{.*}} {descending = true} : !ptensor.ptensor<3xi1> -> !ptensor.ptensor<3xi64>
  %1 = ptensor.argsort %b {descending = true} : !ptensor.ptensor<3xi1> -> !ptensor.ptensor<3xi64>
  return
}

// The runs hint: where sorted runs of each line end (1-D i64, the input's
// device, no team); the result type is the same.
// CHECK-LABEL: func.func @runs(
func.func @runs(%a: !ptensor.ptensor<?xf32>, %e: !ptensor.ptensor<?xi64>, %g: !ptensor.ptensor<2x?xi8, device = "cuda:0">, %ge: !ptensor.ptensor<3xi64, device = "cuda:0">) {
  // CHECK: ptensor.sort %{{.*}} runs %{{.*}} : !ptensor.ptensor<?xi64> : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
  %0 = ptensor.sort %a runs %e : !ptensor.ptensor<?xi64> : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
  // CHECK: ptensor.argsort %{{.*}} axis 1 runs %{{.*}} : !ptensor.ptensor<3xi64, device = "cuda:0"> {descending = true} : !ptensor.ptensor<2x?xi8, device = "cuda:0"> -> !ptensor.ptensor<2x?xi64, device = "cuda:0">
  %1 = ptensor.argsort %g axis 1 runs %ge : !ptensor.ptensor<3xi64, device = "cuda:0"> {descending = true} : !ptensor.ptensor<2x?xi8, device = "cuda:0"> -> !ptensor.ptensor<2x?xi64, device = "cuda:0">
  return
}

// nonzero: one dynamic i64 index tensor per dim, the input's device and team.
// CHECK-LABEL: func.func @nonzero(
func.func @nonzero(%a: !ptensor.ptensor<?x4xf32, team = 1>, %b: !ptensor.ptensor<7xi1>) {
  // CHECK: %{{.*}}:2 = ptensor.nonzero %{{.*}} : !ptensor.ptensor<?x4xf32, team = 1> -> (!ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>)
  %0:2 = ptensor.nonzero %a : !ptensor.ptensor<?x4xf32, team = 1> -> (!ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>)
  // CHECK: ptensor.nonzero %{{.*}} : !ptensor.ptensor<7xi1> -> (!ptensor.ptensor<?xi64>)
  %1 = ptensor.nonzero %b : !ptensor.ptensor<7xi1> -> (!ptensor.ptensor<?xi64>)
  return
}

// The lowering-internal sort into new outputs, on tensors and on buffers.
// CHECK-LABEL: func.func @sort_along(
func.func @sort_along(%x: tensor<?x4xf32>, %v: tensor<?x4xf32>, %i: tensor<?x4xi64>, %m: memref<8xi8>, %mi: memref<8xi64>, %ends: memref<2xi64>) -> (tensor<?x4xf32>, tensor<?x4xi64>) {
  // CHECK: %{{.*}}:2 = ptensor.sort_along %{{.*}} into values(%{{.*}} : tensor<?x4xf32>) indices(%{{.*}} : tensor<?x4xi64>) dim 1 {descending = false, dtype = f32, stable = true} : tensor<?x4xf32> -> tensor<?x4xf32>, tensor<?x4xi64>
  %r:2 = ptensor.sort_along %x into values(%v : tensor<?x4xf32>) indices(%i : tensor<?x4xi64>) dim 1 {dtype = f32, descending = false, stable = true} : tensor<?x4xf32> -> tensor<?x4xf32>, tensor<?x4xi64>
  // CHECK: ptensor.sort_along %{{.*}} into indices(%{{.*}} : memref<8xi64>) dim 0 {descending = true, dtype = ui8, stable = true} : memref<8xi8>
  ptensor.sort_along %m into indices(%mi : memref<8xi64>) dim 0 {dtype = ui8, descending = true, stable = true} : memref<8xi8>
  // CHECK: ptensor.sort_along %{{.*}} into indices(%{{.*}} : memref<8xi64>) runs(%{{.*}} : memref<2xi64>) dim 0 {descending = false, dtype = i8, stable = true} : memref<8xi8>
  ptensor.sort_along %m into indices(%mi : memref<8xi64>) runs(%ends : memref<2xi64>) dim 0 {dtype = i8, descending = false, stable = true} : memref<8xi8>
  return %r#0, %r#1 : tensor<?x4xf32>, tensor<?x4xi64>
}
