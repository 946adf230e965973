// compile-team-size.test: a team function.
func.func @f(%a: !ptensor.ptensor<?x3xf32, team = 1>, %v: !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1> {
  %0 = ptensor.elementwise_binary subtract %a, %v : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  return %0 : !ptensor.ptensor<?x3xf32, team = 1>
}
