// verify: stderr has 'runtime error:' (signed overflow adding the shifts of a repeated axis in semantics::rollShifts; audit of the libFuzzer target)
func.func @r(%a: !ptensor.ptensor<?x4x4xf32>) {
  %1 = ptensor.roll %a shifts [4611686018427387904] axes [1, -2] : !ptensor.ptensor<?x4x4xf32> -> !ptensor.ptensor<?x4x4xf32>
  return
}
