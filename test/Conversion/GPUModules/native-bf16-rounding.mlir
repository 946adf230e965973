// RUN: ptensor-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(ptensor-native-bf16-rounding))' | FileCheck %s

// The bit form of an f32 -> bf16 rounding (what convert-ptensor-to-linalg
// builds, its last op marked ptensor.bf16_rounding) becomes one
// arith.truncf of the f32 input; the same form unmarked stays as it is.
// CHECK-LABEL: gpu.func @round
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[OUT:.*]]: memref<2xbf16>)
// CHECK: %[[NATIVE:.*]] = arith.truncf %[[X]] : f32 to bf16
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : i16 to bf16
// CHECK-NOT: ptensor.bf16_rounding
// CHECK: memref.store %[[NATIVE]], %[[OUT]][%{{.*}}]
// CHECK: memref.store %[[BITS]], %[[OUT]][%{{.*}}]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @round(%x: f32, %y: f32, %out: memref<2xbf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1i = arith.constant 1 : index
      %c16 = arith.constant 16 : i32
      %c1 = arith.constant 1 : i32
      %c7fff = arith.constant 32767 : i32
      %c64 = arith.constant 64 : i32
      %bits0 = arith.bitcast %x : f32 to i32
      %upper0 = arith.shrui %bits0, %c16 : i32
      %lsb0 = arith.andi %upper0, %c1 : i32
      %bias0 = arith.addi %lsb0, %c7fff : i32
      %biased0 = arith.addi %bits0, %bias0 : i32
      %rounded0 = arith.shrui %biased0, %c16 : i32
      %nan0 = arith.cmpf uno, %x, %x : f32
      %quiet0 = arith.ori %upper0, %c64 : i32
      %sel0 = arith.select %nan0, %quiet0, %rounded0 : i32
      %low0 = arith.trunci %sel0 : i32 to i16
      %r0 = arith.bitcast %low0 {ptensor.bf16_rounding} : i16 to bf16
      %bits1 = arith.bitcast %y : f32 to i32
      %upper1 = arith.shrui %bits1, %c16 : i32
      %lsb1 = arith.andi %upper1, %c1 : i32
      %bias1 = arith.addi %lsb1, %c7fff : i32
      %biased1 = arith.addi %bits1, %bias1 : i32
      %rounded1 = arith.shrui %biased1, %c16 : i32
      %nan1 = arith.cmpf uno, %y, %y : f32
      %quiet1 = arith.ori %upper1, %c64 : i32
      %sel1 = arith.select %nan1, %quiet1, %rounded1 : i32
      %low1 = arith.trunci %sel1 : i32 to i16
      %r1 = arith.bitcast %low1 : i16 to bf16
      memref.store %r0, %out[%c0] : memref<2xbf16>
      memref.store %r1, %out[%c1i] : memref<2xbf16>
      gpu.return
    }
  }
}

// -----

// A bf16 intermediate of a fused body: the rounding's bitcast to bf16 and
// the widening's bitcast back folded away, so only the marked trunci's bits
// are left, widened on the bits. They become the bits of one arith.truncf;
// the same form unmarked stays as it is.
// CHECK-LABEL: gpu.func @widened
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[OUT:.*]]: memref<2xf32>)
// CHECK: %[[NATIVE:.*]] = arith.truncf %[[X]] : f32 to bf16
// CHECK: %[[NBITS:.*]] = arith.bitcast %[[NATIVE]] : bf16 to i16
// CHECK: arith.extui %[[NBITS]] : i16 to i32
// CHECK: %[[KEPT:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK-NOT: ptensor.bf16_rounding
// CHECK: arith.extui %[[KEPT]] : i16 to i32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @widened(%x: f32, %y: f32, %out: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1i = arith.constant 1 : index
      %c16 = arith.constant 16 : i32
      %c1 = arith.constant 1 : i32
      %c7fff = arith.constant 32767 : i32
      %c64 = arith.constant 64 : i32
      %bits0 = arith.bitcast %x : f32 to i32
      %upper0 = arith.shrui %bits0, %c16 : i32
      %lsb0 = arith.andi %upper0, %c1 : i32
      %bias0 = arith.addi %lsb0, %c7fff : i32
      %biased0 = arith.addi %bits0, %bias0 : i32
      %rounded0 = arith.shrui %biased0, %c16 : i32
      %nan0 = arith.cmpf uno, %x, %x : f32
      %quiet0 = arith.ori %upper0, %c64 : i32
      %sel0 = arith.select %nan0, %quiet0, %rounded0 : i32
      %low0 = arith.trunci %sel0 {ptensor.bf16_rounding} : i32 to i16
      %wide0 = arith.extui %low0 : i16 to i32
      %shifted0 = arith.shli %wide0, %c16 : i32
      %f0 = arith.bitcast %shifted0 : i32 to f32
      %bits1 = arith.bitcast %y : f32 to i32
      %upper1 = arith.shrui %bits1, %c16 : i32
      %lsb1 = arith.andi %upper1, %c1 : i32
      %bias1 = arith.addi %lsb1, %c7fff : i32
      %biased1 = arith.addi %bits1, %bias1 : i32
      %rounded1 = arith.shrui %biased1, %c16 : i32
      %nan1 = arith.cmpf uno, %y, %y : f32
      %quiet1 = arith.ori %upper1, %c64 : i32
      %sel1 = arith.select %nan1, %quiet1, %rounded1 : i32
      %low1 = arith.trunci %sel1 : i32 to i16
      %wide1 = arith.extui %low1 : i16 to i32
      %shifted1 = arith.shli %wide1, %c16 : i32
      %f1 = arith.bitcast %shifted1 : i32 to f32
      memref.store %f0, %out[%c0] : memref<2xf32>
      memref.store %f1, %out[%c1i] : memref<2xf32>
      gpu.return
    }
  }
}
