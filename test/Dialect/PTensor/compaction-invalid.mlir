// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

// One case per message of the compaction steps' verifiers
// (CompactionOps.cpp).

func.func @count_flags(%f: tensor<?xi8>) -> index {
  // expected-error @below {{'ptensor.count_true' op expected flags of rank 1 and 'i1', but got 'tensor<?xi8>'}}
  %n = ptensor.count_true %f : tensor<?xi8>
  return %n : index
}

// -----

func.func @select_positions(%f: tensor<?xi1>, %p: tensor<?xi32>) {
  // expected-error @below {{'ptensor.select_true' op expected positions of rank 1 and 'i64', but got 'tensor<?xi32>'}}
  %s = ptensor.select_true %f into %p : tensor<?xi1>, tensor<?xi32> -> tensor<?xi32>
  return
}

// -----

func.func @select_mixed(%f: tensor<?xi1>, %p: memref<?xi64>) {
  // expected-error @below {{'ptensor.select_true' op expected the operands all tensors or all memrefs}}
  ptensor.select_true %f into %p : tensor<?xi1>, memref<?xi64>
  return
}

// -----

func.func @select_results(%f: tensor<?xi1>, %p: tensor<?xi64>) {
  // expected-error @below {{'ptensor.select_true' op expected one result of the output's type on tensors}}
  ptensor.select_true %f into %p : tensor<?xi1>, tensor<?xi64>
  return
}

// -----

func.func @select_memref_results(%f: memref<?xi1>, %p: memref<?xi64>) {
  // expected-error @below {{'ptensor.select_true' op expected no results on memrefs}}
  %r = ptensor.select_true %f into %p : memref<?xi1>, memref<?xi64> -> tensor<?xi64>
  return
}

// -----

func.func @scatter_sizes(%s: tensor<4xi1>, %p: tensor<5xi64>, %i: tensor<4xi64>) {
  // expected-error @below {{'ptensor.scatter_runs' op expected starts, permutation and inverse of one size, but got 'tensor<4xi1>', 'tensor<5xi64>' and 'tensor<4xi64>'}}
  %r = ptensor.scatter_runs %s, %p into %i : tensor<4xi1>, tensor<5xi64>, tensor<4xi64> -> tensor<4xi64>
  return
}

// -----

func.func @scatter_starts(%s: tensor<4x1xi1>, %p: tensor<4xi64>, %i: tensor<4xi64>) {
  // expected-error @below {{'ptensor.scatter_runs' op expected starts of rank 1 and 'i1', but got 'tensor<4x1xi1>'}}
  %r = ptensor.scatter_runs %s, %p into %i : tensor<4x1xi1>, tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  return
}
