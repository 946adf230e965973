// RUN: ptensor-opt %s | FileCheck %s
// RUN: ptensor-opt %s --mlir-print-op-generic | ptensor-opt | FileCheck %s

// The lowering-internal compaction steps (PTensorCompactionOps.td) on
// tensors (destination-passing: the output's type as the result) and on
// memrefs (no results); compaction-invalid.mlir has their verifiers.

// CHECK-LABEL: func.func @on_tensors(
func.func @on_tensors(%f: tensor<?xi1>, %p: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  // CHECK: %[[N:.*]] = ptensor.count_true %{{.*}} : tensor<?xi1>
  %n = ptensor.count_true %f : tensor<?xi1>
  %e = tensor.empty(%n) : tensor<?xi64>
  // CHECK: ptensor.select_true %{{.*}} into %{{.*}} : tensor<?xi1>, tensor<?xi64> -> tensor<?xi64>
  %s = ptensor.select_true %f into %e : tensor<?xi1>, tensor<?xi64> -> tensor<?xi64>
  // CHECK: ptensor.scatter_runs %{{.*}}, %{{.*}} into %{{.*}} : tensor<?xi1>, tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
  %i = ptensor.scatter_runs %f, %p into %p : tensor<?xi1>, tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
  return %s, %i : tensor<?xi64>, tensor<?xi64>
}

// CHECK-LABEL: func.func @on_memrefs(
func.func @on_memrefs(%f: memref<8xi1>, %p: memref<8xi64>, %o: memref<?xi64>, %i: memref<8xi64>) -> index {
  // CHECK: ptensor.count_true %{{.*}} : memref<8xi1>
  %n = ptensor.count_true %f : memref<8xi1>
  // CHECK: ptensor.select_true %{{.*}} into %{{.*}} : memref<8xi1>, memref<?xi64>
  ptensor.select_true %f into %o : memref<8xi1>, memref<?xi64>
  // CHECK: ptensor.scatter_runs %{{.*}}, %{{.*}} into %{{.*}} : memref<8xi1>, memref<8xi64>, memref<8xi64>
  ptensor.scatter_runs %f, %p into %i : memref<8xi1>, memref<8xi64>, memref<8xi64>
  return %n : index
}
