// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline="parallel=true min-task-size=1024" | FileCheck %s
// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline | FileCheck %s --check-prefix=SERIAL

// With parallel=true the fused loop nest is split into tasks on MLIR's async
// runtime; without it there are no runtime calls.
// CHECK-LABEL: llvm.func @scale
// CHECK: llvm.call @mlirAsyncRuntimeCreateGroup
// CHECK: llvm.call @mlirAsyncRuntimeAwaitAllInGroup
// SERIAL-LABEL: llvm.func @scale
// SERIAL-NOT: mlirAsyncRuntime
func.func @scale(%x: !ptensor.ptensor<?x?xf32>, %s: f32) -> !ptensor.ptensor<?x?xf32> {
  %r = ptensor.elementwise_binary multiply %x, %s : (!ptensor.ptensor<?x?xf32>, f32) -> !ptensor.ptensor<?x?xf32>
  %e = ptensor.elementwise_unary exp %r : (!ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  return %e : !ptensor.ptensor<?x?xf32>
}
