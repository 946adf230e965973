// RUN: ptensor-opt %s -split-input-file --ptensor-coalesce-dims | FileCheck %s
// A second run leaves the versioned reductions alone.
// RUN: ptensor-opt %s -split-input-file --ptensor-coalesce-dims --ptensor-coalesce-dims | FileCheck %s
// Without reorder-loops, reductions keep their loop order.
// RUN: ptensor-opt %s -split-input-file --ptensor-coalesce-dims=reorder-loops=false | FileCheck %s --check-prefix=KEEP

// A reduction over one kept and one reduced loop runs with its loops
// swapped where its inputs read the outer loop with the smaller strides (a
// row sum over a transposed view is a column sum of the matrix, reading
// unit-stride rows): the inputs vote at run time, the output does not.

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// Each order is versioned on unit innermost strides in it (its loops as
// they are: nothing merges).
// CHECK-DAG:   #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$REV:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[$D0:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$D1:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @dynamic_strides(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[O:.*]]: memref<?xf32>)
// CHECK:         %{{.*}}, %{{.*}}, %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         arith.cmpi ult
// CHECK:         scf.if %{{.*}} {
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        %[[VR:.*]] = memref.reinterpret_cast %[[A]] {{.*}} to memref<?x?xf32, strided<[1, ?], offset: ?>>
// CHECK-NEXT:        linalg.generic {indexing_maps = [#[[$REV]], #[[$D1]]], iterator_types = ["reduction", "parallel"]} ins(%[[VR]] : {{.*}}) outs(%[[O]] : memref<?xf32>)
// CHECK:               arith.addf
// CHECK:           } else {
// CHECK-NEXT:        linalg.generic {indexing_maps = [#[[$REV]], #[[$D1]]], iterator_types = ["reduction", "parallel"]} ins(%[[A]] : {{.*}}) outs(%[[O]] : memref<?xf32>)
// CHECK:           } {ptensor.contiguous_fast_path}
// CHECK:         } else {
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        %[[VI:.*]] = memref.reinterpret_cast %[[A]] {{.*}} to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:        linalg.generic {indexing_maps = [#[[$ID]], #[[$D0]]], iterator_types = ["parallel", "reduction"]} ins(%[[VI]] : {{.*}}) outs(%[[O]] : memref<?xf32>)
// CHECK:           } else {
// CHECK-NEXT:        linalg.generic {indexing_maps = [#[[$ID]], #[[$D0]]], iterator_types = ["parallel", "reduction"]} ins(%[[A]] : {{.*}}) outs(%[[O]] : memref<?xf32>)
// CHECK:           } {ptensor.contiguous_fast_path}
// CHECK:         } {ptensor.reversed_loop_order}
// CHECK-NOT:     scf.if
// CHECK:         return
// KEEP-LABEL:  func.func @dynamic_strides(
// KEEP-NOT:      scf.if
// KEEP:          linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// KEEP-NOT:      scf.if
// KEEP:          return
func.func @dynamic_strides(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %o: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%a : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%o : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>

// Static strides decide at compile time: a transposed view's row sum is
// swapped with no test; a column sum over a transposed view becomes a row
// sum; row-major rows stay as they are.
// CHECK-DAG:   #[[$REV:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @static_strides(
// CHECK-SAME:    %[[T:.*]]: memref<4x8xf32, strided<[1, 4]>>, %[[R:.*]]: memref<4xf32>, %[[C:.*]]: memref<8xf32>, %[[M:.*]]: memref<4x8xf32>)
// CHECK-NOT:     scf.if
// CHECK:         linalg.generic {indexing_maps = [#[[$REV]], {{.*}}], iterator_types = ["reduction", "parallel"]} ins(%[[T]] : {{.*}}) outs(%[[R]] : {{.*}})
// CHECK:         linalg.generic {indexing_maps = [#[[$REV]], {{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[T]] : {{.*}}) outs(%[[C]] : {{.*}})
// CHECK:         linalg.generic {indexing_maps = [#[[$ID]], {{.*}}], iterator_types = ["parallel", "reduction"]} ins(%[[M]] : {{.*}}) outs(%[[R]] : {{.*}})
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @static_strides(%t: memref<4x8xf32, strided<[1, 4]>>, %r: memref<4xf32>, %c: memref<8xf32>, %m: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%t : memref<4x8xf32, strided<[1, 4]>>) outs(%r : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #cols], iterator_types = ["reduction", "parallel"]} ins(%t : memref<4x8xf32, strided<[1, 4]>>) outs(%c : memref<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %acc, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%m : memref<4x8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red3 = affine_map<(d0, d1, d2) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// Left alone: more than two loops, and a body that uses linalg.index.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @left_alone(%a: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %o: memref<?xf32>, %b: memref<?x?xf32, strided<[?, ?], offset: ?>>, %i: memref<?xindex>) {
  linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>) outs(%o : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%b : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%i : memref<?xindex>) {
  ^bb0(%x: f32, %acc: index):
    %j = linalg.index 1 : index
    %m = arith.maxui %acc, %j : index
    linalg.yield %m : index
  }
  return
}
