// RUN: ptensor-opt %s --ptensor-broadcast --canonicalize --ptensor-partition-teams=team-size=2 --canonicalize | ptensor-opt | FileCheck %s
// GPU team tensors: each process's block stays on its GPU, and so do all
// the collectives (the team runtime moves device memory: NCCL, or host
// buffers).

!g = !ptensor.ptensor<?x3xf32, device = "cuda", team = 1>

// CHECK-LABEL: func.func @sum_rows(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?x3xf32, device = "cuda">) -> !ptensor.ptensor<?xf32, device = "cuda">
// CHECK: %[[P:.*]] = ptensor.reduce sum %[[A]] axes [0] {dtype = f64, ptensor.team_partial} : !ptensor.ptensor<?x3xf32, device = "cuda"> -> !ptensor.ptensor<3xf64, device = "cuda">
// CHECK-NEXT: %[[T:.*]] = ptensor.team_all_reduce sum %[[P]] on @ptensor_team1 : !ptensor.ptensor<3xf64, device = "cuda">
// CHECK-NEXT: %[[S:.*]] = ptensor.cast %[[T]] : !ptensor.ptensor<3xf64, device = "cuda"> -> !ptensor.ptensor<3xf32, device = "cuda">
// CHECK-NEXT: ptensor.team_block %[[S]] on @ptensor_team1 : !ptensor.ptensor<3xf32, device = "cuda"> -> !ptensor.ptensor<?xf32, device = "cuda">
func.func @sum_rows(%a: !g) -> !ptensor.ptensor<3xf32, device = "cuda", team = 1> {
  %0 = ptensor.reduce sum %a axes [0] : !g -> !ptensor.ptensor<3xf32, device = "cuda", team = 1>
  return %0 : !ptensor.ptensor<3xf32, device = "cuda", team = 1>
}

// A vector against the rows: gathered on the GPU, then broadcast there.
// CHECK-LABEL: func.func @row(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?x3xf32, device = "cuda">, %[[V:.*]]: !ptensor.ptensor<?xf32, device = "cuda">)
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[W:.*]] = ptensor.team_gather %[[V]], %[[C3]] on @ptensor_team1 : !ptensor.ptensor<?xf32, device = "cuda"> -> !ptensor.ptensor<3xf32, device = "cuda">
// CHECK-NEXT: ptensor.broadcast %[[W]]
// CHECK-SAME: -> !ptensor.ptensor<?x3xf32, device = "cuda">
// CHECK-NOT: ptensor.copy
// CHECK: return
func.func @row(%a: !g, %v: !ptensor.ptensor<3xf32, device = "cuda", team = 1>) -> !g {
  %0 = ptensor.elementwise_binary subtract %a, %v : (!g, !ptensor.ptensor<3xf32, device = "cuda", team = 1>) -> !g
  return %0 : !g
}

// Every other row from row 2: the rows move between GPU blocks (the team
// runtime's device entry), no copy to the host.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?x3xf32, device = "cuda">) -> !ptensor.ptensor<?x3xf32, device = "cuda">
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[N:.*]] = ptensor.team_sum
// CHECK-NEXT: %[[M:.*]] = ptensor.team_slice_rows %[[A]], %[[N]] [%[[C2]], %[[C4]], %[[C2]]] on @ptensor_team1 : !ptensor.ptensor<?x3xf32, device = "cuda"> -> !ptensor.ptensor<?x3xf32, device = "cuda">
// CHECK-NEXT: return %[[M]]
func.func @rows(%a: !g) -> !ptensor.ptensor<4x3xf32, device = "cuda", team = 1> {
  %0 = ptensor.extract_slice %a[2, 0] [4, 3] [2, 1] : !g -> !ptensor.ptensor<4x3xf32, device = "cuda", team = 1>
  return %0 : !ptensor.ptensor<4x3xf32, device = "cuda", team = 1>
}

// A transpose across the split dim: the permuted block is resplit on the
// GPU (NCCL sends the rows, a strided device copy places the columns),
// without a copy to the host.
// CHECK-LABEL: func.func @transposed(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?x?xf32, device = "cuda">) -> !ptensor.ptensor<?x3xf32, device = "cuda">
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[P:.*]] = ptensor.permute_dims %[[A]] [1, 0]
// CHECK-NEXT: %[[M:.*]] = ptensor.team_resplit %[[P]], %[[C3]] from 1 on @ptensor_team1 : !ptensor.ptensor<?x?xf32, device = "cuda"> -> !ptensor.ptensor<?x3xf32, device = "cuda">
// CHECK-NEXT: return %[[M]]
// CHECK-NOT: ptensor.copy
// CHECK-NOT: func.func private
func.func @transposed(%a: !ptensor.ptensor<3x?xf32, device = "cuda", team = 1>) -> !ptensor.ptensor<?x3xf32, device = "cuda", team = 1> {
  %0 = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<3x?xf32, device = "cuda", team = 1> -> !ptensor.ptensor<?x3xf32, device = "cuda", team = 1>
  return %0 : !ptensor.ptensor<?x3xf32, device = "cuda", team = 1>
}
