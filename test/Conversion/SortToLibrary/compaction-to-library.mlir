// RUN: ptensor-opt %s -split-input-file --convert-ptensor-sort-to-library -verify-diagnostics | FileCheck %s

// The compaction steps become calls of ptensor/Runtime/Compact.h: each
// buffer as the address of its first element (aligned pointer + offset *
// element bytes), each input with its stride read at run time (any
// layout, no copy), the size as an i64; count_true's i64 result cast to the
// index that sizes the results.
// CHECK-DAG: func.func private @ptensor_rt_cpu_count_true(index, i64, i64) -> i64
// CHECK-DAG: func.func private @ptensor_rt_cpu_select_true(index, i64, i64, index)
// CHECK-LABEL: func.func @on_host(
// CHECK-SAME: %[[F:.*]]: memref<?xi1, strided<[?], offset: ?>>, %[[P:.*]]: memref<?xi64>
// CHECK-NOT: linalg.copy
// CHECK: %{{.*}}, %[[OFF:.*]], %{{.*}}, %[[STRIDE:.*]] = memref.extract_strided_metadata %[[F]]
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[F]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[OFF]], %c1
// CHECK: %[[ADDR:.*]] = arith.addi %[[BASE]], %[[BYTES]]
// CHECK: %[[STRIDE64:.*]] = arith.index_cast %[[STRIDE]] : index to i64
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[COUNT:.*]] = call @ptensor_rt_cpu_count_true(%[[ADDR]], %[[STRIDE64]], %[[N]]) : (index, i64, i64) -> i64
// CHECK: %[[RESULT:.*]] = arith.index_cast %[[COUNT]] : i64 to index
// CHECK: memref.extract_aligned_pointer_as_index %[[P]]
// CHECK: arith.muli %{{.*}}, %c8
// CHECK: call @ptensor_rt_cpu_select_true(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (index, i64, i64, index) -> ()
// CHECK: return %[[RESULT]] : index
func.func @on_host(%f: memref<?xi1, strided<[?], offset: ?>>, %p: memref<?xi64>) -> index {
  %n = ptensor.count_true %f : memref<?xi1, strided<[?], offset: ?>>
  ptensor.select_true %f into %p : memref<?xi1, strided<[?], offset: ?>>, memref<?xi64>
  return %n : index
}

// -----

// In a device function: the GPU functions.
// CHECK: func.func private @ptensor_rt_gpu_scatter_runs(index, i64, index, i64, i64, index)
// CHECK-LABEL: func.func @on_gpu(
// CHECK: call @ptensor_rt_gpu_scatter_runs(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (index, i64, index, i64, i64, index) -> ()
func.func @on_gpu(%s: memref<?xi1>, %perm: memref<?xi64>, %i: memref<?xi64>) attributes {ptensor.device = "cuda:0"} {
  ptensor.scatter_runs %s, %perm into %i : memref<?xi1>, memref<?xi64>, memref<?xi64>
  return
}

// -----

func.func @strided_output(%f: memref<?xi1>, %p: memref<?xi64, strided<[2]>>) {
  // expected-error @below {{'ptensor.select_true' op expected a contiguous output, but got 'memref<?xi64, strided<[2]>>'}}
  ptensor.select_true %f into %p : memref<?xi1>, memref<?xi64, strided<[2]>>
  return
}

// -----

func.func @on_tensors(%f: tensor<?xi1>) -> index {
  // expected-error @below {{'ptensor.count_true' op on tensors: run one-shot bufferization first}}
  %n = ptensor.count_true %f : tensor<?xi1>
  return %n : index
}
