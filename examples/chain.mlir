// The fused chain exp(-((x*y+1.5)^2))*0.5+x with a row broadcast of y.
func.func @chain(%x: !ptensor.ptensor<?x?xf32>, %y: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?x?xf32> {
  %c15 = arith.constant 1.5 : f32
  %c05 = arith.constant 0.5 : f32
  %xy = ptensor.elementwise_binary multiply %x, %y : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?x?xf32>
  %a = ptensor.elementwise_binary add %xy, %c15 : (!ptensor.ptensor<?x?xf32>, f32) -> !ptensor.ptensor<?x?xf32>
  %sq = ptensor.elementwise_unary square %a : (!ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  %n = ptensor.elementwise_unary negative %sq : (!ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  %e = ptensor.elementwise_unary exp %n : (!ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  %h = ptensor.elementwise_binary multiply %e, %c05 : (!ptensor.ptensor<?x?xf32>, f32) -> !ptensor.ptensor<?x?xf32>
  %r = ptensor.elementwise_binary add %h, %x : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  return %r : !ptensor.ptensor<?x?xf32>
}
