// RUN: ptensor-opt %s --convert-ptensor-to-linalg | FileCheck %s

// nonzero (CompactionToLinalg.cpp, Compaction.h), the same IR on the host
// and the GPU: a parallel generic writes each element's truth value (floats:
// `une 0`, so NaN counts and -0.0 does not) into a new row-major bool
// tensor, collapsed to 1-D; ptensor.count_true counts the true flags and
// ptensor.select_true writes their positions into a tensor of that size;
// one generic over the positions unravels each into an index per dim.
// CHECK-LABEL: func.func @nonzero(
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32>) -> (tensor<?xi64>, tensor<?xi64>)
// CHECK: %[[FLAGS:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<?x4xf32>) outs(%{{.*}} : tensor<?x4xi1>)
// CHECK: arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[FLAGS]] {{\[\[}}0, 1]] : tensor<?x4xi1> into tensor<?xi1>
// CHECK: %[[COUNT:.*]] = ptensor.count_true %[[FLAT]] : tensor<?xi1>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[COUNT]]) : tensor<?xi64>
// CHECK: %[[POS:.*]] = ptensor.select_true %[[FLAT]] into %[[EMPTY]] : tensor<?xi1>, tensor<?xi64> -> tensor<?xi64>
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} ins(%[[POS]] : tensor<?xi64>) outs(%{{.*}}, %{{.*}} : tensor<?xi64>, tensor<?xi64>)
// CHECK: %[[P:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[J:.*]] = arith.remui %[[P]], %c4 : index
// CHECK: %[[I:.*]] = arith.divui %[[P]], %c4 : index
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[J64:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK: linalg.yield %[[I64]], %[[J64]] : i64, i64
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @nonzero(%a: !ptensor.ptensor<?x4xf32>) -> (!ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64>) {
  %r:2 = ptensor.nonzero %a : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64>)
  return %r#0, %r#1 : !ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64>
}

// Rank 1: the positions are the result.
// CHECK-LABEL: func.func @nonzero_1d(
// CHECK: %[[COUNT:.*]] = ptensor.count_true %{{.*}} : tensor<?xi1>
// CHECK: %[[POS:.*]] = ptensor.select_true
// CHECK-NOT: linalg.generic
// CHECK: return %[[POS]]
func.func @nonzero_1d(%a: !ptensor.ptensor<?xi32, device = "cuda:0">) -> !ptensor.ptensor<?xi64, device = "cuda:0"> {
  %r = ptensor.nonzero %a : !ptensor.ptensor<?xi32, device = "cuda:0"> -> (!ptensor.ptensor<?xi64, device = "cuda:0">)
  return %r : !ptensor.ptensor<?xi64, device = "cuda:0">
}
