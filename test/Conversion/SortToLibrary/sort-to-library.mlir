// RUN: ptensor-opt %s -split-input-file --convert-ptensor-sort-to-library -verify-diagnostics | FileCheck %s

// argsort on the host: one call of ptensor_rt_cpu_sort with the key type
// code (f32: 11), the flags (descending 1 | stable 2), rank and dim, the
// address of a stack array of the input's sizes, then per buffer (input,
// values, indices) its aligned address, offset and the address of a stack
// array of its strides; absent values are address 0.
// CHECK: func.func private @ptensor_rt_cpu_sort(i64, i64, i64, i64, index, index, i64, index, index, i64, index, index, i64, index)
// CHECK-LABEL: func.func @argsort(
// CHECK-SAME: %[[X:.*]]: memref<?x8xf32, strided<[?, ?], offset: ?>>, %[[I:.*]]: memref<?x8xi64>
// CHECK: %{{.*}}, %[[XOFF:.*]], %[[XSIZES:.*]]:2, %[[XSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[X]]
// CHECK: %[[SIZEARRAY:.*]] = memref.alloca() : memref<2xi64>
// CHECK: %[[N:.*]] = arith.index_cast %[[XSIZES]]#0 : index to i64
// CHECK: memref.store %[[N]], %[[SIZEARRAY]]
// CHECK: %[[SIZECAST:.*]] = memref.cast %[[SIZEARRAY]]
// CHECK: %[[SIZEP:.*]] = memref.extract_aligned_pointer_as_index %[[SIZECAST]]
// CHECK: %[[XSTRIDEARRAY:.*]] = memref.alloca() : memref<2xi64>
// CHECK: %[[XS:.*]] = arith.index_cast %[[XSTRIDES]]#0 : index to i64
// CHECK: memref.store %[[XS]], %[[XSTRIDEARRAY]]
// CHECK: %[[XSTRIDEP:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[XP:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: %[[XO:.*]] = arith.index_cast %[[XOFF]] : index to i64
// CHECK: %[[NONE:.*]] = arith.constant 0 : index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %{{.*}}, %[[IOFF:.*]], %{{.*}}:2, %[[ISTRIDES:.*]]:2 = memref.extract_strided_metadata %[[I]]
// CHECK-NOT: memref.store %{{.*}}#0
// CHECK: %[[ISTRIDEP:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[IP:.*]] = memref.extract_aligned_pointer_as_index %[[I]]
// CHECK: %[[IO:.*]] = arith.index_cast %[[IOFF]] : index to i64
// CHECK-DAG: %[[F32:.*]] = arith.constant 11 : i64
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: call @ptensor_rt_cpu_sort(%[[F32]], %[[FLAGS]], %[[TWO]], %[[ONE]], %[[SIZEP]], %[[XP]], %[[XO]], %[[XSTRIDEP]], %[[NONE]], %[[ZERO]], %[[NONE]], %[[IP]], %[[IO]], %[[ISTRIDEP]])
// CHECK-NOT: ptensor.sort_along
func.func @argsort(%x: memref<?x8xf32, strided<[?, ?], offset: ?>>, %i: memref<?x8xi64>) {
  ptensor.sort_along %x into indices(%i : memref<?x8xi64>) dim 1 {dtype = f32, descending = true, stable = true} : memref<?x8xf32, strided<[?, ?], offset: ?>>
  return
}

// -----

// sort (values, no indices: address 0) of unsigned keys (ui16: 6),
// ascending and not stable (flags 0); in a GPU function the call is
// ptensor_rt_gpu_sort, with the same arguments.
// CHECK-LABEL: func.func @sort_values(
// CHECK-SAME: %[[X:.*]]: memref<16xi16>, %[[V:.*]]: memref<16xi16>
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: %[[NONE:.*]] = arith.constant 0 : index
// CHECK: %[[VP:.*]] = memref.extract_aligned_pointer_as_index %[[V]]
// CHECK: %[[U16:.*]] = arith.constant 6 : i64
// CHECK: call @ptensor_rt_cpu_sort(%[[U16]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[VP]], %{{.*}}, %{{.*}}, %[[NONE]], %{{.*}}, %[[NONE]])
// CHECK-LABEL: func.func @on_gpu(
// CHECK: call @ptensor_rt_gpu_sort(
func.func @sort_values(%x: memref<16xi16>, %v: memref<16xi16>) {
  ptensor.sort_along %x into values(%v : memref<16xi16>) dim 0 {dtype = ui16, descending = false, stable = false} : memref<16xi16>
  return
}
func.func @on_gpu(%x: memref<16xf64>, %v: memref<16xf64>) attributes {ptensor.device = "cuda:0"} {
  ptensor.sort_along %x into values(%v : memref<16xf64>) dim 0 {dtype = f64, descending = false, stable = true} : memref<16xf64>
  return
}

// -----

// The runs hint on the host: ptensor_rt_cpu_sort_runs, the same arguments
// then the ends' address (offset included: 8 bytes per i64), stride and
// count; a GPU sort does not use it.
// CHECK: func.func private @ptensor_rt_cpu_sort_runs(i64, i64, i64, i64, index, index, i64, index, index, i64, index, index, i64, index, index, i64, i64)
// CHECK-LABEL: func.func @runs(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>, %[[V:.*]]: memref<?xf32>, %[[E:.*]]: memref<3xi64, strided<[2], offset: 1>>
// CHECK: %[[EBASE:.*]], %[[EOFF:.*]], %{{.*}}, %[[ESTRIDE:.*]] = memref.extract_strided_metadata %[[E]]
// CHECK: %[[EP:.*]] = memref.extract_aligned_pointer_as_index %[[E]]
// CHECK: %[[EBYTES:.*]] = arith.muli %[[EOFF]], %c8
// CHECK: %[[EADDR:.*]] = arith.addi %[[EP]], %[[EBYTES]]
// CHECK: %[[ES:.*]] = arith.index_cast %[[ESTRIDE]] : index to i64
// CHECK: %[[EN:.*]] = memref.dim %[[E]], %c0
// CHECK: %[[EN64:.*]] = arith.index_cast %[[EN]] : index to i64
// CHECK: call @ptensor_rt_cpu_sort_runs(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[EADDR]], %[[ES]], %[[EN64]])
// CHECK-LABEL: func.func @runs_on_gpu(
// CHECK-NOT: sort_runs
// CHECK: call @ptensor_rt_gpu_sort(
func.func @runs(%x: memref<?xf32>, %v: memref<?xf32>, %e: memref<3xi64, strided<[2], offset: 1>>) {
  ptensor.sort_along %x into values(%v : memref<?xf32>) runs(%e : memref<3xi64, strided<[2], offset: 1>>) dim 0 {dtype = f32, descending = false, stable = true} : memref<?xf32>
  return
}
func.func @runs_on_gpu(%x: memref<16xf64>, %v: memref<16xf64>, %e: memref<2xi64>) attributes {ptensor.device = "cuda:0"} {
  ptensor.sort_along %x into values(%v : memref<16xf64>) runs(%e : memref<2xi64>) dim 0 {dtype = f64, descending = false, stable = true} : memref<16xf64>
  return
}

// -----

func.func @on_tensors(%x: tensor<16xf64>, %v: tensor<16xf64>) -> tensor<16xf64> {
  // expected-error @below {{'ptensor.sort_along' op on tensors: run one-shot bufferization first}}
  %r = ptensor.sort_along %x into values(%v : tensor<16xf64>) dim 0 {dtype = f64, descending = false, stable = true} : tensor<16xf64> -> tensor<16xf64>
  return %r : tensor<16xf64>
}
