// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

// One case per message of sort/argsort/nonzero type inference
// (ptensor/Semantics/Sorting.cpp, Searching.cpp) and of ptensor.sort_along's
// verifier (SortingOps.cpp).

func.func @sort_0d(%a: !ptensor.ptensor<f32>) {
  // expected-error @below {{sort of a 0-d tensor (expected a tensor of rank 1 or more)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.sort %a : !ptensor.ptensor<f32> -> !ptensor.ptensor<f32>
  return
}

// -----

func.func @argsort_axis(%a: !ptensor.ptensor<3x4xf32>) {
  // expected-error @below {{argsort: axis 2 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.argsort %a axis 2 : !ptensor.ptensor<3x4xf32> -> !ptensor.ptensor<3x4xi64>
  return
}

// -----

func.func @argsort_type(%a: !ptensor.ptensor<3x4xf32>) {
  // expected-error @below {{'ptensor.argsort' op inferred type(s) '!ptensor.ptensor<3x4xi64>' are incompatible with return type(s) of operation '!ptensor.ptensor<3x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.argsort %a : !ptensor.ptensor<3x4xf32> -> !ptensor.ptensor<3x4xf32>
  return
}

// -----

func.func @nonzero_0d(%a: !ptensor.ptensor<i32>) {
  // expected-error @below {{nonzero of a 0-d tensor (expected a tensor of rank 1 or more)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.nonzero %a : !ptensor.ptensor<i32> -> (!ptensor.ptensor<?xi64>)
  return
}

// -----

func.func @nonzero_results(%a: !ptensor.ptensor<3x4xi32>) {
  // expected-error @below {{'ptensor.nonzero' op inferred type(s) '!ptensor.ptensor<?xi64>', '!ptensor.ptensor<?xi64>' are incompatible with return type(s) of operation '!ptensor.ptensor<?xi64>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.nonzero %a : !ptensor.ptensor<3x4xi32> -> (!ptensor.ptensor<?xi64>)
  return
}

// -----

func.func @sort_along_dim(%k: memref<4xf32>, %v: memref<4xf32>) {
  // expected-error @below {{'ptensor.sort_along' op expected dim in [0, 1), but got 1}}
  ptensor.sort_along %k into values(%v : memref<4xf32>) dim 1 {dtype = f32, descending = false, stable = true} : memref<4xf32>
  return
}

// -----

func.func @sort_along_dtype(%k: memref<4xi8>, %v: memref<4xi8>) {
  // expected-error @below {{'ptensor.sort_along' op expected a ptensor dtype, but got 'si8'}}
  ptensor.sort_along %k into values(%v : memref<4xi8>) dim 0 {dtype = si8, descending = false, stable = true} : memref<4xi8>
  return
}

// -----

func.func @sort_along_no_output(%k: memref<4xf32>) {
  // expected-error @below {{'ptensor.sort_along' op expected values, indices or both}}
  ptensor.sort_along %k into dim 0 {dtype = f32, descending = false, stable = true} : memref<4xf32>
  return
}

// -----

func.func @sort_along_mixed(%k: memref<4xf32>, %i: tensor<4xi64>) {
  // expected-error @below {{'ptensor.sort_along' op expected the input and the outputs all tensors or all memrefs}}
  ptensor.sort_along %k into indices(%i : tensor<4xi64>) dim 0 {dtype = f32, descending = false, stable = true} : memref<4xf32> -> tensor<4xi64>
  return
}

// -----

func.func @sort_along_indices(%k: memref<4xf32>, %i: memref<5xi64>) {
  // expected-error @below {{'ptensor.sort_along' op expected indices of 'i64' with the input's shape 4, but got 'memref<5xi64>'}}
  ptensor.sort_along %k into indices(%i : memref<5xi64>) dim 0 {dtype = f32, descending = false, stable = true} : memref<4xf32>
  return
}

// -----

func.func @sort_along_values(%k: memref<4xf32>, %v: memref<4xf64>) {
  // expected-error @below {{'ptensor.sort_along' op expected values of 'f32' with the input's shape 4, but got 'memref<4xf64>'}}
  ptensor.sort_along %k into values(%v : memref<4xf64>) dim 0 {dtype = f32, descending = false, stable = true} : memref<4xf32>
  return
}

// -----

func.func @sort_along_dtype(%k: memref<4xf32>, %v: memref<4xf32>) {
  // expected-error @below {{'ptensor.sort_along' op expected a dtype of the input's kind and width, but got 'f16' for 'f32'}}
  ptensor.sort_along %k into values(%v : memref<4xf32>) dim 0 {dtype = f16, descending = false, stable = true} : memref<4xf32>
  return
}

// -----

func.func @sort_along_results(%k: tensor<4xf32>, %v: tensor<4xf32>) {
  // expected-error @below {{'ptensor.sort_along' op expected 1 results, but got 0}}
  ptensor.sort_along %k into values(%v : tensor<4xf32>) dim 0 {dtype = f32, descending = false, stable = true} : tensor<4xf32>
  return
}

// -----

func.func @sort_along_dtype_kind(%k: memref<4xf32>, %v: memref<4xf32>) {
  // expected-error @below {{'ptensor.sort_along' op expected a dtype of the input's kind and width, but got 'i32' for 'f32'}}
  ptensor.sort_along %k into values(%v : memref<4xf32>) dim 0 {dtype = i32, descending = false, stable = true} : memref<4xf32>
  return
}

// -----

func.func @sort_along_same_output(%k: memref<4xi64>, %o: memref<4xi64>) {
  // expected-error @below {{'ptensor.sort_along' op expected values and indices in different buffers}}
  ptensor.sort_along %k into values(%o : memref<4xi64>) indices(%o : memref<4xi64>) dim 0 {dtype = i64, descending = false, stable = true} : memref<4xi64>
  return
}

// -----

func.func @runs_dtype(%a: !ptensor.ptensor<?xf32>, %e: !ptensor.ptensor<2xi32>) {
  // expected-error @below {{'ptensor.sort' op expected runs as a 1-D tensor of i64, but got '!ptensor.ptensor<2xi32>'}}
  %0 = ptensor.sort %a runs %e : !ptensor.ptensor<2xi32> : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
  return
}

// -----

func.func @runs_rank(%a: !ptensor.ptensor<?xf32>, %e: !ptensor.ptensor<2x1xi64>) {
  // expected-error @below {{'ptensor.argsort' op expected runs as a 1-D tensor of i64, but got '!ptensor.ptensor<2x1xi64>'}}
  %0 = ptensor.argsort %a runs %e : !ptensor.ptensor<2x1xi64> : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xi64>
  return
}

// -----

func.func @runs_device(%a: !ptensor.ptensor<?xf32, device = "cuda:0">, %e: !ptensor.ptensor<2xi64>) {
  // expected-error @below {{'ptensor.sort' op expected runs on the input's device, but got '!ptensor.ptensor<2xi64>' for '!ptensor.ptensor<?xf32, device = "cuda:0">'}}
  %0 = ptensor.sort %a runs %e : !ptensor.ptensor<2xi64> : !ptensor.ptensor<?xf32, device = "cuda:0"> -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return
}

// -----

func.func @runs_team(%a: !ptensor.ptensor<?xf32, team = 1>, %e: !ptensor.ptensor<2xi64, team = 1>) {
  // expected-error @below {{'ptensor.sort' op expected no team with runs (the hint is one process's lines), but got '!ptensor.ptensor<?xf32, team = 1>' and '!ptensor.ptensor<2xi64, team = 1>'}}
  %0 = ptensor.sort %a runs %e : !ptensor.ptensor<2xi64, team = 1> : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  return
}

// -----

func.func @sort_along_runs(%k: memref<4xf32>, %v: memref<4xf32>, %e: memref<2xi32>) {
  // expected-error @below {{'ptensor.sort_along' op expected runs as a 1-D memref of i64, but got 'memref<2xi32>'}}
  ptensor.sort_along %k into values(%v : memref<4xf32>) runs(%e : memref<2xi32>) dim 0 {dtype = f32, descending = false, stable = true} : memref<4xf32>
  return
}
