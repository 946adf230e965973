// RUN: ptensor-opt %s -split-input-file | FileCheck %s
// RUN: ptensor-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=CANON

// ptensor.delete round-trips; a delete whose every use of the tensor comes
// before it verifies (views included).

!v = !ptensor.ptensor<?xf32>
!m = !ptensor.ptensor<4x?xf32>
!s = !ptensor.ptensor<f32>

// CHECK-LABEL: func.func @after_last_use(
// CHECK:         %[[T:.*]] = ptensor.elementwise_unary exp
// CHECK:         ptensor.reduce sum %[[T]]
// CHECK-NEXT:    ptensor.delete %[[T]] : !ptensor.ptensor<?xf32>
// The delete has an effect: canonicalization keeps it.
// CANON-LABEL: func.func @after_last_use(
// CANON:         ptensor.delete
func.func @after_last_use(%a: !v) -> !s {
  %t = ptensor.elementwise_unary exp %a : (!v) -> !v
  %s = ptensor.reduce sum %t : !v -> !s
  ptensor.delete %t : !v
  return %s : !s
}

// -----

!m = !ptensor.ptensor<4x?xf32>

// A view used before the delete of what it views; an argument deleted.
// CHECK-LABEL: func.func @view_before(
// CHECK:         ptensor.permute_dims
// CHECK:         ptensor.delete %{{.*}} : !ptensor.ptensor<4x?xf32>
// CHECK:         ptensor.delete %arg1 : !ptensor.ptensor<4x?xf32, team = 1>
func.func @view_before(%a: !m, %b: !ptensor.ptensor<4x?xf32, team = 1>) -> !ptensor.ptensor<?x4xf32> {
  %t = ptensor.elementwise_unary negative %a : (!m) -> !m
  %v = ptensor.permute_dims %t [1, 0] : !m -> !ptensor.ptensor<?x4xf32>
  %r = ptensor.elementwise_unary abs %v : (!ptensor.ptensor<?x4xf32>) -> !ptensor.ptensor<?x4xf32>
  ptensor.delete %t : !m
  ptensor.delete %b : !ptensor.ptensor<4x?xf32, team = 1>
  return %r : !ptensor.ptensor<?x4xf32>
}

// -----

// ptensor.release_buffer (the lowering of delete) of a tensor only it uses,
// made by a side-effect-free op: the op's tensor operands are released
// instead (once each), and the op is dead.
// CANON-LABEL: func.func @release_fused(
// CANON-SAME:    %[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>
// CANON-NOT:     linalg.generic
// CANON:         ptensor.release_buffer %[[A]] : tensor<?xf32>
// CANON-NEXT:    ptensor.release_buffer %[[B]] : tensor<?xf32>
// CANON-NEXT:    return
#id = affine_map<(d0) -> (d0)>
func.func @release_fused(%a: tensor<?xf32>, %b: tensor<?xf32>) {
  %t = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                       iterator_types = ["parallel"]}
      ins(%a, %b, %a : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%a : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  ptensor.release_buffer %t : tensor<?xf32>
  return
}

// -----

// A release of a tensor that something else also uses stays.
// CANON-LABEL: func.func @release_kept(
// CANON:         %[[T:.*]] = tensor.empty
// CANON:         ptensor.release_buffer %[[T]]
func.func @release_kept(%n: index) -> tensor<?xf32> {
  %t = tensor.empty(%n) : tensor<?xf32>
  ptensor.release_buffer %t : tensor<?xf32>
  return %t : tensor<?xf32>
}

// -----

// A single negative is a new tensor: deleting its operand is fine.
// CHECK-LABEL: func.func @negative_is_new(
// CHECK:         ptensor.delete
func.func @negative_is_new(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %t = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  %n = ptensor.elementwise_unary negative %t : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  ptensor.delete %t : !ptensor.ptensor<?xf32>
  return %n : !ptensor.ptensor<?xf32>
}

// -----

// A use in a block that no path reaches never runs: not a use after the
// delete (canonicalization erases the block).
// CHECK-LABEL: func.func @used_in_an_unreachable_block(
// CHECK:         ptensor.delete
// CHECK:       ^bb1:
// CHECK-NEXT:    ptensor.elementwise_unary abs
// CANON-LABEL: func.func @used_in_an_unreachable_block(
// CANON-NOT:     abs
func.func @used_in_an_unreachable_block(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %t = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  ptensor.delete %t : !ptensor.ptensor<?xf32>
  return %a : !ptensor.ptensor<?xf32>
^dead:
  %u = ptensor.elementwise_unary abs %t : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %u : !ptensor.ptensor<?xf32>
}

// -----

// Nor in a loop that only an unreachable block enters.
// CHECK-LABEL: func.func @used_in_an_unreachable_loop(
// CHECK:         ptensor.delete
func.func @used_in_an_unreachable_loop(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %t = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  ptensor.delete %t : !ptensor.ptensor<?xf32>
  return %a : !ptensor.ptensor<?xf32>
^dead:
  cf.br ^loop
^loop:
  %u = ptensor.elementwise_unary abs %t : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  cf.br ^loop
}

// -----

// Not rewritten: a release of a memref (after bufferization), a producer
// with two results, and an operand used after the release (releasing it
// there would add a read after its last use) or written by a later op.
// CANON-LABEL: func.func @release_not_forwarded(
// CANON:         %[[V:.*]] = memref.cast
// CANON-NEXT:    ptensor.release_buffer %[[V]] : memref<?xf32, strided<[?], offset: ?>>
// CANON:         %[[P:.*]]:2 = linalg.generic
// CANON:         ptensor.release_buffer %[[P]]#0 : tensor<?xf32>
// The second generic is dead once its release moved to %b (%a is returned).
// CANON-NOT:     linalg.generic
// CANON-NOT:     ptensor.release_buffer %arg1
// CANON:         ptensor.release_buffer %arg2
// CANON-NOT:     ptensor.release_buffer %arg1
// CANON:         return %arg1, %[[P]]#1
#id = affine_map<(d0) -> (d0)>
func.func @release_not_forwarded(%m: memref<?xf32>, %a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %v = memref.cast %m : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  ptensor.release_buffer %v : memref<?xf32, strided<[?], offset: ?>>
  %p:2 = linalg.generic {indexing_maps = [#id, #id, #id],
                         iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%b, %b : tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32, %o2: f32):
    %d = arith.addf %x, %x : f32
    linalg.yield %d, %x : f32, f32
  } -> (tensor<?xf32>, tensor<?xf32>)
  ptensor.release_buffer %p#0 : tensor<?xf32>
  %q = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%b : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  ptensor.release_buffer %q : tensor<?xf32>
  return %a, %p#1 : tensor<?xf32>, tensor<?xf32>
}
