// verify: stderr has 'runtime error:' (mutant 1132 of test/Pipelines/invalid-ir.mlir#5)
func.func @slice_out_of_bounds(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<3xf32> {
  %0 = ptensor.extract_slice %a [1] [3] [9223372036854775807] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<3xf32>
  return %0 : !ptensor.ptensor<3xf32>
}
