// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu --split-input-file | FileCheck %s

// Row groups (LinalgToGPU/RowGroups.h): generics that read the same rows
// again, a row at a time, become one kernel with a block per row.

#scalar = affine_map<(d0) -> ()>
#kept = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#col0 = affine_map<(d0, d1) -> (d0, 0)>

// softmax as convert-ptensor-to-linalg and bufferization leave it: fill the
// max's init, max, fill the sum's init, sum of exp(x - max), round the sum
// to f32, exp(x - max) / sum written out. (The fills are folded into the
// reductions: each merges its row's result into the fill's constant.)
// Where the rows fill the GPU (the row kernel would not split them; tested
// at run time) one launch computes them in order for each row k: a Reduce
// member is the row kernel (its block merge through its own shared
// buffers, thread 0 merging into element k and giving the total to the
// block), every thread computes a PerRow member's element k (thread 0
// writes it), the AlongRow member strides over the row, then a barrier;
// later members take earlier results as values. The rows are read (and the
// AlongRow member's written) with vectors where they allow (tested at run
// time), else the same launch reads scalars; else each member's own kernels.
// CHECK-LABEL: func.func @softmax(
// CHECK:         %[[SUM32:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64xf32>
// CHECK:         %[[MAX:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64xf32>
// CHECK:         %[[SUM:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64xf64>
// CHECK:         %[[OUT:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64x256xf32>
// CHECK:         arith.ceildivui %c1056
// CHECK:         %[[CHUNKS:.*]] = arith.maxui
// CHECK:         %[[ROWSFILL:.*]] = arith.cmpi eq, %[[CHUNKS]], %c1
// Unless the rows are read across a transposed view (the strides vote at
// run time): each member on its own then, the reductions with their loops
// swapped.
// CHECK:         memref.extract_strided_metadata %arg0
// CHECK:         arith.cmpi ult
// CHECK:         %[[FILLS:.*]] = arith.andi %[[ROWSFILL]], %{{.*}} : i1
// CHECK:         scf.if %[[FILLS]] {
// CHECK:           scf.if %{{.*}} {
// Rows of at most 47 KiB stay in the block's dynamic shared memory: the
// first reduction stores the row it reads there, the later members read it
// from there (the merge buffers follow the row in the same memory).
// CHECK:             %[[ROWBYTES:.*]] = arith.muli %{{.*}}, %c4{{.*}} : index
// CHECK:             arith.cmpi ule, %[[ROWBYTES]], %c48128
// CHECK:             scf.if
// No workgroup attributions beside the dynamic shared memory: MLIR 22's
// NVVM lowering makes the dynamic region an internal global that NVPTX
// places at offset 0 of the static ones, so they would overlap the row.
// CHECK:               gpu.launch {{.*}} dynamic_shared_memory_size %{{[0-9]+}} {
// CHECK:                 %[[RAW:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:                 %[[CACHE:.*]] = memref.view %[[RAW]][%c0{{.*}}][%{{.*}}] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
// CHECK:                 memref.view %[[RAW]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK:                 memref.view %[[RAW]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xf64, #gpu.address_space<workgroup>>
// CHECK:                   %[[V:.*]] = vector.load %{{.*}} : memref<64x256xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK-NEXT:              vector.store %[[V]], %[[CACHE]][%{{.*}}]
// CHECK:                   arith.maximumf
// The sum folds exp: four interleaved accumulator sets (two in groups whose
// folds compute no math function, as @var_rows below).
// CHECK:                   scf.for {{.*}} -> (f64, f64, f64, f64) {
// CHECK:                   vector.load %[[CACHE]]
// CHECK:                   math.exp
// CHECK:                   vector.load %[[CACHE]]
// CHECK:                   vector.store %{{.*}} : memref<64x256xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// Else the same launch reading the rows from global memory (L2).
// Each reduction has its merge buffer (a value per warp) and the buffer
// through which thread 0 gives the block its total.
// CHECK:             gpu.launch {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in {{.*}} workgroup(%[[S1:.*]] : memref<8xf32, #gpu.address_space<workgroup>>, %[[B1:.*]] : memref<1xf32, #gpu.address_space<workgroup>>, %[[S2:.*]] : memref<8xf64, #gpu.address_space<workgroup>>, %[[B2:.*]] : memref<1xf64, #gpu.address_space<workgroup>>)
// The fills of the max's and the sum's inits are folded into the members
// (ConstantInits.h): no store of a constant, no barrier before the first
// fold.
// CHECK:               scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:             memref.store %cst
// CHECK-NOT:             gpu.barrier
// CHECK:                 vector.load {{.*}}[%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<64x256xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:                 arith.maximumf {{.*}} {ptensor.combiner = "maxf"} : f32
// CHECK:                 memref.store %{{.*}}, %[[S1]]
// CHECK:                 gpu.barrier
// CHECK:                 memref.store %[[M:.*]], %[[MAX]][%[[ROW]]] : memref<64xf32>
// CHECK-NEXT:            memref.store %[[M]], %[[B1]][%c0{{.*}}]
// CHECK:                 gpu.barrier
// Every thread takes the max from there; later members use the value (no
// load of the max's buffer, no barrier after a PerRow member).
// CHECK-NEXT:            %[[ROWMAX:.*]] = memref.load %[[B1]][%c0{{.*}}]
// CHECK-NOT:             memref<64x1xf32>
// CHECK-NOT:             memref.store %cst{{.*}}, %[[SUM]]
// CHECK:                 vector.load {{.*}}[%[[ROW]], %{{.*}}] {alignment = 16 : i64} : memref<64x256xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:                 arith.subf %{{.*}}, %[[ROWMAX]] : f32
// CHECK:                 math.exp
// CHECK:                 arith.addf {{.*}} {ptensor.combiner = "addf"} : f64
// CHECK:                 memref.store %{{.*}}, %[[S2]]
// CHECK:                 gpu.barrier
// CHECK:                 memref.store %[[S:.*]], %[[SUM]][%[[ROW]]] : memref<64xf64>
// CHECK-NEXT:            memref.store %[[S]], %[[B2]][%c0{{.*}}]
// CHECK:                 gpu.barrier
// CHECK-NEXT:            %[[ROWSUM:.*]] = memref.load %[[B2]][%c0{{.*}}]
// CHECK-NEXT:            %[[SUM32V:.*]] = arith.truncf %[[ROWSUM]]
// CHECK-NOT:             gpu.barrier
// CHECK:                 scf.if
// CHECK-NEXT:              memref.store %[[SUM32V]], %[[SUM32]][%[[ROW]]] : memref<64xf32>
// CHECK-NOT:             gpu.barrier
// CHECK-NOT:             memref<64x1xf32>
// CHECK:                 scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c1024{{.*}} {
// CHECK:                   vector.load {{.*}}[%[[ROW]], %[[R]]] {alignment = 16 : i64} : memref<64x256xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:                   arith.subf %{{.*}}, %[[ROWMAX]] : f32
// CHECK:                   math.exp
// CHECK:                   arith.divf %{{.*}}, %[[SUM32V]] : f32
// CHECK-COUNT-3:           math.exp
// CHECK:                   vector.store %{{.*}}, %{{.*}}[%[[ROW]], %[[R]]] {alignment = 16 : i64} : memref<64x256xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:                 gpu.barrier
// CHECK:           } else {
// CHECK:             gpu.launch {{.*}} threads(%[[T2:.*]], %{{.*}}, %{{.*}}) in {{.*}} workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8xf64, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xf64, #gpu.address_space<workgroup>>)
// CHECK-NOT:           vector.load
// CHECK:               scf.for %[[R2:.*]] = %[[T2]] to %{{.*}} step %c256{{.*}} {
// CHECK:                 math.exp
// CHECK:                 arith.divf
// CHECK:                 memref.store %{{.*}}, %[[OUT]][%{{.*}}, %[[R2]]] : memref<64x256xf32>
// CHECK:         } else {
// CHECK-COUNT-2:   gpu.launch {{.*}} workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>)
func.func @softmax(%arg0: memref<64x256xf32, strided<[?, ?], offset: ?>>) -> memref<64x256xf32, strided<[?, ?], offset: ?>> attributes {ptensor.device = "cuda:0"} {
  %cst = arith.constant -0.000000e+00 : f64
  %cst_0 = arith.constant 0xFF800000 : f32
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  linalg.generic {indexing_maps = [#scalar, #kept], iterator_types = ["parallel"]} ins(%cst_0 : f32) outs(%alloc_1 : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<64x256xf32, strided<[?, ?], offset: ?>>) outs(%alloc_1 : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %out, %in {ptensor.combiner = "maxf"} : f32
    linalg.yield %0 : f32
  }
  %expand_shape = memref.expand_shape %alloc_1 [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<64xf64>
  linalg.generic {indexing_maps = [#scalar, #kept], iterator_types = ["parallel"]} ins(%cst : f64) outs(%alloc_2 : memref<64xf64>) {
  ^bb0(%in: f64, %out: f64):
    linalg.yield %in : f64
  }
  linalg.generic {indexing_maps = [#id, #col0, #rows], iterator_types = ["parallel", "reduction"]} ins(%arg0, %expand_shape : memref<64x256xf32, strided<[?, ?], offset: ?>>, memref<64x1xf32>) outs(%alloc_2 : memref<64xf64>) {
  ^bb0(%in: f32, %in_5: f32, %out: f64):
    %0 = arith.subf %in, %in_5 : f32
    %1 = math.exp %0 : f32
    %2 = arith.extf %1 : f32 to f64
    %3 = arith.addf %out, %2 {ptensor.combiner = "addf"} : f64
    linalg.yield %3 : f64
  }
  linalg.generic {indexing_maps = [#kept, #kept], iterator_types = ["parallel"]} ins(%alloc_2 : memref<64xf64>) outs(%alloc : memref<64xf32>) {
  ^bb0(%in: f64, %out: f32):
    %0 = arith.truncf %in : f64 to f32
    linalg.yield %0 : f32
  }
  %expand_shape_3 = memref.expand_shape %alloc [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<64x256xf32>
  linalg.generic {indexing_maps = [#id, #col0, #col0, #id], iterator_types = ["parallel", "parallel"]} ins(%arg0, %expand_shape, %expand_shape_3 : memref<64x256xf32, strided<[?, ?], offset: ?>>, memref<64x1xf32>, memref<64x1xf32>) outs(%alloc_4 : memref<64x256xf32>) {
  ^bb0(%in: f32, %in_5: f32, %in_6: f32, %out: f32):
    %0 = arith.subf %in, %in_5 : f32
    %1 = math.exp %0 : f32
    %2 = arith.divf %1, %in_6 : f32
    linalg.yield %2 : f32
  }
  %cast = memref.cast %alloc_4 : memref<64x256xf32> to memref<64x256xf32, strided<[?, ?], offset: ?>>
  memref.dealloc %alloc : memref<64xf32>
  memref.dealloc %alloc_1 : memref<64xf32>
  memref.dealloc %alloc_2 : memref<64xf64>
  return %cast : memref<64x256xf32, strided<[?, ?], offset: ?>>
}

// -----

#scalar = affine_map<(d0) -> ()>
#kept = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// var over rows (convert-ptensor-to-linalg's two-pass form): fill, copy
// into the first sum's init, the sum, the sum of squared deviations from
// sum / n (reading the first sum at row k), and the division by n rounded
// to f32: one launch, the two sums each with their own shared buffers. The
// row fits in shared memory (x read from DRAM once). The fill and the copy
// are values in every thread (thread 0 stores them) with no barrier, the
// first sum reaches the second as a value, and the last PerRow member needs
// no barrier after it.
// CHECK-LABEL: func.func @var_rows(
// CHECK:         %[[SQ:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64xf64>
// CHECK:         %[[SUM:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64xf64>
// CHECK:         %[[VAR:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64xf32>
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size
// CHECK:           scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[RAW:.*]] = gpu.dynamic_shared_memory
// CHECK:             %[[S1:.*]] = memref.view %[[RAW]][%{{.*}}][] : {{.*}} to memref<8xf64, #gpu.address_space<workgroup>>
// CHECK:             %[[B1:.*]] = memref.view %[[RAW]][%{{.*}}][] : {{.*}} to memref<1xf64, #gpu.address_space<workgroup>>
// CHECK:             %[[S2:.*]] = memref.view %[[RAW]][%{{.*}}][] : {{.*}} to memref<8xf64, #gpu.address_space<workgroup>>
// CHECK:             %[[B2:.*]] = memref.view %[[RAW]][%{{.*}}][] : {{.*}} to memref<1xf64, #gpu.address_space<workgroup>>
// CHECK:             memref.store %[[ZERO:.*]], %[[SQ]][%[[ROW]]] : memref<64xf64>
// CHECK:             memref.store %[[ZERO]], %[[SUM]][%[[ROW]]] : memref<64xf64>
// CHECK-NOT:         gpu.barrier
// CHECK:             scf.for {{.*}} -> (f64, f64) {
// CHECK:             vector.load
// CHECK:             memref.store %{{.*}}, %[[S1]]
// CHECK:             gpu.barrier
// CHECK:             %[[MERGED1:.*]] = arith.addf %[[ZERO]], %{{.*}} : f64
// CHECK-NEXT:        memref.store %[[MERGED1]], %[[SUM]][%[[ROW]]] : memref<64xf64>
// CHECK-NEXT:        memref.store %[[MERGED1]], %[[B1]][%c0{{.*}}]
// CHECK:             gpu.barrier
// CHECK-NEXT:        %[[ROWSUM:.*]] = memref.load %[[B1]][%c0{{.*}}]
// CHECK-NOT:         memref.load %[[SUM]]
// CHECK:             vector.load
// CHECK:             arith.divf %[[ROWSUM]], %{{.*}} : f64
// CHECK:             arith.mulf
// CHECK:             memref.store %{{.*}}, %[[S2]]
// CHECK:             gpu.barrier
// CHECK:             memref.store %[[MERGED2:.*]], %[[SQ]][%[[ROW]]] : memref<64xf64>
// CHECK-NEXT:        memref.store %[[MERGED2]], %[[B2]][%c0{{.*}}]
// CHECK:             gpu.barrier
// CHECK-NEXT:        %[[ROWSQ:.*]] = memref.load %[[B2]][%c0{{.*}}]
// CHECK-NEXT:        arith.divf %[[ROWSQ]]
// CHECK-NEXT:        %[[V:.*]] = arith.truncf
// CHECK-NOT:         gpu.barrier
// CHECK:             memref.store %[[V]], %[[VAR]][%[[ROW]]] : memref<64xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.terminator
func.func @var_rows(%arg0: memref<64x256xf32, strided<[?, ?], offset: ?>>) -> memref<64xf32, strided<[?], offset: ?>> attributes {ptensor.device = "cuda:0"} {
  %cst = arith.constant -0.000000e+00 : f64
  %cst_0 = arith.constant 2.560000e+02 : f64
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<64xf64>
  linalg.generic {indexing_maps = [#scalar, #kept], iterator_types = ["parallel"]} ins(%cst : f64) outs(%alloc : memref<64xf64>) {
  ^bb0(%in: f64, %out: f64):
    linalg.yield %in : f64
  }
  %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<64xf64>
  linalg.generic {indexing_maps = [#kept, #kept], iterator_types = ["parallel"]} ins(%alloc : memref<64xf64>) outs(%alloc_1 : memref<64xf64>) {
  ^bb0(%in: f64, %out: f64):
    linalg.yield %in : f64
  }
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<64x256xf32, strided<[?, ?], offset: ?>>) outs(%alloc_1 : memref<64xf64>) {
  ^bb0(%in: f32, %out: f64):
    %0 = arith.extf %in : f32 to f64
    %1 = arith.addf %out, %0 {ptensor.combiner = "addf"} : f64
    linalg.yield %1 : f64
  }
  linalg.generic {indexing_maps = [#id, #rows, #rows], iterator_types = ["parallel", "reduction"]} ins(%arg0, %alloc_1 : memref<64x256xf32, strided<[?, ?], offset: ?>>, memref<64xf64>) outs(%alloc : memref<64xf64>) {
  ^bb0(%in: f32, %in_3: f64, %out: f64):
    %0 = arith.divf %in_3, %cst_0 : f64
    %1 = arith.extf %in : f32 to f64
    %2 = arith.subf %1, %0 : f64
    %3 = arith.mulf %2, %2 : f64
    %4 = arith.addf %out, %3 {ptensor.combiner = "addf"} : f64
    linalg.yield %4 : f64
  }
  %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  linalg.generic {indexing_maps = [#kept, #kept], iterator_types = ["parallel"]} ins(%alloc : memref<64xf64>) outs(%alloc_2 : memref<64xf32>) {
  ^bb0(%in: f64, %out: f32):
    %0 = arith.divf %in, %cst_0 : f64
    %1 = arith.truncf %0 : f64 to f32
    linalg.yield %1 : f32
  }
  %cast = memref.cast %alloc_2 : memref<64xf32> to memref<64xf32, strided<[?], offset: ?>>
  memref.dealloc %alloc : memref<64xf64>
  memref.dealloc %alloc_1 : memref<64xf64>
  return %cast : memref<64xf32, strided<[?], offset: ?>>
}

// -----

#scalar = affine_map<(d0) -> ()>
#kept = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>

// Not a row group: the second reduction reads the first one's results along
// its rows (element d1 of the maxima), which other blocks compute; and
// where a member reads other rows than the first reduction's, nothing is
// read twice. Each reduction is its own kernel (one shared buffer each).
// CHECK-LABEL: func.func @not_row_groups(
// CHECK-NOT:     workgroup(%{{[a-z0-9]+}} : memref<8x{{[a-z0-9]+}}, #gpu.address_space<workgroup>>, %
// CHECK:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>) {
// CHECK-NOT:     workgroup(%{{[a-z0-9]+}} : memref<8x{{[a-z0-9]+}}, #gpu.address_space<workgroup>>, %
// CHECK-LABEL: func.func private
func.func @not_row_groups(%x: memref<64x64xf32>, %y: memref<64x64xf32>) -> (memref<64xf32>, memref<64xf32>, memref<64xf32>)
    attributes {ptensor.device = "cuda:0"} {
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#scalar, #kept], iterator_types = ["parallel"]} ins(%lowest : f32) outs(%max : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x64xf32>) outs(%max : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in {ptensor.combiner = "maxf"} : f32
    linalg.yield %m : f32
  }
  %across = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#id, #cols, #rows], iterator_types = ["parallel", "reduction"]} ins(%x, %max : memref<64x64xf32>, memref<64xf32>) outs(%across : memref<64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %s = arith.addf %out, %d {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  %other = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#id, #rows, #rows], iterator_types = ["parallel", "reduction"]} ins(%y, %max : memref<64x64xf32>, memref<64xf32>) outs(%other : memref<64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %s = arith.addf %out, %d {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return %max, %across, %other : memref<64xf32>, memref<64xf32>, memref<64xf32>
}
func.func private @end()

// -----

#scalar = affine_map<(d0) -> ()>
#kept = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>

// Not row groups either: a reduction that reads no input through a map
// visiting every loop (a broadcast product: nothing says its loop sizes are
// another member's); a member reading a buffer through a value the analysis
// cannot follow to an allocation or an argument (a select of two buffers:
// it could be the maxima, read here at other rows).
// CHECK-LABEL: func.func @not_row_groups_either(
// CHECK-NOT:     workgroup(%{{[a-z0-9]+}} : memref<8x{{[a-z0-9]+}}, #gpu.address_space<workgroup>>, %
// CHECK:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>) {
// CHECK-NOT:     workgroup(%{{[a-z0-9]+}} : memref<8x{{[a-z0-9]+}}, #gpu.address_space<workgroup>>, %
// CHECK-LABEL: func.func private @end
func.func @not_row_groups_either(%a: memref<64xf32>, %b: memref<256xf32>, %x: memref<64x64xf32>,
                                 %c: i1, %o: memref<64xf32>) -> (memref<64xf32>, memref<64x64xf32>)
    attributes {ptensor.device = "cuda:0"} {
  %lowest = arith.constant 0xFF800000 : f32
  %s = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#rows, #cols, #rows], iterator_types = ["parallel", "reduction"]} ins(%a, %b : memref<64xf32>, memref<256xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %m = arith.mulf %p, %q : f32
    %r = arith.addf %out, %m {ptensor.combiner = "addf"} : f32
    linalg.yield %r : f32
  }
  %t = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#kept, #kept], iterator_types = ["parallel"]} ins(%s : memref<64xf32>) outs(%t : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  %max = memref.alloc() : memref<64xf32>
  %sel = arith.select %c, %max, %o : memref<64xf32>
  linalg.generic {indexing_maps = [#scalar, #kept], iterator_types = ["parallel"]} ins(%lowest : f32) outs(%max : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x64xf32>) outs(%max : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in {ptensor.combiner = "maxf"} : f32
    linalg.yield %m : f32
  }
  %y = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #cols, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sel : memref<64x64xf32>, memref<64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  }
  return %t, %y : memref<64xf32>, memref<64x64xf32>
}
func.func private @end()
