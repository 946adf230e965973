// RUN: ptensor-opt %s -split-input-file --ptensor-define-bf16-libcalls | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --ptensor-to-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// A module using bf16 gets a weak __truncsfbf2 (LLVM's x86 lowering of some
// bf16 operations calls it; libgcc before GCC 13 lacks it): round to
// nearest even on the bits, NaN kept quiet.
// CHECK-LABEL: func.func @select_bf16(
// CHECK:       func.func @__truncsfbf2(%[[X:.*]]: f32) -> bf16 attributes {llvm.linkage = #llvm.linkage<weak>} {
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK:         %[[SEL:.*]] = arith.select %[[NAN]]
// CHECK:         %[[H:.*]] = arith.trunci %[[SEL]] {ptensor.bf16_rounding} : i32 to i16
// CHECK:         %[[R:.*]] = arith.bitcast %[[H]] {ptensor.bf16_rounding} : i16 to bf16
// CHECK:         return %[[R]] : bf16
// LLVM-LABEL:  llvm.func @select_bf16(
// LLVM:        llvm.func weak @__truncsfbf2(
func.func @select_bf16(%c: i1, %a: bf16, %b: bf16) -> bf16 {
  %0 = arith.select %c, %a, %b : bf16
  return %0 : bf16
}

// -----

// No bf16: nothing added.
// CHECK-LABEL: func.func @f32_only(
// CHECK-NOT:   __truncsfbf2
// LLVM-LABEL:  llvm.func @f32_only(
// LLVM-NOT:    __truncsfbf2
func.func @f32_only(%a: f32) -> f32 {
  return %a : f32
}

// -----

// A module that defines (or declares) the symbol itself keeps its own.
// CHECK-LABEL: func.func private @__truncsfbf2(f32) -> bf16
// CHECK-NOT:   func.func @__truncsfbf2
// LLVM-LABEL:  llvm.func @__truncsfbf2(f32) -> bf16 attributes {sym_visibility = "private"}
// LLVM-NOT:    llvm.func weak @__truncsfbf2
func.func private @__truncsfbf2(f32) -> bf16
func.func @memref_bf16(%m: memref<4xbf16>) {
  return
}
