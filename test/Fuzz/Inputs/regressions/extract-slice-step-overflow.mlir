// verify: stderr has 'runtime error:' (mutant 1923 of test/Pipelines/nvvm-pipeline-inplace.mlir#2)
func.func @multiply_into_strided_view(%x: !ptensor.ptensor<3x2xf32, device = "cuda:0">, %s: f32, %out: !ptensor.ptensor<?x4xf32, device = "cuda:0">) {
  %v = ptensor.extract_slice %out [0, 1] [3, 2] [1, 9223372036854775807] : !ptensor.ptensor<?x4xf32, device = "cuda:0"> -> !ptensor.ptensor<3x2xf32, device = "cuda:0">
  %0 = ptensor.elementwise_binary multiply %x, %s : (!ptensor.ptensor<3x2xf32, device = "cuda:0">, f32) -> !ptensor.ptensor<3x2xf32, device = "cuda:0">
  ptensor.write %0 into %v : !ptensor.ptensor<3x2xf32, device = "cuda:0">
  return
}
