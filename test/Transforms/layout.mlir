// RUN: ptensor-opt %s -split-input-file --ptensor-layout | FileCheck %s

// ptensor-layout: an elementwise op whose ptensor operands are all
// permute_dims views with the same permutation is computed on the
// unpermuted operands, and its result is permuted instead.

// add(permute(a, [1, 0]), permute(b, [1, 0])) -> permute(add(a, b), [1, 0]).
// CHECK-LABEL: func.func @hoist_shared_permutation(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4x?xf32>, %[[B:.*]]: !ptensor.ptensor<4x?xf32>)
// CHECK:         %[[SUM:.*]] = ptensor.elementwise_binary add %[[A]], %[[B]] : (!ptensor.ptensor<4x?xf32>, !ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<4x?xf32>
// CHECK:         %[[T:.*]] = ptensor.permute_dims %[[SUM]] [1, 0] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<?x4xf32>
// CHECK:         return %[[T]] : !ptensor.ptensor<?x4xf32>
func.func @hoist_shared_permutation(%a: !ptensor.ptensor<4x?xf32>, %b: !ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<?x4xf32> {
  %ta = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<?x4xf32>
  %tb = ptensor.permute_dims %b [1, 0] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<?x4xf32>
  %c = ptensor.elementwise_binary add %ta, %tb : (!ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?x4xf32>) -> !ptensor.ptensor<?x4xf32>
  return %c : !ptensor.ptensor<?x4xf32>
}

// -----

// Rank 3, result dtype differs from the operands' (comparison).
// CHECK-LABEL: func.func @hoist_rank3_test(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<2x3x4xi32>, %[[B:.*]]: !ptensor.ptensor<2x3x4xi32>)
// CHECK:         %[[C:.*]] = ptensor.elementwise_binary_test less %[[A]], %[[B]] : (!ptensor.ptensor<2x3x4xi32>, !ptensor.ptensor<2x3x4xi32>) -> !ptensor.ptensor<2x3x4xi1>
// CHECK:         %[[T:.*]] = ptensor.permute_dims %[[C]] [2, 0, 1] : !ptensor.ptensor<2x3x4xi1> -> !ptensor.ptensor<4x2x3xi1>
// CHECK:         return %[[T]]
func.func @hoist_rank3_test(%a: !ptensor.ptensor<2x3x4xi32>, %b: !ptensor.ptensor<2x3x4xi32>) -> !ptensor.ptensor<4x2x3xi1> {
  %ta = ptensor.permute_dims %a [2, 0, 1] : !ptensor.ptensor<2x3x4xi32> -> !ptensor.ptensor<4x2x3xi32>
  %tb = ptensor.permute_dims %b [2, 0, 1] : !ptensor.ptensor<2x3x4xi32> -> !ptensor.ptensor<4x2x3xi32>
  %c = ptensor.elementwise_binary_test less %ta, %tb : (!ptensor.ptensor<4x2x3xi32>, !ptensor.ptensor<4x2x3xi32>) -> !ptensor.ptensor<4x2x3xi1>
  return %c : !ptensor.ptensor<4x2x3xi1>
}

// -----

// Different permutations: the op is left as it is.
// CHECK-LABEL: func.func @different_permutations_untouched(
// CHECK:         %[[TA:.*]] = ptensor.permute_dims %arg0 [2, 1, 0]
// CHECK:         %[[TB:.*]] = ptensor.permute_dims %arg1 [0, 2, 1]
// CHECK:         %[[C:.*]] = ptensor.elementwise_binary add %[[TA]], %[[TB]] : (!ptensor.ptensor<4x3x2xf32>, !ptensor.ptensor<4x3x2xf32>) -> !ptensor.ptensor<4x3x2xf32>
// CHECK-NOT:     ptensor.permute_dims
// CHECK:         return %[[C]]
func.func @different_permutations_untouched(%a: !ptensor.ptensor<2x3x4xf32>, %b: !ptensor.ptensor<4x2x3xf32>) -> !ptensor.ptensor<4x3x2xf32> {
  %ta = ptensor.permute_dims %a [2, 1, 0] : !ptensor.ptensor<2x3x4xf32> -> !ptensor.ptensor<4x3x2xf32>
  %tb = ptensor.permute_dims %b [0, 2, 1] : !ptensor.ptensor<4x2x3xf32> -> !ptensor.ptensor<4x3x2xf32>
  %c = ptensor.elementwise_binary add %ta, %tb : (!ptensor.ptensor<4x3x2xf32>, !ptensor.ptensor<4x3x2xf32>) -> !ptensor.ptensor<4x3x2xf32>
  return %c : !ptensor.ptensor<4x3x2xf32>
}

// -----

// One operand not a permuted view: untouched.
// CHECK-LABEL: func.func @unpermuted_operand_untouched(
// CHECK:         %[[TA:.*]] = ptensor.permute_dims %arg0 [1, 0]
// CHECK:         %[[C:.*]] = ptensor.elementwise_binary add %[[TA]], %arg1
// CHECK-NOT:     ptensor.permute_dims
// CHECK:         return %[[C]]
func.func @unpermuted_operand_untouched(%a: !ptensor.ptensor<4x8xf32>, %b: !ptensor.ptensor<8x4xf32>) -> !ptensor.ptensor<8x4xf32> {
  %ta = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<4x8xf32> -> !ptensor.ptensor<8x4xf32>
  %c = ptensor.elementwise_binary add %ta, %b : (!ptensor.ptensor<8x4xf32>, !ptensor.ptensor<8x4xf32>) -> !ptensor.ptensor<8x4xf32>
  return %c : !ptensor.ptensor<8x4xf32>
}

// -----

// Builtin scalar operands are allowed next to the permuted ptensor.
// CHECK-LABEL: func.func @scalar_operand_allowed(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4x8xf16>, %[[S:.*]]: f32)
// CHECK:         %[[M:.*]] = ptensor.elementwise_binary multiply %[[A]], %[[S]] : (!ptensor.ptensor<4x8xf16>, f32) -> !ptensor.ptensor<4x8xf16>
// CHECK:         %[[T:.*]] = ptensor.permute_dims %[[M]] [1, 0] : !ptensor.ptensor<4x8xf16> -> !ptensor.ptensor<8x4xf16>
// CHECK:         return %[[T]]
func.func @scalar_operand_allowed(%a: !ptensor.ptensor<4x8xf16>, %s: f32) -> !ptensor.ptensor<8x4xf16> {
  %ta = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<4x8xf16> -> !ptensor.ptensor<8x4xf16>
  %c = ptensor.elementwise_binary multiply %ta, %s : (!ptensor.ptensor<8x4xf16>, f32) -> !ptensor.ptensor<8x4xf16>
  return %c : !ptensor.ptensor<8x4xf16>
}

// -----

// Unary ops, and broadcasting operands with the same permutation.
// CHECK-LABEL: func.func @unary_and_broadcast(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4x1xf32>, %[[B:.*]]: !ptensor.ptensor<1x8xf32>)
// CHECK:         %[[E:.*]] = ptensor.elementwise_unary exp %[[A]] : (!ptensor.ptensor<4x1xf32>) -> !ptensor.ptensor<4x1xf32>
// CHECK:         %[[TE:.*]] = ptensor.permute_dims %[[E]] [1, 0] : !ptensor.ptensor<4x1xf32> -> !ptensor.ptensor<1x4xf32>
// CHECK:         %[[S:.*]] = ptensor.elementwise_binary add %[[A]], %[[B]] : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<1x8xf32>) -> !ptensor.ptensor<4x8xf32>
// CHECK:         %[[TS:.*]] = ptensor.permute_dims %[[S]] [1, 0] : !ptensor.ptensor<4x8xf32> -> !ptensor.ptensor<8x4xf32>
// CHECK:         return %[[TE]], %[[TS]]
func.func @unary_and_broadcast(%a: !ptensor.ptensor<4x1xf32>, %b: !ptensor.ptensor<1x8xf32>) -> (!ptensor.ptensor<1x4xf32>, !ptensor.ptensor<8x4xf32>) {
  %ta = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<4x1xf32> -> !ptensor.ptensor<1x4xf32>
  %tb = ptensor.permute_dims %b [1, 0] : !ptensor.ptensor<1x8xf32> -> !ptensor.ptensor<8x1xf32>
  %e = ptensor.elementwise_unary exp %ta : (!ptensor.ptensor<1x4xf32>) -> !ptensor.ptensor<1x4xf32>
  %c = ptensor.elementwise_binary add %ta, %tb : (!ptensor.ptensor<1x4xf32>, !ptensor.ptensor<8x1xf32>) -> !ptensor.ptensor<8x4xf32>
  return %e, %c : !ptensor.ptensor<1x4xf32>, !ptensor.ptensor<8x4xf32>
}

// -----

// `where` with all three operands permuted the same way.
// CHECK-LABEL: func.func @where_hoisted(
// CHECK:         %[[W:.*]] = ptensor.where %arg0, %arg1, %arg2 : (!ptensor.ptensor<2x3xi1>, !ptensor.ptensor<2x3xf32>, !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<2x3xf32>
// CHECK:         ptensor.permute_dims %[[W]] [1, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<3x2xf32>
func.func @where_hoisted(%c: !ptensor.ptensor<2x3xi1>, %x: !ptensor.ptensor<2x3xf32>, %y: !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<3x2xf32> {
  %tc = ptensor.permute_dims %c [1, 0] : !ptensor.ptensor<2x3xi1> -> !ptensor.ptensor<3x2xi1>
  %tx = ptensor.permute_dims %x [1, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<3x2xf32>
  %ty = ptensor.permute_dims %y [1, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<3x2xf32>
  %0 = ptensor.where %tc, %tx, %ty : (!ptensor.ptensor<3x2xi1>, !ptensor.ptensor<3x2xf32>, !ptensor.ptensor<3x2xf32>) -> !ptensor.ptensor<3x2xf32>
  return %0 : !ptensor.ptensor<3x2xf32>
}

// -----

// pointwise with several results: every result is permuted back.
// CHECK-LABEL: func.func @pointwise_results_permuted(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<2x3xf32>, %[[S:.*]]: f32)
// CHECK:         %[[P:.*]]:2 = ptensor.pointwise (%[[A]], %[[S]]) promotion [DEFAULT, ALWAYS_BOOL] : (!ptensor.ptensor<2x3xf32>, f32) -> (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<2x3xi1>)
// CHECK:         %[[T0:.*]] = ptensor.permute_dims %[[P]]#0 [1, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<3x2xf32>
// CHECK:         %[[T1:.*]] = ptensor.permute_dims %[[P]]#1 [1, 0] : !ptensor.ptensor<2x3xi1> -> !ptensor.ptensor<3x2xi1>
// CHECK:         return %[[T0]], %[[T1]]
func.func @pointwise_results_permuted(%a: !ptensor.ptensor<2x3xf32>, %s: f32) -> (!ptensor.ptensor<3x2xf32>, !ptensor.ptensor<3x2xi1>) {
  %ta = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<3x2xf32>
  %r, %b = ptensor.pointwise (%ta, %s) promotion [DEFAULT, ALWAYS_BOOL] : (!ptensor.ptensor<3x2xf32>, f32) -> (!ptensor.ptensor<3x2xf32>, !ptensor.ptensor<3x2xi1>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    %c = arith.cmpf olt, %x, %y : f32
    ptensor.yield %z, %c : f32, i1
  }
  return %r, %b : !ptensor.ptensor<3x2xf32>, !ptensor.ptensor<3x2xi1>
}
