// RUN: ptensor-opt %s -split-input-file --ptensor-coalesce-dims=reorder-loops=false | FileCheck %s
// A second run leaves the versioned loop nests alone (no nested scf.if).
// RUN: ptensor-opt %s -split-input-file --ptensor-coalesce-dims=reorder-loops=false --ptensor-coalesce-dims=reorder-loops=false | FileCheck %s

// ptensor-coalesce-dims: elementwise linalg.generic ops on memrefs are
// versioned on their operands' run-time strides: a fast path over merged
// dims with a unit innermost stride, and the original strided loop nest.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// No broadcast: every dim merges into one loop. The check of each strided
// operand accepts a size-1 dim or the row-major stride (1, s2, s2*s1); the
// allocation (identity layout) needs no check.
// CHECK-DAG:   #[[$ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @all_identity(
// CHECK-SAME:    %[[A:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %[[B:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %[[O:.*]]: memref<?x?x?xf32>)
// CHECK:         %{{.*}}, %[[OFF:.*]], %[[SZ:.*]]:3, %[[ST:.*]]:3 = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[U2:.*]] = arith.cmpi eq, %[[SZ]]#2, %[[C1]] : index
// CHECK:         %[[S2:.*]] = arith.cmpi eq, %[[ST]]#2, %[[C1]] : index
// CHECK:         %[[OK2:.*]] = arith.ori %[[U2]], %[[S2]] : i1
// CHECK:         %[[U1:.*]] = arith.cmpi eq, %[[SZ]]#1, %[[C1]] : index
// CHECK:         %[[S1:.*]] = arith.cmpi eq, %[[ST]]#1, %[[SZ]]#2 : index
// CHECK:         arith.ori %[[U1]], %[[S1]] : i1
// CHECK:         %[[P21:.*]] = arith.muli %[[SZ]]#2, %[[SZ]]#1 : index
// CHECK:         %[[U0:.*]] = arith.cmpi eq, %[[SZ]]#0, %[[C1]] : index
// CHECK:         %[[S0:.*]] = arith.cmpi eq, %[[ST]]#0, %[[P21]] : index
// CHECK:         arith.ori %[[U0]], %[[S0]] : i1
// CHECK:         %[[N:.*]] = arith.muli %[[P21]], %[[SZ]]#0 : index
// CHECK:         memref.extract_strided_metadata %[[B]]
// CHECK:         memref.extract_strided_metadata %[[O]]
// CHECK-NOT:     arith.cmpi
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      %[[FA:.*]] = memref.reinterpret_cast %[[A]] to offset: [%[[OFF]]], sizes: [%[[N]]], strides: [1] : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[FB:.*]] = memref.reinterpret_cast %[[B]]
// CHECK-NEXT:      %[[FO:.*]] = memref.reinterpret_cast %[[O]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<?x?x?xf32> to memref<?xf32, strided<[1]>>
// CHECK-NEXT:      linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]}
// CHECK-SAME:        ins(%[[FA]], %[[FB]] : memref<?xf32, strided<[1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>) outs(%[[FO]] : memref<?xf32, strided<[1]>>)
// CHECK:             arith.addf
// The strided nest is versioned once more, on unit innermost strides
// alone (rows apart, as in a slice `m[::2, 1:]`): the loops stay, each
// operand's check is its innermost dim's, and the views make that stride
// static (vectorized rows); the output's layout has it already.
// CHECK:         } else {
// CHECK-NEXT:      %{{.*}}, %[[ROFF:.*]], %[[RSZ:.*]]:3, %[[RST:.*]]:3 = memref.extract_strided_metadata %[[A]]
// CHECK:           arith.cmpi eq, %[[RSZ]]#2, %{{.*}} : index
// CHECK-NEXT:      arith.cmpi eq, %[[RST]]#2, %{{.*}} : index
// CHECK-NEXT:      arith.ori
// CHECK-NEXT:      memref.extract_strided_metadata %[[B]]
// CHECK-NOT:       memref.extract_strided_metadata %[[O]]
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        %[[RA:.*]] = memref.reinterpret_cast %[[A]] to offset: [%[[ROFF]]], sizes: [%[[RSZ]]#0, %[[RSZ]]#1, %[[RSZ]]#2], strides: [%[[RST]]#0, %[[RST]]#1, 1] : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>> to memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK-NEXT:        %[[RB:.*]] = memref.reinterpret_cast %[[B]]
// CHECK-NEXT:        linalg.generic {indexing_maps = [#[[$ID3]], #[[$ID3]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:          ins(%[[RA]], %[[RB]] : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>) outs(%[[O]] : memref<?x?x?xf32>)
// CHECK:           } else {
// CHECK-NEXT:        linalg.generic {indexing_maps = [#[[$ID3]], #[[$ID3]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:          ins(%[[A]], %[[B]] : {{.*}}) outs(%[[O]] : memref<?x?x?xf32>)
// CHECK:               arith.addf
// CHECK:           } {ptensor.contiguous_fast_path}
// CHECK-NEXT:    } {ptensor.contiguous_fast_path}
// CHECK-NOT:     scf.if
func.func @all_identity(%a: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %b: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %o: memref<?x?x?xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>) outs(%o : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d2)>

// A row broadcast (the operand reads d2 only) keeps d2 apart: d0 and d1
// merge (outer stride s1, checked s0 == s1 * n1), d2 gets unit stride.
// CHECK-DAG:   #[[$M2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @row_broadcast(
// CHECK-SAME:    %[[A:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %[[B:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[O:.*]]: memref<?x?x?xf32>)
// CHECK:         %{{.*}}, %[[OFF:.*]], %[[SZ:.*]]:3, %[[ST:.*]]:3 = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[E0:.*]] = arith.muli %[[ST]]#1, %[[SZ]]#1 : index
// CHECK:         arith.cmpi eq, %[[ST]]#0, %[[E0]] : index
// CHECK:         %[[N01:.*]] = arith.muli %[[SZ]]#1, %[[SZ]]#0 : index
// CHECK:         arith.cmpi eq, %[[ST]]#2, %{{.*}} : index
// CHECK:         scf.if
// CHECK-NEXT:      %[[FA:.*]] = memref.reinterpret_cast %[[A]] to offset: [%[[OFF]]], sizes: [%[[N01]], %[[SZ]]#2], strides: [%[[ST]]#1, 1] : {{.*}} to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:      %[[FB:.*]] = memref.reinterpret_cast %[[B]] {{.*}} to memref<?xf32, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[FO:.*]] = memref.reinterpret_cast %[[O]] {{.*}} to memref<?x?xf32, strided<[?, 1]>>
// CHECK-NEXT:      linalg.generic {indexing_maps = [#[[$M2]], #[[$ROW]], #[[$M2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%[[FA]], %[[FB]] : {{.*}}) outs(%[[FO]] : {{.*}})
// The strided nest again on unit innermost strides alone (three loops).
// CHECK:         } else {
// CHECK:           scf.if
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins({{.*}} : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>) outs(%[[O]] : memref<?x?x?xf32>)
// CHECK:           } else {
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[O]] : {{.*}})
func.func @row_broadcast(%a: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %b: memref<?xf32, strided<[?], offset: ?>>, %o: memref<?x?x?xf32>) {
  linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) outs(%o : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>

// A column broadcast merges nothing; the fast path still reads the identity
// operand with unit innermost stride. The broadcast operand and the
// allocation are used as they are.
// CHECK-LABEL: func.func @column_broadcast(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[O:.*]]: memref<?x?xf32>)
// CHECK:         %{{.*}}, %{{.*}}, %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK-NOT:     memref.extract_strided_metadata
// CHECK:         %[[U:.*]] = arith.cmpi eq, %[[SZ]]#1, %{{.*}} : index
// CHECK-NEXT:    %[[S:.*]] = arith.cmpi eq, %[[ST]]#1, %{{.*}} : index
// CHECK-NEXT:    %[[FITS:.*]] = arith.ori %[[U]], %[[S]] : i1
// CHECK-NEXT:    scf.if %[[FITS]] {
// CHECK-NEXT:      %[[FA:.*]] = memref.reinterpret_cast %[[A]] {{.*}} strides: [%[[ST]]#0, 1] : {{.*}} to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[FA]], %[[B]] : {{.*}}) outs(%[[O]] : memref<?x?xf32>)
// CHECK:         } else {
func.func @column_broadcast(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?xf32, strided<[?], offset: ?>>, %o: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) outs(%o : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Statically contiguous layouts: the fast path alone, no check.
// CHECK-LABEL: func.func @static_contiguous(
// CHECK-NOT:     scf.if
// CHECK-NOT:     arith.cmpi
// CHECK:         %[[FA:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [32], strides: [1] : memref<4x8xf32> to memref<32xf32, strided<[1]>>
// CHECK:         %[[FB:.*]] = memref.reinterpret_cast %arg1 to offset: [3], sizes: [32], strides: [1] : memref<4x8xf32, strided<[8, 1], offset: 3>> to memref<32xf32, strided<[1], offset: 3>>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[FA]] : {{.*}}) outs(%[[FB]] : {{.*}})
// CHECK-NOT:     linalg.generic
func.func @static_contiguous(%a: memref<4x8xf32>, %b: memref<4x8xf32, strided<[8, 1], offset: 3>>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32, strided<[8, 1], offset: 3>>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Statically transposed: the check folds to false, nothing changes (no
// leftover metadata or constants).
// CHECK-LABEL: func.func @static_transposed(
// CHECK-NEXT:    linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<4x8xf32, strided<[1, 4]>>) outs(%arg1 : memref<4x8xf32>)
// CHECK:         linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @static_transposed(%a: memref<4x8xf32, strided<[1, 4]>>, %b: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf32, strided<[1, 4]>>) outs(%b : memref<4x8xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>

// Scalar operands keep their `()` map; a buffer updated in place is read
// and written through the same flat view.
// CHECK-DAG:   #[[$ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$SC1:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @scalar_in_place(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf64, strided<[?, ?], offset: ?>>, %[[S:.*]]: f64)
// CHECK:         scf.if
// CHECK-NEXT:      %[[FA:.*]] = memref.reinterpret_cast %[[A]] {{.*}} to memref<?xf64, strided<[1], offset: ?>>
// CHECK-NEXT:      %[[FO:.*]] = memref.reinterpret_cast %[[A]] {{.*}} to memref<?xf64, strided<[1], offset: ?>>
// CHECK-NEXT:      linalg.generic {indexing_maps = [#[[$ID1]], #[[$SC1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[FA]], %[[S]] : memref<?xf64, strided<[1], offset: ?>>, f64) outs(%[[FO]] : memref<?xf64, strided<[1], offset: ?>>)
func.func @scalar_in_place(%a: memref<?x?xf64, strided<[?, ?], offset: ?>>, %s: f64) {
  linalg.generic {indexing_maps = [#id2, #scalar, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %s : memref<?x?xf64, strided<[?, ?], offset: ?>>, f64) outs(%a : memref<?x?xf64, strided<[?, ?], offset: ?>>) {
  ^bb0(%x: f64, %y: f64, %z: f64):
    %m = arith.mulf %x, %y : f64
    linalg.yield %m : f64
  }
  return
}

// -----

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>

// Left alone: one loop already reading with unit stride, and reductions.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     scf.if
// CHECK-NOT:     memref.reinterpret_cast
// CHECK:         return
func.func @left_alone(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?x?xf32, strided<[?, ?], offset: ?>>, %d: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]} ins(%c : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%d : memref<?xf32>) {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A body that uses linalg.index (a triangle's mask) keeps its loops:
// merging dims would change the indices. Only the unit-innermost-stride
// version applies (the same loops and maps, views with a static unit
// innermost stride; the body and its indices as they were).
// CHECK-LABEL: func.func @uses_indices(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[O:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>)
// CHECK:         %{{.*}}, %{{.*}}, %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK-NOT:     arith.cmpi eq, %[[ST]]#0
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      %[[VA:.*]] = memref.reinterpret_cast %[[A]] {{.*}} to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:      %[[VO:.*]] = memref.reinterpret_cast %[[O]] {{.*}} to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:      linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[VA]] : {{.*}}) outs(%[[VO]] : {{.*}})
// CHECK:             linalg.index 0
// CHECK:             linalg.index 1
// CHECK:         } else {
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[A]] : {{.*}}) outs(%[[O]] : {{.*}})
// CHECK:         } {ptensor.contiguous_fast_path}
// CHECK-NOT:     ptensor.reversed_loop_order
func.func @uses_indices(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %o: memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%o : memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  ^bb0(%x: f32, %z: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %below = arith.cmpi sle, %j, %i : index
    %zero = arith.constant 0.0 : f32
    %r = arith.select %below, %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}
