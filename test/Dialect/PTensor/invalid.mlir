// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

// One case per verifier, inference and type parser message. An op whose
// result type cannot be inferred reports the reason, then MLIR's generic
// "failed to infer returned types".

//===----------------------------------------------------------------------===//
// The !ptensor.ptensor type
//===----------------------------------------------------------------------===//

// expected-error @below {{ptensor dtype must be one of i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64; got 'si32'}}
func.func private @dtype_signed(!ptensor.ptensor<4xsi32>)

// -----

// bool is i1: a 1-bit integer with signedness is no dtype.
// expected-error @below {{ptensor dtype must be one of i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64; got 'ui1'}}
func.func private @dtype_unsigned_bool(!ptensor.ptensor<4xui1>)

// -----

// expected-error @below {{ptensor dtype must be one of i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64; got 'complex<f32>'}}
func.func private @dtype_complex(!ptensor.ptensor<4xcomplex<f32>>)

// -----

// expected-error @below {{ptensor dtype must be one of i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64; got 'index'}}
func.func private @dtype_index(!ptensor.ptensor<4xindex>)

// -----

// expected-error @below {{expected a ptensor dtype (i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, bf16, f32, f64) after the shape}}
func.func private @dtype_missing(!ptensor.ptensor<4x>)

// -----

// expected-error @below {{ptensor dimension sizes must be >= 0 or '?', got -2}}
func.func private @negative_dim(!ptensor.ptensor<4x-2xf32>)

// -----

// expected-error @below {{unknown key 'layout' in ptensor type, expected 'device' or 'team'}}
func.func private @unknown_key(!ptensor.ptensor<4xf32, layout = 1>)

// -----

// expected-error @below {{'device' is given twice in ptensor type}}
func.func private @duplicate_key(!ptensor.ptensor<4xf32, device = "cuda", device = "cuda:1">)

// -----

// expected-error @below {{ptensor device must be a non-empty string (omit it for host memory)}}
func.func private @empty_device(!ptensor.ptensor<4xf32, device = "">)

// -----

// expected-error @below {{ptensor team must be >= 0, got -1}}
func.func private @negative_team(!ptensor.ptensor<4xf32, team = -1>)

//===----------------------------------------------------------------------===//
// Placement and broadcasting
//===----------------------------------------------------------------------===//

// -----

func.func @device_mismatch(%a: !ptensor.ptensor<4xf32>, %b: !ptensor.ptensor<4xf32, device = "cuda:0">) {
  // expected-error @below {{operands must be on the same device, but got host and "cuda:0"}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32, device = "cuda:0">) -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @team_mismatch(%a: !ptensor.ptensor<4xf32, team = 1>, %b: !ptensor.ptensor<4xf32, team = 2>) {
  // expected-error @below {{operands must belong to the same team, but got 1 and 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary_test less %a, %b : (!ptensor.ptensor<4xf32, team = 1>, !ptensor.ptensor<4xf32, team = 2>) -> !ptensor.ptensor<4xi1, team = 1>
  return
}

// -----

func.func @broadcast_incompatible(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{cannot broadcast shapes [2, 3] and [4]: sizes 3 and 4 of dimension -1 (right-aligned) differ and neither is 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<2x3xf32>
  return
}

// -----

func.func @broadcast_zero_vs_n(%c: !ptensor.ptensor<0x1xi1>, %x: !ptensor.ptensor<?x5xf32>, %y: !ptensor.ptensor<3x1xf32>) {
  // expected-error @below {{cannot broadcast shapes [0, 1] and [?, 5] and [3, 1]: sizes 0 and 3 of dimension -2 (right-aligned) differ and neither is 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.where %c, %x, %y : (!ptensor.ptensor<0x1xi1>, !ptensor.ptensor<?x5xf32>, !ptensor.ptensor<3x1xf32>) -> !ptensor.ptensor<3x5xf32>
  return
}

//===----------------------------------------------------------------------===//
// Operand dtypes of elementwise ops
//===----------------------------------------------------------------------===//

// -----

func.func @bitwise_on_float(%a: !ptensor.ptensor<4xi32>, %b: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{bitwise op 'bitwise_and' requires integer or bool operands, but got f32}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary bitwise_and %a, %b : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @bitwise_with_float_scalar(%a: !ptensor.ptensor<4xi32>, %s: f64) {
  // expected-error @below {{bitwise op 'bitwise_xor' requires integer or bool operands, but got f64}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary bitwise_xor %s, %a : (f64, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @unary_bitwise_on_float(%a: !ptensor.ptensor<4xbf16>) {
  // expected-error @below {{bitwise op 'bitwise_invert' requires integer or bool operands, but got bf16}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_unary bitwise_invert %a : (!ptensor.ptensor<4xbf16>) -> !ptensor.ptensor<4xbf16>
  return
}

// -----

func.func @shift_on_bool(%a: !ptensor.ptensor<4xi1>, %b: !ptensor.ptensor<4xi8>) {
  // expected-error @below {{shift op 'bitwise_left_shift' requires integer operands, but got i1 (bool)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary bitwise_left_shift %b, %a : (!ptensor.ptensor<4xi8>, !ptensor.ptensor<4xi1>) -> !ptensor.ptensor<4xi8>
  return
}

// -----

func.func @arithmetic_on_bool(%a: !ptensor.ptensor<4xi1>, %b: !ptensor.ptensor<4xi1>) {
  // expected-error @below {{arithmetic op 'add' requires an integer or float operand, but both operands are i1 (bool); cast one to an integer or float dtype first}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi1>) -> !ptensor.ptensor<4xi1>
  return
}

// -----

func.func @unary_arithmetic_on_bool(%a: !ptensor.ptensor<4xi1>) {
  // expected-error @below {{arithmetic op 'negative' requires an integer or float operand, but got i1 (bool); cast to an integer or float dtype first}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<4xi1>) -> !ptensor.ptensor<4xi1>
  return
}

// -----

func.func @ui64_with_signed(%a: !ptensor.ptensor<4xui64>, %b: !ptensor.ptensor<4xi8>) {
  // expected-error @below {{cannot promote 'ui64' with signed 'i8': no integer type holds both (cast one operand first)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xui64>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi64>
  return
}

// -----

func.func @all_scalar_operands(%a: f32, %b: f32) {
  // expected-error @below {{expected at least one ptensor operand, but all operands are builtin scalars}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary add %a, %b : (f32, f32) -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @where_condition_not_bool(%c: !ptensor.ptensor<4xi32>, %x: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{where condition must have dtype i1, but got i32}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.where %c, %x, %x : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Explicit result types must equal the inferred ones
//===----------------------------------------------------------------------===//

// -----

func.func @wrong_result_dtype(%a: !ptensor.ptensor<4xi32>) {
  // expected-error @below {{'ptensor.elementwise_unary' op inferred type(s) '!ptensor.ptensor<4xf32>' are incompatible with return type(s) of operation '!ptensor.ptensor<4xi32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi32>
  return
}

// -----

func.func @wrong_result_shape(%a: !ptensor.ptensor<4x1xf32>, %b: !ptensor.ptensor<5xf32>) {
  // expected-error @below {{'ptensor.elementwise_binary' op inferred type(s) '!ptensor.ptensor<4x5xf32>' are incompatible with return type(s) of operation '!ptensor.ptensor<4x?xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4x1xf32>, !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<4x?xf32>
  return
}

// -----

func.func @wrong_result_device(%a: !ptensor.ptensor<4xf32, device = "cuda">) {
  // expected-error @below {{'ptensor.elementwise_unary_test' op inferred type(s) '!ptensor.ptensor<4xi1, device = "cuda">' are incompatible with return type(s) of operation '!ptensor.ptensor<4xi1>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.elementwise_unary_test isinf %a : (!ptensor.ptensor<4xf32, device = "cuda">) -> !ptensor.ptensor<4xi1>
  return
}

//===----------------------------------------------------------------------===//
// pointwise and yield
//===----------------------------------------------------------------------===//

// -----

func.func @pointwise_arg_count(%a: !ptensor.ptensor<4xf32>, %b: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{'ptensor.pointwise' op body must take one scalar argument per input: expected 2 arguments, got 1}}
  %0 = ptensor.pointwise (%a, %b) promotion [DEFAULT] : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> (!ptensor.ptensor<4xf32>) {
  ^bb0(%x: f32):
    ptensor.yield %x : f32
  }
  return
}

// -----

func.func @pointwise_tensor_arg(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{'ptensor.pointwise' op body argument #0 must be a scalar (integer, index or float), got 'vector<4xf32>'}}
  %0 = ptensor.pointwise (%a) promotion [DEFAULT] : (!ptensor.ptensor<4xf32>) -> (!ptensor.ptensor<4xf32>) {
  ^bb0(%x: vector<4xf32>):
    %e = vector.extract %x[0] : f32 from vector<4xf32>
    ptensor.yield %e : f32
  }
  return
}

// -----

func.func @pointwise_yield_count(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{'ptensor.pointwise' op body must yield one scalar per output: expected 2 values, got 1}}
  %0:2 = ptensor.pointwise (%a) promotion [DEFAULT, ALWAYS_BOOL] : (!ptensor.ptensor<4xf32>) -> (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi1>) {
  ^bb0(%x: f32):
    ptensor.yield %x : f32
  }
  return
}

// -----

// Found by the libFuzzer target (tools/ptensor-fuzz-parse): the verifier
// cast the terminator to ptensor.yield before the terminator trait was
// checked (an assertion in checked builds, undefined behaviour otherwise).
func.func @pointwise_other_terminator(%a: f32) {
  // expected-error @below {{'ptensor.pointwise' op body must end with ptensor.yield}}
  %0 = ptensor.pointwise (%a) promotion [DEFAULT] : (f32) -> (!ptensor.ptensor<f32>) {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  }
  return
}

// -----

func.func @pointwise_yield_not_scalar(%a: !ptensor.ptensor<4xf32>, %v: vector<2xf32>) {
  // expected-error @below {{'ptensor.pointwise' op yielded value #0 must be a scalar (integer, index or float), got 'vector<2xf32>'}}
  %0 = ptensor.pointwise (%a) promotion [DEFAULT] : (!ptensor.ptensor<4xf32>) -> (!ptensor.ptensor<4xf32>) {
  ^bb0(%x: f32):
    ptensor.yield %v : vector<2xf32>
  }
  return
}

// -----

func.func @pointwise_result_count(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{'ptensor.pointwise' op inferred type(s) '!ptensor.ptensor<4xf32>', '!ptensor.ptensor<4xf32>' are incompatible with return type(s) of operation '!ptensor.ptensor<4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = "ptensor.pointwise"(%a) <{promotions = array<i32: 0, 1>}> ({
  ^bb0(%x: f32):
    ptensor.yield %x : f32
  }) : (!ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @pointwise_unknown_keyword(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{unknown promotion method 'INT_TO_LONG', expected DEFAULT, NO_OPMATH, INT_TO_FLOAT, ALWAYS_BOOL or BOOL_TO_LONG}}
  %0 = ptensor.pointwise (%a) promotion [INT_TO_LONG] : (!ptensor.ptensor<4xf32>) -> (!ptensor.ptensor<4xf32>) {
  ^bb0(%x: f32):
    ptensor.yield %x : f32
  }
  return
}

// -----

func.func @pointwise_unknown_method(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{unknown promotion method 7 (expected 0 to 4, DEFAULT to BOOL_TO_LONG)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = "ptensor.pointwise"(%a) <{promotions = array<i32: 7>}> ({
  ^bb0(%x: f32):
    ptensor.yield %x : f32
  }) : (!ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @pointwise_all_scalars(%a: f32) {
  // expected-error @below {{expected at least one ptensor operand, but all operands are builtin scalars}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.pointwise (%a) promotion [DEFAULT] : (f32) -> (!ptensor.ptensor<f32>) {
  ^bb0(%x: f32):
    ptensor.yield %x : f32
  }
  return
}

// -----

func.func @yield_outside_pointwise(%x: f32) {
  // expected-error @below {{'ptensor.yield' op expects parent op 'ptensor.pointwise'}}
  ptensor.yield %x : f32
}

//===----------------------------------------------------------------------===//
// Creation and movement
//===----------------------------------------------------------------------===//

// -----

func.func @create_dynamic_sizes(%n: index, %v: f32) {
  // expected-error @below {{'ptensor.create' op expected 2 dynamic size operand(s) for result type '!ptensor.ptensor<?x?xf32>', got 1}}
  %0 = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?x?xf32>
  return
}

// -----

func.func @arange_not_1d(%a: index) {
  // expected-error @below {{'ptensor.arange' op result must be a 1-D ptensor, got rank 2}}
  %0 = ptensor.arange %a, %a, %a : index -> !ptensor.ptensor<2x5xi64>
  return
}

// -----

func.func @linspace_not_1d(%a: f32, %n: index) {
  // expected-error @below {{'ptensor.linspace' op result must be a 1-D ptensor, got rank 0}}
  %0 = ptensor.linspace %a, %a, %n : f32 -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @from_ranked_shape(%t: tensor<4x5xf32>) {
  // expected-error @below {{'ptensor.from_ranked' op shape [4, 5] of 'tensor<4x5xf32>' does not match shape [4, 6] of '!ptensor.ptensor<4x6xf32>'}}
  %0 = ptensor.from_ranked %t : tensor<4x5xf32> -> !ptensor.ptensor<4x6xf32>
  return
}

// -----

func.func @from_ranked_dtype(%t: memref<4xi32>) {
  // expected-error @below {{'ptensor.from_ranked' op element type 'i32' does not match ptensor dtype 'f32'}}
  %0 = ptensor.from_ranked %t : memref<4xi32> -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @to_ranked_shape(%a: !ptensor.ptensor<4x?xf32>) {
  // expected-error @below {{'ptensor.to_ranked' op shape [4] of 'tensor<4xf32>' does not match shape [4, ?] of '!ptensor.ptensor<4x?xf32>'}}
  %0 = ptensor.to_ranked %a : !ptensor.ptensor<4x?xf32> -> tensor<4xf32>
  return
}

// -----

func.func @to_ranked_dtype(%a: !ptensor.ptensor<4xui8>) {
  // expected-error @below {{'ptensor.to_ranked' op element type 'i16' does not match ptensor dtype 'ui8'}}
  %0 = ptensor.to_ranked %a : !ptensor.ptensor<4xui8> -> tensor<4xi16>
  return
}

// -----

func.func @copy_dtype(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{'ptensor.copy' op copy keeps shape and dtype (use ptensor.cast to change the dtype), but got '!ptensor.ptensor<4xf32>' -> '!ptensor.ptensor<4xf16, device = "cuda">'}}
  %0 = ptensor.copy %a : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf16, device = "cuda">
  return
}

// -----

func.func @cast_shape(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{'ptensor.cast' op cast keeps the shape, but got [4] -> [?]}}
  %0 = ptensor.cast %a : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<?xi32>
  return
}

// -----

func.func @cast_device(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{'ptensor.cast' op cast keeps device and team (use ptensor.copy to move data), but got '!ptensor.ptensor<4xf32>' -> '!ptensor.ptensor<4xi32, device = "cuda">'}}
  %0 = ptensor.cast %a : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xi32, device = "cuda">
  return
}

// -----

func.func @broadcast_to_incompatible(%a: !ptensor.ptensor<3x1xf32>) {
  // expected-error @below {{'ptensor.broadcast' op cannot broadcast shape [3, 1] to shape [2, 4, 5]}}
  %0 = ptensor.broadcast %a to () : !ptensor.ptensor<3x1xf32> -> !ptensor.ptensor<2x4x5xf32>
  return
}

// -----

func.func @broadcast_to_lower_rank(%a: !ptensor.ptensor<1x5xf32>) {
  // expected-error @below {{'ptensor.broadcast' op cannot broadcast shape [1, 5] to shape [5]}}
  %0 = ptensor.broadcast %a to () : !ptensor.ptensor<1x5xf32> -> !ptensor.ptensor<5xf32>
  return
}

// -----

func.func @broadcast_dtype(%a: !ptensor.ptensor<5xf32>) {
  // expected-error @below {{'ptensor.broadcast' op broadcast keeps dtype, device and team, but got '!ptensor.ptensor<5xf32>' -> '!ptensor.ptensor<2x5xf64>'}}
  %0 = ptensor.broadcast %a to () : !ptensor.ptensor<5xf32> -> !ptensor.ptensor<2x5xf64>
  return
}

// -----

func.func @broadcast_dynamic_sizes(%a: !ptensor.ptensor<5xf32>, %n: index) {
  // expected-error @below {{'ptensor.broadcast' op expected 0 dynamic size operand(s) for result type '!ptensor.ptensor<2x5xf32>', got 1}}
  %0 = ptensor.broadcast %a to (%n) : !ptensor.ptensor<5xf32> -> !ptensor.ptensor<2x5xf32>
  return
}

// -----

func.func @dim_out_of_range(%a: !ptensor.ptensor<4x?xf32>) {
  // expected-error @below {{'ptensor.dim' op dimension 2 is out of range for a tensor of rank 2 (expected 0 <= dimension < 2)}}
  %0 = ptensor.dim %a, 2 : !ptensor.ptensor<4x?xf32>
  return
}

// -----

func.func @dim_negative(%a: !ptensor.ptensor<4x?xf32>) {
  // expected-error @below {{'ptensor.dim' op dimension -1 is out of range for a tensor of rank 2 (expected 0 <= dimension < 2)}}
  %0 = ptensor.dim %a, -1 : !ptensor.ptensor<4x?xf32>
  return
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

// -----

func.func @permute_dims_length(%a: !ptensor.ptensor<2x3x4xf32>) {
  // expected-error @below {{permute_dims needs a permutation of all 3 dimensions, but got 2 axes [1, 0]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<2x3x4xf32> -> !ptensor.ptensor<3x2x4xf32>
  return
}

// -----

func.func @permute_dims_not_permutation(%a: !ptensor.ptensor<2x3xf32>) {
  // expected-error @below {{expected distinct axes, but [1, -1] names dimension 1 twice}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.permute_dims %a [1, -1] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<3x3xf32>
  return
}

// -----

func.func @permute_dims_out_of_range(%a: !ptensor.ptensor<2x3xf32>) {
  // expected-error @below {{axis 2 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.permute_dims %a [2, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<3x2xf32>
  return
}

// -----

func.func @permute_dims_wrong_result(%a: !ptensor.ptensor<2x3xf32>) {
  // expected-error @below {{'ptensor.permute_dims' op inferred type(s) '!ptensor.ptensor<3x2xf32>' are incompatible with return type(s) of operation '!ptensor.ptensor<2x3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<2x3xf32>
  return
}

// -----

func.func @flip_repeated_axis(%a: !ptensor.ptensor<2x3xf32>) {
  // expected-error @below {{expected distinct axes, but [0, 0] names dimension 0 twice}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.flip %a [0, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<2x3xf32>
  return
}

// -----

func.func @flip_out_of_range(%a: !ptensor.ptensor<2x3xf32>) {
  // expected-error @below {{axis -3 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.flip %a [-3] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<2x3xf32>
  return
}

// -----

func.func @extract_slice_out_of_bounds(%a: !ptensor.ptensor<4x8xf32>) {
  // expected-error @below {{slice of dimension 1 reads elements 2 to 8, outside [0, 8)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_slice %a [0, 2] [4, 4] [1, 2] : !ptensor.ptensor<4x8xf32> -> !ptensor.ptensor<4x4xf32>
  return
}

// -----

func.func @extract_slice_negative_read(%a: !ptensor.ptensor<?xf32>) {
  // expected-error @below {{slice of dimension 0 reads elements 1 to -1, outside [0, ?)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_slice %a [1] [3] [-1] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<3xf32>
  return
}

// -----

// Found by scripts/fuzz-mlir.py under UBSan: the last element read was
// computed with an overflowing multiplication (undefined behaviour).
func.func @extract_slice_step_overflow(%a: !ptensor.ptensor<?x4xf32>) {
  // expected-error @below {{slice of dimension 1: offset 1 + (size 2 - 1) * step 9223372036854775807 overflows int64}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_slice %a [0, 1] [3, 2] [1, 9223372036854775807] : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<3x2xf32>
  return
}

// -----

func.func @extract_slice_zero_step(%a: !ptensor.ptensor<4x8xf32>) {
  // expected-error @below {{step of dimension 1 must be non-zero}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_slice %a [0, 0] [4, 4] [1, 0] : !ptensor.ptensor<4x8xf32> -> !ptensor.ptensor<4x4xf32>
  return
}

// -----

func.func @extract_slice_negative_size(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{size of dimension 0 must be >= 0, got -1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_slice %a [0] [-1] [1] : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @extract_slice_dynamic_size_negative_offset(%a: !ptensor.ptensor<4xf32>, %n: index) {
  // expected-error @below {{offset of dimension 0 must be >= 0 where its size is given at run time, got -1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_slice %a [-1] [%n] [1] : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<?xf32>
  return
}

// -----

func.func @extract_slice_size_operands(%a: !ptensor.ptensor<4xf32>, %n: index) {
  // expected-error @below {{extract_slice has 1 size operands for 0 dynamic sizes}}
  // expected-error @below {{failed to infer returned types}}
  %0 = "ptensor.extract_slice"(%a, %n) <{offsets = array<i64: 0>, sizes = array<i64: 4>, steps = array<i64: 1>}> : (!ptensor.ptensor<4xf32>, index) -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @extract_slice_list_length(%a: !ptensor.ptensor<4x8xf32>) {
  // expected-error @below {{extract_slice needs 2 offsets, sizes and steps (one per dimension), got 2, 1 and 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_slice %a [0, 0] [4] [1, 1] : !ptensor.ptensor<4x8xf32> -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @expand_dims_axis(%a: !ptensor.ptensor<2x3xf32>) {
  // expected-error @below {{axis 3 is out of range for a tensor of rank 2 (expected -3 <= axis < 3)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.expand_dims %a 3 : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<2x3x1xf32>
  return
}

// -----

func.func @squeeze_not_one(%a: !ptensor.ptensor<1x3xf32>) {
  // expected-error @below {{cannot squeeze dimension 1 of size 3: only static size-1 dimensions can be removed}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.squeeze %a [1] : !ptensor.ptensor<1x3xf32> -> !ptensor.ptensor<1xf32>
  return
}

// -----

func.func @squeeze_dynamic(%a: !ptensor.ptensor<?x3xf32>) {
  // expected-error @below {{cannot squeeze dimension 0 of size ?: only static size-1 dimensions can be removed}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.squeeze %a [0] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @strided_view_element_type(%t: tensor<4xf32>, %o: index, %s: index) {
  // expected-error @below {{'ptensor.strided_view' op expected the source element type 'f32', found 'f64'}}
  %0 = ptensor.strided_view %t to offset: %o, sizes: [], strides: [%s] : tensor<4xf32> to tensor<4xf64>
  return
}

// -----

func.func @strided_view_strides(%t: tensor<4xf32>, %o: index, %s: index) {
  // expected-error @below {{'ptensor.strided_view' op expected 2 strides (the view rank), found 1}}
  %0 = ptensor.strided_view %t to offset: %o, sizes: [], strides: [%s] : tensor<4xf32> to tensor<2x2xf32>
  return
}

// -----

func.func @strided_view_sizes(%t: tensor<4xf32>, %o: index, %s: index) {
  // expected-error @below {{'ptensor.strided_view' op expected 1 sizes (the dynamic view dimensions), found 0}}
  %0 = ptensor.strided_view %t to offset: %o, sizes: [], strides: [%s] : tensor<4xf32> to tensor<?xf32>
  return
}

// -----

// Scalar ops of pointwise bodies: operands in the kind's compute dtype, the
// kind's operand rule, `as` types that are dtypes stored by the operand type.
func.func @scalar_unary_compute_dtype(%a: !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.pointwise (%a) promotion [INT_TO_FLOAT] : (!ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xf32> {
  ^bb0(%x: i32):
    // expected-error @below {{expected operands in the dtype 'exp' computes in (f32), but got i32; convert them first with ptensor.scalar_cast}}
    %e = ptensor.scalar_unary exp %x : i32
    ptensor.yield %e : i32
  }
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

func.func @scalar_binary_operand_rule(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.pointwise (%a) promotion [DEFAULT] : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  ^bb0(%x: f32):
    // expected-error @below {{bitwise op 'bitwise_and' requires integer or bool operands, but got f32}}
    %e = ptensor.scalar_binary bitwise_and %x, %x : f32
    ptensor.yield %e : f32
  }
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

func.func @scalar_as_not_stored(%a: !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xi1> {
  %0 = ptensor.pointwise (%a) promotion [ALWAYS_BOOL] : (!ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xi1> {
  ^bb0(%x: i32):
    // expected-error @below {{expected an operand of type 'i8' (the storage of 'ui8'), but got 'i32'}}
    %e = ptensor.scalar_unary_test signbit %x as ui8 : i32
    ptensor.yield %e : i1
  }
  return %0 : !ptensor.ptensor<?xi1>
}

// -----

func.func @scalar_as_not_a_dtype(%a: !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xi1> {
  %0 = ptensor.pointwise (%a) promotion [ALWAYS_BOOL] : (!ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xi1> {
  ^bb0(%x: i32):
    // expected-error @below {{expected a ptensor dtype (i1, i8 ... i64, ui8 ... ui64, f16, bf16, f32, f64), but got 'i7'}}
    %e = ptensor.scalar_binary_test less %x, %x as i7 : i32
    ptensor.yield %e : i1
  }
  return %0 : !ptensor.ptensor<?xi1>
}

// -----

func.func @scalar_cast_target(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.pointwise (%a) promotion [DEFAULT] : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  ^bb0(%x: f32):
    // expected-error @below {{expected a ptensor dtype to cast to (i1, i8 ... i64, ui8 ... ui64, f16, bf16, f32, f64), but got 'index'}}
    %e = ptensor.scalar_cast %x to index : f32
    ptensor.yield %x : f32
  }
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

func.func @scalar_outside_pointwise(%x: f32) -> f32 {
  // expected-error @below {{'ptensor.scalar_unary' op expects parent op 'ptensor.pointwise'}}
  %e = ptensor.scalar_unary exp %x : f32
  return %e : f32
}

// -----

// The IR spells promotion methods exactly (frontends may take lowercase
// and FlagGems' COMPLEX_TO_FLOAT; the IR does not).
func.func @promotion_spelling(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{unknown promotion method 'default', expected DEFAULT, NO_OPMATH, INT_TO_FLOAT, ALWAYS_BOOL or BOOL_TO_LONG}}
  %0 = ptensor.pointwise (%a) promotion [default] : (!ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32> {
  ^bb0(%x: f32):
    ptensor.yield %x : f32
  }
  return
}
