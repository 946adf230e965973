// RUN: not ptensor-opt %s -split-input-file --ptensor-to-cpu-pipeline -o /dev/null 2>&1 | FileCheck %s

// Malformed or unsupported input to the pipeline gives a diagnostic located
// in this file and a non-zero exit, never a crash (`not` fails on a crash).

// CHECK: invalid-ir.mlir:[[@LINE+2]]:34: error: custom op 'ptensor.elementwise_unary' expected {{.*}}enum values for attribute 'kind'
func.func @unknown_kind(%a: !ptensor.ptensor<4xf32>) {
  %0 = ptensor.elementwise_unary frobnicate %a : (!ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  return
}

// -----

// CHECK: invalid-ir.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected a ptensor dtype (i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64) after the shape
func.func @bad_dtype(%a: !ptensor.ptensor<4xf7>) {
  return
}

// -----

// CHECK: invalid-ir.mlir:[[@LINE+2]]:8: error: operands must be on the same device, but got host and "cuda:0"
func.func @device_mismatch(%a: !ptensor.ptensor<4xf32>, %b: !ptensor.ptensor<4xf32, device = "cuda:0">) {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32, device = "cuda:0">) -> !ptensor.ptensor<4xf32>
  return
}

// -----

// CHECK: invalid-ir.mlir:[[@LINE+2]]:8: error: cannot broadcast shapes [4] and [5]
func.func @not_broadcastable(%a: !ptensor.ptensor<4xf32>, %b: !ptensor.ptensor<5xf32>) {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4xf32>
  return
}

// -----

// CHECK: invalid-ir.mlir:[[@LINE+2]]:8: error: 'ptensor.elementwise_binary' op inferred type(s) '!ptensor.ptensor<3xf32>' are incompatible with return type(s) of operation '!ptensor.ptensor<3xi8>'
func.func @wrong_result_dtype(%a: !ptensor.ptensor<3xi8>, %b: !ptensor.ptensor<3xui8>) {
  %0 = ptensor.elementwise_binary divide %a, %b : (!ptensor.ptensor<3xi8>, !ptensor.ptensor<3xui8>) -> !ptensor.ptensor<3xi8>
  return
}

// -----

// CHECK: invalid-ir.mlir:[[@LINE+2]]:8: error: {{.*}}reads elements 1 to -1
func.func @slice_out_of_bounds(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<3xf32> {
  %0 = ptensor.extract_slice %a [1] [3] [-1] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<3xf32>
  return %0 : !ptensor.ptensor<3xf32>
}

// -----

// Moving data to a GPU is not something the CPU pipeline can lower.
// CHECK: invalid-ir.mlir:[[@LINE+2]]:8: error: a copy from the host to "cuda:0" needs ptensor-to-nvvm-pipeline
func.func @gpu_copy_on_cpu(%a: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32, device = "cuda:0"> {
  %0 = ptensor.copy %a : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<4xf32, device = "cuda:0">
}

// -----

// CHECK: invalid-ir.mlir:[[@LINE+2]]:38: error: use of undeclared SSA value name
func.func @undefined_value(%a: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32> {
  %0 = ptensor.elementwise_unary exp %nope : (!ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

// CHECK: invalid-ir.mlir:[[@LINE+2]]:3: error: custom op 'ptensor.frobnicate' is unknown
func.func @unknown_op(%a: !ptensor.ptensor<4xf32>) {
  ptensor.frobnicate %a : !ptensor.ptensor<4xf32>
  return
}

// -----

// A truncated file is a parse error at its end.
// CHECK: invalid-ir.mlir:[[@LINE+2]]:{{[0-9]+}}: error: expected non-function type
func.func @truncated(%a: !ptensor.ptensor<4xf32>) {
  %0 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<4xf32>) ->
