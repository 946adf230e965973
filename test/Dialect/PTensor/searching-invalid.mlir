// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

// One case per message of searchsorted's type inference
// (ptensor/Semantics/Searching.cpp, SearchingOps.cpp).

func.func @sorted_2d(%s: !ptensor.ptensor<2x3xf32>, %v: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{searchsorted needs a 1-D sorted tensor, but got shape [2, 3]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.searchsorted %s, %v : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xi64>
  return
}

// -----

func.func @sorted_0d(%s: !ptensor.ptensor<f32>, %v: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{searchsorted needs a 1-D sorted tensor, but got shape []}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.searchsorted %s, %v : (!ptensor.ptensor<f32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xi64>
  return
}

// -----

func.func @float_sorter(%s: !ptensor.ptensor<4xf32>, %v: !ptensor.ptensor<4xf32>, %p: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{searchsorted needs an integer sorter, but got f32}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.searchsorted %s, %v sorter %p : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xi64>
  return
}

// -----

func.func @sorter_size(%s: !ptensor.ptensor<4xf32>, %v: !ptensor.ptensor<4xf32>, %p: !ptensor.ptensor<5xi64>) {
  // expected-error @below {{searchsorted: the sorter's shape [5] does not match the sorted tensor's shape [4] (expected one index per element)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.searchsorted %s, %v sorter %p : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<5xi64>) -> !ptensor.ptensor<4xi64>
  return
}

// -----

func.func @sorter_2d(%s: !ptensor.ptensor<?xf32>, %v: !ptensor.ptensor<4xf32>, %p: !ptensor.ptensor<2x2xi64>) {
  // expected-error @below {{searchsorted: the sorter's shape [2, 2] does not match the sorted tensor's shape [?] (expected one index per element)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.searchsorted %s, %v sorter %p : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<2x2xi64>) -> !ptensor.ptensor<4xi64>
  return
}

// -----

func.func @no_promotion(%s: !ptensor.ptensor<4xui64>, %v: !ptensor.ptensor<4xi8>) {
  // expected-error @below {{searchsorted: cannot promote 'ui64' with signed 'i8': no integer type holds both (cast one operand first)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.searchsorted %s, %v : (!ptensor.ptensor<4xui64>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi64>
  return
}

// -----

func.func @devices(%s: !ptensor.ptensor<4xf32, device = "cuda:0">, %v: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{operands must be on the same device, but got "cuda:0" and host}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.searchsorted %s, %v : (!ptensor.ptensor<4xf32, device = "cuda:0">, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xi64>
  return
}

// -----

func.func @teams(%s: !ptensor.ptensor<4xf32>, %v: !ptensor.ptensor<4xf32>, %p: !ptensor.ptensor<4xi64, team = 1>) {
  // expected-error @below {{operands must belong to the same team, but got none and 1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.searchsorted %s, %v sorter %p : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi64, team = 1>) -> !ptensor.ptensor<4xi64>
  return
}

// -----

func.func @result_type(%s: !ptensor.ptensor<4xf32>, %v: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{inferred type(s) '!ptensor.ptensor<3xi64>' are incompatible with return type(s) of operation '!ptensor.ptensor<3xi32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.searchsorted %s, %v : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<3xi32>
  return
}
