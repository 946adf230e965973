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
