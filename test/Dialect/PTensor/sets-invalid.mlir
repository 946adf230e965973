// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

// unique's result types are inferred (SetOps.cpp): a kind with the wrong
// number of results, a values result of another dtype and an
// inverse_indices result of another shape are rejected; an unknown kind is
// a parse error.

func.func @unique_count(%a: !ptensor.ptensor<?xi32>) {
  // expected-error @below {{'ptensor.unique' op inferred type(s) '!ptensor.ptensor<?xi32>', '!ptensor.ptensor<?xi64>' are incompatible with return type(s) of operation '!ptensor.ptensor<?xi32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.unique counts %a : !ptensor.ptensor<?xi32> -> (!ptensor.ptensor<?xi32>)
  return
}

// -----

func.func @unique_values_dtype(%a: !ptensor.ptensor<?xi32>) {
  // expected-error @below {{'ptensor.unique' op inferred type(s) '!ptensor.ptensor<?xi32>' are incompatible with return type(s) of operation '!ptensor.ptensor<?xi64>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.unique values %a : !ptensor.ptensor<?xi32> -> (!ptensor.ptensor<?xi64>)
  return
}

// -----

func.func @unique_inverse_shape(%a: !ptensor.ptensor<3x4xf16>) {
  // expected-error @below {{'ptensor.unique' op inferred type(s) '!ptensor.ptensor<?xf16>', '!ptensor.ptensor<3x4xi64>' are incompatible with return type(s) of operation '!ptensor.ptensor<?xf16>', '!ptensor.ptensor<?xi64>'}}
  // expected-error @below {{failed to infer returned types}}
  %0:2 = ptensor.unique inverse %a : !ptensor.ptensor<3x4xf16> -> (!ptensor.ptensor<?xf16>, !ptensor.ptensor<?xi64>)
  return
}

// -----

func.func @unique_kind(%a: !ptensor.ptensor<?xi32>) {
  // expected-error @below {{custom op 'ptensor.unique' expected string or keyword containing one of the following enum values for attribute 'kind' [all, counts, inverse, values]}}
  %0 = ptensor.unique first %a : !ptensor.ptensor<?xi32> -> (!ptensor.ptensor<?xi32>)
  return
}
