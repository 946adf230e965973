// RUN: ptensor-opt %s --convert-ptensor-reductions-to-loops="lanes=4" --split-input-file | FileCheck %s
// RUN: not ptensor-opt %s --convert-ptensor-reductions-to-loops="lanes=0" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: convert-ptensor-reductions-to-loops option 'lanes' is '0'; expected 1 to 64

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// A sum over rows: an scf.parallel over the rows and chunks of the row
// (enough for 64 tasks with the rows, no more than one per 65536
// positions: from the sizes alone; one chunk when there are 64 rows or
// more); the chunk folded in one loop whose f64 accumulator is a loop
// value, the combine marked reassociable (LLVM's loop vectorizer then
// uses vector lanes).
// Chunk 0 merges into the output's current value, chunk c > 0 goes to row
// c - 1 of a partials buffer, merged into the outputs in chunk order
// afterwards (only with more than one chunk).
// CHECK-LABEL: func.func @sum_rows(
// CHECK-SAME:    %{{.*}}: memref<?x?xf32>, %[[OUT:.*]]: memref<?xf64>)
// CHECK-DAG:     %[[ROWS:.*]] = memref.dim %{{.*}}, %c0
// CHECK-DAG:     %[[N:.*]] = memref.dim %{{.*}}, %c1
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 65536 : index
// CHECK-DAG:     %[[MAX:.*]] = arith.constant 64 : index
// CHECK:         %[[SOME:.*]] = arith.maxsi %[[ROWS]], %{{.*}}
// CHECK:         %[[WANTED:.*]] = arith.ceildivsi %[[MAX]], %[[SOME]]
// CHECK:         %[[BY_SIZE:.*]] = arith.ceildivsi %[[N]], %[[LIMIT]]
// CHECK:         %[[FEW:.*]] = arith.minsi %[[WANTED]], %[[BY_SIZE]]
// CHECK:         %[[CHUNKS:.*]] = arith.maxsi %[[FEW]], %{{.*}}
// CHECK:         %[[SIZE:.*]] = arith.ceildivsi %[[N]], %[[CHUNKS]]
// CHECK:         %[[MORE:.*]] = arith.subi %[[CHUNKS]], %{{.*}}
// CHECK:         %[[PARTIALS:.*]] = memref.alloc(%[[MORE]], %[[ROWS]]) : memref<?x?xf64>
// CHECK:         scf.parallel (%[[ROW:[[:alnum:]_]+]], %[[C:[[:alnum:]_]+]]) = (%{{.*}}, %{{.*}}) to (%[[ROWS]], %[[CHUNKS]])
// CHECK:           %[[LO:.*]] = arith.muli %[[C]], %[[SIZE]]
// CHECK-NOT:       arith.remui
// CHECK:           %[[T:.*]] = scf.for %[[I:[[:alnum:]_]+]] = %[[LO]] to %{{.*}} iter_args(%[[A:[[:alnum:]_]+]] = %cst) -> (f64) {
// CHECK:             memref.load %{{.*}}[%[[ROW]], %[[I]]] : memref<?x?xf32>
// CHECK:             arith.addf %[[A]], %{{.*}} fastmath<reassoc> {ptensor.combiner = "addf"} : f64
// CHECK:           %[[IS_FIRST:.*]] = arith.cmpi eq, %[[C]], %{{.*}}
// CHECK:           scf.if %[[IS_FIRST]] {
// CHECK:             %[[OLD:.*]] = memref.load %[[OUT]][%[[ROW]]] : memref<?xf64>
// CHECK:             %[[NEW:.*]] = arith.addf %[[OLD]], %[[T]] : f64
// CHECK:             memref.store %[[NEW]], %[[OUT]][%[[ROW]]] : memref<?xf64>
// CHECK:           } else {
// CHECK:             %[[P:.*]] = arith.subi %[[C]], %{{.*}}
// CHECK:             memref.store %[[T]], %[[PARTIALS]][%[[P]], %[[ROW]]]
// CHECK:         %[[SEVERAL:.*]] = arith.cmpi sgt, %[[CHUNKS]], %{{.*}}
// CHECK:         scf.if %[[SEVERAL]] {
// CHECK:           scf.parallel (%[[R:.*]]) = (%{{.*}}) to (%[[ROWS]])
// CHECK:             %[[OUT0:.*]] = memref.load %[[OUT]][%[[R]]]
// CHECK:             %[[ALL:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[CHUNKS]] {{.*}} iter_args(%[[S:.*]] = %[[OUT0]]) -> (f64)
// CHECK:               memref.load %[[PARTIALS]][%{{.*}}, %[[R]]]
// CHECK:               arith.addf %[[S]]
// CHECK:             memref.store %[[ALL]], %[[OUT]][%[[R]]]
// CHECK:         memref.dealloc %[[PARTIALS]]
func.func @sum_rows(%a: memref<?x?xf32>, %out: memref<?xf64>) {
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

#line = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// A full reduction over one loop: ceil(n / 65536) chunks of equal size,
// at most 64, at least 1 (their number and size from the loop's size
// alone: buildChunkPlan with one task, folded to constants), each
// folded into a partial in a stack array in an scf.parallel, the partials
// merged in order into the output's current value.
// CHECK-LABEL: func.func @sum_all(
// CHECK:         %[[PARTIALS:.*]] = memref.alloca() : memref<64xf64>
// CHECK:         %[[N:.*]] = memref.dim
// CHECK-DAG:     %[[MIN:.*]] = arith.constant 65536 : index
// CHECK-DAG:     arith.constant 64 : index
// CHECK:         %[[WANTED:.*]] = arith.ceildivsi %[[N]], %[[MIN]]
// CHECK:         %[[FEW:.*]] = arith.minsi %{{.*}}, %[[WANTED]]
// CHECK:         %[[CHUNKS:.*]] = arith.maxsi %[[FEW]], %{{.*}}
// CHECK:         %[[SIZE:.*]] = arith.ceildivsi %[[N]], %[[CHUNKS]]
// CHECK:         scf.parallel (%[[C:.*]]) = (%{{.*}}) to (%[[CHUNKS]])
// CHECK:           %[[LO:.*]] = arith.muli %[[C]], %[[SIZE]]
// CHECK:           %[[END:.*]] = arith.addi %[[LO]], %[[SIZE]]
// CHECK:           %[[HI:.*]] = arith.minsi %[[END]], %[[N]]
// CHECK:           %[[P:.*]] = scf.for %{{.*}} = %[[LO]] to %[[HI]] {{.*}} -> (f64)
// CHECK:             arith.addf {{.*}} fastmath<reassoc>
// CHECK:           memref.store %[[P]], %[[PARTIALS]][%[[C]]] : memref<64xf64>
// CHECK:         %[[OLD:.*]] = memref.load %{{.*}}[] : memref<f64>
// CHECK:         %[[TOTAL:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[CHUNKS]] {{.*}} iter_args(%[[A:.*]] = %[[OLD]]) -> (f64)
// CHECK:           %[[Q:.*]] = memref.load %[[PARTIALS]][%[[K]]]
// CHECK:           arith.addf %[[A]], %[[Q]] : f64
// CHECK:         memref.store %[[TOTAL]], %{{.*}}[] : memref<f64>
func.func @sum_all(%a: memref<?xf32>, %out: memref<f64>) {
  linalg.generic {indexing_maps = [#line, #scalar], iterator_types = ["reduction"]}
      ins(%a : memref<?xf32>) outs(%out : memref<f64>) {
  ^bb0(%x: f32, %o: f64):
    %w = arith.extf %x : f32 to f64
    %s = arith.addf %o, %w {ptensor.combiner = "addf"} : f64
    linalg.yield %s : f64
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#none = affine_map<(d0, d1) -> ()>

// A full argmax over two loops (a select-based combine LLVM does not
// vectorize): the outer loop in chunks on threads, as @sum_all's loop but
// with rows of n elements (65536 / n rows per chunk, at least 1); in a
// chunk the outer loop carries the (value, index) pair. The inner loop goes
// in blocks of 256: each block's maximum (a maxnumf that may ignore NaN,
// which LLVM vectorizes, beside whether a NaN was seen), keeping the first
// block with the best (or the first block); then only that block is
// searched for the least position holding the maximum, which merges into
// the row's pair. The chunks' pairs are merged in order.
// CHECK-LABEL: func.func @argmax_all(
// CHECK-DAG:     %[[PV:.*]] = memref.alloca() : memref<64xf32>
// CHECK-DAG:     %[[PI:.*]] = memref.alloca() : memref<64xi64>
// CHECK-DAG:     %[[ROWS:.*]] = memref.dim %{{.*}}, %c0
// CHECK-DAG:     %[[N:.*]] = memref.dim %{{.*}}, %c1_
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 65536 : index
// CHECK:         %[[SOME:.*]] = arith.maxsi %[[N]], %{{.*}}
// CHECK:         %[[FIT:.*]] = arith.divsi %[[LIMIT]], %[[SOME]]
// CHECK:         %[[PER:.*]] = arith.maxsi %[[FIT]], %{{.*}}
// CHECK:         %[[WANTED:.*]] = arith.ceildivsi %[[ROWS]], %[[PER]]
// CHECK:         %[[FEW:.*]] = arith.minsi %{{.*}}, %[[WANTED]]
// CHECK:         %[[CHUNKS:.*]] = arith.maxsi %[[FEW]], %{{.*}}
// CHECK:         scf.parallel (%[[C:.*]]) = (%{{.*}}) to (%[[CHUNKS]])
// CHECK:           %[[LO:.*]] = arith.muli %[[C]], %{{.*}}
// CHECK:           %[[HI:.*]] = arith.minsi %{{.*}}, %[[ROWS]]
// CHECK:           %[[P:.*]]:2 = scf.for %[[R:[[:alnum:]_]+]] = %[[LO]] to %[[HI]] {{.*}} iter_args(%[[V:.*]] = %{{.*}}, %[[X:.*]] = %{{.*}}) -> (f32, i64) {
// CHECK:             %[[B:.*]]:2 = scf.for %[[FIRST:[[:alnum:]_]+]] = %{{.*}} to %[[N]] step %c256 iter_args(%[[BV:.*]] = %{{.*}}, %[[BF:.*]] = %[[N]]) -> (f32, index) {
// CHECK:               %[[END:.*]] = arith.minsi %{{.*}}, %[[N]]
// CHECK:               %[[M:.*]]:2 = scf.for %[[I:[[:alnum:]_]+]] = %[[FIRST]] to %[[END]] {{.*}} -> (f32, i1) {
// CHECK:                 memref.load %{{.*}}[%[[R]], %[[I]]] : memref<?x?xf32>
// CHECK:                 %[[E:.*]] = arith.select {{.*}} {ptensor.combiner = "argmaxf"} : f32
// CHECK:                 arith.maxnumf %{{.*}}, %[[E]] fastmath<nnan,nsz> : f32
// CHECK:                 arith.cmpf uno, %[[E]], %[[E]] : f32
// CHECK:               %[[BLOCKMAX:.*]] = arith.select %[[M]]#1, %{{.*}}, %[[M]]#0 : f32
// CHECK:               %[[NONE:.*]] = arith.cmpi eq, %[[BF]], %[[N]] : index
// CHECK:               arith.cmpf ogt, %[[BLOCKMAX]], %[[BV]] : f32
// CHECK:               %[[TAKE:.*]] = arith.ori %[[NONE]], %{{.*}} : i1
// CHECK:               arith.select %[[TAKE]], %[[BLOCKMAX]], %[[BV]] : f32
// CHECK:               arith.select %[[TAKE]], %[[FIRST]], %[[BF]] : index
// CHECK:             %[[FOUND:.*]] = arith.cmpi slt, %[[B]]#1, %[[N]] : index
// CHECK:             scf.if %[[FOUND]] -> (f32, i64) {
// CHECK:               %[[S:.*]] = scf.for %{{.*}} = %[[B]]#1 to %{{.*}} iter_args(%{{.*}}) -> (i64) {
// CHECK:                 arith.cmpf oeq, %{{.*}}, %[[B]]#0 : f32
// CHECK:                 arith.minsi
// CHECK:               arith.cmpi slt, %[[S]], %[[X]] : i64
// CHECK:             } else {
// CHECK:               scf.yield %[[V]], %[[X]] : f32, i64
// CHECK:         memref.store %[[P]]#0, %[[PV]][%[[C]]]
// CHECK:         memref.store %[[P]]#1, %[[PI]][%[[C]]]
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[CHUNKS]] {{.*}} -> (f32, i64)
// CHECK:         memref.load %[[PV]]
// CHECK:         memref.load %[[PI]]
// CHECK:       memref.store %{{.*}}, %{{.*}}[] : memref<i64>
func.func @argmax_all(%a: memref<?x?xf32>, %v: memref<f32>, %i: memref<i64>) {
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id, #none, #none], iterator_types = ["reduction", "reduction"]}
      ins(%a : memref<?x?xf32>) outs(%v, %i : memref<f32>, memref<i64>) {
  ^bb0(%x: f32, %ov: f32, %oi: i64):
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %rn = arith.muli %r, %n : index
    %p = arith.addi %rn, %c : index
    %pi = arith.index_cast %p : index to i64
    %gt = arith.cmpf ogt, %x, %ov : f32
    %eq = arith.cmpf oeq, %x, %ov : f32
    %lt = arith.cmpi slt, %pi, %oi : i64
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %nv = arith.select %take, %x, %ov {ptensor.combiner = "argmaxf"} : f32
    %ni = arith.select %take, %pi, %oi : i64
    linalg.yield %nv, %ni : f32, i64
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// An input whose innermost stride is not known to be 1: two versions,
// chosen at run time; the unit-stride one reads a reinterpret_cast with a
// static innermost stride of 1 (consecutive loads vectorize; a memref.cast
// would be folded away by the loads). A float max folds a maxnumf that
// may ignore NaN and the sign of zero (LLVM vectorizes it as one max
// instruction) beside whether a NaN was seen; a NaN seen gives NaN.
// CHECK-LABEL: func.func @max_strided(
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[A:[[:alnum:]_]+]] :
// CHECK:         %[[UNIT:.*]] = arith.cmpi eq, %[[ST]]#1, %c1
// CHECK:         scf.if %[[UNIT]] {
// CHECK:           %[[V:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[SZ]]#0, %[[SZ]]#1], strides: [%[[ST]]#0, 1] : memref<f32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK:           scf.parallel
// CHECK:             %[[M:.*]]:2 = scf.for {{.*}} -> (f32, i1) {
// CHECK:               memref.load %[[V]]
// CHECK:               %[[E:.*]] = arith.maximumf
// CHECK:               arith.maxnumf %{{.*}}, %[[E]] fastmath<nnan,nsz> : f32
// CHECK:               %[[NAN:.*]] = arith.cmpf uno, %[[E]], %[[E]] : f32
// CHECK:               arith.ori %{{.*}}, %[[NAN]] : i1
// CHECK:             arith.select %[[M]]#1, %cst{{.*}}, %[[M]]#0 : f32
// CHECK:         } else {
// CHECK:           scf.parallel
// CHECK:             memref.load %[[A]]
// CHECK:             arith.maximumf
func.func @max_strided(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %o, %x {ptensor.combiner = "maxf"} : f32
    linalg.yield %m : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>

// The innermost loop kept: the accumulators are walked innermost (LLVM
// vectorizes across them), in an scf.parallel over blocks of 1024 columns
// and chunks of the rows (enough for 64 tasks, at least 64 rows each: from
// the sizes alone); the rows 4 at a time (their elements merged in a tree,
// then into the accumulator: one load and store per 4 rows), the remaining
// rows one by one. Chunk 0 folds into the outputs, chunk c > 0 into row
// c - 1 of a partials buffer, from the identity; the partials are merged
// into the outputs in chunk order afterwards, on threads over the blocks.
// In a unit-stride and a strided version.
// CHECK-LABEL: func.func @sum_cols(
// CHECK-SAME:    %{{.*}}: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[OUT:.*]]: memref<?xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         scf.if %{{.*}} {
// CHECK:           %[[V:.*]] = memref.reinterpret_cast {{.*}} to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK:           %[[ROWS:.*]] = memref.dim %[[V]], %{{.*}}
// CHECK:           %[[COLS:.*]] = memref.dim %[[V]], %{{.*}}
// CHECK-DAG:       %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:       %[[BLOCK:.*]] = arith.constant 1024 : index
// CHECK:           %[[BLOCKS:.*]] = arith.ceildivsi %[[COLS]], %[[BLOCK]]
// CHECK:           %[[TASKS:.*]] = arith.maxsi %[[BLOCKS]], %{{.*}}
// CHECK:           %[[WANTED:.*]] = arith.ceildivsi %{{.*}}, %[[TASKS]]
// CHECK:           %[[BY_ROWS:.*]] = arith.ceildivsi %[[ROWS]], %{{.*}}
// CHECK:           %[[FEW:.*]] = arith.minsi %[[WANTED]], %[[BY_ROWS]]
// CHECK:           %[[CHUNKS:.*]] = arith.maxsi %[[FEW]], %{{.*}}
// CHECK:           %[[CHUNK_ROWS:.*]] = arith.ceildivsi %[[ROWS]], %[[CHUNKS]]
// CHECK:           %[[MORE:.*]] = arith.subi %[[CHUNKS]], %{{.*}}
// CHECK:           %[[PARTIALS:.*]] = memref.alloc(%[[MORE]], %[[COLS]]) : memref<?x?xf32>
// CHECK:           scf.parallel (%[[B:.*]], %[[C:.*]]) = (%{{.*}}, %{{.*}}) to (%[[BLOCKS]], %[[CHUNKS]])
// CHECK:             %[[FIRST:.*]] = arith.muli %[[B]], %[[BLOCK]]
// CHECK:             %[[END:.*]] = arith.addi %[[FIRST]], %[[BLOCK]]
// CHECK:             %[[LAST:.*]] = arith.minsi %[[END]], %[[COLS]]
// CHECK:             %[[LO:.*]] = arith.muli %[[C]], %[[CHUNK_ROWS]]
// CHECK:             %[[HI_END:.*]] = arith.addi %[[LO]], %[[CHUNK_ROWS]]
// CHECK:             %[[HI:.*]] = arith.minsi %[[HI_END]], %[[ROWS]]
// CHECK:             %[[IS_FIRST:.*]] = arith.cmpi eq, %[[C]], %{{.*}}
// CHECK:             scf.if %[[IS_FIRST]] {
// CHECK:               %[[FOUR:.*]] = arith.constant 4 : index
// CHECK:               %[[EXTENT:.*]] = arith.subi %[[HI]], %[[LO]]
// CHECK:               %[[REST:.*]] = arith.remsi %[[EXTENT]], %[[FOUR]]
// CHECK:               %[[BULK:.*]] = arith.subi %[[HI]], %[[REST]]
// CHECK:               scf.for %[[R:.*]] = %[[LO]] to %[[BULK]] step %[[FOUR]] {
// CHECK:                 scf.for %[[K:.*]] = %[[FIRST]] to %[[LAST]] step
// CHECK:                   %[[OLD:.*]] = memref.load %[[OUT]][%[[K]]] : memref<?xf32>
// CHECK-COUNT-4:           memref.load %[[V]][%{{.*}}, %[[K]]]
// CHECK:                   %[[P0:.*]] = arith.addf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK:                   %[[P1:.*]] = arith.addf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK:                   %[[P:.*]] = arith.addf %[[P0]], %[[P1]] : f32
// CHECK:                   %[[NEW:.*]] = arith.addf %[[OLD]], %[[P]] : f32
// CHECK:                   memref.store %[[NEW]], %[[OUT]][%[[K]]] : memref<?xf32>
// CHECK:               scf.for %{{.*}} = %[[BULK]] to %[[HI]] step
// CHECK:                 scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step
// CHECK:                   memref.load %[[OUT]]
// CHECK:                   memref.load %[[V]]
// CHECK:                   arith.addf
// CHECK:                   memref.store %{{.*}}, %[[OUT]]
// CHECK:             } else {
// CHECK:               %[[ROW:.*]] = arith.subi %[[C]], %[[ONE]]
// CHECK:               %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK:               scf.for %[[K0:.*]] = %[[FIRST]] to %[[LAST]] step
// CHECK:                 memref.store %[[ZERO]], %[[PARTIALS]][%[[ROW]], %[[K0]]]
// CHECK:               scf.for %{{.*}} = %[[LO]] to %{{.*}} step %{{.*}} {
// CHECK:                 scf.for %[[K1:.*]] = %[[FIRST]] to %[[LAST]] step
// CHECK:                   memref.load %[[PARTIALS]][%[[ROW]], %[[K1]]]
// CHECK-COUNT-4:           memref.load %[[V]][%{{.*}}, %[[K1]]]
// CHECK:                   memref.store %{{.*}}, %[[PARTIALS]][%[[ROW]], %[[K1]]]
// CHECK:           scf.parallel (%[[MB:.*]]) = (%{{.*}}) to (%[[BLOCKS]])
// CHECK:             scf.for %[[MC:.*]] = %[[ONE]] to %[[CHUNKS]] step %[[ONE]] {
// CHECK:               %[[MROW:.*]] = arith.subi %[[MC]], %[[ONE]]
// CHECK:               scf.for %[[MK:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 %[[O:.*]] = memref.load %[[OUT]][%[[MK]]]
// CHECK:                 %[[Q:.*]] = memref.load %[[PARTIALS]][%[[MROW]], %[[MK]]]
// CHECK:                 %[[S:.*]] = arith.addf %[[O]], %[[Q]] : f32
// CHECK:                 memref.store %[[S]], %[[OUT]][%[[MK]]]
// CHECK:           memref.dealloc %[[PARTIALS]] : memref<?x?xf32>
// CHECK:         } else {
// CHECK:           scf.parallel
// CHECK:               memref.load %{{.*}} : memref<?x?xf32, strided<[?, ?], offset: ?>>
func.func @sum_cols(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// Functions on GPUs are left for convert-ptensor-linalg-to-gpu.
// CHECK-LABEL: func.func @on_gpu(
// CHECK:         linalg.generic
func.func @on_gpu(%a: memref<?x?xf32>, %out: memref<?xf32>) attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#none = affine_map<(d0, d1) -> ()>

// A kept loop its output does not index (kept iterations share the output
// element): serial loops, no scf.parallel.
// CHECK-LABEL: func.func @kept_loop_not_in_output(
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             arith.addf
// CHECK-NOT:     scf.parallel
func.func @kept_loop_not_in_output(%a: memref<?x?xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #none], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<?x?xf32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#none = affine_map<(d0, d1) -> ()>

// The same with the reduced loop innermost: serial loops too.
// CHECK-LABEL: func.func @kept_outer_loop_not_in_output(
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             arith.addf
// CHECK-NOT:     scf.parallel
func.func @kept_outer_loop_not_in_output(%a: memref<?x?xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #none], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x?xf32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#line = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// argmax's second pass (a min of positions marked ptensor.first_match) over
// the loop of the max before it: the max keeps its chunk partials and its
// plan (loop size, chunk size); the search takes the first chunk whose
// partial is the max (or NaN), folds only that chunk, and runs the whole
// search instead when the plans differ or the chunk has no match.
// CHECK-LABEL: func.func @argmax_first_match(
// CHECK:         memref.alloca() : memref<64xi64>
// CHECK:         memref.alloca() : memref<2xindex>
// CHECK:         %[[MAXES:.*]] = memref.alloca() : memref<64xf32>
// CHECK:         %[[PLAN:.*]] = memref.alloca() : memref<2xindex>
// CHECK:         memref.store %{{.*}}, %[[PLAN]][%{{.*}}] : memref<2xindex>
// CHECK:         memref.store %{{.*}}, %[[PLAN]][%{{.*}}] : memref<2xindex>
// CHECK:         scf.parallel
// CHECK:           arith.maximumf
// CHECK:           memref.store %{{.*}}, %[[MAXES]]
// CHECK:         memref.store %{{.*}}, %[[BEST:.*]][] : memref<f32>
// CHECK:         arith.minsi
// CHECK:         %[[CHUNKS:.*]] = arith.maxsi
// CHECK:         %[[SIZE:.*]] = arith.ceildivsi
// CHECK:         %[[MAX:.*]] = memref.load %[[BEST]][] : memref<f32>
// CHECK:         %[[FIRST:.*]] = scf.for %[[C:.*]] = %{{.*}} to %[[CHUNKS]] {{.*}} iter_args(%[[F:.*]] = %[[CHUNKS]]) -> (index)
// CHECK:           %[[P:.*]] = memref.load %[[MAXES]][%[[C]]]
// CHECK:           %[[EQ:.*]] = arith.cmpf oeq, %[[P]], %[[MAX]]
// CHECK:           %[[NAN:.*]] = arith.cmpf uno, %[[P]], %[[P]]
// CHECK:           %[[HIT:.*]] = arith.ori %[[EQ]], %[[NAN]]
// CHECK:           %[[UNSET:.*]] = arith.cmpi eq, %[[F]], %[[CHUNKS]]
// CHECK:           %[[TAKE:.*]] = arith.andi %[[HIT]], %[[UNSET]]
// CHECK:           arith.select %[[TAKE]], %[[C]], %[[F]]
// CHECK:         %[[N0:.*]] = memref.load %[[PLAN]]
// CHECK:         %[[S0:.*]] = memref.load %[[PLAN]]
// CHECK:         arith.cmpi eq, %[[N0]]
// CHECK:         arith.cmpi eq, %[[S0]], %[[SIZE]]
// CHECK:         %[[FOUND:.*]] = arith.cmpi slt, %[[FIRST]], %[[CHUNKS]]
// CHECK:         %[[USABLE:.*]] = arith.andi %{{.*}}, %[[FOUND]]
// CHECK:         %[[POS:.*]] = scf.if %[[USABLE]] -> (i64) {
// CHECK:           %[[LO:.*]] = arith.muli %[[FIRST]], %[[SIZE]]
// CHECK:           scf.for %{{.*}} = %[[LO]] to
// CHECK:             arith.minsi {{.*}} ptensor.first_match
// CHECK:         } else {
// CHECK:         %[[MISSED:.*]] = arith.cmpi eq, %[[POS]], %c9223372036854775807_i64
// CHECK:         scf.if %[[MISSED]] {
// CHECK:           scf.parallel
// CHECK:         } else {
// CHECK:           %[[OLD:.*]] = memref.load %[[OUT:.*]][] : memref<i64>
// CHECK:           %[[NEW:.*]] = arith.minsi %[[OLD]], %[[POS]]
// CHECK:           memref.store %[[NEW]], %[[OUT]][] : memref<i64>
func.func @argmax_first_match(%a: memref<?xf32>, %best: memref<f32>, %first: memref<i64>) {
  linalg.generic {indexing_maps = [#line, #scalar], iterator_types = ["reduction"]}
      ins(%a : memref<?xf32>) outs(%best : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %o, %x {ptensor.combiner = "maxf"} : f32
    linalg.yield %m : f32
  }
  %none = arith.constant 9223372036854775807 : i64
  linalg.generic {indexing_maps = [#line, #scalar, #scalar], iterator_types = ["reduction"]}
      ins(%a, %best : memref<?xf32>, memref<f32>) outs(%first : memref<i64>) {
  ^bb0(%x: f32, %m: f32, %o: i64):
    %eq = arith.cmpf oeq, %x, %m {ptensor.first_match_extremum} : f32
    %mnan = arith.cmpf uno, %m, %m : f32
    %xnan = arith.cmpf uno, %x, %x : f32
    %match = arith.select %mnan, %xnan, %eq : i1
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    %s = arith.select %match, %p, %none : i64
    %f = arith.minsi %o, %s {ptensor.combiner = "minsi", ptensor.first_match} : i64
    linalg.yield %f : i64
  }
  return
}

// -----

#line = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// A search with fusion's extra 0-d input (argmax(x - min(x))): the min was
// also folded in chunks, but the extremum searched for is the input the
// marked compare reads (%best), whose partials the search takes.
// CHECK-LABEL: func.func @first_match_of_the_compared_input(
// CHECK:         %[[MAXES:.*]] = memref.alloca() : memref<64xf32>
// CHECK:         memref.alloca() : memref<2xindex>
// CHECK:         %[[MINS:.*]] = memref.alloca() : memref<64xf32>
// CHECK:         scf.for %{{.*}} -> (index)
// CHECK-NOT:       memref.load %[[MINS]]
// CHECK:           memref.load %[[MAXES]]
// CHECK-NOT:       memref.load %[[MINS]]
// CHECK:         scf.if
func.func @first_match_of_the_compared_input(%a: memref<?xf32>, %low: memref<f32>, %best: memref<f32>, %first: memref<i64>) {
  linalg.generic {indexing_maps = [#line, #scalar], iterator_types = ["reduction"]}
      ins(%a : memref<?xf32>) outs(%low : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.minimumf %o, %x {ptensor.combiner = "minf"} : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#line, #scalar, #scalar], iterator_types = ["reduction"]}
      ins(%a, %low : memref<?xf32>, memref<f32>) outs(%best : memref<f32>) {
  ^bb0(%x: f32, %l: f32, %o: f32):
    %d = arith.subf %x, %l : f32
    %m = arith.maximumf %o, %d {ptensor.combiner = "maxf"} : f32
    linalg.yield %m : f32
  }
  %none = arith.constant 9223372036854775807 : i64
  linalg.generic {indexing_maps = [#line, #scalar, #scalar, #scalar], iterator_types = ["reduction"]}
      ins(%a, %low, %best : memref<?xf32>, memref<f32>, memref<f32>) outs(%first : memref<i64>) {
  ^bb0(%x: f32, %l: f32, %m: f32, %o: i64):
    %d = arith.subf %x, %l : f32
    %eq = arith.cmpf oeq, %d, %m {ptensor.first_match_extremum} : f32
    %mnan = arith.cmpf uno, %m, %m : f32
    %dnan = arith.cmpf uno, %d, %d : f32
    %match = arith.select %mnan, %dnan, %eq : i1
    %i = linalg.index 0 : index
    %p = arith.index_cast %i : index to i64
    %s = arith.select %match, %p, %none : i64
    %f = arith.minsi %o, %s {ptensor.combiner = "minsi", ptensor.first_match} : i64
    linalg.yield %f : i64
  }
  return
}
