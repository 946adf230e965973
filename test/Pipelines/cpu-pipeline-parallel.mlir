// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline="parallel=true num-threads=4 min-task-size=1024" | FileCheck %s
// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline | FileCheck %s --check-prefix=SERIAL

// With parallel=true the fused loop nest is an OpenMP worksharing loop on
// `num-threads` threads, taken when the nest has at least 2 x min-task-size
// iterations (rows x columns), and a serial copy on the calling thread
// otherwise; the loop body is not wrapped in an alloca scope (a stack
// save/restore per iteration would keep LLVM from vectorizing it). Host
// buffers come from the runtime's caching allocator. Without parallel=true
// there are no OpenMP regions.
// CHECK-LABEL: llvm.func @scale
// CHECK-DAG:     %[[LIMIT:.*]] = llvm.mlir.constant(2048 : index) : i64
// CHECK-DAG:     %[[THREADS:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK:         llvm.call @ptensor_rt_host_alloc
// The contiguous fast path (one coalesced dim) ...
// CHECK:         %[[LARGE:.*]] = llvm.icmp "sge" %{{.*}}, %[[LIMIT]] : i64
// CHECK:         llvm.cond_br %[[LARGE]], ^[[PAR:.*]], ^[[SER:bb[0-9]+]]
// CHECK:       ^[[PAR]]:
// CHECK-NEXT:    omp.parallel num_threads(%[[THREADS]] : i32)
// CHECK:           omp.wsloop
// CHECK:             omp.loop_nest (%{{.*}}) : i64
// CHECK-NOT:           llvm.intr.stacksave
// CHECK:               llvm.call @expf
// CHECK:               omp.yield
// CHECK:       ^[[SER]]:
// CHECK-NOT:     omp.
// CHECK:         llvm.call @expf
// ... and the strided one (both dims).
// CHECK:         omp.parallel num_threads(%[[THREADS]] : i32)
// CHECK:             omp.loop_nest (%{{.*}}, %{{.*}}) : i64
// SERIAL-LABEL: llvm.func @scale
// SERIAL-NOT: omp.
func.func @scale(%x: !ptensor.ptensor<?x?xf32>, %s: f32) -> !ptensor.ptensor<?x?xf32> {
  %r = ptensor.elementwise_binary multiply %x, %s : (!ptensor.ptensor<?x?xf32>, f32) -> !ptensor.ptensor<?x?xf32>
  %e = ptensor.elementwise_unary exp %r : (!ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  return %e : !ptensor.ptensor<?x?xf32>
}
