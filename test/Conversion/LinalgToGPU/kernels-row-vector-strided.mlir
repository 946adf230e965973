// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu | FileCheck %s

// The row-vector path writes outputs that are boxes of a larger buffer (a
// concat's part, a roll's shifted part: unit stride along rows, a row
// stride larger than the row, a first column anywhere): the run-time test
// asks for a unit innermost stride and row strides that are a multiple of
// the vector width, so that every row has the same `lead` elements before
// its first 16-byte aligned one. A thread stores 4 consecutive elements
// from column lead + 4k with one aligned vector store (through a view whose
// type has the unit innermost stride); a second loop of the same launch
// writes each row's lead and its rest after the last whole vector one
// element at a time.

// CHECK-LABEL: func.func @copy_into_box(
// CHECK-SAME:    %[[IN:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[OUT:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>
// The row-vector path follows the tiled path's launch (its else-branch):
// CHECK:         workgroup(
// CHECK:         } else {
// The lead: (16 - address mod 16) mod 16 bytes, in elements, at most the row.
// CHECK:           %[[C16:.*]] = arith.constant 16 : index
// CHECK:           %{{.*}}, %[[OFF0:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[OUT]]
// CHECK:           %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK:           %[[MIS:.*]] = arith.remui %{{.*}}, %[[C16]] : index
// CHECK:           %[[GAP:.*]] = arith.subi %[[C16]], %[[MIS]] : index
// CHECK:           %[[GAPB:.*]] = arith.remui %[[GAP]], %[[C16]] : index
// CHECK:           %[[LEAD0:.*]] = arith.divui %[[GAPB]], %{{.*}} : index
// CHECK:           %[[LEAD:.*]] = arith.minui %[[LEAD0]], %[[N:.*]] : index
// CHECK:           %{{.*}}, %[[OFF:.*]], %[[SIZES:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[OUT]]
// CHECK:           %[[UNIT:.*]] = arith.cmpi eq, %[[ST]]#1, %{{.*}}
// CHECK:           %[[REST:.*]] = arith.remsi %[[ST]]#0, %{{.*}}
// CHECK:           %[[WHOLE:.*]] = arith.cmpi eq, %[[REST]], %{{.*}}
// CHECK:           arith.andi %[[UNIT]], %[[WHOLE]]
// CHECK:           %[[ROWS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%[[OFF]]], sizes: [%[[SIZES]]#0, %[[SIZES]]#1], strides: [%[[ST]]#0, 1] : memref<f32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// Vectors per row, (n - lead) / 4, and each row's other elements.
// CHECK:           %[[AFTER:.*]] = arith.subi %[[N]], %[[LEAD]] : index
// CHECK:           %[[VECS:.*]] = arith.divui %[[AFTER]], %{{.*}} : index
// CHECK:           %[[VECEL:.*]] = arith.muli %[[VECS]], %{{.*}} : index
// CHECK:           %[[EDGE:.*]] = arith.subi %[[N]], %[[VECEL]] : index
// CHECK:           gpu.launch
// CHECK-NOT:       workgroup(
// CHECK:             scf.for unsigned
// CHECK:               %[[K:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK:               %[[COL4:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK:               %[[COL:.*]] = arith.addi %[[LEAD]], %[[COL4]] : index
// CHECK:               vector.store %{{.*}}, %[[ROWS]][%{{.*}}, %[[COL]]] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:             scf.for unsigned
// CHECK:               %[[E:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK:               %[[IN_LEAD:.*]] = arith.cmpi ult, %[[E]], %[[LEAD]] : index
// CHECK:               %[[AFTER_VECS:.*]] = arith.addi %[[E]], %{{.*}} : index
// CHECK:               %[[ECOL:.*]] = arith.select %[[IN_LEAD]], %[[E]], %[[AFTER_VECS]] : index
// CHECK:               %[[X:.*]] = memref.load %[[IN]][%{{.*}}, %[[ECOL]]]
// CHECK:               memref.store %[[X]], %[[OUT]][%{{.*}}, %[[ECOL]]]
func.func @copy_into_box(%in: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?x?xf32, strided<[?, ?], offset: ?>>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%in : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%out : memref<?x?xf32, strided<[?, ?], offset: ?>>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}
