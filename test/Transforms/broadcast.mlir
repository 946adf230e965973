// RUN: ptensor-opt %s -split-input-file --ptensor-broadcast | FileCheck %s

// ptensor-broadcast: operands of broadcasting ops whose shape differs from
// the result's (or may be 1 at run time) become explicit ptensor.broadcast
// ops; dynamic result sizes are computed from the operands.

// Static shapes: both operands differ from the result shape 4x5.
// CHECK-LABEL: func.func @static_both(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4x1xf32>, %[[B:.*]]: !ptensor.ptensor<5xf32>)
// CHECK-NOT:     ptensor.dim
// CHECK:         %[[BA:.*]] = ptensor.broadcast %[[A]] to () : !ptensor.ptensor<4x1xf32> -> !ptensor.ptensor<4x5xf32>
// CHECK:         %[[BB:.*]] = ptensor.broadcast %[[B]] to () : !ptensor.ptensor<5xf32> -> !ptensor.ptensor<4x5xf32>
// CHECK:         %[[R:.*]] = ptensor.elementwise_binary add %[[BA]], %[[BB]] : (!ptensor.ptensor<4x5xf32>, !ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
// CHECK:         return %[[R]]
func.func @static_both(%a: !ptensor.ptensor<4x1xf32>, %b: !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32>
  return %c : !ptensor.ptensor<4x5xf32>
}

// -----

// An operand that already has the (static) result shape is not wrapped.
// CHECK-LABEL: func.func @static_one(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4x5xf32>, %[[B:.*]]: !ptensor.ptensor<5xf32>)
// CHECK-NOT:     ptensor.broadcast %[[A]]
// CHECK:         %[[BB:.*]] = ptensor.broadcast %[[B]] to () : !ptensor.ptensor<5xf32> -> !ptensor.ptensor<4x5xf32>
// CHECK-NOT:     ptensor.broadcast
// CHECK:         ptensor.elementwise_binary multiply %[[A]], %[[BB]] : (!ptensor.ptensor<4x5xf32>, !ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
func.func @static_one(%a: !ptensor.ptensor<4x5xf32>, %b: !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32> {
  %c = ptensor.elementwise_binary multiply %a, %b : (!ptensor.ptensor<4x5xf32>, !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32>
  return %c : !ptensor.ptensor<4x5xf32>
}

// -----

// Dynamic dims: the result size is the first operand size that is not 1
// (ptensor.dim + arith.select), and every operand that could be 1 at run
// time is broadcast to it (the lowering checks the sizes).
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<?x4xf32>, %[[B:.*]]: !ptensor.ptensor<?x1xf32>)
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         %[[DA:.*]] = ptensor.dim %[[A]], 0 : !ptensor.ptensor<?x4xf32>
// CHECK:         %[[E0:.*]] = arith.cmpi eq, %[[ONE]], %[[ONE]] : index
// CHECK:         %[[S0:.*]] = arith.select %[[E0]], %[[DA]], %[[ONE]] : index
// CHECK:         %[[DB:.*]] = ptensor.dim %[[B]], 0 : !ptensor.ptensor<?x1xf32>
// CHECK:         %[[E1:.*]] = arith.cmpi eq, %[[S0]], %[[ONE]] : index
// CHECK:         %[[N:.*]] = arith.select %[[E1]], %[[DB]], %[[S0]] : index
// CHECK:         %[[BA:.*]] = ptensor.broadcast %[[A]] to (%[[N]]) : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
// CHECK:         %[[BB:.*]] = ptensor.broadcast %[[B]] to (%[[N]]) : !ptensor.ptensor<?x1xf32> -> !ptensor.ptensor<?x4xf32>
// CHECK:         ptensor.elementwise_binary add %[[BA]], %[[BB]] : (!ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?x4xf32>) -> !ptensor.ptensor<?x4xf32>
func.func @dynamic(%a: !ptensor.ptensor<?x4xf32>, %b: !ptensor.ptensor<?x1xf32>) -> !ptensor.ptensor<?x4xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?x1xf32>) -> !ptensor.ptensor<?x4xf32>
  return %c : !ptensor.ptensor<?x4xf32>
}

// -----

// A dynamic result dim with a missing leading dim: only the rank-2 operand
// gives its size; the rank-1 operand is broadcast to it.
// CHECK-LABEL: func.func @dynamic_rank_extension(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<?x3xi32>, %[[B:.*]]: !ptensor.ptensor<3xi32>)
// CHECK:         %[[DA:.*]] = ptensor.dim %[[A]], 0
// CHECK-NOT:     ptensor.dim %[[B]]
// CHECK:         %[[N:.*]] = arith.select %{{.*}}, %[[DA]], %{{.*}} : index
// CHECK:         ptensor.broadcast %[[B]] to (%[[N]]) : !ptensor.ptensor<3xi32> -> !ptensor.ptensor<?x3xi32>
func.func @dynamic_rank_extension(%a: !ptensor.ptensor<?x3xi32>, %b: !ptensor.ptensor<3xi32>) -> !ptensor.ptensor<?x3xi32> {
  %c = ptensor.elementwise_binary subtract %a, %b : (!ptensor.ptensor<?x3xi32>, !ptensor.ptensor<3xi32>) -> !ptensor.ptensor<?x3xi32>
  return %c : !ptensor.ptensor<?x3xi32>
}

// -----

// Shape dominance: %0 is computed from %a and %b, so its shape is the
// broadcast of theirs and already the result shape of the multiply: it is
// not wrapped there, while %a (which could be 1 where %b is not) is.
// CHECK-LABEL: func.func @dominating_operand_not_wrapped(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<?xf32>, %[[B:.*]]: !ptensor.ptensor<?xf32>)
// CHECK:         %[[SUM:.*]] = ptensor.elementwise_binary add
// CHECK-NOT:     ptensor.broadcast %[[SUM]]
// CHECK:         %[[BA:.*]] = ptensor.broadcast %[[A]] to (%{{.*}}) : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NOT:     ptensor.broadcast %[[SUM]]
// CHECK:         %[[R:.*]] = ptensor.elementwise_binary multiply %[[SUM]], %[[BA]]
// CHECK:         return %[[R]]
func.func @dominating_operand_not_wrapped(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  %1 = ptensor.elementwise_binary multiply %0, %a : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %1 : !ptensor.ptensor<?xf32>
}

// -----

// The same value twice: each operand is produced from all others; no
// broadcast and no size computation.
// CHECK-LABEL: func.func @same_value_twice(
// CHECK-NOT:     ptensor.broadcast
// CHECK-NOT:     ptensor.dim
// CHECK:         ptensor.elementwise_binary add %arg0, %arg0
func.func @same_value_twice(%a: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32> {
  %0 = ptensor.elementwise_binary add %a, %a : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  return %0 : !ptensor.ptensor<?x?xf32>
}

// -----

// Ops with a single ptensor operand (unary ops, a ptensor with a builtin
// scalar) are untouched.
// CHECK-LABEL: func.func @single_ptensor_untouched(
// CHECK-NOT:     ptensor.broadcast
// CHECK-NOT:     ptensor.dim
// CHECK:         ptensor.elementwise_binary add %arg0, %arg1 : (!ptensor.ptensor<?xf32>, f32)
// CHECK:         ptensor.elementwise_unary exp %arg0
// CHECK:         ptensor.elementwise_binary_test less %arg1, %arg0 : (f32, !ptensor.ptensor<?xf32>)
// CHECK-NOT:     ptensor.broadcast
func.func @single_ptensor_untouched(%a: !ptensor.ptensor<?xf32>, %s: f32) -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi1>) {
  %0 = ptensor.elementwise_binary add %a, %s : (!ptensor.ptensor<?xf32>, f32) -> !ptensor.ptensor<?xf32>
  %1 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  %2 = ptensor.elementwise_binary_test less %s, %a : (f32, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xi1>
  return %0, %1, %2 : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi1>
}

// -----

// `where`: the condition keeps its i1 dtype; a scalar branch is not wrapped.
// CHECK-LABEL: func.func @where_condition(
// CHECK-SAME:    %[[C:.*]]: !ptensor.ptensor<4x1xi1>, %[[X:.*]]: !ptensor.ptensor<5xf32>, %[[S:.*]]: f32)
// CHECK:         %[[BC:.*]] = ptensor.broadcast %[[C]] to () : !ptensor.ptensor<4x1xi1> -> !ptensor.ptensor<4x5xi1>
// CHECK:         %[[BX:.*]] = ptensor.broadcast %[[X]] to () : !ptensor.ptensor<5xf32> -> !ptensor.ptensor<4x5xf32>
// CHECK:         ptensor.where %[[BC]], %[[BX]], %[[S]] : (!ptensor.ptensor<4x5xi1>, !ptensor.ptensor<4x5xf32>, f32) -> !ptensor.ptensor<4x5xf32>
func.func @where_condition(%c: !ptensor.ptensor<4x1xi1>, %x: !ptensor.ptensor<5xf32>, %s: f32) -> !ptensor.ptensor<4x5xf32> {
  %0 = ptensor.where %c, %x, %s : (!ptensor.ptensor<4x1xi1>, !ptensor.ptensor<5xf32>, f32) -> !ptensor.ptensor<4x5xf32>
  return %0 : !ptensor.ptensor<4x5xf32>
}

// -----

// Comparisons and pointwise ops broadcast too; placement is kept.
// CHECK-LABEL: func.func @test_and_pointwise(
// CHECK:         ptensor.broadcast %arg1 to () : !ptensor.ptensor<1x3xi8, device = "cuda:0"> -> !ptensor.ptensor<2x3xi8, device = "cuda:0">
// CHECK:         ptensor.elementwise_binary_test equal
// CHECK:         ptensor.broadcast %arg1 to () : !ptensor.ptensor<1x3xi8, device = "cuda:0"> -> !ptensor.ptensor<2x3xi8, device = "cuda:0">
// CHECK:         ptensor.pointwise
func.func @test_and_pointwise(%a: !ptensor.ptensor<2x3xi8, device = "cuda:0">, %b: !ptensor.ptensor<1x3xi8, device = "cuda:0">)
    -> (!ptensor.ptensor<2x3xi1, device = "cuda:0">, !ptensor.ptensor<2x3xi8, device = "cuda:0">) {
  %0 = ptensor.elementwise_binary_test equal %a, %b : (!ptensor.ptensor<2x3xi8, device = "cuda:0">, !ptensor.ptensor<1x3xi8, device = "cuda:0">) -> !ptensor.ptensor<2x3xi1, device = "cuda:0">
  %1 = ptensor.pointwise (%a, %b) promotion [DEFAULT] : (!ptensor.ptensor<2x3xi8, device = "cuda:0">, !ptensor.ptensor<1x3xi8, device = "cuda:0">) -> (!ptensor.ptensor<2x3xi8, device = "cuda:0">) {
  ^bb0(%x: i8, %y: i8):
    %z = arith.addi %x, %y : i8
    ptensor.yield %z : i8
  }
  return %0, %1 : !ptensor.ptensor<2x3xi1, device = "cuda:0">, !ptensor.ptensor<2x3xi8, device = "cuda:0">
}

// -----

// An operand that already is an explicit broadcast is left as is.
// CHECK-LABEL: func.func @explicit_broadcast_kept(
// CHECK:         %[[B:.*]] = ptensor.broadcast %arg1
// CHECK-NOT:     ptensor.broadcast
// CHECK:         ptensor.elementwise_binary add %arg0, %[[B]]
func.func @explicit_broadcast_kept(%a: !ptensor.ptensor<4x5xf32>, %b: !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32> {
  %0 = ptensor.broadcast %b to () : !ptensor.ptensor<5xf32> -> !ptensor.ptensor<4x5xf32>
  %1 = ptensor.elementwise_binary add %a, %0 : (!ptensor.ptensor<4x5xf32>, !ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
  return %1 : !ptensor.ptensor<4x5xf32>
}

// -----

// Contractions: a dynamic batch dim that could be 1 while the other
// operand's is not is broadcast to the shared size (the first that is not
// 1); the matrix dims keep their own sizes. A static 1 needs nothing.
// CHECK-LABEL: func.func @matmul_batch(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?x4x5xf32>, %[[B:.*]]: !ptensor.ptensor<3x5x?xf32>, %[[C:.*]]: !ptensor.ptensor<1x5x2xf32>, %[[D:.*]]: !ptensor.ptensor<?x5x2xf32>
// CHECK: %[[BA:.*]] = ptensor.broadcast %[[A]] to () : !ptensor.ptensor<?x4x5xf32> -> !ptensor.ptensor<3x4x5xf32>
// CHECK: ptensor.matmul %[[BA]], %[[B]]
// CHECK: ptensor.matmul %[[A]], %[[C]]
// CHECK: %[[L:.*]] = ptensor.dim %[[A]], 0
// CHECK: %[[R:.*]] = ptensor.dim %[[D]], 0
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[L]], %c1
// CHECK: %[[N:.*]] = arith.select %[[ONE]], %[[R]], %[[L]]
// CHECK: %[[BA2:.*]] = ptensor.broadcast %[[A]] to (%[[N]]) : !ptensor.ptensor<?x4x5xf32> -> !ptensor.ptensor<?x4x5xf32>
// CHECK: %[[BD:.*]] = ptensor.broadcast %[[D]] to (%[[N]]) : !ptensor.ptensor<?x5x2xf32> -> !ptensor.ptensor<?x5x2xf32>
// CHECK: ptensor.matmul %[[BA2]], %[[BD]]
func.func @matmul_batch(%a: !ptensor.ptensor<?x4x5xf32>, %b: !ptensor.ptensor<3x5x?xf32>, %c: !ptensor.ptensor<1x5x2xf32>, %d: !ptensor.ptensor<?x5x2xf32>) -> (!ptensor.ptensor<3x4x?xf32>, !ptensor.ptensor<?x4x2xf32>, !ptensor.ptensor<?x4x2xf32>) {
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<?x4x5xf32>, !ptensor.ptensor<3x5x?xf32>) -> !ptensor.ptensor<3x4x?xf32>
  %1 = ptensor.matmul %a, %c : (!ptensor.ptensor<?x4x5xf32>, !ptensor.ptensor<1x5x2xf32>) -> !ptensor.ptensor<?x4x2xf32>
  %2 = ptensor.matmul %a, %d : (!ptensor.ptensor<?x4x5xf32>, !ptensor.ptensor<?x5x2xf32>) -> !ptensor.ptensor<?x4x2xf32>
  return %0, %1, %2 : !ptensor.ptensor<3x4x?xf32>, !ptensor.ptensor<?x4x2xf32>, !ptensor.ptensor<?x4x2xf32>
}
