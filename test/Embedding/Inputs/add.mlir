// Input of external-project.test: a broadcast add and a scalar multiply.
func.func @add(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<2x3xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<2x3xf32>
  return %c : !ptensor.ptensor<2x3xf32>
}

func.func @scale(%x: !ptensor.ptensor<?xf64>, %s: f64) -> !ptensor.ptensor<?xf64> {
  %0 = ptensor.elementwise_binary multiply %x, %s : (!ptensor.ptensor<?xf64>, f64) -> !ptensor.ptensor<?xf64>
  return %0 : !ptensor.ptensor<?xf64>
}
