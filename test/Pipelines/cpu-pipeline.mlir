// RUN: ptensor-opt %s -split-input-file --ptensor-to-cpu-pipeline | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --ptensor-to-cpu-pipeline | FileCheck %s --check-prefix=LLVM
// RUN: ptensor-opt %s -split-input-file --ptensor-to-cpu-pipeline=max-recompute-ops=0 | FileCheck %s --check-prefix=NORECOMPUTE

// ptensor-to-cpu-pipeline: ptensor ops on host data down to the LLVM
// dialect, with each elementwise chain fused into one loop nest.

// Nothing but the LLVM dialect is left (checked over the whole output).
// LLVM-NOT: ptensor.
// LLVM-NOT: linalg.
// LLVM-NOT: memref.
// LLVM-NOT: tensor.
// LLVM-NOT: bufferization.
// LLVM-NOT: scf.
// LLVM-NOT: cf.
// LLVM-NOT: arith.
// LLVM-NOT: math.
// LLVM-NOT: func.func
// LLVM-NOT: unrealized_conversion_cast
// LLVM-NOT: memrefCopy

// A chain add -> multiply -> negative is one loop nest per layout version
// (ptensor-coalesce-dims: the contiguous fast path, then the strided path):
// each scalar op appears once in each and only the result buffer is
// allocated.
// CHECK-LABEL: llvm.func @fused_chain(
// CHECK-COUNT-1: llvm.call @ptensor_rt_host_alloc
// CHECK-NOT:     llvm.call @ptensor_rt_host_alloc
// CHECK:         %[[S:.*]] = llvm.fadd %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %[[M:.*]] = llvm.fmul %[[S]], %{{.*}} : f32
// CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[M]] : f32
// CHECK:         llvm.store %[[N]], %{{.*}} : f32, !llvm.ptr
// CHECK:         %[[S2:.*]] = llvm.fadd %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %[[M2:.*]] = llvm.fmul %[[S2]], %{{.*}} : f32
// CHECK-NEXT:    %[[N2:.*]] = llvm.fneg %[[M2]] : f32
// CHECK:         llvm.store %[[N2]], %{{.*}} : f32, !llvm.ptr
// CHECK-NOT:     llvm.fadd
// CHECK-NOT:     llvm.fmul
// CHECK-NOT:     llvm.fneg
// CHECK-NOT:     llvm.call @ptensor_rt_host_alloc
// CHECK:         llvm.return
func.func @fused_chain(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  %1 = ptensor.elementwise_binary multiply %0, %a : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  %2 = ptensor.elementwise_unary negative %1 : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %2 : !ptensor.ptensor<?xf32>
}

// -----

// A cheap producer with two users is recomputed in both loop nests by
// default (two fadd per layout version, two result buffers, no temporary);
// with max-recompute-ops=0 it is computed once into a buffer both loops read
// (one fadd per layout version).
// CHECK-LABEL: llvm.func @shared_producer(
// CHECK-COUNT-4: llvm.fadd
// CHECK-NOT:     llvm.fadd
// NORECOMPUTE-LABEL: llvm.func @shared_producer(
// NORECOMPUTE-COUNT-2: llvm.fadd
// NORECOMPUTE-NOT:     llvm.fadd
// NORECOMPUTE:         llvm.fneg
// NORECOMPUTE:         llvm.fmul
func.func @shared_producer(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>) -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) {
  %p = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  %c1 = ptensor.elementwise_unary negative %p : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  %c2 = ptensor.elementwise_binary multiply %p, %p : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %c1, %c2 : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>
}

// -----

// f16 is computed in f32 and rounded once; a broadcast dynamic operand goes
// through the run-time shape check (its failure goes to the runtime with
// both shapes, an error for the caller; no abort left in the code).
// CHECK-LABEL: llvm.func @half_broadcast(
// CHECK:         llvm.call @ptensor_rt_broadcast_failed(
// CHECK-NOT:     llvm.call @abort
// CHECK:         llvm.call @ptensor_rt_host_alloc
// CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
// CHECK:         %[[S:.*]] = llvm.fadd %{{.*}}, %{{.*}} : f32
// CHECK:         %[[H:.*]] = llvm.fptrunc %[[S]] : f32 to f16
// CHECK:         llvm.store %[[H]], %{{.*}} : f16, !llvm.ptr
func.func @half_broadcast(%a: !ptensor.ptensor<?x3xf16>, %b: !ptensor.ptensor<?xf16>) -> !ptensor.ptensor<?x3xf16> {
  %s = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x3xf16>, !ptensor.ptensor<?xf16>) -> !ptensor.ptensor<?x3xf16>
  return %s : !ptensor.ptensor<?x3xf16>
}

// -----

// Writes through a flipped view into its own source, and a returned
// argument: copies are loops, never calls to the C runner utilities'
// memrefCopy (LLVM-NOT above covers the whole output).
// CHECK-LABEL: llvm.func @write_flipped_into_source(
// CHECK:         llvm.fadd
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @return_argument(
// CHECK:         llvm.return
func.func @write_flipped_into_source(%a: !ptensor.ptensor<?x3xf32>, %b: !ptensor.ptensor<3xf32>) {
  %fa = ptensor.flip %a [0] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
  %s = ptensor.elementwise_binary add %fa, %b : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<?x3xf32>
  ptensor.write %s into %a : !ptensor.ptensor<?x3xf32>
  return
}
func.func @return_argument(%a: !ptensor.ptensor<?xf16>) -> !ptensor.ptensor<?xf16> {
  return %a : !ptensor.ptensor<?xf16>
}

// -----

// Creation ops and math functions: libm calls for transcendental kinds.
// CHECK-LABEL: llvm.func @creation_and_libm(
// CHECK:         llvm.call @ptensor_rt_host_alloc
// CHECK:         llvm.call @expf(%{{.*}}) : (f32) -> f32
func.func @creation_and_libm(%n: index, %v: f32) -> !ptensor.ptensor<?xf32> {
  %c = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?xf32>
  %e = ptensor.elementwise_unary exp %c : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %e : !ptensor.ptensor<?xf32>
}

// -----

// Static broadcasting is an indexing map, not a copy: add of 4x1 and 5
// followed by exp is one 2-D loop nest per layout version (the fast path
// when the row is read with unit stride, the strided one otherwise): one
// branch and twice two loop headers, one buffer.
// CHECK-LABEL: llvm.func @static_broadcast_fused(
// CHECK-COUNT-1: llvm.call @ptensor_rt_host_alloc
// CHECK-COUNT-5: llvm.cond_br
// CHECK-NOT:     llvm.cond_br
// CHECK-NOT:     llvm.call @ptensor_rt_host_alloc
// CHECK:         llvm.return
func.func @static_broadcast_fused(%a: !ptensor.ptensor<4x1xf32>, %b: !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x5xf32>
  %1 = ptensor.elementwise_unary exp %0 : (!ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<4x5xf32>
  return %1 : !ptensor.ptensor<4x5xf32>
}
