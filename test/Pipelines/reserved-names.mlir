// Functions named like what compiled code calls or adds are refused before
// lowering, on both pipelines, with a message naming the owner (they were a
// type mismatch deep in math-to-libm, or would interpose on the library).
// RUN: ptensor-opt %s -split-input-file -verify-diagnostics --ptensor-to-cpu-pipeline
// RUN: ptensor-opt %s -split-input-file -verify-diagnostics --convert-ptensor-to-linalg
// And a ptensor-compile of it fails with the message, writing nothing.
// RUN: rm -f %t.so && not ptensor-compile %s -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so
// CHECK: error: function @expf has a name compiled code reserves (the C math library's expf); rename it

// expected-error @+1 {{function @expf has a name compiled code reserves (the C math library's expf); rename it}}
func.func @expf(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

// expected-error @+1 {{function @sin has a name compiled code reserves (the C math library's sin); rename it}}
func.func @sin(%a: !ptensor.ptensor<?xf64>) -> !ptensor.ptensor<?xf64> {
  return %a : !ptensor.ptensor<?xf64>
}

// -----

// expected-error @+1 {{function @memcpy has a name compiled code reserves (the C library's memcpy); rename it}}
func.func @memcpy(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  return %a : !ptensor.ptensor<?xf32>
}

// -----

// expected-error @+1 {{function @ptensor_rt_mine has a name compiled code reserves (libptensor_runtime's functions (prefix ptensor_rt_)); rename it}}
func.func @ptensor_rt_mine(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  return %a : !ptensor.ptensor<?xf32>
}

// -----

// expected-error @+1 {{function @_mlir_ciface_f has a name compiled code reserves (the C-interface entry points the compiler adds (prefix _mlir_)); rename it}}
func.func @_mlir_ciface_f(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  return %a : !ptensor.ptensor<?xf32>
}

// -----

// expected-error @+1 {{function @ptensor_module_signature has a name compiled code reserves (the module's signature that the compiler adds); rename it}}
func.func @ptensor_module_signature(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  return %a : !ptensor.ptensor<?xf32>
}

// -----

// expected-error @+1 {{function @ptensor.vector_math.expf has a name compiled code reserves (the host math functions the compiler adds (prefix ptensor.vector_math.)); rename it}}
func.func @ptensor.vector_math.expf(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  return %a : !ptensor.ptensor<?xf32>
}

// -----

// Near misses are fine: other names, and declarations (not defined here).
func.func private @expf_helper(f32) -> f32
func.func @exponential(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %0 : !ptensor.ptensor<?xf32>
}
