// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu --split-input-file | FileCheck %s

// Elementwise work on a reduction's results right after it (the cast of an
// f32 sum accumulated in f64, mean's division: LinalgToGPU/
// ReductionEpilogue.h) is computed by the reduction's kernels where they
// store each result: no launch of its own.

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#kept = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @row_sum_cast(
// CHECK-SAME:    %[[IN:.*]]: memref<?x?xf32>, %[[ACC:.*]]: memref<?xf64>, %[[N:.*]]: index)
// The epilogue's output is allocated before the reduction's launches.
// CHECK:         %[[OUT:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[N]]) : memref<?xf32>
// CHECK:         gpu.launch
// CHECK:           memref.store %[[SUM:.*]], %[[ACC]][%[[K:.*]]] : memref<?xf64>
// CHECK-NEXT:      %[[ROUNDED:.*]] = arith.truncf %[[SUM]] : f64 to f32
// CHECK-NEXT:      memref.store %[[ROUNDED]], %[[OUT]][%[[K]]] : memref<?xf32>
// No kernel reads the sums back (the fill before the reduction is folded
// too: a kernel of the cast would load them).
// CHECK-NOT:       memref.load %[[ACC]][
// CHECK:         return %[[OUT]]
func.func @row_sum_cast(%in: memref<?x?xf32>, %acc: memref<?xf64>, %n: index) -> memref<?xf32> attributes {ptensor.device = "cuda:0"} {
  %zero = arith.constant -0.0 : f64
  linalg.fill ins(%zero : f64) outs(%acc : memref<?xf64>)
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<?x?xf32>) outs(%acc : memref<?xf64>) {
  ^bb0(%x: f32, %a: f64):
    %w = arith.extf %x : f32 to f64
    %s = arith.addf %a, %w {ptensor.combiner = "addf"} : f64
    linalg.yield %s : f64
  }
  %out = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#kept, #kept], iterator_types = ["parallel"]}
      ins(%acc : memref<?xf64>) outs(%out : memref<?xf32>) {
  ^bb0(%s: f64, %o: f32):
    %r = arith.truncf %s : f64 to f32
    linalg.yield %r : f32
  }
  return %out : memref<?xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#kept = affine_map<(d0) -> (d0)>

// An elementwise generic that also reads another buffer stays a kernel of
// its own.
// CHECK-LABEL: func.func @reads_more(
// CHECK-SAME:    %[[IN:.*]]: memref<?x?xf32>, %[[ACC:.*]]: memref<?xf32>, %[[B:.*]]: memref<?xf32>
// CHECK:         gpu.launch
// CHECK-NOT:       memref.load %[[B]][
// CHECK:         gpu.launch
// CHECK:           memref.load %[[ACC]][
// CHECK:           memref.load %[[B]][
func.func @reads_more(%in: memref<?x?xf32>, %acc: memref<?xf32>, %b: memref<?xf32>, %n: index) -> memref<?xf32> attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<?x?xf32>) outs(%acc : memref<?xf32>) {
  ^bb0(%x: f32, %a: f32):
    %s = arith.addf %a, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#kept, #kept, #kept], iterator_types = ["parallel"]}
      ins(%acc, %b : memref<?xf32>, memref<?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%s: f32, %y: f32, %o: f32):
    %r = arith.mulf %s, %y : f32
    linalg.yield %r : f32
  }
  return %out : memref<?xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#kept = affine_map<(d0) -> (d0)>

// An elementwise generic writing into a buffer that is not a fresh
// allocation (it might alias the reduction's input) stays a kernel.
// CHECK-LABEL: func.func @writes_argument(
// CHECK-SAME:    %[[IN:.*]]: memref<?x?xf32>, %[[ACC:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>
// CHECK:         gpu.launch
// CHECK-NOT:       memref.store %{{.*}}, %[[OUT]][
// CHECK:         gpu.launch
// CHECK:           memref.load %[[ACC]][
// CHECK:           memref.store %{{.*}}, %[[OUT]][
func.func @writes_argument(%in: memref<?x?xf32>, %acc: memref<?xf32>, %out: memref<?xf32>) attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<?x?xf32>) outs(%acc : memref<?xf32>) {
  ^bb0(%x: f32, %a: f32):
    %s = arith.addf %a, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#kept, #kept], iterator_types = ["parallel"]}
      ins(%acc : memref<?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.negf %s : f32
    linalg.yield %r : f32
  }
  return
}
