// Reductions of a 2-D f32 input for test/Integration/CPU/parallel.test
// (ptensor-runner --parallel): over rows, argmax over rows, max over
// columns, var of all.
func.func @reductions(%a: !ptensor.ptensor<?x?xf32>) -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<f32>) {
  %0 = ptensor.reduce sum %a axes [1] : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xf32>
  %1 = ptensor.find_index argmax %a axis 1 : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xi64>
  %2 = ptensor.reduce max %a axes [0] : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xf32>
  %3 = ptensor.reduce var %a : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<f32>
  return %0, %1, %2, %3 : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<f32>
}
