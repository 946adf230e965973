// REQUIRES: ptxas
// ptensor-compile runs ptxas on the kernels' PTX while the host code is
// lowered, optimized and generated, and puts the cubins in an object of
// their own, linked (or with -c merged) beside the host object
// (include/ptensor/Compiler/PendingCubins.h). The cubins must be the very ones the
// sequential pipeline's gpu-module-to-binary makes.
// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline -o %t.mlir
// RUN: ptensor-compile --mlir-disable-threading --target=cuda -c %s -o %t.one.o
// RUN: %python %S/Inputs/same_cubins.py %t.mlir %t.one.o | FileCheck %s
// CHECK: same cubin: f_kernel ({{[0-9]+}} bytes)
// With threads, the driver generates the kernels' PTX in parts
// (lib/Pipelines/KernelParts.cpp) and ptxas takes the parts together: the
// same kernels, with the same code, in a cubin whose symbol tables follow
// the parts' order.
// RUN: ptensor-compile --target=cuda -c %s -o %t.o
// RUN: %python %S/Inputs/same_cubins.py %t.mlir %t.o | FileCheck %s --check-prefix=PARTS
// PARTS: same kernels' code: f_kernel (12 kernels)

// With another kernel format the driver runs the whole pipeline as it is:
// the object embeds the PTX text.
// RUN: ptensor-compile --target=cuda --gpu-options=format=isa -c %s -o %t.isa.o
// RUN: llvm-strings %t.isa.o | FileCheck %s --check-prefix=ISA
// ISA: .visible .entry f_kernel(

// A ptxas that fails: its messages name the kernels, nothing is written.
// RUN: rm -rf %t.cuda %t.bad.so && mkdir -p %t.cuda/bin
// RUN: ln -s %cuda_home/nvvm %t.cuda/nvvm
// RUN: printf '#!/bin/sh\necho "ptxas fatal   : out of registers (a stand-in)" >&2\nexit 1\n' > %t.cuda/bin/ptxas && chmod +x %t.cuda/bin/ptxas
// RUN: not env CUDA_HOME=%t.cuda ptensor-compile --target=cuda %s -o %t.bad.so 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: test ! -e %t.bad.so
// FAIL: ptxas failed on the kernels of f_kernel: ptxas fatal   : out of registers (a stand-in)
// The JIT (ptensor-runner) reports it the same way, without aborting.
// RUN: not env CUDA_HOME=%t.cuda PTENSOR_DISABLE_CACHE=1 PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so ptensor-runner %s -e f --compile-only 2>&1 | FileCheck %s --check-prefix=JIT
// JIT: error: cannot JIT-compile {{.*}}: ptxas failed on the kernels of f_kernel: ptxas fatal   : out of registers (a stand-in)
// No ptxas in the toolkit (`cuda-path=` of the GPU options) nor on PATH: the
// driver says so before lowering, nothing is written; a ptxas found only on
// PATH is used, as gpu-module-to-binary does.
// RUN: rm -rf %t.empty %t.path && mkdir -p %t.empty/bin %t.path && ln -s %cuda_home/nvvm %t.empty/nvvm
// RUN: not env PATH=%t.path:/usr/bin:/bin %ptensor_tools/ptensor-compile --target=cuda --gpu-options=cuda-path=%t.empty %s -o %t.none.so 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: test ! -e %t.none.so
// NOPTXAS: ptxas is neither in {{.*}}.empty/bin nor on PATH; set CUDA_HOME to the CUDA toolkit
// RUN: ln -s %cuda_home/bin/ptxas %t.path/ptxas
// RUN: env PATH=%t.path:/usr/bin:/bin %ptensor_tools/ptensor-compile --target=cuda --gpu-options=cuda-path=%t.empty %s -o %t.onpath.so
// RUN: test -s %t.onpath.so
// And the JIT embeds real cubins (the stand-in driver refuses anything else).
// RUN: env PTENSOR_DISABLE_CACHE=1 PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so ptensor-runner %s -e f --compile-only | FileCheck %s --check-prefix=JITOK
// JITOK: compiled @f(

func.func @f(%a: !ptensor.ptensor<?x?xf32, device = "cuda:0">, %b: !ptensor.ptensor<?x?xi32, device = "cuda:0">) -> (!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xi32, device = "cuda:0">) {
  %0 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %1 = ptensor.elementwise_unary tanh %0 : (!ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %2 = ptensor.elementwise_binary pow %b, %b : (!ptensor.ptensor<?x?xi32, device = "cuda:0">, !ptensor.ptensor<?x?xi32, device = "cuda:0">) -> !ptensor.ptensor<?x?xi32, device = "cuda:0">
  return %1, %2 : !ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xi32, device = "cuda:0">
}
