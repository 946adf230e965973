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

// Over the split dim: a local partial (f64 for float sums: the one-process
// accumulator, rounded once), combined over the team; the result keeps its
// block. max/min gather the partials (MPI's MAX drops NaNs) and check at
// run time that the dynamic axis is not empty everywhere. Over other dims:
// local.
// CHECK-LABEL: func.func @sums(
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[P:.*]] = ptensor.reduce sum %arg0 axes [0] {dtype = f64, ptensor.team_partial} : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<3xf64>
// CHECK: %[[T:.*]] = ptensor.team_all_reduce sum %[[P]] on @ptensor_team1 : !ptensor.ptensor<3xf64>
// CHECK: %[[C:.*]] = ptensor.cast %[[T]] : !ptensor.ptensor<3xf64> -> !ptensor.ptensor<3xf32>
// CHECK: %[[B:.*]] = ptensor.team_block %[[C]] on @ptensor_team1 : !ptensor.ptensor<3xf32> -> !ptensor.ptensor<?xf32>
// CHECK: %[[M:.*]] = ptensor.reduce max %arg0 axes [1] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?xf32>
// CHECK: %[[ROWS:.*]] = ptensor.team_sum
// CHECK: %[[COUNT:.*]] = arith.muli %[[ROWS]], %c3
// CHECK: %[[OK:.*]] = arith.cmpi ne, %[[COUNT]], %c0
// CHECK: cf.assert %[[OK]], "min of an empty axis
// CHECK: %[[N:.*]] = ptensor.reduce min %arg0 {ptensor.team_partial} : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<f32>
// CHECK: %[[E:.*]] = ptensor.expand_dims %[[N]] 0
// CHECK: %[[G:.*]] = ptensor.team_gather %[[E]], %[[C3]] on @ptensor_team1 : !ptensor.ptensor<1xf32> -> !ptensor.ptensor<3xf32>
// CHECK: %[[A:.*]] = ptensor.reduce min %[[G]] axes [0] : !ptensor.ptensor<3xf32> -> !ptensor.ptensor<f32>
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
// mean: f64 sums all-reduced, divided by the global count.
// CHECK-LABEL: func.func @mean(
// CHECK: %[[X:.*]] = ptensor.cast %arg0 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf64>
// CHECK: %[[S:.*]] = ptensor.reduce sum %[[X]] axes [0] {keepdims = true}
// CHECK: %[[T:.*]] = ptensor.team_all_reduce sum %[[S]]
// CHECK: ptensor.elementwise_binary divide %[[T]], %{{.*}} : (!ptensor.ptensor<1x3xf64>, f64) -> !ptensor.ptensor<1x3xf64>

func.func @mean(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<3xf32, team = 1> {
  %0 = ptensor.reduce mean %a axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  return %0 : !ptensor.ptensor<3xf32, team = 1>
}

// Other ops (unique with inverse indices here): the split operands
// gathered, the whole result computed on every process, its block kept.
// CHECK-LABEL: func.func @whole(
// CHECK: %[[W:.*]] = ptensor.team_gather %arg0, %{{.*}} on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<10xf32>
// CHECK-NEXT: %[[U:.*]]:2 = ptensor.unique inverse %[[W]] : !ptensor.ptensor<10xf32> -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<10xi64>)
// CHECK-NEXT: ptensor.team_block %[[U]]#0 on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: ptensor.team_block %[[U]]#1 on @ptensor_team1 : !ptensor.ptensor<10xi64> -> !ptensor.ptensor<?xi64>
func.func @whole(%a: !ptensor.ptensor<10xf32, team = 1>) -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<10xi64, team = 1>) {
  %0:2 = ptensor.unique inverse %a : !ptensor.ptensor<10xf32, team = 1> -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<10xi64, team = 1>)
  return %0#0, %0#1 : !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<10xi64, team = 1>
}

// A sort or argsort along the first dim of a tensor of rank >= 2 moves
// the split dim last (a resplit: every process gets whole lines), sorts
// there on the block and moves it back (a resplit); along another dim it
// sorts the block alone.
// CHECK-LABEL: func.func @sorts(
// CHECK: %[[P:.*]] = ptensor.permute_dims %arg0 [1, 0] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<3x?xf32>
// CHECK-NEXT: %[[C:.*]] = ptensor.team_resplit %[[P]], %c10 from 1 on @ptensor_team1 : !ptensor.ptensor<3x?xf32> -> !ptensor.ptensor<?x10xf32>
// CHECK-NEXT: %[[S:.*]] = ptensor.sort %[[C]] axis 1 : !ptensor.ptensor<?x10xf32> -> !ptensor.ptensor<?x10xf32>
// CHECK-NEXT: %[[B:.*]] = ptensor.permute_dims %[[S]] [1, 0] : !ptensor.ptensor<?x10xf32> -> !ptensor.ptensor<10x?xf32>
// CHECK-NEXT: %[[R:.*]] = ptensor.team_resplit %[[B]], %c3 from 1 on @ptensor_team1 : !ptensor.ptensor<10x?xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK: %[[N:.*]] = ptensor.team_sum
// CHECK-NEXT: %[[P3:.*]] = ptensor.permute_dims %arg1 [1, 2, 0] : !ptensor.ptensor<?x3x2xf32> -> !ptensor.ptensor<3x2x?xf32>
// CHECK-NEXT: %[[C3:.*]] = ptensor.team_resplit %[[P3]], %[[N]] from 2 on @ptensor_team1
// CHECK-NEXT: %[[A3:.*]] = ptensor.argsort %[[C3]] axis 2 {descending = true} : !ptensor.ptensor<?x2x?xf32> -> !ptensor.ptensor<?x2x?xi64>
// CHECK-NEXT: %[[B3:.*]] = ptensor.permute_dims %[[A3]] [2, 0, 1]
// CHECK-NEXT: %[[R3:.*]] = ptensor.team_resplit %[[B3]], %c3 from 1 on @ptensor_team1 : !ptensor.ptensor<?x?x2xi64> -> !ptensor.ptensor<?x3x2xi64>
// CHECK-NEXT: %[[L:.*]] = ptensor.sort %arg0 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: %[[LA:.*]] = ptensor.argsort %arg1 axis 1 : !ptensor.ptensor<?x3x2xf32> -> !ptensor.ptensor<?x3x2xi64>
// CHECK-NOT: team_gather
// CHECK: return %[[R]], %[[R3]], %[[L]], %[[LA]]
func.func @sorts(%a: !ptensor.ptensor<10x3xf32, team = 1>, %d: !ptensor.ptensor<?x3x2xf32, team = 1>) -> (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3x2xi64, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3x2xi64, team = 1>) {
  %0 = ptensor.sort %a axis 0 : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  %1 = ptensor.argsort %d axis -3 {descending = true} : !ptensor.ptensor<?x3x2xf32, team = 1> -> !ptensor.ptensor<?x3x2xi64, team = 1>
  %2 = ptensor.sort %a : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  %3 = ptensor.argsort %d axis 1 : !ptensor.ptensor<?x3x2xf32, team = 1> -> !ptensor.ptensor<?x3x2xi64, team = 1>
  return %0, %1, %2, %3 : !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3x2xi64, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3x2xi64, team = 1>
}

// A 1-D sort is a sample sort: the block sorted; min(3, its rows) samples,
// the last of each of 3 equal runs (a view: the runs' rows flipped, the
// first column); the samples gathered and sorted alike on every process;
// of their picks the first two are the splitters; the block is cut at
// them (ties go with the splitter: right) and each run sent to its
// process; the runs that arrive are merged (the sort's runs hint) and
// rebalanced into blocks. Descending:
// the cuts count what the reversed block has before each splitter.
// CHECK-LABEL: func.func @sample_sort(
// CHECK: %[[S:.*]] = ptensor.sort %arg0 axis 0 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[N:.*]] = ptensor.dim %[[S]], 0
// CHECK-NEXT: %[[SHARE:.*]] = arith.divsi %[[N]], %c3 : index
// CHECK-NEXT: %[[STEP:.*]] = arith.maxsi %[[SHARE]], %c1 : index
// CHECK-NEXT: %[[PICKS:.*]] = arith.minsi %[[N]], %c3 : index
// CHECK-NEXT: %[[USED:.*]] = arith.muli %[[PICKS]], %[[STEP]] : index
// CHECK-NEXT: %[[HEAD:.*]] = ptensor.extract_slice %[[S]] [0] [%[[USED]]] [1]
// CHECK-NEXT: %[[RUNS:.*]] = ptensor.reshape %[[HEAD]] [%[[PICKS]], %[[STEP]]] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?x?xf32>
// CHECK-NEXT: %[[LAST:.*]] = ptensor.flip %[[RUNS]] [1]
// CHECK-NEXT: %[[COLUMN:.*]] = ptensor.extract_slice %[[LAST]] [0, 0] [%[[PICKS]], 1] [1, 1]
// CHECK-NEXT: %[[SAMPLES:.*]] = ptensor.squeeze %[[COLUMN]] [1]
// CHECK-NEXT: %[[M:.*]] = ptensor.dim %[[SAMPLES]], 0
// CHECK-NEXT: %[[ALL:.*]] = ptensor.team_sum %[[M]] on @ptensor_team1
// CHECK-NEXT: %[[G:.*]] = ptensor.team_gather %[[SAMPLES]], %[[ALL]] on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[GS:.*]] = ptensor.sort %[[G]] axis 0
// CHECK: %[[P:.*]] = ptensor.squeeze
// CHECK-NEXT: %[[K:.*]] = ptensor.dim %[[P]], 0
// CHECK-NEXT: %[[FEWER:.*]] = arith.subi %[[K]], %c1 : index
// CHECK-NEXT: %[[SPLITS:.*]] = arith.maxsi %[[FEWER]], %c0 : index
// CHECK-NEXT: %[[SPLITTERS:.*]] = ptensor.extract_slice %[[P]] [0] [%[[SPLITS]]] [1]
// CHECK-NEXT: %[[ENDS:.*]] = ptensor.searchsorted right %[[S]], %[[SPLITTERS]] : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xi64>
// CHECK-NEXT: %[[GOT:.*]], %[[RUNS:.*]] = ptensor.team_exchange %[[S]] at %[[ENDS]] on @ptensor_team1 : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xf32>, !ptensor.ptensor<3xi64>
// CHECK-NEXT: %[[PART:.*]] = ptensor.sort %[[GOT]] axis 0 runs %[[RUNS]] : !ptensor.ptensor<3xi64> : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[R:.*]] = ptensor.team_reblock %[[PART]], %c10 uneven rows %c10 x %c1 on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK: %[[D:.*]] = ptensor.sort %arg1 axis 0 {descending = true} : !ptensor.ptensor<?xi32> -> !ptensor.ptensor<?xi32>
// CHECK: %[[DN:.*]] = ptensor.dim %[[D]], 0
// CHECK: %[[REV:.*]] = ptensor.flip %[[D]] [0]
// CHECK-NEXT: %[[LESS:.*]] = ptensor.searchsorted %[[REV]], %{{.*}} : (!ptensor.ptensor<?xi32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xi64>
// CHECK-NEXT: %[[DN64:.*]] = arith.index_cast %[[DN]] : index to i64
// CHECK-NEXT: %[[DENDS:.*]] = ptensor.elementwise_binary subtract %[[DN64]], %[[LESS]]
// CHECK-NEXT: ptensor.team_exchange %[[D]] at %[[DENDS]]
// CHECK: return %[[R]],
func.func @sample_sort(%a: !ptensor.ptensor<10xf32, team = 1>, %d: !ptensor.ptensor<?xi32, team = 1>) -> (!ptensor.ptensor<10xf32, team = 1>, !ptensor.ptensor<?xi32, team = 1>) {
  %0 = ptensor.sort %a : !ptensor.ptensor<10xf32, team = 1> -> !ptensor.ptensor<10xf32, team = 1>
  %1 = ptensor.sort %d {descending = true} : !ptensor.ptensor<?xi32, team = 1> -> !ptensor.ptensor<?xi32, team = 1>
  return %0, %1 : !ptensor.ptensor<10xf32, team = 1>, !ptensor.ptensor<?xi32, team = 1>
}

// A 1-D argsort is a sample sort of the values that carries each one's
// global position (its argsort position in the block plus the block's
// first row) through a second exchange at the same ends; what arrives is
// argsorted and the positions taken in that order, then rebalanced.
// CHECK-LABEL: func.func @sample_argsort(
// CHECK: %[[P:.*]] = ptensor.argsort %arg0 axis 0 {descending = true} : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xi64>
// CHECK-NEXT: %[[S:.*]] = ptensor.take %arg0, %[[P]] : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[START:.*]] = ptensor.team_block_start %c10 on @ptensor_team1
// CHECK-NEXT: %[[START64:.*]] = arith.index_cast %[[START]] : index to i64
// CHECK-NEXT: %[[G:.*]] = ptensor.elementwise_binary add %[[P]], %[[START64]]
// CHECK: %[[ENDS:.*]] = ptensor.elementwise_binary subtract
// CHECK-NEXT: %[[V:.*]], %[[RUNS:.*]] = ptensor.team_exchange %[[S]] at %[[ENDS]] on @ptensor_team1 : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xf32>, !ptensor.ptensor<3xi64>
// CHECK-NEXT: %[[GP:.*]], %{{.*}} = ptensor.team_exchange %[[G]] at %[[ENDS]] on @ptensor_team1 : !ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xi64>, !ptensor.ptensor<3xi64>
// CHECK-NEXT: %[[O:.*]] = ptensor.argsort %[[V]] axis 0 runs %[[RUNS]] : !ptensor.ptensor<3xi64> {descending = true}
// CHECK-NEXT: %[[PART:.*]] = ptensor.take %[[GP]], %[[O]] : (!ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<?xi64>
// CHECK-NEXT: %[[R:.*]] = ptensor.team_reblock %[[PART]], %c10 uneven rows %c10 x %c1 on @ptensor_team1
// CHECK-NEXT: return %[[R]]
func.func @sample_argsort(%a: !ptensor.ptensor<10xf32, team = 1>) -> !ptensor.ptensor<10xi64, team = 1> {
  %0 = ptensor.argsort %a {descending = true} : !ptensor.ptensor<10xf32, team = 1> -> !ptensor.ptensor<10xi64, team = 1>
  return %0 : !ptensor.ptensor<10xi64, team = 1>
}

// take along the first dim: the indices' block stays and the source is
// gathered; along another dim the source's block stays and the indices
// are gathered.
// CHECK-LABEL: func.func @takes(
// CHECK: %[[W:.*]] = ptensor.team_gather %arg0, %c10 on @ptensor_team1 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<10x3xf32>
// CHECK-NEXT: %[[T0:.*]] = ptensor.take %[[W]], %arg1 axis 0 : (!ptensor.ptensor<10x3xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x3xf32>
// CHECK: %[[I:.*]] = ptensor.team_gather %arg1, %{{.*}} on @ptensor_team1 : !ptensor.ptensor<?xi32> -> !ptensor.ptensor<?xi32>
// CHECK-NEXT: %[[T1:.*]] = ptensor.take %arg0, %[[I]] axis 1 : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x?xf32>
// CHECK-NEXT: return %[[T0]], %[[T1]]
func.func @takes(%a: !ptensor.ptensor<10x3xf32, team = 1>, %i: !ptensor.ptensor<?xi32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<10x?xf32, team = 1>) {
  %0 = ptensor.take %a, %i axis 0 : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?xi32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.take %a, %i axis 1 : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?xi32, team = 1>) -> !ptensor.ptensor<10x?xf32, team = 1>
  return %0, %1 : !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<10x?xf32, team = 1>
}

// A permute_dims that moves the split dim: the block is permuted where it
// is (the split dim lands at the axis it goes to) and resplit along the
// first dim; nothing is gathered. A dynamic result first dim is the
// source's dim, the same on every process (no team_sum for the mean).
// CHECK-LABEL: func.func @permute_moves_split(
// CHECK-NOT: team_gather
// CHECK: %[[P:.*]] = ptensor.permute_dims %arg0 [1, 0] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<3x?xf32>
// CHECK-NEXT: ptensor.team_resplit %[[P]], %c10 from 1 on @ptensor_team1 : !ptensor.ptensor<3x?xf32> -> !ptensor.ptensor<?x10xf32>
// CHECK: %[[Q:.*]] = ptensor.permute_dims %arg1 [2, 0, 1] : !ptensor.ptensor<?x?x4xf32> -> !ptensor.ptensor<4x?x?xf32>
// CHECK-NEXT: ptensor.team_resplit %[[Q]], %{{.*}} from 1 on @ptensor_team1 : !ptensor.ptensor<4x?x?xf32> -> !ptensor.ptensor<?x?x?xf32>
// CHECK: %[[R:.*]] = ptensor.permute_dims %arg1 [-2, 2, 0] : !ptensor.ptensor<?x?x4xf32> -> !ptensor.ptensor<?x4x?xf32>
// CHECK-NEXT: %[[S:.*]] = ptensor.team_resplit %[[R]], %{{.*}} from 2 on @ptensor_team1 : !ptensor.ptensor<?x4x?xf32> -> !ptensor.ptensor<?x4x?xf32>
// CHECK-NEXT: %[[N:.*]] = ptensor.dim %[[R]], 0
// CHECK-NEXT: ptensor.cast %[[S]]
// CHECK-NEXT: arith.index_cast %[[N]]
// CHECK-NOT: team_sum
// CHECK-NOT: team_gather
// CHECK: return
func.func @permute_moves_split(%a: !ptensor.ptensor<10x3xf32, team = 1>, %b: !ptensor.ptensor<?x?x4xf32, team = 1>) -> (!ptensor.ptensor<3x10xf32, team = 1>, !ptensor.ptensor<4x?x?xf32, team = 1>, !ptensor.ptensor<4x?xf32, team = 1>) {
  %0 = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<3x10xf32, team = 1>
  %1 = ptensor.permute_dims %b [2, 0, 1] : !ptensor.ptensor<?x?x4xf32, team = 1> -> !ptensor.ptensor<4x?x?xf32, team = 1>
  %2 = ptensor.permute_dims %b [-2, 2, 0] : !ptensor.ptensor<?x?x4xf32, team = 1> -> !ptensor.ptensor<?x4x?xf32, team = 1>
  %3 = ptensor.reduce mean %2 axes [0] : !ptensor.ptensor<?x4x?xf32, team = 1> -> !ptensor.ptensor<4x?xf32, team = 1>
  return %0, %1, %3 : !ptensor.ptensor<3x10xf32, team = 1>, !ptensor.ptensor<4x?x?xf32, team = 1>, !ptensor.ptensor<4x?xf32, team = 1>
}

// Views that keep the rows, and a matmul whose rows are the lhs's, stay on
// the block: only the rhs is gathered.
// CHECK-LABEL: func.func @rows_kept(
// CHECK: %[[F:.*]] = ptensor.flip %arg0 [1] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: %[[E:.*]] = ptensor.expand_dims %[[F]] -1 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3x1xf32>
// CHECK-NEXT: %[[W:.*]] = ptensor.team_gather %arg1, %{{.*}} on @ptensor_team1 : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<3x4xf32>
// CHECK-NEXT: ptensor.matmul %arg0, %[[W]] : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<3x4xf32>) -> !ptensor.ptensor<?x4xf32>
func.func @rows_kept(%a: !ptensor.ptensor<?x3xf32, team = 1>, %w: !ptensor.ptensor<3x4xf32, team = 1>) -> (!ptensor.ptensor<?x3x1xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>) {
  %0 = ptensor.flip %a [1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.expand_dims %0 -1 : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3x1xf32, team = 1>
  %2 = ptensor.matmul %a, %w : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3x4xf32, team = 1>) -> !ptensor.ptensor<?x4xf32, team = 1>
  return %1, %2 : !ptensor.ptensor<?x3x1xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>
}

// A slice of other dims that takes every row (offset 0, step 1, the global
// rows: static, or `ptensor.dim` of the first dim) is a slice of the block:
// its first size becomes the block's rows. A slice of some rows moves
// them between processes (team_slice_rows), without a gather; one taking
// the other dims whole is nothing more.
// CHECK-LABEL: func.func @row_slices(
// CHECK: %[[R:.*]] = ptensor.dim %arg0, 0 : !ptensor.ptensor<?x8xf32>
// CHECK-NEXT: %[[S:.*]] = ptensor.extract_slice %arg0 [0, 1] [%[[R]], 3] [1, 2] : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK: %[[R2:.*]] = ptensor.dim %arg1, 0 : !ptensor.ptensor<?x8xf32>
// CHECK-NEXT: %[[D:.*]] = ptensor.extract_slice %arg1 [0, 7] [%[[R2]], 8] [1, -1] : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x8xf32>
// CHECK-NOT: team_gather
// CHECK: %[[P:.*]] = ptensor.team_slice_rows %arg0, %c10 [%c1, %c9, %c1] on @ptensor_team1 : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x8xf32>
// CHECK-NEXT: return %[[S]], %[[D]], %[[P]]
func.func @row_slices(%a: !ptensor.ptensor<10x8xf32, team = 1>, %b: !ptensor.ptensor<?x8xf32, team = 1>) -> (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x8xf32, team = 1>, !ptensor.ptensor<9x8xf32, team = 1>) {
  %0 = ptensor.extract_slice %a [0, 1] [10, 3] [1, 2] : !ptensor.ptensor<10x8xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  %n = ptensor.dim %b, 0 : !ptensor.ptensor<?x8xf32, team = 1>
  %1 = ptensor.extract_slice %b [0, 7] [%n, 8] [1, -1] : !ptensor.ptensor<?x8xf32, team = 1> -> !ptensor.ptensor<?x8xf32, team = 1>
  %2 = ptensor.extract_slice %a [1, 0] [9, 8] [1, 1] : !ptensor.ptensor<10x8xf32, team = 1> -> !ptensor.ptensor<9x8xf32, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x8xf32, team = 1>, !ptensor.ptensor<9x8xf32, team = 1>
}

// A reshape that keeps the first dim (the global rows, no -1 after it)
// reshapes each row alone: the block's. Others reblock the elements for the
// result's rows (team_reblock, sizes and a -1 from the global count) and
// reshape the flat block locally; nothing is gathered.
// CHECK-LABEL: func.func @row_reshapes(
// CHECK: %[[R:.*]] = ptensor.dim %arg0, 0 : !ptensor.ptensor<?x3x4xf32>
// CHECK-NEXT: %[[A:.*]] = ptensor.reshape %arg0 [%[[R]], 12] : !ptensor.ptensor<?x3x4xf32> -> !ptensor.ptensor<?x12xf32>
// CHECK: %[[N:.*]] = ptensor.team_sum %{{.*}} on @ptensor_team1
// CHECK: %[[R2:.*]] = ptensor.dim %arg1, 0 : !ptensor.ptensor<?x6xf32>
// CHECK-NEXT: %[[B:.*]] = ptensor.reshape %arg1 [%[[R2]], 2, 3] {copy = false} : !ptensor.ptensor<?x6xf32> -> !ptensor.ptensor<?x2x3xf32>
// [10, -1] keeps the rows too: the -1 is the type's 12, written out (a
// block of no rows could not infer it).
// CHECK-NEXT: %[[R3:.*]] = ptensor.dim %arg0, 0 : !ptensor.ptensor<?x3x4xf32>
// CHECK-NEXT: ptensor.reshape %arg0 [%[[R3]], 12] : !ptensor.ptensor<?x3x4xf32> -> !ptensor.ptensor<?x12xf32>
// A flat result is the reblocked block itself (no reshape).
// CHECK-NEXT: %[[G:.*]] = ptensor.team_reblock %arg0, %c10 rows %c120 x %c1 on @ptensor_team1
// CHECK-NOT: ptensor.reshape %[[G]]
// Dynamic rows: the global rows are summed once; [-1, 4] infers its rows
// from the global count (rows x 6 / 4), [%m, 3] takes the run-time size.
// CHECK: %[[T:.*]] = arith.muli %[[N]], %c6 : index
// CHECK: %[[Q:.*]] = arith.divsi %[[T]], %c4 : index
// CHECK: ptensor.team_reblock %arg1, %[[N]] rows %[[Q]] x %c4 on @ptensor_team1
// CHECK: ptensor.team_reblock %arg1, %[[N]] rows %arg2 x %c3 on @ptensor_team1
// A size operand that is a constant stays dynamic in the block's reshape
// (the result's type has it dynamic).
// CHECK: %[[C:.*]] = ptensor.team_reblock %arg1, %[[N]] rows %{{.*}} x %c5 on @ptensor_team1
// CHECK: ptensor.reshape %[[C]] [%{{.*}}, %c5] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?x?xf32>
// CHECK-NOT: team_gather
// CHECK: return
func.func @row_reshapes(%a: !ptensor.ptensor<10x3x4xf32, team = 1>, %b: !ptensor.ptensor<?x6xf32, team = 1>, %m: index) -> (!ptensor.ptensor<10x12xf32, team = 1>, !ptensor.ptensor<?x2x3xf32, team = 1>, !ptensor.ptensor<10x12xf32, team = 1>, !ptensor.ptensor<120xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x?xf32, team = 1>) {
  %0 = ptensor.reshape %a [10, 12] : !ptensor.ptensor<10x3x4xf32, team = 1> -> !ptensor.ptensor<10x12xf32, team = 1>
  %n = ptensor.dim %b, 0 : !ptensor.ptensor<?x6xf32, team = 1>
  %1 = ptensor.reshape %b [%n, 2, 3] {copy = false} : !ptensor.ptensor<?x6xf32, team = 1> -> !ptensor.ptensor<?x2x3xf32, team = 1>
  %2 = ptensor.reshape %a [10, -1] : !ptensor.ptensor<10x3x4xf32, team = 1> -> !ptensor.ptensor<10x12xf32, team = 1>
  %3 = ptensor.reshape %a [-1] : !ptensor.ptensor<10x3x4xf32, team = 1> -> !ptensor.ptensor<120xf32, team = 1>
  %4 = ptensor.reshape %b [-1, 4] : !ptensor.ptensor<?x6xf32, team = 1> -> !ptensor.ptensor<?x4xf32, team = 1>
  %5 = ptensor.reshape %b [%m, 3] : !ptensor.ptensor<?x6xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %c5 = arith.constant 5 : index
  %6 = ptensor.reshape %b [-1, %c5] : !ptensor.ptensor<?x6xf32, team = 1> -> !ptensor.ptensor<?x?xf32, team = 1>
  return %0, %1, %2, %3, %4, %5, %6 : !ptensor.ptensor<10x12xf32, team = 1>, !ptensor.ptensor<?x2x3xf32, team = 1>, !ptensor.ptensor<10x12xf32, team = 1>, !ptensor.ptensor<120xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x?xf32, team = 1>
}

// concat and stack of operands with the same static rows along another
// axis than the first join the blocks alone (dtypes promote as ever). A
// stack along the first is the concat of its operands reshaped to one row
// each: each reblocked (all of it to the process of that row), then the
// rows moved to their place (a concat along the first dim moves rows:
// @rolls_and_concats).
// CHECK-LABEL: func.func @joins(
// CHECK: %[[C:.*]] = ptensor.combine concat %arg0, %arg1 axis 1 : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x2xf16>) -> !ptensor.ptensor<?x5xf32>
// CHECK-NEXT: %[[S:.*]] = ptensor.combine stack %arg0, %arg0 axis -1 : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<?x3x2xf32>
// CHECK-NEXT: %[[F0:.*]] = ptensor.team_reblock %arg0, %c10 rows %c1 x %c30 on @ptensor_team1 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[N0:.*]] = ptensor.team_block_rows %c1 on @ptensor_team1
// CHECK-NEXT: %[[R0:.*]] = ptensor.reshape %[[F0]] [%[[N0]], 10, 3] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?x10x3xf32>
// CHECK: %[[R1:.*]] = ptensor.reshape %{{.*}} [%{{.*}}, 10, 3]
// CHECK-NEXT: %[[T:.*]] = ptensor.team_slice_rows %[[R0]], %c1 [%c0, %c1, %c1], %[[R1]], %c1 [%c0, %c1, %c1] on @ptensor_team1 : !ptensor.ptensor<?x10x3xf32>, !ptensor.ptensor<?x10x3xf32> -> !ptensor.ptensor<?x10x3xf32>
// CHECK-NOT: team_gather
// CHECK: return %[[C]], %[[S]], %[[T]]
func.func @joins(%a: !ptensor.ptensor<10x3xf32, team = 1>, %b: !ptensor.ptensor<10x2xf16, team = 1>) -> (!ptensor.ptensor<10x5xf32, team = 1>, !ptensor.ptensor<10x3x2xf32, team = 1>, !ptensor.ptensor<2x10x3xf32, team = 1>) {
  %0 = ptensor.combine concat %a, %b axis 1 : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<10x2xf16, team = 1>) -> !ptensor.ptensor<10x5xf32, team = 1>
  %1 = ptensor.combine stack %a, %a axis -1 : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x3x2xf32, team = 1>
  %2 = ptensor.combine stack %a, %a axis 0 : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<2x10x3xf32, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<10x5xf32, team = 1>, !ptensor.ptensor<10x3x2xf32, team = 1>, !ptensor.ptensor<2x10x3xf32, team = 1>
}

// Not every row, or not known to be: a first size that is an unrelated
// index (it may be fewer rows) moves the rows it takes; a concat beside
// the rows of operands with dynamic rows is gathered (joining blocks would
// need the global check that the rows agree). The global rows read through
// `ptensor.shape` (the team sum of the blocks' rows) are every row: local.
// CHECK-LABEL: func.func @not_whole_rows(
// CHECK: %[[N:.*]] = ptensor.team_sum
// CHECK-NEXT: ptensor.team_slice_rows %arg0, %[[N]] [%c0, %arg2, %c1] on @ptensor_team1 : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x8xf32>
// CHECK: %[[H:.*]] = ptensor.team_gather %arg1, %{{.*}} on @ptensor_team1 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: ptensor.combine concat %[[H]], %[[H]] axis 1
// CHECK: %[[R:.*]] = ptensor.dim %arg0, 0 : !ptensor.ptensor<?x8xf32>
// CHECK-NEXT: %[[S:.*]] = ptensor.extract_slice %arg0 [0, 4] [%[[R]], 4] [1, 1] : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x4xf32>
// CHECK-NEXT: return %{{.*}}, %{{.*}}, %[[S]]
func.func @not_whole_rows(%a: !ptensor.ptensor<?x8xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>, %m: index) -> (!ptensor.ptensor<?x8xf32, team = 1>, !ptensor.ptensor<?x6xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>) {
  %0 = ptensor.extract_slice %a [0, 0] [%m, 8] [1, 1] : !ptensor.ptensor<?x8xf32, team = 1> -> !ptensor.ptensor<?x8xf32, team = 1>
  %1 = ptensor.combine concat %b, %b axis 1 : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x6xf32, team = 1>
  %r, %c = ptensor.shape %a : !ptensor.ptensor<?x8xf32, team = 1>
  %2 = ptensor.extract_slice %a [0, 4] [%r, 4] [1, 1] : !ptensor.ptensor<?x8xf32, team = 1> -> !ptensor.ptensor<?x4xf32, team = 1>
  return %0, %1, %2 : !ptensor.ptensor<?x8xf32, team = 1>, !ptensor.ptensor<?x6xf32, team = 1>, !ptensor.ptensor<?x4xf32, team = 1>
}

// Slices and flips of the first dim move rows (team_slice_rows: an
// offset, a size and a step of the global rows; a flip is offset n - 1,
// step -1) and then slice or flip the other dims of the moved block.
// CHECK-LABEL: func.func @row_moves(
// CHECK: %[[A:.*]] = ptensor.team_slice_rows %arg0, %c10 [%c1, %c4, %c2] on @ptensor_team1 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: %[[AR:.*]] = ptensor.dim %[[A]], 0
// CHECK-NEXT: %[[S:.*]] = ptensor.extract_slice %[[A]] [0, 0] [%[[AR]], 2] [1, 1] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x2xf32>
// CHECK-NEXT: %[[F:.*]] = ptensor.team_slice_rows %arg0, %c10 [%c9, %c10, %c-1] on @ptensor_team1
// CHECK-NEXT: %[[R:.*]] = ptensor.dim %arg1, 0
// CHECK-NEXT: %[[N:.*]] = ptensor.team_sum %[[R]] on @ptensor_team1
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[N]], %c1 : index
// CHECK-NEXT: %[[B:.*]] = ptensor.team_slice_rows %arg1, %[[N]] [%[[LAST]], %[[N]], %c-1] on @ptensor_team1
// CHECK-NEXT: %[[FB:.*]] = ptensor.flip %[[B]] [1] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
// The moved rows' global count is the size asked for: their mean divides
// by it without another team_sum.
// CHECK-NEXT: %[[M:.*]] = ptensor.team_slice_rows %arg1, %[[N]] [%c2, %arg2, %c-1] on @ptensor_team1
// CHECK-NEXT: %[[W:.*]] = ptensor.cast %[[M]]
// CHECK-NEXT: arith.index_cast %arg2
// CHECK-NOT: team_sum
// CHECK: ptensor.reduce sum %[[W]] axes [0]
// CHECK: return %[[S]], %[[F]], %[[FB]], %[[M]],
func.func @row_moves(%a: !ptensor.ptensor<10x3xf32, team = 1>, %d: !ptensor.ptensor<?x3xf32, team = 1>, %m: index) -> (!ptensor.ptensor<4x2xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) {
  %0 = ptensor.extract_slice %a [1, 0] [4, 2] [2, 1] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<4x2xf32, team = 1>
  %1 = ptensor.flip %a [0] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  %2 = ptensor.flip %d [-2, 1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %3 = ptensor.extract_slice %d [2, 0] [%m, 3] [-1, 1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %4 = ptensor.reduce mean %3 axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  return %0, %1, %2, %3, %4 : !ptensor.ptensor<4x2xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>
}

// A roll of the first dim by r (the shift mod the rows; repeated axes add
// up, -13 + 2 = 9 mod 10) is two slices of the rows, [n - r, n) then
// [0, n - r), in one team_slice_rows; the other rolled dims roll the moved
// block; a roll of other dims only rolls the block. A concat along the
// first dim is a slice of every operand (cast to the result's dtype on its
// block), its global rows the sum of theirs: the mean divides by it with
// no other team_sum.
// CHECK-LABEL: func.func @rolls_and_concats(
// CHECK: %[[R:.*]] = ptensor.team_slice_rows %arg0, %c10 [%c1, %c9, %c1], %arg0, %c10 [%c0, %c1, %c1] on @ptensor_team1 : !ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: %[[RR:.*]] = ptensor.roll %[[R]] shifts [1] axes [1]
// CHECK-NEXT: %[[DR:.*]] = ptensor.dim %arg1, 0
// CHECK-NEXT: %[[N:.*]] = ptensor.team_sum %[[DR]] on @ptensor_team1
// CHECK-NEXT: %[[SAFE:.*]] = arith.maxsi %[[N]], %c1 : index
// CHECK-NEXT: %[[REM:.*]] = arith.remsi %c3, %[[SAFE]] : index
// CHECK-NEXT: %[[UP:.*]] = arith.addi %[[REM]], %[[SAFE]] : index
// CHECK-NEXT: %[[SHIFT:.*]] = arith.remsi %[[UP]], %[[SAFE]] : index
// CHECK-NEXT: %[[BACK:.*]] = arith.subi %[[N]], %[[SHIFT]] : index
// CHECK-NEXT: %[[D:.*]] = ptensor.team_slice_rows %arg1, %[[N]] [%[[BACK]], %[[SHIFT]], %c1], %arg1, %[[N]] [%c0, %[[BACK]], %c1] on @ptensor_team1
// CHECK-NEXT: %[[L:.*]] = ptensor.roll %arg0 shifts [1] axes [1] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: %[[DJ:.*]] = ptensor.dim %arg2, 0
// CHECK-NEXT: %[[M:.*]] = ptensor.team_sum %[[DJ]] on @ptensor_team1
// CHECK-NEXT: %[[TOTAL:.*]] = arith.addi %[[N]], %[[M]] : index
// CHECK-NEXT: %[[J:.*]] = ptensor.cast %arg2 : !ptensor.ptensor<?x3xi32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: %[[C:.*]] = ptensor.team_slice_rows %arg1, %[[N]] [%c0, %[[N]], %c1], %[[J]], %[[M]] [%c0, %[[M]], %c1] on @ptensor_team1 : !ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: ptensor.cast %[[C]]
// CHECK-NEXT: arith.index_cast %[[TOTAL]]
// CHECK-NOT: team_sum
// CHECK: return %[[RR]], %[[D]], %[[L]], %[[C]],
func.func @rolls_and_concats(%a: !ptensor.ptensor<10x3xf32, team = 1>, %d: !ptensor.ptensor<?x3xf32, team = 1>, %j: !ptensor.ptensor<?x3xi32, team = 1>) -> (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) {
  %0 = ptensor.roll %a shifts [-13, 1, 2] axes [0, 1, -2] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  %1 = ptensor.roll %d shifts [3] axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  %2 = ptensor.roll %a shifts [1] axes [1] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  %3 = ptensor.combine concat %d, %j axis 0 : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xi32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %4 = ptensor.reduce mean %3 axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  return %0, %1, %2, %3, %4 : !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>
}

// searchsorted: the values' rows are the result's; the sorted tensor and
// the sorter are gathered, the values stay on the block.
// CHECK-LABEL: func.func @search(
// CHECK: %[[S:.*]] = ptensor.team_gather %arg0, %{{.*}} on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK: %[[P:.*]] = ptensor.team_gather %arg2, %{{.*}} on @ptensor_team1 : !ptensor.ptensor<?xi32> -> !ptensor.ptensor<?xi32>
// CHECK: %[[R:.*]] = ptensor.searchsorted right %[[S]], %arg1 sorter %[[P]] : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?x2xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x2xi64>
// The second search reuses the gathered line (one gather per value).
// CHECK-NOT: team_gather
// CHECK: %[[R2:.*]] = ptensor.searchsorted %[[S]], %arg0 : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xi64>
// CHECK: return %[[R]], %[[R2]]
func.func @search(%s: !ptensor.ptensor<?xf32, team = 1>, %v: !ptensor.ptensor<?x2xf32, team = 1>, %p: !ptensor.ptensor<?xi32, team = 1>) -> (!ptensor.ptensor<?x2xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>) {
  %0 = ptensor.searchsorted right %s, %v sorter %p : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?x2xf32, team = 1>, !ptensor.ptensor<?xi32, team = 1>) -> !ptensor.ptensor<?x2xi64, team = 1>
  %1 = ptensor.searchsorted %s, %s : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xi64, team = 1>
  return %0, %1 : !ptensor.ptensor<?x2xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>
}

// Each copy out of the team is a tensor of its own (a write into one must
// not reach the other, nor the gather a search reads): one gather each,
// the global size computed once.
// CHECK-LABEL: func.func @copies_out(
// CHECK: %[[N:.*]] = ptensor.team_sum
// CHECK: %[[C1:.*]] = ptensor.team_gather %arg0, %[[N]]
// CHECK: %[[C2:.*]] = ptensor.team_gather %arg0, %[[N]]
// CHECK: ptensor.write %arg1 into %[[C1]]
// CHECK-NOT: team_sum
// CHECK: %[[S:.*]] = ptensor.team_gather %arg0, %[[N]]
// CHECK: ptensor.searchsorted %[[S]], %{{.*}}
// CHECK: return %[[C1]], %[[C2]]
func.func @copies_out(%a: !ptensor.ptensor<?xf32, team = 1>, %x: !ptensor.ptensor<?xf32>) -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>) {
  %c1 = ptensor.copy %a : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<?xf32>
  %c2 = ptensor.copy %a : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<?xf32>
  %w = ptensor.copy %x : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32, team = 1>
  ptensor.write %x into %c1 : !ptensor.ptensor<?xf32>
  %i = ptensor.searchsorted %a, %w : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xi64, team = 1>
  %g = ptensor.copy %i : !ptensor.ptensor<?xi64, team = 1> -> !ptensor.ptensor<?xi64>
  return %c1, %c2, %g : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>
}

// shape and size of a split tensor are global: the block's, with the first
// dim summed over the team, once per value; nothing is gathered.
// CHECK-LABEL: func.func @queries(
// CHECK-NOT: team_gather
// CHECK: %[[D:.*]] = ptensor.dim %arg0, 0
// CHECK: %[[N:.*]] = ptensor.team_sum %[[D]] on @ptensor_team1
// CHECK-NOT: team_sum
// CHECK: %[[S:.*]] = arith.muli %[[N]], %c3
// CHECK: return %[[N]], %[[S]] : index, index
func.func @queries(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> (index, index) {
  %m, %n = ptensor.shape %a : !ptensor.ptensor<?x3xf32, team = 1>
  %s = ptensor.size %a : !ptensor.ptensor<?x3xf32, team = 1>
  return %m, %s : index, index
}

// A deleted split tensor: each process deletes its block and the gathered
// copy of it that earlier ops shared.
// CHECK-LABEL: func.func @delete_gathered(
// CHECK: %[[T:.*]] = ptensor.elementwise_unary exp %arg0
// CHECK: %[[G:.*]] = ptensor.team_gather %[[T]]
// CHECK: ptensor.searchsorted %[[G]], %arg1
// CHECK-NEXT: ptensor.delete %[[T]] : !ptensor.ptensor<?xf32>
// CHECK-NEXT: ptensor.delete %[[G]] : !ptensor.ptensor<?xf32>
func.func @delete_gathered(%a: !ptensor.ptensor<?xf32, team = 1>, %w: !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xi64, team = 1> {
  %t = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %i = ptensor.searchsorted %t, %w : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xi64, team = 1>
  ptensor.delete %t : !ptensor.ptensor<?xf32, team = 1>
  return %i : !ptensor.ptensor<?xi64, team = 1>
}

// A chain of elementwise ops on dynamic rows sums the rows of its
// arguments once each (for the check that they agree); the rows of every
// value of the chain, and of a broadcast's result, are those (no more
// communication).
// CHECK-LABEL: func.func @dynamic_chain(
// CHECK-COUNT-2: ptensor.team_sum
// CHECK-NOT: team_sum
// CHECK: return
func.func @dynamic_chain(%a: !ptensor.ptensor<?xf32, team = 1>, %b: !ptensor.ptensor<?xf32, team = 1>) -> (!ptensor.ptensor<?xf32, team = 1>, index) {
  %0 = ptensor.elementwise_binary multiply %a, %b : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %1 = ptensor.elementwise_binary add %0, %a : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %2 = ptensor.elementwise_unary sqrt %1 : (!ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %n = ptensor.dim %2, 0 : !ptensor.ptensor<?xf32, team = 1>
  return %2, %n : !ptensor.ptensor<?xf32, team = 1>, index
}

// Views that keep dim 0 and a split matmul lhs keep their source's rows:
// the rows of the product are the argument's, summed once.
// CHECK-LABEL: func.func @kept_rows(
// CHECK: %[[N:.*]] = ptensor.team_sum
// CHECK-NEXT: return %[[N]], %[[N]] : index, index
func.func @kept_rows(%a: !ptensor.ptensor<?x4xf32, team = 1>, %w: !ptensor.ptensor<4x2xf32, team = 1>) -> (index, index) {
  %f = ptensor.flip %a [1] : !ptensor.ptensor<?x4xf32, team = 1> -> !ptensor.ptensor<?x4xf32, team = 1>
  %m = ptensor.matmul %f, %w : (!ptensor.ptensor<?x4xf32, team = 1>, !ptensor.ptensor<4x2xf32, team = 1>) -> !ptensor.ptensor<?x2xf32, team = 1>
  %n = ptensor.dim %m, 0 : !ptensor.ptensor<?x2xf32, team = 1>
  %k = ptensor.dim %a, 0 : !ptensor.ptensor<?x4xf32, team = 1>
  return %n, %k : index, index
}

// Reductions over other dims than the first keep their source's rows.
// CHECK-LABEL: func.func @reduced_rows(
// CHECK: %[[N:.*]] = ptensor.team_sum
// CHECK-NOT: ptensor.team_sum
// CHECK: return %[[N]], %[[N]], %[[N]] : index, index, index
func.func @reduced_rows(%a: !ptensor.ptensor<?x4xf32, team = 1>) -> (index, index, index) {
  %s = ptensor.reduce sum %a axes [1] : !ptensor.ptensor<?x4xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  %i = ptensor.find_index argmax %a axis 1 : !ptensor.ptensor<?x4xf32, team = 1> -> !ptensor.ptensor<?xi64, team = 1>
  %n = ptensor.dim %s, 0 : !ptensor.ptensor<?xf32, team = 1>
  %m = ptensor.dim %i, 0 : !ptensor.ptensor<?xi64, team = 1>
  %k = ptensor.dim %a, 0 : !ptensor.ptensor<?x4xf32, team = 1>
  return %n, %m, %k : index, index, index
}

// tril/triu of a split matrix: each block is told the row it starts at
// (first_row); of a batch of matrices the blocks hold whole matrices. No
// communication.
// CHECK-LABEL: func.func @triangles(
// CHECK: %[[R:.*]] = ptensor.dim %arg0, 0
// CHECK-NEXT: %[[N:.*]] = ptensor.team_sum %[[R]] on @ptensor_team1
// CHECK-NEXT: %[[S:.*]] = ptensor.team_block_start %[[N]] on @ptensor_team1
// CHECK-NEXT: %[[L:.*]] = ptensor.extract_triangle lower %arg0 offset -1 first_row %[[S]] : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
// CHECK-NEXT: %[[U:.*]] = ptensor.extract_triangle upper %arg1 : !ptensor.ptensor<?x3x3xf64> -> !ptensor.ptensor<?x3x3xf64>
// CHECK-NOT: team_gather
// CHECK: return %[[L]], %[[U]]
func.func @triangles(%a: !ptensor.ptensor<?x4xf32, team = 1>, %b: !ptensor.ptensor<?x3x3xf64, team = 1>) -> (!ptensor.ptensor<?x4xf32, team = 1>, !ptensor.ptensor<?x3x3xf64, team = 1>) {
  %0 = ptensor.extract_triangle lower %a offset -1 : !ptensor.ptensor<?x4xf32, team = 1> -> !ptensor.ptensor<?x4xf32, team = 1>
  %1 = ptensor.extract_triangle upper %b : !ptensor.ptensor<?x3x3xf64, team = 1> -> !ptensor.ptensor<?x3x3xf64, team = 1>
  return %0, %1 : !ptensor.ptensor<?x4xf32, team = 1>, !ptensor.ptensor<?x3x3xf64, team = 1>
}

// meshgrid: the input varying along the results' rows (the second with
// xy indexing, the first with ij) keeps its block; the other is gathered.
// CHECK-LABEL: func.func @grids(
// CHECK: %[[X:.*]] = ptensor.team_gather %arg0, %c3 on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<3xf32>
// CHECK-NEXT: %[[XY:.*]]:2 = ptensor.meshgrid xy %[[X]], %arg1 : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<?xf32>) -> (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>)
// CHECK: %[[Y:.*]] = ptensor.team_gather %arg1, %{{.*}} on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[IJ:.*]]:2 = ptensor.meshgrid ij %arg0, %[[Y]] : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32>)
// CHECK: return %[[XY]]#0, %[[XY]]#1, %[[IJ]]#0, %[[IJ]]#1
func.func @grids(%x: !ptensor.ptensor<3xf32, team = 1>, %y: !ptensor.ptensor<?xf32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>) {
  %0:2 = ptensor.meshgrid xy %x, %y : (!ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>)
  %1:2 = ptensor.meshgrid ij %x, %y : (!ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> (!ptensor.ptensor<3x?xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>)
  return %0#0, %0#1, %1#0, %1#1 : !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>, !ptensor.ptensor<3x?xf32, team = 1>
}

// vecdot along another dim than the first: operands with the result's
// rows stay blocks, a vector of the contracted dim is gathered. Along the
// first dim: the blocks' products, summed over the team in f64 (f16 blocks
// contracted in f32; integers summed in their dtype), after a check that
// the global rows agree.
// CHECK-LABEL: func.func @dots(
// CHECK: %[[BL:.*]] = ptensor.broadcast %arg0
// CHECK: %[[BR:.*]] = ptensor.broadcast %arg1
// CHECK-NEXT: %[[D0:.*]] = ptensor.vecdot %[[BL]], %[[BR]] : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<?xf32>
// CHECK: cf.assert %{{.*}}, "ptensor.vecdot: the contracted first dims of two team tensors differ (their sizes summed over the team); they must be equal"
// CHECK-NEXT: %[[P1:.*]] = ptensor.vecdot %arg0, %arg1 {axis = 0 : i64} : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<3xf32>
// CHECK-NEXT: %[[W1:.*]] = ptensor.cast %[[P1]] : !ptensor.ptensor<3xf32> -> !ptensor.ptensor<3xf64>
// CHECK-NEXT: %[[S1:.*]] = ptensor.team_all_reduce sum %[[W1]] on @ptensor_team1 : !ptensor.ptensor<3xf64>
// CHECK-NEXT: %[[R1:.*]] = ptensor.cast %[[S1]] : !ptensor.ptensor<3xf64> -> !ptensor.ptensor<3xf32>
// CHECK-NEXT: %[[D1:.*]] = ptensor.team_block %[[R1]] on @ptensor_team1 : !ptensor.ptensor<3xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[V:.*]] = ptensor.team_gather %arg2, %c3 on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<3xf32>
// CHECK-NEXT: %[[D2:.*]] = ptensor.vecdot %arg0, %[[V]] : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<?xf32>
// CHECK: cf.assert
// CHECK-NEXT: %[[X:.*]] = ptensor.cast %arg3 : !ptensor.ptensor<?xf16> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[Y:.*]] = ptensor.cast %arg4 : !ptensor.ptensor<?xf16> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[P3:.*]] = ptensor.vecdot %[[X]], %[[Y]] : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<f32>
// CHECK-NEXT: %[[W3:.*]] = ptensor.cast %[[P3]] : !ptensor.ptensor<f32> -> !ptensor.ptensor<f64>
// CHECK-NEXT: %[[S3:.*]] = ptensor.team_all_reduce sum %[[W3]] on @ptensor_team1 : !ptensor.ptensor<f64>
// CHECK-NEXT: %[[D3:.*]] = ptensor.cast %[[S3]] : !ptensor.ptensor<f64> -> !ptensor.ptensor<f16>
// CHECK-NEXT: %[[P4:.*]] = ptensor.vecdot %arg5, %arg5 : (!ptensor.ptensor<?xi32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<i32>
// CHECK-NEXT: %[[D4:.*]] = ptensor.team_all_reduce sum %[[P4]] on @ptensor_team1 : !ptensor.ptensor<i32>
// CHECK-NEXT: return %[[D0]], %[[D1]], %[[D2]], %[[D3]], %[[D4]]
func.func @dots(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>, %v: !ptensor.ptensor<3xf32, team = 1>, %x: !ptensor.ptensor<?xf16, team = 1>, %y: !ptensor.ptensor<?xf16, team = 1>, %i: !ptensor.ptensor<?xi32, team = 1>) -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f16, team = 1>, !ptensor.ptensor<i32, team = 1>) {
  %0 = ptensor.vecdot %a, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %1 = ptensor.vecdot %a, %b {axis = 0 : i64} : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<3xf32, team = 1>
  %2 = ptensor.vecdot %a, %v : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %3 = ptensor.vecdot %x, %y : (!ptensor.ptensor<?xf16, team = 1>, !ptensor.ptensor<?xf16, team = 1>) -> !ptensor.ptensor<f16, team = 1>
  %4 = ptensor.vecdot %i, %i : (!ptensor.ptensor<?xi32, team = 1>, !ptensor.ptensor<?xi32, team = 1>) -> !ptensor.ptensor<i32, team = 1>
  return %0, %1, %2, %3, %4 : !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<f16, team = 1>, !ptensor.ptensor<i32, team = 1>
}

// nonzero and extract_mask: each process finds or masks its block (the
// first index made global with the block's first row), and the parts, of
// any size, are rebalanced into blocks (team_reblock uneven: the sizes
// allgathered, then one all-to-all); the input is not gathered.
// CHECK-LABEL: func.func @found(
// CHECK: %[[S:.*]] = ptensor.team_block_start
// CHECK-NEXT: %[[NZ:.*]]:2 = ptensor.nonzero %arg0 : !ptensor.ptensor<?x3xf32> -> (!ptensor.ptensor<?xi64>, !ptensor.ptensor<?xi64>)
// CHECK-NEXT: %[[S64:.*]] = arith.index_cast %[[S]] : index to i64
// CHECK-NEXT: %[[ROW:.*]] = ptensor.elementwise_binary add %[[NZ]]#0, %[[S64]]
// CHECK-NEXT: %[[C:.*]] = ptensor.dim %[[ROW]], 0
// CHECK-NEXT: %[[N:.*]] = ptensor.team_sum %[[C]] on @ptensor_team1
// CHECK-NEXT: %[[I0:.*]] = ptensor.team_reblock %[[ROW]], %[[N]] uneven rows %[[N]] x %c1 on @ptensor_team1 : !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xi64>
// CHECK-NEXT: %[[I1:.*]] = ptensor.team_reblock %[[NZ]]#1, %[[N]] uneven rows %[[N]] x %c1 on @ptensor_team1
// CHECK: cf.assert %{{.*}}, "ptensor.extract_mask: the first dims of a team tensor and its mask differ (their sizes summed over the team); they must be equal"
// CHECK-NEXT: %[[P:.*]] = ptensor.extract_mask %arg0, %arg1 : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?xi1>) -> !ptensor.ptensor<?x3xf32>
// CHECK-NEXT: %[[PC:.*]] = ptensor.dim %[[P]], 0
// CHECK-NEXT: %[[PN:.*]] = ptensor.team_sum %[[PC]] on @ptensor_team1
// CHECK-NEXT: %[[F:.*]] = ptensor.team_reblock %[[P]], %[[PN]] uneven rows %[[PN]] x %c3 on @ptensor_team1 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[MY:.*]] = ptensor.team_block_rows %[[PN]] on @ptensor_team1
// CHECK-NEXT: %[[M:.*]] = ptensor.reshape %[[F]] [%[[MY]], 3] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?x3xf32>
// CHECK-NOT: team_gather
// CHECK: return %[[I0]], %[[I1]], %[[M]]
func.func @found(%a: !ptensor.ptensor<?x3xf32, team = 1>, %m: !ptensor.ptensor<?xi1, team = 1>) -> (!ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) {
  %0:2 = ptensor.nonzero %a : !ptensor.ptensor<?x3xf32, team = 1> -> (!ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>)
  %1 = ptensor.extract_mask %a, %m : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?xi1, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  return %0#0, %0#1, %1 : !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?xi64, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>
}

// Contractions: x @ A and a tensordot over both first dims contract the
// blocks and sum the partial products (f64, one all-reduce); a batched
// matmul of two split batches keeps both blocks; a matmul or tensordot
// whose rows come from one operand gathers the other.
// CHECK-LABEL: func.func @contractions(
// CHECK: %[[XA:.*]] = ptensor.matmul %arg0, %arg1 : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?x4xf32>) -> !ptensor.ptensor<4xf32>
// CHECK-NEXT: %[[XA64:.*]] = ptensor.cast %[[XA]] : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf64>
// CHECK-NEXT: %[[XAS:.*]] = ptensor.team_all_reduce sum %[[XA64]] on @ptensor_team1 : !ptensor.ptensor<4xf64>
// CHECK-NEXT: %[[XAR:.*]] = ptensor.cast %[[XAS]] : !ptensor.ptensor<4xf64> -> !ptensor.ptensor<4xf32>
// CHECK-NEXT: %[[R0:.*]] = ptensor.team_block %[[XAR]] on @ptensor_team1
// CHECK-NEXT: %[[A:.*]] = ptensor.team_gather %arg2, %c10 on @ptensor_team1 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<10x3xf32>
// CHECK-NEXT: %[[R1:.*]] = ptensor.matmul %[[A]], %arg3 : (!ptensor.ptensor<10x3xf32>, !ptensor.ptensor<?x3x4xf32>) -> !ptensor.ptensor<?x10x4xf32>
// CHECK-NEXT: %[[R2:.*]] = ptensor.matmul %arg4, %arg5 : (!ptensor.ptensor<?x3x4xf32>, !ptensor.ptensor<?x4x2xf32>) -> !ptensor.ptensor<?x3x2xf32>
// CHECK-NEXT: %[[T:.*]] = ptensor.tensordot %arg2, %arg1 {lhs_axes = array<i64: 0>, rhs_axes = array<i64: 0>} : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x4xf32>) -> !ptensor.ptensor<3x4xf32>
// CHECK: ptensor.team_all_reduce sum
// CHECK: %[[R3:.*]] = ptensor.team_block
// CHECK-NEXT: %[[R4:.*]] = ptensor.tensordot %arg4, %[[A]] {lhs_axes = array<i64: 1>, rhs_axes = array<i64: 1>} : (!ptensor.ptensor<?x3x4xf32>, !ptensor.ptensor<10x3xf32>) -> !ptensor.ptensor<?x4x10xf32>
// CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]]
func.func @contractions(%x: !ptensor.ptensor<10xf32, team = 1>, %m: !ptensor.ptensor<10x4xf32, team = 1>, %a: !ptensor.ptensor<10x3xf32, team = 1>, %c: !ptensor.ptensor<2x3x4xf32, team = 1>, %g: !ptensor.ptensor<5x3x4xf32, team = 1>, %h: !ptensor.ptensor<5x4x2xf32, team = 1>) -> (!ptensor.ptensor<4xf32, team = 1>, !ptensor.ptensor<2x10x4xf32, team = 1>, !ptensor.ptensor<5x3x2xf32, team = 1>, !ptensor.ptensor<3x4xf32, team = 1>, !ptensor.ptensor<5x4x10xf32, team = 1>) {
  %0 = ptensor.matmul %x, %m : (!ptensor.ptensor<10xf32, team = 1>, !ptensor.ptensor<10x4xf32, team = 1>) -> !ptensor.ptensor<4xf32, team = 1>
  %1 = ptensor.matmul %a, %c : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<2x3x4xf32, team = 1>) -> !ptensor.ptensor<2x10x4xf32, team = 1>
  %2 = ptensor.matmul %g, %h : (!ptensor.ptensor<5x3x4xf32, team = 1>, !ptensor.ptensor<5x4x2xf32, team = 1>) -> !ptensor.ptensor<5x3x2xf32, team = 1>
  %3 = ptensor.tensordot %a, %m {lhs_axes = array<i64: 0>, rhs_axes = array<i64: 0>} : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<10x4xf32, team = 1>) -> !ptensor.ptensor<3x4xf32, team = 1>
  %4 = ptensor.tensordot %g, %a {lhs_axes = array<i64: 1>, rhs_axes = array<i64: 1>} : (!ptensor.ptensor<5x3x4xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<5x4x10xf32, team = 1>
  return %0, %1, %2, %3, %4 : !ptensor.ptensor<4xf32, team = 1>, !ptensor.ptensor<2x10x4xf32, team = 1>, !ptensor.ptensor<5x3x2xf32, team = 1>, !ptensor.ptensor<3x4xf32, team = 1>, !ptensor.ptensor<5x4x10xf32, team = 1>
}

// unique values: each process's distinct values are gathered in rank order
// (not the input) and made distinct again; the whole result keeps its
// block. unique counts: the block flattened (a view), sorted and exchanged
// as a sample sort does (every copy of a value reaches one process), the
// unique values and counts of what arrived rebalanced into blocks.
// CHECK-LABEL: func.func @distinct(
// CHECK: %[[P:.*]] = ptensor.unique values %arg0 : !ptensor.ptensor<?x3xf32> -> (!ptensor.ptensor<?xf32>)
// CHECK-NEXT: %[[C:.*]] = ptensor.dim %[[P]], 0
// CHECK-NEXT: %[[N:.*]] = ptensor.team_sum %[[C]] on @ptensor_team1
// CHECK-NEXT: %[[G:.*]] = ptensor.team_gather %[[P]], %[[N]] on @ptensor_team1 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[U:.*]] = ptensor.unique values %[[G]] : !ptensor.ptensor<?xf32> -> (!ptensor.ptensor<?xf32>)
// CHECK-NEXT: %[[B:.*]] = ptensor.team_block %[[U]] on @ptensor_team1
// CHECK: %[[F:.*]] = ptensor.reshape %arg0 [-1] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?xf32>
// CHECK-NEXT: %[[S:.*]] = ptensor.sort %[[F]] axis 0 : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
// CHECK: %[[R:.*]], %{{.*}} = ptensor.team_exchange %[[S]] at %{{.*}} on @ptensor_team1
// CHECK-NEXT: %[[UC:.*]]:2 = ptensor.unique counts %[[R]] : !ptensor.ptensor<?xf32> -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>)
// CHECK-NEXT: %[[K:.*]] = ptensor.dim %[[UC]]#0, 0
// CHECK-NEXT: %[[KS:.*]] = ptensor.team_sum %[[K]] on @ptensor_team1
// CHECK: ptensor.team_reblock %[[UC]]#1, %[[KS]] uneven rows %[[KS]] x %c1 on @ptensor_team1 : !ptensor.ptensor<?xi64> -> !ptensor.ptensor<?xi64>
// CHECK-NOT: team_gather %arg0
func.func @distinct(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi64, team = 1>) {
  %0 = ptensor.unique values %a : !ptensor.ptensor<?x3xf32, team = 1> -> (!ptensor.ptensor<?xf32, team = 1>)
  %1:2 = ptensor.unique counts %a : !ptensor.ptensor<?x3xf32, team = 1> -> (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi64, team = 1>)
  return %0, %1#1 : !ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xi64, team = 1>
}

// write (out=) into team tensors: each process writes its block of the
// value into its block of the destination, and into a view that keeps
// the rows (a slice of columns); the dynamic rows of the value and the
// destination are compared first (one sum of each, on every process).
// CHECK-LABEL: func.func @written(
// CHECK-SAME: %[[A:.*]]: !ptensor.ptensor<?x3xf32>, %[[B:.*]]: !ptensor.ptensor<?x3xf32>)
// CHECK: %[[RA:.*]] = ptensor.team_sum %{{.*}} on @ptensor_team1
// CHECK: %[[RB:.*]] = ptensor.team_sum %{{.*}} on @ptensor_team1
// CHECK: %[[RS:.*]] = arith.select %{{.*}}, %[[RB]], %[[RA]] : index
// CHECK: %[[S:.*]] = ptensor.elementwise_binary add
// CHECK-NEXT: %[[SAME:.*]] = arith.cmpi eq, %[[RS]], %[[RA]]
// CHECK-NEXT: cf.assert %[[SAME]], "ptensor.write: the value's rows differ from the team tensor written into"
// CHECK-NEXT: ptensor.write %[[S]] into %[[A]] : <?x3xf32>
// CHECK: %[[COLS:.*]] = ptensor.extract_slice %[[B]] [0, 2] [%{{.*}}, 2] [1, -1]
// CHECK: %[[D:.*]] = ptensor.elementwise_binary multiply %[[COLS]]
// CHECK: ptensor.write %[[D]] into %[[COLS]] : <?x2xf32>
// CHECK-NOT: team_gather
// CHECK: return
func.func @written(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<f32, team = 1> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  ptensor.write %0 into %a : !ptensor.ptensor<?x3xf32, team = 1>
  %n = ptensor.dim %b, 0 : !ptensor.ptensor<?x3xf32, team = 1>
  %cols = ptensor.extract_slice %b [0, 2] [%n, 2] [1, -1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x2xf32, team = 1>
  %c2 = arith.constant 2.0 : f32
  %d = ptensor.elementwise_binary multiply %cols, %c2 : (!ptensor.ptensor<?x2xf32, team = 1>, f32) -> !ptensor.ptensor<?x2xf32, team = 1>
  ptensor.write %d into %cols : !ptensor.ptensor<?x2xf32, team = 1>
  %1 = ptensor.reduce sum %a : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  return %1 : !ptensor.ptensor<f32, team = 1>
}

// A float sum with a requested dtype other than the input's: each element is
// cast to it first (here rounded to f16), as on one process, then summed in
// an f64 partial.
// CHECK-LABEL: func.func @sum_cast_first(
// CHECK: %[[H:.*]] = ptensor.cast %arg0 : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf16>
// CHECK: %[[P:.*]] = ptensor.reduce sum %[[H]] axes [0] {dtype = f64, ptensor.team_partial} : !ptensor.ptensor<?x3xf16> -> !ptensor.ptensor<3xf64>
// CHECK: ptensor.team_all_reduce sum %[[P]]
func.func @sum_cast_first(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<3xf16, team = 1> {
  %0 = ptensor.reduce sum %a axes [0] {dtype = f16} : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf16, team = 1>
  return %0 : !ptensor.ptensor<3xf16, team = 1>
}
