// RUN: ptensor-opt %s --convert-ptensor-to-linalg | FileCheck %s

// sort: ptensor.sort_along reads the input as it is (never writes it) into
// a new tensor (tensor.empty, destination-passing), along the normalized
// dim, with the semantic dtype and the flags. argsort: the same into an
// i64 tensor of positions.
// CHECK-LABEL: func.func @sort(
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xi64>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: %[[SORTED:.*]] = ptensor.sort_along %[[A]] into values(%[[EMPTY]] : tensor<?x4xf32>) dim 0 {descending = true, dtype = f32, stable = true} : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: %[[IEMPTY:.*]] = tensor.empty(%{{.*}}) : tensor<?x4xi64>
// CHECK: %[[IDX:.*]] = ptensor.sort_along %[[A]] into indices(%[[IEMPTY]] : tensor<?x4xi64>) dim 1 {descending = false, dtype = f32, stable = true} : tensor<?x4xf32> -> tensor<?x4xi64>
// CHECK: return %[[SORTED]], %[[IDX]]
func.func @sort(%a: !ptensor.ptensor<?x4xf32>) -> (!ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?x4xi64>) {
  %0 = ptensor.sort %a axis 0 {descending = true} : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
  %1 = ptensor.argsort %a : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xi64>
  return %0, %1 : !ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?x4xi64>
}

// The runs hint goes along to sort_along.
// CHECK-LABEL: func.func @runs(
// CHECK-SAME: %[[X:.*]]: tensor<?xi16>, %[[E:.*]]: tensor<3xi64>)
// CHECK: ptensor.sort_along %[[X]] into values(%{{.*}} : tensor<?xi16>) runs(%[[E]] : tensor<3xi64>) dim 0 {descending = false, dtype = ui16, stable = true}
// CHECK: ptensor.sort_along %[[X]] into indices(%{{.*}} : tensor<?xi64>) runs(%[[E]] : tensor<3xi64>) dim 0 {descending = true, dtype = ui16, stable = true}
func.func @runs(%x: !ptensor.ptensor<?xui16>, %e: !ptensor.ptensor<3xi64>) -> (!ptensor.ptensor<?xui16>, !ptensor.ptensor<?xi64>) {
  %0 = ptensor.sort %x runs %e : !ptensor.ptensor<3xi64> : !ptensor.ptensor<?xui16> -> !ptensor.ptensor<?xui16>
  %1 = ptensor.argsort %x runs %e : !ptensor.ptensor<3xi64> {descending = true} : !ptensor.ptensor<?xui16> -> !ptensor.ptensor<?xi64>
  return %0, %1 : !ptensor.ptensor<?xui16>, !ptensor.ptensor<?xi64>
}

// The semantic dtype keeps what the builtin tensor loses (unsigned, bool).
// CHECK-LABEL: func.func @unsigned(
// CHECK: ptensor.sort_along %{{.*}} into values(%{{.*}} : tensor<7xi8>) dim 0 {descending = false, dtype = ui8, stable = false} : tensor<7xi8> -> tensor<7xi8>
// CHECK-LABEL: func.func @bool(
// CHECK: ptensor.sort_along %{{.*}} into indices(%{{.*}} : tensor<3xi64>) dim 0 {descending = false, dtype = i1, stable = true} : tensor<3xi1> -> tensor<3xi64>
func.func @unsigned(%a: !ptensor.ptensor<7xui8>) -> !ptensor.ptensor<7xui8> {
  %0 = ptensor.sort %a {stable = false} : !ptensor.ptensor<7xui8> -> !ptensor.ptensor<7xui8>
  return %0 : !ptensor.ptensor<7xui8>
}
func.func @bool(%a: !ptensor.ptensor<3xi1>) -> !ptensor.ptensor<3xi64> {
  %0 = ptensor.argsort %a : !ptensor.ptensor<3xi1> -> !ptensor.ptensor<3xi64>
  return %0 : !ptensor.ptensor<3xi64>
}
