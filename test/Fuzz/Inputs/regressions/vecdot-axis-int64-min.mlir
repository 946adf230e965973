// verify: stderr has 'runtime error:' (mutant 3453 of test/Dialect/PTensor/contractions-invalid.mlir#8)
func.func @vecdot_axis_positive(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<2x3xf32>) {
  %0 = ptensor.vecdot %a, %b {axis = -9223372036854775808 : i64} : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<2xf32>
  return
}
