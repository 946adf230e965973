// verify: assertion in ShapeOp::inferReturnTypes, run by the parser before the operand's type is verified (helper's audit of the libFuzzer target, tools/ptensor-fuzz-parse)
func.func @not_ptensor(%a: tensor<4xf32>) {
  %m = ptensor.shape %a : tensor<4xf32>
  return
}
