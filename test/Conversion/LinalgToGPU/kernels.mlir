// RUN: ptensor-opt %s -split-input-file --convert-ptensor-linalg-to-gpu | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --convert-ptensor-linalg-to-gpu="block-size=128 max-blocks=64" | FileCheck %s --check-prefix=OPTS

// convert-ptensor-linalg-to-gpu: in functions marked ptensor.device, every
// elementwise linalg.generic on memrefs becomes gpu.launch ops running a
// grid-stride loop over the flattened iteration space (`unroll` elements
// per thread and step over whole chunks, then one; an i32 variant when
// the element count fits in 31 bits, an index variant otherwise, and a
// vectorized variant for contiguous operands), nothing runs when the count is
// 0, and memref.alloc/dealloc become gpu.alloc/gpu.dealloc on a stream.

#id = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (0, d1)>

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @broadcast_add(
// CHECK-SAME:    %[[A:.*]]: memref<?x4xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<1x4xf32>, %[[OUT:.*]]: memref<?x4xf32>)
// CHECK-SAME:    attributes {ptensor.device = "cuda:0"}
// CHECK-NOT:     linalg.generic
// The element count is the product of the output's sizes.
// CHECK:         %[[D0:.*]] = memref.dim %[[OUT]], %{{.*}} : memref<?x4xf32>
// CHECK:         %[[P0:.*]] = arith.muli %{{.*}}, %[[D0]] : index
// CHECK:         %[[D1:.*]] = memref.dim %[[OUT]], %{{.*}} : memref<?x4xf32>
// CHECK:         %[[COUNT:.*]] = arith.muli %[[P0]], %[[D1]] : index
// blocks = min(ceildiv(count, 256), 1056) (at least 1).
// CHECK:         %[[NONEMPTY:.*]] = arith.cmpi ugt, %[[COUNT]], %{{.*}} : index
// CHECK:         %[[LIM:.*]] = arith.constant 2147483648 : index
// CHECK:         %[[FITS:.*]] = arith.cmpi ult, %[[COUNT]], %[[LIM]] : index
// CHECK:         scf.if %[[NONEMPTY]] {
// The tiled path (kernels-tiled.mlir), when %a is column-major at run time:
// CHECK:           scf.if %{{.*}} {
// CHECK:             gpu.launch {{.*}} workgroup(
// CHECK:               gpu.barrier
// CHECK:           } else {
// The row-vector path: rows of 4 elements, read with unit stride, one
// vector store.
// CHECK:             scf.if %{{.*}} {
// CHECK:               gpu.launch
// CHECK:                 vector.store %{{.*}} : memref<?x4xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:             } else {
// The general path, with 32-bit and 64-bit index variants; enough blocks
// for `unroll` (4) elements per thread:
// CHECK:               %[[UNROLL:.*]] = arith.constant 4 : index
// CHECK:               %[[WORK:.*]] = arith.ceildivui %[[COUNT]], %[[UNROLL]] : index
// CHECK:               %[[BS:.*]] = arith.constant 128 : index
// CHECK:               %[[MAXB:.*]] = arith.constant 65535 : index
// CHECK:               %[[CEIL:.*]] = arith.ceildivui %[[WORK]], %[[BS]] : index
// CHECK:               arith.minui %[[CEIL]], %[[MAXB]] : index
// CHECK:               scf.if %[[FITS]] {
// CHECK:                 gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:               %[[START:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:               %[[STEP:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:               %[[N32:.*]] = arith.index_castui %[[COUNT]] : index to i32
// Whole chunks of 4 x blockDim elements first: a thread's four elements
// (blockDim apart) are loaded before any is stored.
// CHECK:               %[[CHUNK:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:               %[[CHUNKS:.*]] = arith.divui %[[N32]], %[[CHUNK]] : i32
// CHECK:               scf.for unsigned %{{.*}} = %{{.*}} to %[[CHUNKS]] step %{{.*}} : i32 {
// CHECK-COUNT-4:         memref.load %[[A]]
// CHECK-NOT:             memref.store
// CHECK-COUNT-4:         memref.store %{{.*}}, %[[OUT]]
// CHECK-NEXT:          }
// The rest, one element per step:
// CHECK:               %[[REST:.*]] = arith.muli %[[CHUNKS]], %[[CHUNK]] : i32
// CHECK:               %[[FROM:.*]] = arith.addi %[[REST]], %[[START]] : i32
// CHECK:               scf.for unsigned %[[LIN:.*]] = %[[FROM]] to %[[N32]] step %[[STEP]] : i32 {
// CHECK:                 %[[COL32:.*]] = arith.remui %[[LIN]], %{{.*}} : i32
// CHECK:                 %[[COL:.*]] = arith.index_castui %[[COL32]] : i32 to index
// CHECK:                 %[[ROW32:.*]] = arith.divui %[[LIN]], %{{.*}} : i32
// CHECK:                 %[[ROW:.*]] = arith.index_castui %[[ROW32]] : i32 to index
// CHECK:                 %[[X:.*]] = memref.load %[[A]][%[[ROW]], %[[COL]]] : memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK:                 %[[Z:.*]] = arith.constant 0 : index
// CHECK:                 %[[Y:.*]] = memref.load %[[B]][%[[Z]], %[[COL]]] : memref<1x4xf32>
// CHECK:                 %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK:                 memref.store %[[S]], %[[OUT]][%[[ROW]], %[[COL]]] : memref<?x4xf32>
// CHECK:               }
// CHECK:               gpu.terminator
// CHECK:           } else {
// The index variant for element counts of 2^31 and more (its chunks, then
// the rest).
// CHECK:             gpu.launch
// CHECK:               %[[CHUNKS64:.*]] = arith.divui %[[COUNT]], %{{.*}} : index
// CHECK:               scf.for unsigned %{{.*}} = %{{.*}} to %[[CHUNKS64]] step %{{.*}} {
// CHECK-COUNT-4:         memref.store %{{.*}}, %[[OUT]]
// CHECK:               scf.for unsigned %[[LIN64:.*]] = %{{.*}} to %[[COUNT]] step %{{.*}} {
// CHECK:                 arith.remui %[[LIN64]], %{{.*}} : index
// CHECK:                 arith.divui %[[LIN64]], %{{.*}} : index
// CHECK:                 memref.load %[[A]]
// CHECK:                 arith.addf
// CHECK:                 memref.store
// CHECK:               gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK:         return
// OPTS-LABEL: func.func @broadcast_add(
// OPTS:         %[[BS:.*]] = arith.constant 128 : index
// OPTS:         %[[MAXB:.*]] = arith.constant 64 : index
// OPTS:         %[[CEIL:.*]] = arith.ceildivui %{{.*}}, %[[BS]] : index
// OPTS:         arith.minui %[[CEIL]], %[[MAXB]] : index
// OPTS:         gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %{{.*}},
func.func @broadcast_add(%a: memref<?x4xf32, strided<[?, ?], offset: ?>>, %b: memref<1x4xf32>, %out: memref<?x4xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x4xf32, strided<[?, ?], offset: ?>>, memref<1x4xf32>) outs(%out : memref<?x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#map = affine_map<(d0) -> (d0)>

// Identity maps only: the flat vector path runs first when every operand is
// contiguous and aligned (kernels-flat-vector.mlir has its details);
// otherwise the row-vector path, then the general i32/i64 variants.
// CHECK-LABEL: func.func @contiguous_vector_path(
// CHECK-SAME:    %[[A:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[OUT:.*]]: memref<?xf32>)
// CHECK:         scf.if %{{.*}} {
// CHECK:           memref.extract_strided_metadata %[[A]]
// CHECK:           memref.extract_aligned_pointer_as_index %[[A]]
// CHECK:           %[[FA:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}], strides: [1]
// CHECK:           memref.extract_strided_metadata %[[OUT]]
// CHECK:           %[[FO:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}], strides: [1]
// CHECK:           scf.if %{{.*}} {
// CHECK:             gpu.launch
// CHECK:               scf.for unsigned %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:                 %[[V:.*]] = vector.load %[[FA]][%{{.*}}] {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>>, vector<4xf32>
// CHECK-COUNT-4:         arith.negf
// CHECK:                 %[[W:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:                 vector.store %[[W]], %[[FO]][%{{.*}}] {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>>, vector<4xf32>
// CHECK:           } else {
// CHECK:             scf.if %{{.*}} {
// CHECK:               gpu.launch
// CHECK:                 vector.store
// CHECK:             } else {
// CHECK:               scf.if %{{.*}} {
// CHECK:                 gpu.launch
// CHECK:                   scf.for {{.*}} : i32 {
// CHECK:                     memref.load %[[A]]
// CHECK:               } else {
// CHECK:                 gpu.launch
// CHECK:                   scf.for
// CHECK:                     memref.load %[[A]]
func.func @contiguous_vector_path(%a: memref<?xf32, strided<[?], offset: ?>>, %out: memref<?xf32>) attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%a : memref<?xf32, strided<[?], offset: ?>>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#map = affine_map<(d0) -> (d0)>

// linalg.index in the body reads the split loop index; i1 buffers and index
// uses keep to the scalar variants (no vector.load).
// CHECK-LABEL: func.func @index_in_body(
// CHECK-NOT:     vector.load
// CHECK:         gpu.launch
// CHECK:           scf.for unsigned %[[LIN:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:             %[[I:.*]] = arith.index_castui %[[LIN]] : i32 to index
// CHECK:             %[[C:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[I]]] : memref<?xi1>
// CHECK-NOT:     linalg.index
func.func @index_in_body(%out: memref<?xi1>) attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%out : memref<?xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    %z = arith.constant 0 : i64
    %b = arith.cmpi sgt, %c, %z : i64
    linalg.yield %b : i1
  }
  return
}

// -----

// Allocations of device functions become gpu.alloc / gpu.dealloc on a fresh
// stream that is waited for; host functions are untouched.
// CHECK-LABEL: func.func @device_allocations(
// CHECK-SAME:    %[[N:.*]]: index
// CHECK-NOT:     memref.alloc
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK:         %[[MEM:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%[[N]]) : memref<?xf32>
// CHECK:         gpu.wait [%[[T1]]]
// CHECK:         %[[T2:.*]] = gpu.wait async
// CHECK:         %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[MEM]] : memref<?xf32>
// CHECK:         gpu.wait [%[[T3]]]
// CHECK-NOT:     memref.dealloc
// CHECK:         return
// CHECK-LABEL: func.func @host_untouched(
// CHECK-NOT:     gpu.
// CHECK:         linalg.generic
// CHECK:         %[[H:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.dealloc %[[H]] : memref<4xf32>
// CHECK-NOT:     gpu.
// CHECK:         return
func.func @device_allocations(%n: index) attributes {ptensor.device = "cuda:0"} {
  %m = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %m : memref<?xf32>
  return
}
func.func @host_untouched(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  %t = memref.alloc() : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// A module without device functions is left as it is (no container attr).
// CHECK-NOT:   gpu.container_module
// CHECK-LABEL: func.func @only_host(
// CHECK:         linalg.generic
// CHECK-NOT:     gpu.launch
func.func @only_host(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Outer add: %a is broadcast along rows (one value per row: no stride test),
// %b is read along rows (unit stride tested at run time); the row-vector
// path applies. No input reads the two innermost dims: no tiled path.
// CHECK-LABEL: func.func @outer_add(
// CHECK-SAME:    %[[A:.*]]: memref<?x1xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<1x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NOT:     workgroup(
// CHECK-NOT:     memref.extract_strided_metadata %[[A]]
// CHECK:         memref.extract_strided_metadata %[[B]]
// CHECK:         gpu.launch
// CHECK-COUNT-4:   memref.load %[[A]][%{{.*}}, %{{.*}}]
// CHECK:           vector.store %{{.*}} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
func.func @outer_add(%a: memref<?x1xf32, strided<[?, ?], offset: ?>>, %b: memref<1x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?x?xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x1xf32, strided<[?, ?], offset: ?>>, memref<1x?xf32, strided<[?, ?], offset: ?>>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
