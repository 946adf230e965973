// RUN: ptensor-opt %s --ptensor-partition-teams=team-size=2 | FileCheck %s
// ptensor-partition-teams run without ptensor-broadcast before it: an
// elementwise op may see a static single-row operand beside operands of
// the result's rows. The result's global rows are those of an operand
// with its rows, never the single row's 1.

// CHECK-LABEL: func.func @single_row_first(
// CHECK: %[[D:.*]] = ptensor.dim %arg1, 0
// CHECK: %[[N:.*]] = ptensor.team_sum %[[D]] on @ptensor_team1
// CHECK: return %{{.*}}, %[[N]]
func.func @single_row_first(%r: !ptensor.ptensor<1x3xf32, team = 1>, %a: !ptensor.ptensor<?x3xf32, team = 1>) -> (!ptensor.ptensor<?x3xf32, team = 1>, index) {
  %0 = ptensor.elementwise_binary add %r, %a : (!ptensor.ptensor<1x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %n = ptensor.dim %0, 0 : !ptensor.ptensor<?x3xf32, team = 1>
  return %0, %n : !ptensor.ptensor<?x3xf32, team = 1>, index
}
