// Transcendentals over 1-D host arrays (test/Integration/CPU/vector-math.test).
func.func @exp32(%x: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %r = ptensor.elementwise_unary exp %x : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
func.func @expm1_32(%x: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %r = ptensor.elementwise_unary expm1 %x : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
func.func @tanh32(%x: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %r = ptensor.elementwise_unary tanh %x : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
func.func @log32(%x: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %r = ptensor.elementwise_unary log %x : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
func.func @log1p64(%x: !ptensor.ptensor<?xf64>) -> !ptensor.ptensor<?xf64> {
  %r = ptensor.elementwise_unary log1p %x : (!ptensor.ptensor<?xf64>) -> !ptensor.ptensor<?xf64>
  return %r : !ptensor.ptensor<?xf64>
}
func.func @add32(%x: !ptensor.ptensor<?xf32>, %y: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %r = ptensor.elementwise_binary add %x, %y : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
