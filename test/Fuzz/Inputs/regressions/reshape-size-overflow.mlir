// verify: stderr has 'runtime error:' (mutant 203 of test/Dialect/PTensor/manipulation-invalid.mlir#3)
func.func @reshape_indivisible(%a: !ptensor.ptensor<4x6xf32>) {
  %0 = ptensor.reshape %a [5, 9223372036854775807] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<5x?xf32>
  return
}
