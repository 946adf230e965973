// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline=format=isa | FileCheck %s

// relu(x @ w + b) with dynamic sizes on a GPU: the broadcast pass reads the
// sums and the bias through views (either may broadcast at run time) and
// checks the sizes between the product and its consumer. The bias and ReLU
// are still cuBLASLt's epilogue (flags 3), called where the sums' view is
// the sums; elsewhere the generated product and consumer run (GPU kernels).
// CHECK-LABEL: llvm.func @dynamic_linear(
// CHECK: llvm.cond_br
// CHECK: llvm.call @ptensor_rt_gpu_gemm_epilogue(
// CHECK-NOT: llvm.call @ptensor_rt_gpu_gemm(
// CHECK: gpu.launch_func
// CHECK: llvm.return
func.func @dynamic_linear(%x: !ptensor.ptensor<?x?xf32, device = "cuda:0">, %w: !ptensor.ptensor<?x?xf32, device = "cuda:0">, %b: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0"> {
  %zero = arith.constant 0.0 : f32
  %p = ptensor.matmul %x, %w : (!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %s = ptensor.elementwise_binary add %p, %b : (!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %r = ptensor.elementwise_binary maximum %s, %zero : (!ptensor.ptensor<?x?xf32, device = "cuda:0">, f32) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  return %r : !ptensor.ptensor<?x?xf32, device = "cuda:0">
}
