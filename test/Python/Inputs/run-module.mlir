// Input of run-module.test: a result, a scalar parameter and an argument
// the function writes (out=).
func.func @scale_into(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>, %s: f32) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.elementwise_binary multiply %b, %s : (!ptensor.ptensor<?xf32>, f32) -> !ptensor.ptensor<?xf32>
  ptensor.write %0 into %a : !ptensor.ptensor<?xf32>
  %1 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %1 : !ptensor.ptensor<?xf32>
}
