// REQUIRES: ptxas
// ptensor-runner's GPU path on a stand-in CUDA driver (runtime/tests/
// fake_cuda.c: host memory as device memory, kernels never run): the
// engine's global constructors load the embedded cubin before the first
// call, inputs go to the "device" and results come back. Copies are real
// there, so a host -> device -> host round trip must return its input.
// RUN: %python %S/../Inputs/make_npy.py %t.a.npy float32 3x5
// RUN: %python %S/../Inputs/make_npy.py %t.b.npy float32 3x5
// RUN: rm -rf %t.out %t.add
// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so PTENSOR_DISABLE_CACHE=1 ptensor-runner %s -e roundtrip --input %t.a.npy --output-dir %t.out
// RUN: %python -c "import numpy as np, sys; a, r = np.load('%t.a.npy'), np.load('%t.out/out0.npy'); sys.exit(0 if r.dtype == a.dtype and np.array_equal(a, r) else 'round trip changed the data')"

// A kernel launch: the module is loaded and the function found (values are
// not computed by the stand-in driver; only the shape is checked).
// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so PTENSOR_DISABLE_CACHE=1 ptensor-runner %s -e add --input %t.a.npy --input %t.b.npy --output-dir %t.add
// RUN: %python -c "import numpy as np, sys; r = np.load('%t.add/out0.npy'); sys.exit(0 if r.shape == (3, 5) else f'shape {r.shape}')"

func.func @roundtrip(%a: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32> {
  %d = ptensor.copy %a : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %h = ptensor.copy %d : !ptensor.ptensor<?x?xf32, device = "cuda:0"> -> !ptensor.ptensor<?x?xf32>
  return %h : !ptensor.ptensor<?x?xf32>
}

func.func @add(%a: !ptensor.ptensor<?x?xf32, device = "cuda:0">, %b: !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?x?xf32, device = "cuda:0">
}
