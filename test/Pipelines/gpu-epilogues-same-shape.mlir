// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline=format=isa | FileCheck %s

// Two layers relu(x @ w + b) of the same shape on a GPU: each product gets
// a zero fill of its own (ptensor-separate-inits; CSE had merged them and
// bufferization copied the shared one), so each one's sums have no other
// writer and both become cuBLASLt epilogue calls (bias and ReLU: flags 3).
// CHECK-LABEL: llvm.func @two_layers(
// CHECK-COUNT-2: llvm.call @ptensor_rt_gpu_gemm_epilogue(
// CHECK-NOT: llvm.call @ptensor_rt_gpu_gemm
// CHECK: llvm.return
func.func @two_layers(%x: !ptensor.ptensor<64x32xf32, device = "cuda:0">, %w1: !ptensor.ptensor<32x16xf32, device = "cuda:0">, %b1: !ptensor.ptensor<16xf32, device = "cuda:0">, %w2: !ptensor.ptensor<32x16xf32, device = "cuda:0">, %b2: !ptensor.ptensor<16xf32, device = "cuda:0">) -> (!ptensor.ptensor<64x16xf32, device = "cuda:0">, !ptensor.ptensor<64x16xf32, device = "cuda:0">) {
  %zero = arith.constant 0.0 : f32
  %p1 = ptensor.matmul %x, %w1 : (!ptensor.ptensor<64x32xf32, device = "cuda:0">, !ptensor.ptensor<32x16xf32, device = "cuda:0">) -> !ptensor.ptensor<64x16xf32, device = "cuda:0">
  %s1 = ptensor.elementwise_binary add %p1, %b1 : (!ptensor.ptensor<64x16xf32, device = "cuda:0">, !ptensor.ptensor<16xf32, device = "cuda:0">) -> !ptensor.ptensor<64x16xf32, device = "cuda:0">
  %r1 = ptensor.elementwise_binary maximum %s1, %zero : (!ptensor.ptensor<64x16xf32, device = "cuda:0">, f32) -> !ptensor.ptensor<64x16xf32, device = "cuda:0">
  %p2 = ptensor.matmul %x, %w2 : (!ptensor.ptensor<64x32xf32, device = "cuda:0">, !ptensor.ptensor<32x16xf32, device = "cuda:0">) -> !ptensor.ptensor<64x16xf32, device = "cuda:0">
  %s2 = ptensor.elementwise_binary add %p2, %b2 : (!ptensor.ptensor<64x16xf32, device = "cuda:0">, !ptensor.ptensor<16xf32, device = "cuda:0">) -> !ptensor.ptensor<64x16xf32, device = "cuda:0">
  %r2 = ptensor.elementwise_binary maximum %s2, %zero : (!ptensor.ptensor<64x16xf32, device = "cuda:0">, f32) -> !ptensor.ptensor<64x16xf32, device = "cuda:0">
  return %r1, %r2 : !ptensor.ptensor<64x16xf32, device = "cuda:0">, !ptensor.ptensor<64x16xf32, device = "cuda:0">
}

// A temporary deleted between the product and its epilogue: its buffer is
// freed there (ptensor-release-deleted), which neither the product nor the
// epilogue reads, so the epilogue still fuses.
// CHECK-LABEL: llvm.func @deleted_between(
// CHECK: llvm.call @ptensor_rt_gpu_gemm_epilogue(
// CHECK-NOT: llvm.call @ptensor_rt_gpu_gemm(
// CHECK: llvm.return
func.func @deleted_between(%x: !ptensor.ptensor<64x32xf32, device = "cuda:0">, %w1: !ptensor.ptensor<32x16xf32, device = "cuda:0">, %b1: !ptensor.ptensor<16xf32, device = "cuda:0">) -> (!ptensor.ptensor<64x16xf32, device = "cuda:0">, !ptensor.ptensor<f32, device = "cuda:0">) {
  %zero = arith.constant 0.0 : f32
  %t = ptensor.reduce sum %x axes [1] : !ptensor.ptensor<64x32xf32, device = "cuda:0"> -> !ptensor.ptensor<64xf32, device = "cuda:0">
  %m = ptensor.reduce max %t : !ptensor.ptensor<64xf32, device = "cuda:0"> -> !ptensor.ptensor<f32, device = "cuda:0">
  %p1 = ptensor.matmul %x, %w1 : (!ptensor.ptensor<64x32xf32, device = "cuda:0">, !ptensor.ptensor<32x16xf32, device = "cuda:0">) -> !ptensor.ptensor<64x16xf32, device = "cuda:0">
  ptensor.delete %t : !ptensor.ptensor<64xf32, device = "cuda:0">
  %s1 = ptensor.elementwise_binary add %p1, %b1 : (!ptensor.ptensor<64x16xf32, device = "cuda:0">, !ptensor.ptensor<16xf32, device = "cuda:0">) -> !ptensor.ptensor<64x16xf32, device = "cuda:0">
  %r1 = ptensor.elementwise_binary maximum %s1, %zero : (!ptensor.ptensor<64x16xf32, device = "cuda:0">, f32) -> !ptensor.ptensor<64x16xf32, device = "cuda:0">
  return %r1, %m : !ptensor.ptensor<64x16xf32, device = "cuda:0">, !ptensor.ptensor<f32, device = "cuda:0">
}
