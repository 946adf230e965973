// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

// One case per message of the reductions' type inference
// (ptensor/Semantics/Reductions.cpp).

func.func @axis_out_of_range(%a: !ptensor.ptensor<4x5xf32>) {
  // expected-error @below {{axis 2 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce sum %a axes [2] : !ptensor.ptensor<4x5xf32> -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @negative_axis_out_of_range(%a: !ptensor.ptensor<4x5xf32>) {
  // expected-error @below {{axis -3 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.test any %a axes [-3] : !ptensor.ptensor<4x5xf32> -> !ptensor.ptensor<4xi1>
  return
}

// -----

func.func @repeated_axis(%a: !ptensor.ptensor<4x5xf32>) {
  // expected-error @below {{expected distinct axes, but [1, -1] names dimension 1 twice}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce max %a axes [1, -1] : !ptensor.ptensor<4x5xf32> -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @mean_of_integers(%a: !ptensor.ptensor<4xi32>) {
  // expected-error @below {{mean needs a floating-point input, but got i32 (the array API defines it for floats only; cast first)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce mean %a : !ptensor.ptensor<4xi32> -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @var_of_bool(%a: !ptensor.ptensor<4xi1>) {
  // expected-error @below {{var needs a floating-point input, but got i1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce var %a : !ptensor.ptensor<4xi1> -> !ptensor.ptensor<i1>
  return
}

// -----

func.func @negative_correction(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{the correction of std must be a finite number >= 0, but got -1.000000}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce std %a {correction = -1.0 : f64} : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @correction_of_sum(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{sum takes no correction (only var and std do), but got 1.000000}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce sum %a {correction = 1.0 : f64} : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @dtype_of_max(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{max takes no result dtype (only sum and prod do), but got f64}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce max %a {dtype = f64} : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<f64>
  return
}

// -----

func.func @dtype_not_a_dtype(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{expected a ptensor dtype as the result dtype (i1, i8 ... i64, ui8 ... ui64, f16, bf16, f32, f64), but got 'index'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce sum %a {dtype = index} : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @empty_max(%a: !ptensor.ptensor<3x0xf32>) {
  // expected-error @below {{max of an empty axis: dimension 1 of [3, 0] has size 0, and max has no identity}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce max %a axes [1] : !ptensor.ptensor<3x0xf32> -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @empty_argmin_flattened(%a: !ptensor.ptensor<0x4xi8>) {
  // expected-error @below {{argmin of an empty axis: dimension 0 of [0, 4] has size 0, and argmin has no identity}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.find_index argmin %a : !ptensor.ptensor<0x4xi8> -> !ptensor.ptensor<i64>
  return
}

// -----

func.func @find_index_axis_out_of_range(%a: !ptensor.ptensor<4xi8>) {
  // expected-error @below {{axis 1 is out of range for a tensor of rank 1 (expected -1 <= axis < 1)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.find_index argmax %a axis 1 : !ptensor.ptensor<4xi8> -> !ptensor.ptensor<i64>
  return
}

// -----

// The result keeps the input's device (and team): another one is rejected.
func.func @device_mismatch(%a: !ptensor.ptensor<4xf32, device = "cuda:0">) {
  // expected-error @below {{'ptensor.reduce' op inferred type(s) '!ptensor.ptensor<f32, device = "cuda:0">' are incompatible with return type(s) of operation '!ptensor.ptensor<f32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce sum %a : !ptensor.ptensor<4xf32, device = "cuda:0"> -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @team_mismatch(%a: !ptensor.ptensor<4xf32, team = 1>) {
  // expected-error @below {{'ptensor.test' op inferred type(s) '!ptensor.ptensor<i1, team = 1>' are incompatible with return type(s) of operation '!ptensor.ptensor<i1, team = 2>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.test all %a : !ptensor.ptensor<4xf32, team = 1> -> !ptensor.ptensor<i1, team = 2>
  return
}

// -----

func.func @wrong_result_dtype(%a: !ptensor.ptensor<4xi32>) {
  // expected-error @below {{'ptensor.reduce' op inferred type(s) '!ptensor.ptensor<i64>' are incompatible with return type(s) of operation '!ptensor.ptensor<i32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reduce sum %a : !ptensor.ptensor<4xi32> -> !ptensor.ptensor<i32>
  return
}
