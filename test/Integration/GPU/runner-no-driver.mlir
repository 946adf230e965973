// REQUIRES: ptxas
// ptensor-runner on a module with "cuda" tensors compiles it with
// ptensor-to-nvvm-pipeline (cubin by ptxas): --compile-only stops there,
// which works without a GPU. Running it without a CUDA driver (the runtime
// is pointed at a missing one, so this also holds on a GPU machine) fails at
// the first driver call with the runtime's message, a non-zero exit and no
// output file.
// RUN: %python %S/../Inputs/make_npy.py %t.a.npy float32 2x3
// RUN: %python %S/../Inputs/make_npy.py %t.b.npy float32 2x3
// RUN: rm -rf %t.out

// RUN: ptensor-runner %s -e add --compile-only --input %t.a.npy --input %t.b.npy | FileCheck %s --check-prefix=COMPILE
// COMPILE: compiled @add(!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xf32, device = "cuda:0">)

// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so not ptensor-runner %s -e add --input %t.a.npy --input %t.b.npy --output-dir %t.out 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: error: @add runs on a GPU: ptensor runtime: no CUDA driver found (dlopen /nonexistent/libcuda.so failed
// RUN: not ls %t.out

// --compile-only needs no inputs.
// RUN: ptensor-runner %s -e add --compile-only | FileCheck %s --check-prefix=COMPILE

// ptensor-compile picks the GPU target for a module on GPU tensors.
// RUN: ptensor-compile %s -o %t.so
// RUN: %python -c "import json, subprocess, sys; sys.exit(0 if b'ptensor_module_signature' in open('%t.so','rb').read() else 1)"

// The host-to-device copy path compiles too.
// RUN: ptensor-runner %s -e roundtrip --compile-only --input %t.a.npy | FileCheck %s --check-prefix=COPY
// COPY: compiled @roundtrip(!ptensor.ptensor<?x?xf32>)

func.func @add(%a: !ptensor.ptensor<?x?xf32, device = "cuda:0">, %b: !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?x?xf32, device = "cuda:0">
}

func.func @roundtrip(%a: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32> {
  %d = ptensor.copy %a : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %e = ptensor.elementwise_unary exp %d : (!ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %h = ptensor.copy %e : !ptensor.ptensor<?x?xf32, device = "cuda:0"> -> !ptensor.ptensor<?x?xf32>
  return %h : !ptensor.ptensor<?x?xf32>
}
