// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu=reduction-lanes=2 --split-input-file | FileCheck %s
// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu --split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu=row-blocks-per-sm=6 --split-input-file | FileCheck %s --check-prefix=OCC
// The checks below take 2 interleaved accumulator sets (reduction-lanes=2,
// the lanes machinery). By default (DEFAULT) a row kernel's thread folds in
// one set, but a block per row folding into f64 (a sum of f32) in two (its
// adds' latency), and a row group's in two or four.
// DEFAULT-LABEL: func.func @sum_rows(
// DEFAULT:         vector.load
// DEFAULT:         } else {
// DEFAULT:           gpu.launch {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256
// DEFAULT:             scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// DEFAULT:               %[[TWO:.*]]:2 = scf.for %[[R:[[:alnum:]_]+]] = %[[T]] to %{{.*}} step %{{.*}} iter_args(%[[A0:[[:alnum:]_]+]] = %cst{{.*}}, %[[A1:[[:alnum:]_]+]] = %cst{{.*}}) -> (f64, f64) {
// DEFAULT-NEXT:            memref.load %{{.*}}[%[[ROW]], %[[R]]] : memref<?x?xf32>
// DEFAULT-NEXT:            arith.extf
// DEFAULT-NEXT:            arith.addf %[[A0]], %{{.*}} {ptensor.combiner = "addf"} : f64
// DEFAULT:                 arith.addf %[[A1]], %{{.*}} {ptensor.combiner = "addf"} : f64
// DEFAULT:               %[[ONE:.*]] = arith.addf %[[TWO]]#0, %[[TWO]]#1 : f64
// DEFAULT:               %[[REST:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ONE]]) -> (f64) {
// DEFAULT:               gpu.shuffle  xor %[[REST]], %c16_i32, %c32_i32 : f64

// Reduction generics (convert-ptensor-to-linalg marks the combine in their
// bodies) become one gpu.launch each.

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// The innermost loop is reduced: a block of 256 threads per output row
// (grid-striding over the rows, at most max-blocks), each thread folding
// elements t, t + 256, ... from the identity in 2 interleaved accumulators
// (reduction-lanes: 2 loads in flight), then the remainder; each warp
// merges its partial sums by xor shuffles (f64 travels as two 32-bit
// halves in the NVVM lowering), warp leaders write them to shared memory,
// warp 0 merges those after one barrier, and thread 0 merges the result
// into the output. Fewer rows than 1056 blocks split each row
// into chunks of at least 4096 elements (decided at run time): a block per
// (row, chunk) writes a partial sum, a block per row merges them in order.
// Where the rows have unit stride and 16-byte aligned starts and their
// length is a multiple of 4 (tested at run time), the same kernels read
// 4 consecutive elements per thread step with one vector load (thread t
// reads 4t .. 4t + 3, then 4t + 1024, ...) and fold them in order; the
// scalar kernels follow in the else branch.
// CHECK-LABEL: func.func @sum_rows(
// CHECK:         %[[ROWS:.*]] = memref.dim %{{.*}}, %c0
// CHECK:         scf.if
// CHECK:           arith.remui %{{.*}}, %c4 : index
// CHECK:           %[[VIEW:.*]] = memref.reinterpret_cast {{.*}} to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK:           scf.if %{{.*}} {
// CHECK:             arith.ceildivui %c1056
// CHECK:             scf.if %{{.*}} {
// CHECK:               gpu.launch
// CHECK:                 vector.load %[[VIEW]]
// CHECK:               gpu.launch
// CHECK:             } else {
// CHECK:               gpu.launch {{.*}} threads(%[[TV:.*]], %{{.*}}, %{{.*}}) in
// CHECK:                 scf.for %[[ROWV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:                   arith.muli %[[TV]], %c4
// CHECK:                   scf.for %[[RV:[[:alnum:]_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f64, f64) {
// CHECK:                     %[[VEC:.*]] = vector.load %[[VIEW]][%[[ROWV]], %[[RV]]] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK:                     vector.extract %[[VEC]][0]
// CHECK:                     arith.addf {{.*}} {ptensor.combiner = "addf"} : f64
// CHECK:                     vector.extract %[[VEC]][3]
// CHECK:                     arith.addf {{.*}} {ptensor.combiner = "addf"} : f64
// CHECK:           %[[WANT:.*]] = arith.ceildivui %c1056, %[[KEPT:.*]] : index
// CHECK:           %[[MOST:.*]] = arith.ceildivui %{{.*}}, %c4096 : index
// CHECK:           %[[FEW:.*]] = arith.minui %[[WANT]], %[[MOST]]
// CHECK:           %[[CH:.*]] = arith.maxui %[[FEW]], %{{.*}}
// CHECK:           %[[SPLIT:.*]] = arith.cmpi ugt, %[[CH]], %{{.*}}
// CHECK:           scf.if %[[SPLIT]] {
// CHECK:             %[[ITEMS:.*]] = arith.muli %[[KEPT]], %[[CH]]
// CHECK:             %[[PARTS:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[ITEMS]]) : memref<?xf64>
// CHECK:             gpu.launch {{.*}} workgroup(%{{.*}} : memref<8xf64, #gpu.address_space<workgroup>>)
// CHECK:               scf.for %[[ITEM:.*]] = %{{.*}} to %[[ITEMS]] step
// CHECK:                 %[[ROW1:.*]] = arith.divui %[[ITEM]], %[[CH]]
// CHECK:                 memref.load %{{.*}}[%[[ROW1]], %{{.*}}] : memref<?x?xf32>
// CHECK:                 gpu.barrier
// CHECK:                 memref.store %{{.*}}, %[[PARTS]][%[[ITEM]]] : memref<?xf64>
// CHECK:             gpu.launch {{.*}} workgroup(
// CHECK:               scf.for %[[ROW2:.*]] = %{{.*}} to %[[KEPT]] step
// CHECK:                 %[[BASE:.*]] = arith.muli %[[ROW2]], %[[CH]]
// CHECK:                 memref.load %[[PARTS]]
// CHECK:                 gpu.barrier
// CHECK:                 memref.store %{{.*}}[%[[ROW2]]] : memref<?xf64>
// CHECK:             gpu.dealloc async [%{{.*}}] %[[PARTS]]
// CHECK:           } else {
// CHECK:             gpu.launch {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256
// CHECK-SAME:          workgroup(%[[SHM:.*]] : memref<8xf64, #gpu.address_space<workgroup>>)
// CHECK:               scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:                 %[[LANES:.*]]:2 = scf.for %[[R:[[:alnum:]_]+]] = %[[T]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:[[:alnum:]_]+]] = %cst{{.*}}) -> (f64, f64) {
// CHECK:                   memref.load %{{.*}}[%[[ROW]], %[[R]]] : memref<?x?xf32>
// CHECK:                   arith.extf
// CHECK:                   arith.addf %[[ACC]], %{{.*}} {ptensor.combiner = "addf"} : f64
// CHECK:                   %[[R1:.*]] = arith.addi %[[R]], %c256
// CHECK:                   memref.load %{{.*}}[%[[ROW]], %[[R1]]] : memref<?x?xf32>
// CHECK:                 arith.addf %[[LANES]]#0, %[[LANES]]#1
// CHECK:                 %[[PART:.*]] = scf.for %{{.*}} step %c256{{.*}} -> (f64) {
// CHECK:                 %[[S16:.*]], %{{.*}} = gpu.shuffle  xor %[[PART]], %c16_i32, %c32_i32 : f64
// CHECK:                 arith.addf %[[PART]], %[[S16]] : f64
// CHECK-COUNT-4:         gpu.shuffle  xor
// CHECK:                 %[[LANE:.*]] = arith.remui %[[T]], %c32
// CHECK:                 %[[WARP:.*]] = arith.divui %[[T]], %c32
// CHECK:                 scf.if
// CHECK:                   memref.store %{{.*}}, %[[SHM]][%[[WARP]]]
// CHECK:                 gpu.barrier
// CHECK:                 scf.if
// CHECK:                   memref.load %[[SHM]][%[[LANE]]]
// CHECK-COUNT-3:           gpu.shuffle  xor
// CHECK:                   scf.if
// CHECK:                     memref.load %{{.*}}[%[[ROW]]] : memref<?xf64>
// CHECK:                     arith.addf
// CHECK:                     memref.store %{{.*}}[%[[ROW]]] : memref<?xf64>
// CHECK:                 gpu.barrier
func.func @sum_rows(%a: memref<?x?xf32>, %out: memref<?xf64>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x?xf32>) outs(%out : memref<?xf64>) {
  ^bb0(%x: f32, %o: f64):
    %w = arith.extf %x : f32 to f64
    %s = arith.addf %o, %w {ptensor.combiner = "addf"} : f64
    linalg.yield %s : f64
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>

// The innermost loop is kept: a thread per output column folds the rows in
// order (neighbouring threads read neighbouring elements), its loop
// unrolled by 4 over one accumulator set (4 loads in flight) with a loop
// for the rest; argmax keeps a (value, index) pair, its thread's fold in
// order with no tie rule (a later element wins if strictly greater, or if
// the pair is still the identity, index INT64_MAX), while the merges of
// partial pairs keep the index comparison. Fewer columns than an H100's 270336 threads split
// the rows into chunks of at least 64: a thread per (chunk, column) writes
// partial pairs, a thread per column merges them in 8 interleaved sets
// (loads in flight; a fixed order).
// CHECK-LABEL: func.func @argmax_cols(
// CHECK:         %[[WANT:.*]] = arith.ceildivui %c270336, %[[KEPT:.*]] : index
// CHECK:         %[[MOST:.*]] = arith.ceildivui %{{.*}}, %c64 : index
// CHECK:         scf.if %{{.*}} {
// CHECK:           %[[ITEMS:.*]] = arith.muli %[[KEPT]], %[[CH:.*]] : index
// CHECK:           %[[PV:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[ITEMS]]) : memref<?xi32>
// CHECK:           %[[PI:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[ITEMS]]) : memref<?xi64>
// CHECK:           gpu.launch
// CHECK-NOT:         workgroup
// CHECK:             scf.for %[[ITEM:.*]] = %{{.*}} to %[[ITEMS]] step
// CHECK:               %[[CHUNK:.*]] = arith.divui %[[ITEM]], %[[KEPT]]
// CHECK:               %[[COL1:.*]] = arith.remui %[[ITEM]], %[[KEPT]]
// The unrolled body issues its four loads before the first fold:
// CHECK:               %[[MAIN:.*]]:2 = scf.for {{.*}} -> (i32, i64) {
// CHECK-NOT:              arith.select
// CHECK:                  memref.load %{{.*}}[%{{.*}}, %[[COL1]]] : memref<?x?xi32>
// CHECK-NOT:              arith.select
// CHECK:                  memref.load %{{.*}}[%{{.*}}, %[[COL1]]] : memref<?x?xi32>
// CHECK-NOT:              arith.select
// CHECK:                  memref.load %{{.*}}[%{{.*}}, %[[COL1]]] : memref<?x?xi32>
// CHECK-NOT:              arith.select
// CHECK:                  memref.load %{{.*}}[%{{.*}}, %[[COL1]]] : memref<?x?xi32>
// CHECK-NOT:              memref.load
// CHECK-NOT:              arith.cmpi slt
// CHECK:                  %[[GT:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK:                  %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c9223372036854775807{{.*}} : i64
// CHECK:                  %[[TAKE:.*]] = arith.ori %[[GT]], %[[FIRST]] : i1
// CHECK:                  arith.select %[[TAKE]], {{.*}} {ptensor.combiner = "argmaxsi", ptensor.in_order} : i32
// CHECK-COUNT-3:          arith.select {{.*}} {ptensor.combiner = "argmaxsi", ptensor.in_order} : i32
// CHECK-NOT:              arith.cmpi slt
// CHECK:               %[[REST:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[MAIN]]#0, %{{.*}} = %[[MAIN]]#1) -> (i32, i64) {
// CHECK:                 memref.load %{{.*}}[%{{.*}}, %[[COL1]]] : memref<?x?xi32>
// CHECK:               memref.store %[[REST]]#0, %[[PV]][%[[ITEM]]] : memref<?xi32>
// CHECK:               memref.store %[[REST]]#1, %[[PI]][%[[ITEM]]] : memref<?xi64>
// The grid holds a thread per item, all resident (2048 per SM): the loop
// marks the blocks per SM that ptensor-kernel-occupancy asks ptxas for, and
// the launch keeps its constants as kernel parameters.
// CHECK-NEXT:        } {ptensor.min_blocks_per_sm = 16 : i32}
// CHECK:             gpu.terminator
// CHECK-NEXT:      } {ptensor.keep_kernel_parameters}
// CHECK:           gpu.launch
// CHECK:             scf.for %[[COL2:.*]] = %{{.*}} to %[[KEPT]] step
// CHECK:               scf.for {{.*}} -> (i32, i64, i32, i64, i32, i64, i32, i64, i32, i64, i32, i64, i32, i64, i32, i64) {
// CHECK:                 memref.load %[[PV]]
// CHECK:                 memref.load %[[PI]]
// CHECK:                 arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK:               memref.store %{{.*}}, %{{.*}}[%[[COL2]]] : memref<?xi64>
// CHECK:           gpu.dealloc
// CHECK:           gpu.dealloc
// CHECK:         } else {
// CHECK:           gpu.launch
// CHECK-NOT:         workgroup
// CHECK:             scf.for %[[COL:.*]] =
// CHECK:               scf.for %{{.*}} = %c0{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (i32, i64) {
// CHECK-COUNT-4:          arith.select {{.*}} {ptensor.combiner = "argmaxsi", ptensor.in_order} : i32
// CHECK:               scf.for {{.*}} -> (i32, i64) {
// CHECK:               memref.store %{{.*}}, %{{.*}}[%[[COL]]] : memref<?xi64>
func.func @argmax_cols(%a: memref<?x?xi32>, %v: memref<?xi32>, %i: memref<?xi64>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #cols, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<?x?xi32>) outs(%v, %i : memref<?xi32>, memref<?xi64>) {
  ^bb0(%x: i32, %ov: i32, %oi: i64):
    %r = linalg.index 0 : index
    %ri = arith.index_cast %r : index to i64
    %gt = arith.cmpi sgt, %x, %ov : i32
    %eq = arith.cmpi eq, %x, %ov : i32
    %lt = arith.cmpi slt, %ri, %oi : i64
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %nv = arith.select %take, %x, %ov {ptensor.combiner = "argmaxsi"} : i32
    %ni = arith.select %take, %ri, %oi : i64
    linalg.yield %nv, %ni : i32, i64
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// A max over rows (f32 accumulators) folds in one set by default.
// With row-blocks-per-sm, each block-per-row loop marks the blocks per SM
// whose registers ptensor-kernel-occupancy asks ptxas for (none without).
// OCC-LABEL: func.func @max_rows(
// OCC:         gpu.launch {{.*}} in (%{{.*}} = %c256{{.*}}
// OCC:           } {ptensor.min_blocks_per_sm = 6 : i32}
// DEFAULT-LABEL: func.func @max_rows(
// DEFAULT-NOT:   ptensor.min_blocks_per_sm
// DEFAULT:         arith.maximumf {{.*}} {ptensor.combiner = "maxf"} : f32
// DEFAULT-NOT:     -> (f32, f32)
// DEFAULT:         return
func.func @max_rows(%a: memref<?x?xf32>, %out: memref<?xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #rows],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %acc, %x {ptensor.combiner = "maxf"} : f32
    linalg.yield %m : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// An argmax's warps merge their (value, index) pairs in two butterflies:
// the NaN-propagating max of the values alone, one shuffle a step; then
// each lane keeps its index where its value matches that max (equal, or
// both NaN) and INT64_MAX where not, and the lanes take the least index,
// a 64-bit min a step. Warp 0 merges the warps' pairs the same way.
// DEFAULT-LABEL: func.func @argmax_rows(
// DEFAULT:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8xi64, #gpu.address_space<workgroup>>)
// DEFAULT:           %[[S16:.*]], %{{.*}} = gpu.shuffle  xor %[[V:.*]], %c16_i32, %c32_i32 : f32
// DEFAULT-NEXT:      %[[M16:.*]] = arith.maximumf %[[V]], %[[S16]] : f32
// DEFAULT-COUNT-4:   arith.maximumf
// DEFAULT-NEXT:      %[[EQ:.*]] = arith.cmpf oeq, %[[V]], %[[MAX:.*]] : f32
// DEFAULT-NEXT:      %[[MAXNAN:.*]] = arith.cmpf uno, %[[MAX]], %[[MAX]] : f32
// DEFAULT-NEXT:      %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f32
// DEFAULT-NEXT:      %[[MATCH:.*]] = arith.select %[[MAXNAN]], %[[NAN]], %[[EQ]] : i1
// DEFAULT-NEXT:      %[[NONE:.*]] = arith.constant 9223372036854775807 : i64
// DEFAULT-NEXT:      %[[IDX:.*]] = arith.select %[[MATCH]], %{{.*}}, %[[NONE]] : i64
// DEFAULT:           %[[I16:.*]], %{{.*}} = gpu.shuffle  xor %[[IDX]], %c16_i32{{.*}}, %c32_i32{{.*}} : i64
// DEFAULT-NEXT:      arith.minsi %[[IDX]], %[[I16]] : i64
// DEFAULT-COUNT-4:   arith.minsi
// DEFAULT:           gpu.barrier
// DEFAULT-COUNT-3:   arith.maximumf
// DEFAULT:           arith.select
// DEFAULT-COUNT-3:   arith.minsi
// DEFAULT:           return
func.func @argmax_rows(%a: memref<?x?xf32>, %v: memref<?xf32>, %i: memref<?xi64>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #rows, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x?xf32>) outs(%v, %i : memref<?xf32>, memref<?xi64>) {
  ^bb0(%x: f32, %ov: f32, %oi: i64):
    %r = linalg.index 1 : index
    %ri = arith.index_cast %r : index to i64
    %gt = arith.cmpf ogt, %x, %ov : f32
    %eq = arith.cmpf oeq, %x, %ov : f32
    %lt = arith.cmpi slt, %ri, %oi : i64
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %nv = arith.select %take, %x, %ov {ptensor.combiner = "argmaxf"} : f32
    %ni = arith.select %take, %ri, %oi : i64
    linalg.yield %nv, %ni : f32, i64
  }
  return
}
