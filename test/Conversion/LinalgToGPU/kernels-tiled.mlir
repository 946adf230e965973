// RUN: ptensor-opt %s -split-input-file --convert-ptensor-linalg-to-gpu="transpose-tile=32" | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --convert-ptensor-linalg-to-gpu | FileCheck %s --check-prefix=TILE64

// The tiled transpose path: chosen at run time when an input read through
// the two innermost loop dims is column-major there (stride[-2] == 1 !=
// stride[-1], e.g. a permute_dims view). 256 threads copy each such input's
// 32x32 tile into shared memory (padded to 33 columns) in the order of its
// own layout, synchronize, and compute the tile row by row; inputs read
// otherwise (here a row broadcast) are loaded directly, before the barrier.

// 64 x 64 tiles: 16 elements per thread (two columns of eight rows), in
// blocks of 256 threads as well.
// TILE64-LABEL: func.func @batched(
// TILE64:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256, {{.*}}) workgroup(%{{.*}} : memref<64x65xf32, #gpu.address_space<workgroup>>,
// TILE64:           scf.for
// TILE64:             scf.if
// TILE64-COUNT-16:      memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
// TILE64-NEXT:          scf.yield
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @batched(
// CHECK-SAME:    %[[A:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %[[B:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?x?x?xf32>)
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}:3, %[[STRIDES:.*]]:3 = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[COLUNIT:.*]] = arith.cmpi eq, %[[STRIDES]]#1, %{{.*}} : index
// CHECK:         %[[ROWUNIT:.*]] = arith.cmpi eq, %[[STRIDES]]#2, %{{.*}} : index
// CHECK:         %[[NOTROW:.*]] = arith.xori %[[ROWUNIT]], %{{.*}} : i1
// CHECK:         %[[COLMAJOR:.*]] = arith.andi %[[COLUNIT]], %[[NOTROW]] : i1
// CHECK:         scf.if %{{.*}} {
// CHECK:           gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %{{.*}}, {{.*}}) workgroup(%[[TA:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1x1xf32, #gpu.address_space<workgroup>>) {
// CHECK:             %[[TX:.*]] = arith.remui %{{.*}}, %{{.*}} : i32
// CHECK:             %[[TY:.*]] = arith.divui %{{.*}}, %{{.*}} : i32
// Positions: tx + 32 j along the warp, ty + 8 k across warps.
// CHECK:             %[[ALONG:.*]] = arith.addi %[[TX]], %{{.*}} : i32
// CHECK:             %[[ACROSS:.*]] = arith.addi %[[TY]], %{{.*}} : i32
// CHECK:             scf.for unsigned %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// Batch index of the tile.
// CHECK:               %[[BATCH:.*]] = arith.index_castui %{{.*}} : i32 to index
// Every global load before the barrier: %b (read directly) first, then %a
// in a warp-uniform branch: its tile in its own layout when it is
// column-major (consecutive threads read consecutive rows; indices clamped
// into the tensor for edge tiles), else its elements where they are
// computed.
// CHECK:               %[[Y:.*]] = memref.load %[[B]][%{{.*}}]
// CHECK-COUNT-3:       memref.load %[[B]]
// CHECK:               %[[X:.*]]:4 = scf.if %[[COLMAJOR]] -> (f32, f32, f32, f32) {
// CHECK:                 memref.load %[[A]][%[[BATCH]], %{{.*}}, %{{.*}}]
// CHECK-COUNT-3:         memref.load %[[A]]
// CHECK:                 scf.yield
// CHECK:               } else {
// CHECK:                 memref.load %[[A]][%[[BATCH]], %{{.*}}, %{{.*}}]
// CHECK-COUNT-3:         memref.load %[[A]]
// CHECK:                 scf.yield
// CHECK:               }
// Staging stores: element (row, col) to shared[row][col].
// CHECK:               scf.if %[[COLMAJOR]] {
// CHECK:                 %[[R:.*]] = arith.index_castui %[[ALONG]] : i32 to index
// CHECK:                 %[[C:.*]] = arith.index_castui %[[ACROSS]] : i32 to index
// CHECK:                 memref.store %[[X]]#0, %[[TA]][%[[R]], %[[C]]]
// CHECK-COUNT-3:         memref.store %{{.*}}, %[[TA]]
// CHECK:               }
// CHECK:               gpu.barrier
// Computing element (across, along): %a from shared memory when it was
// staged; each sum stored only inside the tensor.
// CHECK:               %[[XS:.*]]:4 = scf.if %[[COLMAJOR]] -> (f32, f32, f32, f32) {
// CHECK:                 memref.load %[[TA]][%{{.*}}, %{{.*}}]
// CHECK-COUNT-3:         memref.load %[[TA]]
// CHECK:                 scf.yield
// CHECK:               } else {
// CHECK:                 scf.yield %[[X]]#0, %[[X]]#1, %[[X]]#2, %[[X]]#3
// CHECK:               }
// CHECK-NOT:           memref.load
// CHECK:               %[[S:.*]] = arith.addf %[[XS]]#0, %[[Y]] : f32
// CHECK:               scf.if %{{.*}} {
// CHECK:                 memref.store %[[S]], %[[OUT]][%[[BATCH]], %{{.*}}, %{{.*}}]
// CHECK:               }
// CHECK-COUNT-3:       memref.store %{{.*}}, %[[OUT]]
// CHECK:               gpu.barrier
// CHECK:             }
// CHECK:             gpu.terminator
// CHECK:         } else {
func.func @batched(%a: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %b: memref<?xf32>, %out: memref<?x?x?xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?xf32>) outs(%out : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// One loop, or no input read through the two innermost dims: no tiled path.
// CHECK-LABEL: func.func @no_tiles(
// CHECK-NOT:     workgroup(
// CHECK:         return
func.func @no_tiles(%a: memref<?xf32, strided<[?], offset: ?>>, %out: memref<?x?xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<?xf32, strided<[?], offset: ?>>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Every input read through the two innermost dims (a + b.T, f32 and f16):
// interior tiles have a vector variant. On the host: views with a static
// unit last stride, row-major and with the last two dims swapped, and a
// test that every operand allows 4-element aligned vectors (first element
// aligned, unit stride along the vectors, other stride a multiple of 4).
// Where it passes, a kernel computes the interior tiles (r0 + 32 <= rows,
// c0 + 32 <= cols): it loads each input as one vector, along rows from the
// swapped view when it is column-major (then transposed through shared
// memory), else along the row; each thread stores 4 consecutive output
// elements with one vector (launched only where the test passes, it does
// not test it again). A second kernel, launched where the test fails
// or where rows or columns are not a multiple of the tile, computes the
// other tiles with scalar accesses: two kernels, so that the vector one
// has the registers of its own code (40 for a transposed copy of f32,
// against 98 with the scalar code in the same kernel).
// CHECK-LABEL: func.func @all_staged(
// CHECK-DAG:     %[[AROW:.*]] = memref.reinterpret_cast %arg0 to {{.*}} strides: [%{{.*}}, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-DAG:     %[[ACOL:.*]] = memref.reinterpret_cast %arg0 to offset: [%{{.*}}], sizes: [%[[S:.*]]#1, %[[S]]#0], strides: [%[[ST:.*]]#1, 1]
// CHECK-DAG:     %[[OUTV:.*]] = memref.reinterpret_cast %arg2 to {{.*}} : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK:         arith.ceildivui %{{.*}}, %c32 : index
// CHECK:         scf.if
// CHECK:         scf.if %[[VOK:.*]] {
// CHECK:           gpu.launch {{.*}} workgroup(%[[TA:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>, %[[TB:.*]] : memref<32x33xf16, #gpu.address_space<workgroup>>) {
// CHECK:             scf.for
// CHECK:               %[[FITS:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NOT:           %[[VOK]]
// CHECK:               scf.if %[[FITS]] {
// CHECK:                 %[[VA:.*]] = scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK:                   vector.load %[[ACOL]][%{{.*}}, %{{.*}}] {alignment = 16 : i64}
// CHECK:                 } else {
// CHECK:                   vector.load %[[AROW]][%{{.*}}, %{{.*}}] {alignment = 16 : i64}
// CHECK:                 }
// CHECK:                 scf.if %{{.*}} -> (vector<4xf16>) {
// CHECK:                   vector.load {{.*}} {alignment = 8 : i64}
// CHECK:                 scf.if %{{.*}} {
// CHECK:                   %[[E0:.*]] = vector.extract %[[VA]][0] : f32 from vector<4xf32>
// CHECK:                   memref.store %[[E0]], %[[TA]]
// CHECK-COUNT-3:           memref.store %{{.*}}, %[[TA]]
// CHECK:                 }
// CHECK:                 gpu.barrier
// CHECK:                 scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK-COUNT-4:           memref.load %[[TA]]
// CHECK:                   vector.from_elements
// CHECK:                 }
// CHECK:                 arith.addf
// CHECK-COUNT-3:         arith.addf
// CHECK:                 %[[R:.*]] = vector.from_elements %{{.*}} : vector<4xf32>
// CHECK:                 vector.store %[[R]], %[[OUTV]][%{{.*}}, %{{.*}}] {alignment = 16 : i64}
// CHECK-NOT:             memref.load %arg0
// CHECK:                 gpu.barrier
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK:             gpu.terminator
// CHECK:           }
// CHECK:         }
// The scalar kernel takes the edge tiles where the vector kernel ran, on a
// grid of those alone: the last tile row's where the rows are ragged, then
// the last tile column's but the corner.
// CHECK:         %[[RROWS:.*]] = arith.remui %{{.*}}, %c32 : index
// CHECK:         %[[RAGGEDR:.*]] = arith.cmpi ne, %[[RROWS]], %{{.*}} : index
// CHECK:         %[[RR:.*]] = arith.select %[[RAGGEDR]], %{{.*}}, %{{.*}} : index
// CHECK:         %[[RCOLS:.*]] = arith.remui %{{.*}}, %c32 : index
// CHECK:         %[[RAGGEDC:.*]] = arith.cmpi ne, %[[RCOLS]], %{{.*}} : index
// CHECK:         %[[RC:.*]] = arith.select %[[RAGGEDC]], %{{.*}}, %{{.*}} : index
// CHECK:         %[[INROW:.*]] = arith.muli %{{.*}}, %[[RR]] : index
// CHECK:         %[[COLTILES:.*]] = arith.subi %{{.*}}, %[[RR]] : index
// CHECK:         %[[INCOL:.*]] = arith.muli %[[COLTILES]], %[[RC]] : index
// CHECK:         %[[EDGETILES:.*]] = arith.addi %[[INROW]], %[[INCOL]] : index
// CHECK:         %[[SOME:.*]] = arith.cmpi ne, %[[EDGETILES]], %{{.*}} : index
// CHECK:         %[[NOVEC:.*]] = arith.xori %[[VOK]], %{{.*}} : i1
// CHECK:         %[[LEFT:.*]] = arith.ori %[[NOVEC]], %[[SOME]] : i1
// CHECK:         scf.if %[[LEFT]] {
// CHECK:           arith.ceildivui %[[EDGETILES]], %{{.*}} : index
// CHECK:           %[[GRID:.*]] = arith.select %[[VOK]], %{{.*}}, %{{.*}} : index
// CHECK:           gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GRID]], {{.*}} workgroup(
// CHECK:             %[[BOUND:.*]] = arith.select %[[VOK]], %{{.*}}, %{{.*}} : i32
// CHECK:             scf.for unsigned %{{.*}} = %{{.*}} to %[[BOUND]] step
// CHECK:               %[[INLASTROW:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK:               %[[EROW:.*]] = arith.select %[[INLASTROW]], %{{.*}}, %{{.*}} : i32
// CHECK:               %[[ECOL:.*]] = arith.select %[[INLASTROW]], %{{.*}}, %{{.*}} : i32
// CHECK:               arith.select %[[VOK]], %[[EROW]], %{{.*}} : i32
// CHECK:               arith.select %[[VOK]], %[[ECOL]], %{{.*}} : i32
// CHECK:               %[[INTERIOR2:.*]] = arith.andi %[[VOK]], %{{.*}} : i1
// CHECK:               %[[EDGE:.*]] = arith.xori %[[INTERIOR2]], %{{.*}} : i1
// CHECK:               scf.if %[[EDGE]] {
// CHECK-NOT:             vector.load
// CHECK:                 memref.load %arg0
// CHECK-NOT:             vector.store
// CHECK:                 gpu.barrier
// CHECK-NOT:             vector.store
// CHECK:                 memref.store %{{.*}}, %arg2
// CHECK-NOT:             vector.store
// CHECK:                 gpu.barrier
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK:             gpu.terminator
// With 64 x 64 tiles a thread takes one vector in each of four passes of
// 16 tile rows: every pass's loads (each input from its row-major or
// its swapped view) before the barrier, then four vector
// stores.
// TILE64-LABEL: func.func @all_staged(
// TILE64:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256, {{.*}}) workgroup(%{{.*}} : memref<64x65xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x65xf16, #gpu.address_space<workgroup>>) {
// TILE64:             scf.if %{{.*}} {
// TILE64-COUNT-16:      vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = {{8|16}} : i64}
// TILE64-NOT:           gpu.barrier
// TILE64-NOT:           vector.store
// TILE64:               gpu.barrier
// TILE64-NOT:           vector.load
// TILE64-COUNT-4:       vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64}
// TILE64:               gpu.barrier
// TILE64:           gpu.terminator
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @all_staged(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf16, strided<[?, ?], offset: ?>>, %out: memref<?x?xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf16, strided<[?, ?], offset: ?>>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f16, %o: f32):
    %e = arith.extf %y : f16 to f32
    %s = arith.addf %x, %e : f32
    linalg.yield %s : f32
  }
  return
}
