// RUN: ptensor-opt %s --ptensor-broadcast --canonicalize --ptensor-partition-teams=team-size=3 --canonicalize | ptensor-opt | FileCheck %s
// RUN: ptensor-opt %s --ptensor-partition-teams=team-size=1 | FileCheck %s --check-prefix=ONE
// ptensor-partition-teams: team tensors become blocks of rows (first dim
// dynamic), with communication only where an op needs other rows.

// ONE-NOT: team
// ONE-NOT: shard.grid
// ONE-LABEL: func.func @aligned(%{{.*}}: !ptensor.ptensor<10x3xf32>, %{{.*}}: !ptensor.ptensor<10x3xf32>) -> !ptensor.ptensor<10x3xf32>

// CHECK: shard.grid @ptensor_team1(shape = 3) {sym_visibility = "private"}
// CHECK-LABEL: func.func @aligned(%{{.*}}: !ptensor.ptensor<?x3xf32>, %{{.*}}: !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: ptensor.elementwise_binary add {{.*}} -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: return

// A vector against the rows: gathered (3 values), broadcast to the block.
// CHECK-LABEL: func.func @row(
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[ROWS:.*]] = ptensor.dim %arg0, 0
// CHECK: %[[V:.*]] = ptensor.team_gather %arg1, %[[C3]] on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<3xf32>
// CHECK: ptensor.broadcast %[[V]] to (%[[ROWS]]) : !ptensor.ptensor<3xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NOT: team_sum

// Over the split dim: local partial, all-reduce, the block of the result;
// over other dims: local.
// CHECK-LABEL: func.func @sums(
// CHECK: %[[P:.*]] = ptensor.reduce sum %arg0 axes [0] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<3xf32>
// CHECK: %[[T:.*]] = ptensor.team_all_reduce sum %[[P]] on @ptensor_team1 : !ptensor.ptensor<3xf32>
// CHECK: %[[B:.*]] = ptensor.team_block %[[T]] on @ptensor_team1 : !ptensor.ptensor<3xf32> -> !ptensor.ptensor<?xf32>
// CHECK: %[[M:.*]] = ptensor.reduce max %arg0 axes [1] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?xf32>
// CHECK: %[[N:.*]] = ptensor.reduce min %arg0 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<f32>
// CHECK: %[[A:.*]] = ptensor.team_all_reduce min %[[N]] on @ptensor_team1 : !ptensor.ptensor<f32>
// CHECK: return %[[B]], %[[M]], %[[A]]

// CHECK-LABEL: func.func @rows(
// CHECK: %[[D:.*]] = ptensor.dim %arg0, 0
// CHECK: %[[S:.*]] = ptensor.team_sum %[[D]] on @ptensor_team1
// CHECK: return %[[S]] : index

// CHECK-LABEL: func.func @out(
// CHECK: ptensor.team_gather %arg0, %{{.*}} on @ptensor_team1 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>

// CHECK-LABEL: func.func @into(
// CHECK: ptensor.team_block %arg0 on @ptensor_team1

// Creation makes the whole tensor and keeps the block.
// CHECK-LABEL: func.func @create(
// CHECK: %[[R:.*]] = ptensor.arange {{.*}} -> !ptensor.ptensor<10xi64>
// CHECK: ptensor.team_block %[[R]] on @ptensor_team1 : !ptensor.ptensor<10xi64> -> !ptensor.ptensor<?xi64>

func.func @aligned(%a: !ptensor.ptensor<10x3xf32, team = 1>, %b: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1>
  return %c : !ptensor.ptensor<10x3xf32, team = 1>
}
func.func @row(%a: !ptensor.ptensor<?x3xf32, team = 1>, %v: !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1> {
  %c = ptensor.elementwise_binary multiply %a, %v : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  return %c : !ptensor.ptensor<?x3xf32, team = 1>
}
func.func @sums(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f32, team = 1>) {
  %0 = ptensor.reduce sum %a axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  %1 = ptensor.reduce max %a axes [1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  %2 = ptensor.reduce min %a : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f32, team = 1>
}
func.func @rows(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> index {
  %n = ptensor.dim %a, 0 : !ptensor.ptensor<?x3xf32, team = 1>
  return %n : index
}
func.func @out(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32> {
  %c = ptensor.copy %a : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32>
  return %c : !ptensor.ptensor<?x3xf32>
}
func.func @into(%a: !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<?x3xf32, team = 1> {
  %c = ptensor.copy %a : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32, team = 1>
  return %c : !ptensor.ptensor<?x3xf32, team = 1>
}
func.func @create() -> !ptensor.ptensor<10xi64, team = 1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %r = ptensor.arange %c0, %c10, %c1 : index -> !ptensor.ptensor<10xi64, team = 1>
  return %r : !ptensor.ptensor<10xi64, team = 1>
}
