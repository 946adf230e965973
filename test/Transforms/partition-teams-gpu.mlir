// RUN: ptensor-opt %s --ptensor-broadcast --canonicalize --ptensor-partition-teams=team-size=2 --canonicalize | ptensor-opt | FileCheck %s
// GPU team tensors: each process's block stays on its GPU; every collective
// moves into a private host function of its own (the team runtime moves
// host memory), called between copies of its GPU operands to the host and
// of its results back.

!g = !ptensor.ptensor<?x3xf32, device = "cuda", team = 1>

// CHECK-LABEL: func.func @sum_rows(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?x3xf32, device = "cuda">) -> !ptensor.ptensor<?xf32, device = "cuda">
// CHECK: %[[P:.*]] = ptensor.reduce sum %[[A]] axes [0] {dtype = f64, ptensor.team_partial} : !ptensor.ptensor<?x3xf32, device = "cuda"> -> !ptensor.ptensor<3xf64, device = "cuda">
// CHECK: %[[H:.*]] = ptensor.copy %[[P]] : !ptensor.ptensor<3xf64, device = "cuda"> -> !ptensor.ptensor<3xf64>
// CHECK: %[[T:.*]] = call @[[STEP:team_all_reduce_on_host[_0-9]*]](%[[H]]) : (!ptensor.ptensor<3xf64>) -> !ptensor.ptensor<3xf64>
// CHECK: %[[D:.*]] = ptensor.copy %[[T]] : !ptensor.ptensor<3xf64> -> !ptensor.ptensor<3xf64, device = "cuda">
// CHECK: %[[S:.*]] = ptensor.cast %[[D]] : !ptensor.ptensor<3xf64, device = "cuda"> -> !ptensor.ptensor<3xf32, device = "cuda">
// CHECK: ptensor.team_block %[[S]] on @ptensor_team1 : !ptensor.ptensor<3xf32, device = "cuda"> -> !ptensor.ptensor<?xf32, device = "cuda">
func.func @sum_rows(%a: !g) -> !ptensor.ptensor<3xf32, device = "cuda", team = 1> {
  %0 = ptensor.reduce sum %a axes [0] : !g -> !ptensor.ptensor<3xf32, device = "cuda", team = 1>
  return %0 : !ptensor.ptensor<3xf32, device = "cuda", team = 1>
}

// A vector against the rows: the gather runs on the host, its index
// operand passed as it is; the broadcast is on the GPU.
// CHECK-LABEL: func.func @row(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?x3xf32, device = "cuda">, %[[V:.*]]: !ptensor.ptensor<?xf32, device = "cuda">)
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[H:.*]] = ptensor.copy %[[V]] : !ptensor.ptensor<?xf32, device = "cuda"> -> !ptensor.ptensor<?xf32>
// CHECK: %[[W:.*]] = call @[[GATHER:team_gather_on_host[_0-9]*]](%[[H]], %[[C3]]) : (!ptensor.ptensor<?xf32>, index) -> !ptensor.ptensor<3xf32>
// CHECK: %[[D:.*]] = ptensor.copy %[[W]] : !ptensor.ptensor<3xf32> -> !ptensor.ptensor<3xf32, device = "cuda">
// CHECK: ptensor.broadcast %[[D]]
// CHECK-SAME: -> !ptensor.ptensor<?x3xf32, device = "cuda">
func.func @row(%a: !g, %v: !ptensor.ptensor<3xf32, device = "cuda", team = 1>) -> !g {
  %0 = ptensor.elementwise_binary subtract %a, %v : (!g, !ptensor.ptensor<3xf32, device = "cuda", team = 1>) -> !g
  return %0 : !g
}

// The host functions hold the collectives alone, on host blocks.
// CHECK: func.func private @[[STEP]](%[[X:.*]]: !ptensor.ptensor<3xf64>) -> !ptensor.ptensor<3xf64>
// CHECK-NEXT: %[[R:.*]] = ptensor.team_all_reduce sum %[[X]] on @ptensor_team1 : !ptensor.ptensor<3xf64>
// CHECK-NEXT: return %[[R]]
// CHECK: func.func private @[[GATHER]](%[[X:.*]]: !ptensor.ptensor<?xf32>, %[[N:.*]]: index) -> !ptensor.ptensor<3xf32>
// CHECK-NEXT: %[[R:.*]] = ptensor.team_gather %[[X]], %[[N]] on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<3xf32>
// CHECK-NEXT: return %[[R]]
