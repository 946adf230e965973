// RUN: ptensor-opt %s --convert-ptensor-to-linalg --canonicalize | FileCheck %s
// The team steps: a block is a slice at the rank's offset, collectives are
// calls of libptensor_team on byte buffers; the grid is dropped.

// CHECK-NOT: shard.grid
shard.grid @ptensor_team1(shape = 4) {sym_visibility = "private"}

// CHECK-LABEL: func.func @all_reduce(
// CHECK: %[[BYTES:.*]] = memref.alloc() : memref<12xi8>
// CHECK: %[[CAST:.*]] = memref.cast %[[BYTES]] : memref<12xi8> to memref<?xi8>
// CHECK: %[[VIEW:.*]] = memref.view %[[BYTES]][%{{.*}}][] : memref<12xi8> to memref<3xf32>
// CHECK: memref.copy %{{.*}}, %[[VIEW]]
// 3 elements, type code 8 (f32), op code 0 (sum):
// CHECK: call @ptensor_rt_team_allreduce(%[[CAST]], %c3_i64, %c8_i64, %c0_i64) : (memref<?xi8>, i64, i64, i64) -> ()
// CHECK: bufferization.to_tensor %[[VIEW]] restrict writable
func.func @all_reduce(%a: !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<3xf32> {
  %0 = ptensor.team_all_reduce sum %a on @ptensor_team1 : !ptensor.ptensor<3xf32>
  return %0 : !ptensor.ptensor<3xf32>
}

// CHECK-LABEL: func.func @gather(
// CHECK: call @ptensor_rt_team_allgather(%{{.*}}, %{{.*}}) : (memref<?xi8>, memref<?xi8>) -> ()
func.func @gather(%a: !ptensor.ptensor<?x3xi64>, %n: index) -> !ptensor.ptensor<?x3xi64> {
  %0 = ptensor.team_gather %a, %n on @ptensor_team1 : !ptensor.ptensor<?x3xi64> -> !ptensor.ptensor<?x3xi64>
  return %0 : !ptensor.ptensor<?x3xi64>
}

// A slice of the split dim: a buffer for this process's rows of the slice
// (the block rule of the size clamped to [0, source rows]: the runtime
// checks the bounds); the rows of the slice this block holds (the
// runtime's rule: its first one and how many) are a strided view of the
// block (row stride times the step, -2), packed by one copy; they go to
// the runtime's MPI_Alltoallv with rows of 6 bytes, the slice's global
// sizes and its place in the result (all of it: rows %m clamped to %n, at
// 0).
// CHECK-LABEL: func.func @slice_rows(
// CHECK-SAME: %[[A:.*]]: tensor<?x3xi16>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[LOW:.*]] = arith.maxsi %[[M]], %c0 : index
// CHECK: %[[CLAMPED:.*]] = arith.minsi %[[LOW]], %[[N]] : index
// CHECK: %[[C:.*]] = arith.index_cast %[[CLAMPED]] : index to i64
// CHECK: %[[R:.*]] = call @ptensor_rt_team_block_rows(%[[C]]) : (i64) -> i64
// CHECK: %[[ROWS:.*]] = arith.index_cast %[[R]] : i64 to index
// CHECK: %[[MINE:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: %[[OUT:.*]] = memref.view %[[MINE]][%c0][%[[ROWS]]] : memref<?xi8> to memref<?x3xi16>
// CHECK: %[[ROW:.*]] = call @ptensor_rt_team_slice_held_row(
// CHECK: %[[HELD:.*]] = call @ptensor_rt_team_slice_held_rows(
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[STRIDE:.*]] = arith.muli %[[STRIDES]]#0, %c-2 : index
// CHECK: %[[PACKED:.*]] = ptensor.strided_view %[[A]] to offset: %{{.*}}, sizes: [%{{.*}}], strides: [%[[STRIDE]], %[[STRIDES]]#1]
// CHECK: %[[LOCAL:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: %[[IN:.*]] = memref.view %[[LOCAL]]
// CHECK: %[[FROM:.*]] = bufferization.to_buffer %[[PACKED]] read_only
// CHECK: memref.copy %[[FROM]], %[[IN]]
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[M64:.*]] = arith.index_cast %[[M]] : index to i64
// CHECK: %[[TOTAL64:.*]] = arith.index_cast %[[CLAMPED]] : index to i64
// CHECK: call @ptensor_rt_team_slice_rows(%[[LOCAL]], %[[MINE]], %c6_i64, %[[N64]], %c1_i64, %c-2_i64, %[[M64]], %[[TOTAL64]], %c0_i64) : (memref<?xi8>, memref<?xi8>, i64, i64, i64, i64, i64, i64, i64) -> ()
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
func.func @slice_rows(%a: !ptensor.ptensor<?x3xi16>, %n: index, %m: index) -> !ptensor.ptensor<?x3xi16> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant -2 : index
  %0 = ptensor.team_slice_rows %a, %n [%c1, %m, %c2] on @ptensor_team1 : !ptensor.ptensor<?x3xi16> -> !ptensor.ptensor<?x3xi16>
  return %0 : !ptensor.ptensor<?x3xi16>
}

// Two slices (a concat along the rows): one buffer of this process's rows
// of the %n + %m rows (clamped to the sources' rows, the same sum here:
// every call places its rows in that many); the run-time dim 1 of the
// blocks must agree (the
// concat's error, with the global shapes [%n, d] and [%m, d']); each block
// goes to the runtime with its own sizes, %a's rows at row 0 and %b's at
// row %n.
// CHECK-LABEL: func.func @slices_joined(
// CHECK-SAME: %[[A:.*]]: tensor<?x?xf32>, %[[B:.*]]: tensor<?x?xf32>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[SUM:.*]] = arith.addi %[[N]], %[[M]] : index
// CHECK: %[[LOW:.*]] = arith.maxsi %[[SUM]], %c0 : index
// CHECK: %[[TOTAL:.*]] = arith.minsi %[[LOW]], %{{.*}} : index
// CHECK: %[[DA:.*]] = tensor.dim %[[A]], %c1
// CHECK: %[[DB:.*]] = tensor.dim %[[B]], %c1
// CHECK: %[[DIFFER:.*]] = arith.cmpi ne, %[[DA]], %[[DB]] : index
// CHECK: scf.if %[[DIFFER]] {
// CHECK: func.call @ptensor_rt_shapes_failed(%{{.*}}, %{{.*}}, %c1_i64, %c1_i64, %c1_i64)
// CHECK: %[[MINE:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: %[[TOTAL64:.*]] = arith.index_cast %[[TOTAL]] : index to i64
// CHECK: call @ptensor_rt_team_slice_rows(%{{.*}}, %[[MINE]], %{{.*}}, %{{.*}}, %c0_i64, %c1_i64, %{{.*}}, %[[TOTAL64]], %c0_i64)
// CHECK: %[[AT:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: call @ptensor_rt_team_slice_rows(%{{.*}}, %[[MINE]], %{{.*}}, %{{.*}}, %c0_i64, %c1_i64, %{{.*}}, %{{.*}}, %[[AT]])
func.func @slices_joined(%a: !ptensor.ptensor<?x?xf32>, %b: !ptensor.ptensor<?x?xf32>, %n: index, %m: index) -> !ptensor.ptensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = ptensor.team_slice_rows %a, %n [%c0, %n, %c1], %b, %m [%c0, %m, %c1] on @ptensor_team1 : !ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?x?xf32>
  return %0 : !ptensor.ptensor<?x?xf32>
}

// team_resplit: the part (3 x this process's share of a split axis of %n
// elements x 2 x f32), copied row-major, and this process's rows of the result
// with all 10 elements of the split axis go to the runtime's MPI_Alltoallw
// as [3 rows][mid 1][split 10][inner 2 x 4 bytes].
// CHECK-LABEL: func.func @resplit(
// CHECK-SAME: %[[P:.*]]: tensor<3x?x2xf32>, %[[N:.*]]: index)
// CHECK: %[[LOCAL:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: %[[IN:.*]] = memref.view %[[LOCAL]]
// CHECK: memref.copy %{{.*}}, %[[IN]]
// CHECK: %[[R:.*]] = call @ptensor_rt_team_block_rows(%c3_i64) : (i64) -> i64
// CHECK: %[[ROWS:.*]] = arith.index_cast %[[R]] : i64 to index
// CHECK: %[[MINE:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: %[[OUT:.*]] = memref.view %[[MINE]][%c0][%[[ROWS]], %[[N]]] : memref<?xi8> to memref<?x?x2xf32>
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: call @ptensor_rt_team_resplit(%[[LOCAL]], %[[MINE]], %c3_i64, %c1_i64, %[[N64]], %c8_i64) : (memref<?xi8>, memref<?xi8>, i64, i64, i64, i64) -> ()
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
func.func @resplit(%p: !ptensor.ptensor<3x?x2xf32>, %n: index) -> !ptensor.ptensor<?x?x2xf32> {
  %0 = ptensor.team_resplit %p, %n from 1 on @ptensor_team1 : !ptensor.ptensor<3x?x2xf32> -> !ptensor.ptensor<?x?x2xf32>
  return %0 : !ptensor.ptensor<?x?x2xf32>
}

// team_reblock: the block (rows of 3 x 4 i16), copied row-major; this
// process's rows of the new ones (rows clamped to [0, the element count],
// and their elements too, for the allocation: the runtime checks the
// counts) times their elements, flat; the runtime's MPI_Alltoallv gets both shapes' rows and row lengths.
// CHECK-LABEL: func.func @reblock(
// CHECK-SAME: %[[B:.*]]: tensor<?x3x4xi16>, %[[N:.*]]: index, %[[R:.*]]: index, %[[E:.*]]: index)
// CHECK: %[[LOCAL:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: memref.copy
// CHECK: %[[T:.*]] = arith.muli %[[N]], %c12 : index
// CHECK: %[[LOW:.*]] = arith.maxsi %[[R]], %c0 : index
// CHECK: %[[CLAMPED:.*]] = arith.minsi %[[LOW]], %[[T]] : index
// CHECK: %[[C:.*]] = arith.index_cast %[[CLAMPED]] : index to i64
// CHECK: %[[MR:.*]] = call @ptensor_rt_team_block_rows(%[[C]]) : (i64) -> i64
// CHECK: %[[MY:.*]] = arith.index_cast %[[MR]] : i64 to index
// CHECK: %[[P:.*]] = arith.muli %[[MY]], %[[E]] : index
// CHECK: %[[P0:.*]] = arith.maxsi %[[P]], %c0 : index
// CHECK: %[[COUNT:.*]] = arith.minsi %[[P0]], %[[T]] : index
// CHECK: %[[MINE:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: %[[OUT:.*]] = memref.view %[[MINE]][%c0][%[[COUNT]]] : memref<?xi8> to memref<?xi16>
// CHECK: call @ptensor_rt_team_reblock(%[[LOCAL]], %[[MINE]], %{{.*}}, %c12_i64, %{{.*}}, %{{.*}}, %c2_i64, %c-1_i64) : (memref<?xi8>, memref<?xi8>, i64, i64, i64, i64, i64, i64) -> ()
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
func.func @reblock(%b: !ptensor.ptensor<?x3x4xi16>, %n: index, %r: index, %e: index) -> !ptensor.ptensor<?xi16> {
  %0 = ptensor.team_reblock %b, %n rows %r x %e on @ptensor_team1 : !ptensor.ptensor<?x3x4xi16> -> !ptensor.ptensor<?xi16>
  return %0 : !ptensor.ptensor<?xi16>
}

// An uneven part tells the runtime its rows (the block rule's: -1 above).
// CHECK-LABEL: func.func @rebalance(
// CHECK-SAME: %[[B:.*]]: tensor<?x3xf64>
// CHECK: tensor.dim %[[B]], %c0 : tensor<?x3xf64>
// CHECK: %[[ROWS:.*]] = tensor.dim %[[B]], %c0 : tensor<?x3xf64>
// CHECK: %[[R64:.*]] = arith.index_cast %[[ROWS]] : index to i64
// CHECK: call @ptensor_rt_team_reblock(%{{.*}}, %{{.*}}, %{{.*}}, %c3_i64, %{{.*}}, %c3_i64, %c8_i64, %[[R64]])
func.func @rebalance(%b: !ptensor.ptensor<?x3xf64>, %n: index) -> !ptensor.ptensor<?xf64> {
  %c3 = arith.constant 3 : index
  %0 = ptensor.team_reblock %b, %n uneven rows %n x %c3 on @ptensor_team1 : !ptensor.ptensor<?x3xf64> -> !ptensor.ptensor<?xf64>
  return %0 : !ptensor.ptensor<?xf64>
}

// team_exchange: the part and the run ends copied row-major; the runtime
// sizes what arrives (rows of 3 x 2 bytes), the result is allocated for it
// and the runs move; the runtime writes where the received runs end (one
// i64 per process).
// CHECK-LABEL: func.func @exchange(
// CHECK-SAME: %[[P:.*]]: tensor<?x3xi16>
// CHECK: tensor.dim %{{.*}}, %c0 : tensor<?xi64>
// CHECK: %[[ENDS:.*]] = memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: %[[ROWS:.*]] = tensor.dim %[[P]], %c0 : tensor<?x3xi16>
// CHECK: %[[R64:.*]] = arith.index_cast %[[ROWS]] : index to i64
// CHECK: %[[GOT:.*]] = call @ptensor_rt_team_exchange_rows(%[[ENDS]], %[[R64]], %c6_i64) : (memref<?xi8>, i64, i64) -> i64
// CHECK: %[[N:.*]] = arith.index_cast %[[GOT]] : i64 to index
// CHECK: %[[BYTES:.*]] = arith.muli %[[N]], %c6 : index
// CHECK: %[[MINE:.*]] = memref.alloc(%[[BYTES]]) : memref<?xi8>
// CHECK: %[[RUNBYTES:.*]] = memref.alloc() : memref<32xi8>
// CHECK: %[[RUNCAST:.*]] = memref.cast %[[RUNBYTES]] : memref<32xi8> to memref<?xi8>
// CHECK: %[[RUNENDS:.*]] = memref.view %[[RUNBYTES]][%c0][] : memref<32xi8> to memref<4xi64>
// CHECK: call @ptensor_rt_team_exchange(%{{.*}}, %[[MINE]], %[[ENDS]], %[[RUNCAST]], %{{.*}}, %c6_i64, %[[GOT]]) : (memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, i64, i64, i64) -> ()
// CHECK: %[[RUNT:.*]] = bufferization.to_tensor %[[RUNENDS]]
// CHECK: return %{{.*}}, %[[RUNT]] : tensor<?x3xi16>, tensor<4xi64>
func.func @exchange(%p: !ptensor.ptensor<?x3xi16>, %e: !ptensor.ptensor<?xi64>) -> (!ptensor.ptensor<?x3xi16>, !ptensor.ptensor<4xi64>) {
  %0, %runs = ptensor.team_exchange %p at %e on @ptensor_team1 : !ptensor.ptensor<?x3xi16>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?x3xi16>, !ptensor.ptensor<4xi64>
  return %0, %runs : !ptensor.ptensor<?x3xi16>, !ptensor.ptensor<4xi64>
}

// The block: the runtime applies the one rule (ptensor::semantics::teamBlock).
// CHECK-LABEL: func.func @block(
// CHECK: %[[START:.*]] = call @ptensor_rt_team_block_start(%c10_i64) : (i64) -> i64
// CHECK: %[[OFF:.*]] = arith.index_cast %[[START]] : i64 to index
// CHECK: %[[N:.*]] = call @ptensor_rt_team_block_rows(%c10_i64) : (i64) -> i64
// CHECK: %[[ROWS:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: tensor.extract_slice %{{.*}}[%[[OFF]], 0] [%[[ROWS]], 3] [1, 1] : tensor<10x3xf32> to tensor<?x3xf32>
// CHECK-NOT: ptensor.team_block
func.func @block(%a: !ptensor.ptensor<10x3xf32>) -> !ptensor.ptensor<?x3xf32> {
  %0 = ptensor.team_block %a on @ptensor_team1 : !ptensor.ptensor<10x3xf32> -> !ptensor.ptensor<?x3xf32>
  return %0 : !ptensor.ptensor<?x3xf32>
}

// A block of a tensor made by a linalg op used by nothing else: only the
// block is computed (the producer tiled to the slice), each element by the
// whole tensor's formula (here the index plus the block's first row).
// CHECK-LABEL: func.func @arange_block(
// CHECK: %[[START:.*]] = call @ptensor_rt_team_block_start
// CHECK: %[[FIRST:.*]] = arith.index_cast %[[START]] : i64 to index
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?xi64>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: affine.apply #{{.*}}()[%[[I]], %[[FIRST]]]
// CHECK-NOT: ptensor.team_block
func.func @arange_block() -> !ptensor.ptensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %r = ptensor.arange %c0, %c10, %c1 : index -> !ptensor.ptensor<10xi64>
  %0 = ptensor.team_block %r on @ptensor_team1 : !ptensor.ptensor<10xi64> -> !ptensor.ptensor<?xi64>
  return %0 : !ptensor.ptensor<?xi64>
}

// CHECK-LABEL: func.func @sum(
// CHECK: %[[V:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: call @ptensor_rt_team_sum(%[[V]]) : (i64) -> i64
func.func @sum(%n: index) -> index {
  %0 = ptensor.team_sum %n on @ptensor_team1
  return %0 : index
}
