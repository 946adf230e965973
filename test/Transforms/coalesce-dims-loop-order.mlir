// RUN: ptensor-opt %s -split-input-file --ptensor-coalesce-dims | FileCheck %s
// A second run leaves the versioned loop nests alone.
// RUN: ptensor-opt %s -split-input-file --ptensor-coalesce-dims --ptensor-coalesce-dims | FileCheck %s

// ptensor-coalesce-dims{reorder-loops=true}: loop nests are versioned on
// their run-time loop order (logical or reversed, TensorIterator's vote on
// the outermost and innermost dims, outputs first), each version on
// contiguity in its order; fresh row-major outputs follow the inputs.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// All strides dynamic: the output votes first (|stride| of d0 < that of d1
// means reversed), then the inputs. The reversed version reads every
// operand through (d1, d0) and its fast path checks column-major strides.
// CHECK-DAG:   #[[$ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$REV:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @all_dynamic(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[O:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>)
// CHECK:         %{{.*}}, %{{.*}}, %[[OSZ:.*]]:2, %[[OST:.*]]:2 = memref.extract_strided_metadata %[[O]]
// CHECK:         %[[VOTE:.*]] = arith.cmpi ult
// CHECK:         scf.if %{{.*}} {
// CHECK:           %{{.*}}, %{{.*}}, %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:           arith.cmpi eq, %[[ST]]#0, %{{.*}} : index
// CHECK:           arith.cmpi eq, %[[ST]]#1, %[[SZ]]#0 : index
// CHECK:           scf.if %{{.*}} {
// CHECK:             linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]}
// Then on unit innermost strides alone: the innermost loop of this order
// is the logical d0, so the views' static unit stride is their first.
// CHECK:           } else {
// CHECK:             scf.if %{{.*}} {
// CHECK:               linalg.generic {indexing_maps = [#[[$REV]], #[[$REV]], #[[$REV]]], iterator_types = ["parallel", "parallel"]} ins({{.*}} : memref<?x?xf32, strided<[1, ?], offset: ?>>, memref<?x?xf32, strided<[1, ?], offset: ?>>) outs({{.*}} : memref<?x?xf32, strided<[1, ?], offset: ?>>)
// CHECK:             } else {
// CHECK-NEXT:          linalg.generic {indexing_maps = [#[[$REV]], #[[$REV]], #[[$REV]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[O]] : {{.*}})
// CHECK:             } {ptensor.contiguous_fast_path}
// CHECK-NEXT:      } {ptensor.contiguous_fast_path}
// CHECK:         } else {
// CHECK:           scf.if %{{.*}} {
// CHECK:             linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]}
// CHECK:           } else {
// CHECK:             scf.if %{{.*}} {
// CHECK:               linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins({{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>, memref<?x?xf32, strided<[?, 1], offset: ?>>) outs({{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>)
// CHECK:             } else {
// CHECK-NEXT:          linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[O]] : {{.*}})
// CHECK:             } {ptensor.contiguous_fast_path}
// CHECK-NEXT:      } {ptensor.contiguous_fast_path}
// CHECK:         } {ptensor.reversed_loop_order}
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @all_dynamic(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>, %o: memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%o : memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A row-major output argument (identity layout) votes first and always for
// the logical order: no reversed version, no vote computed.
// CHECK-LABEL: func.func @row_major_output(
// CHECK-NOT:     ptensor.reversed_loop_order
// CHECK-NOT:     arith.cmpi ult
// CHECK:         } {ptensor.contiguous_fast_path}
// CHECK-NOT:     ptensor.reversed_loop_order
func.func @row_major_output(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %o: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%o : memref<?x?xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Static column-major layouts decide at compile time: the reversed loop nest
// alone, and its column-major fast path alone (one flat loop, no check).
// CHECK-LABEL: func.func @static_column_major(
// CHECK-NOT:     scf.if
// CHECK-NOT:     arith.cmpi
// CHECK:         memref.reinterpret_cast %arg0 to offset: [0], sizes: [32], strides: [1] : memref<4x8xf32, strided<[1, 4]>> to memref<32xf32, strided<[1]>>
// CHECK:         memref.reinterpret_cast %arg1 to offset: [0], sizes: [32], strides: [1] : memref<4x8xf32, strided<[1, 4]>> to memref<32xf32, strided<[1]>>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]}
// CHECK-NOT:     linalg.generic
func.func @static_column_major(%a: memref<4x8xf32, strided<[1, 4]>>, %o: memref<4x8xf32, strided<[1, 4]>>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf32, strided<[1, 4]>>) outs(%o : memref<4x8xf32, strided<[1, 4]>>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A fresh row-major allocation written by the loop nest follows its inputs:
// a view of it with column-major strides (1, n0) when every input votes
// reversed, row-major (n1, 1) otherwise; its later users (the cast to the
// function's fully dynamic result type, the deallocation stays on the
// allocation) see the view, and the view votes first in the loop order.
// CHECK-LABEL: func.func @fresh_output(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[N0:.*]]: index, %[[N1:.*]]: index)
// CHECK:         %[[ALLOC:.*]] = memref.alloc(%[[N0]], %[[N1]]) : memref<?x?xf32>
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %{{.*}}, %{{.*}}, %[[SZ:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata %[[ALLOC]]
// CHECK-NEXT:    %[[S0:.*]] = arith.select %[[ALLVOTE:.*]], %[[C1]], %[[SZ]]#1 : index
// CHECK-NEXT:    %[[S1:.*]] = arith.select %[[ALLVOTE]], %[[SZ]]#0, %[[C1]] : index
// CHECK:         %[[VIEW:.*]] = memref.reinterpret_cast %[[ALLOC]] to offset: [0], sizes: [%[[SZ]]#0, %[[SZ]]#1], strides: [%[[S0]], %[[S1]]] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?]>>
// CHECK:         scf.if
// CHECK:           linalg.generic {{.*}} outs(%[[VIEW]] : memref<?x?xf32, strided<[?, ?]>>)
// CHECK:         } {ptensor.reversed_loop_order}
// CHECK:         %[[CAST:.*]] = memref.cast %[[VIEW]] : memref<?x?xf32, strided<[?, ?]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK:         memref.dealloc %[[ALLOC]]
// CHECK:         return %[[CAST]]
func.func @fresh_output(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>, %n0: index, %n1: index) -> memref<?x?xf32, strided<[?, ?], offset: ?>> {
  %o = memref.alloc(%n0, %n1) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%o : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %c = memref.cast %o : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  memref.dealloc %o : memref<?x?xf32>
  return %c : memref<?x?xf32, strided<[?, ?], offset: ?>>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Left row-major: an input with an identity layout votes for the logical
// order whenever anyone votes (the allocation stays as it is), and an
// allocation with a user that may rely on its identity layout (a subview).
// CHECK-LABEL: func.func @fresh_output_kept(
// CHECK-NOT:     memref.reinterpret_cast %alloc{{.*}} to offset: [0], sizes: [%{{.*}}, %{{.*}}]
// CHECK-NOT:     ptensor.reversed_loop_order
// CHECK:         return
func.func @fresh_output_kept(%a: memref<?x?xf32>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>, %n0: index, %n1: index) -> memref<?xf32, strided<[?], offset: ?>> {
  %o = memref.alloc(%n0, %n1) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x?xf32>) outs(%o : memref<?x?xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  %p = memref.alloc(%n0, %n1) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%p : memref<?x?xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  %row = memref.subview %p[0, 0] [1, %n1] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1]>>
  %r = memref.cast %row : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[?], offset: ?>>
  return %r : memref<?xf32, strided<[?], offset: ?>>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d2)>
#id1 = affine_map<(d0) -> (d0)>

// 3-D: the reversed version reads (d2, d1, d0); a broadcast row (reads d2
// only) does not vote. Rank 1 has one order: no reversed version.
// CHECK-DAG:   #[[$REV3:.*]] = affine_map<(d0, d1, d2) -> (d2, d1, d0)>
// CHECK-DAG:   #[[$ROWREV:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func.func @three_d(
// CHECK:         scf.if
// CHECK:           linalg.generic {indexing_maps = [#[[$REV3]], #[[$ROWREV]], #[[$REV3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK:         } {ptensor.reversed_loop_order}
// CHECK-NOT:     ptensor.reversed_loop_order
// CHECK:         return
func.func @three_d(%a: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %r: memref<?xf32, strided<[?], offset: ?>>, %o: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %v: memref<?xf32, strided<[?], offset: ?>>, %w: memref<?xf32, strided<[?], offset: ?>>) {
  linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %r : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) outs(%o : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%v : memref<?xf32, strided<[?], offset: ?>>) outs(%w : memref<?xf32, strided<[?], offset: ?>>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}
