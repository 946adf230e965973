// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu --split-input-file | FileCheck %s

// A reduction whose outputs are filled with constants just before it
// (LinalgToGPU/ConstantInits.h): the fill launches nothing, and the
// reduction merges its result into the constant in registers instead of
// loading the output's current value.

#fill = affine_map<(d0) -> ()>
#kept = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @row_sum(
// CHECK-SAME:    %[[IN:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK-NOT:     memref.store %cst
// CHECK-NOT:     memref.load %[[OUT]][
// CHECK:         gpu.launch
// CHECK-NOT:     memref.load %[[OUT]][
// CHECK:           %[[MERGED:.*]] = arith.addf %[[INIT:cst[_0-9]*]], %{{.*}} : f32
// CHECK-NEXT:      memref.store %[[MERGED]], %[[OUT]][%{{.*}}] : memref<?xf32>
// CHECK-NOT:     memref.load %[[OUT]][
// CHECK:         return
func.func @row_sum(%in: memref<?x?xf32>, %out: memref<?xf32>) attributes {ptensor.device = "cuda:0"} {
  %zero = arith.constant -0.0 : f32
  linalg.generic {indexing_maps = [#fill, #kept], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%out : memref<?xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#fill = affine_map<(d0) -> ()>
#kept = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// A store between the fill and the reduction (it may write the output):
// the fill stays a kernel, and the reduction loads what the output holds.
// CHECK-LABEL: func.func @store_between(
// CHECK-SAME:    %[[IN:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?xf32>
// CHECK:         gpu.launch
// CHECK:           memref.store %cst{{.*}}, %[[OUT]]
// CHECK:         memref.store
// CHECK:         gpu.launch
// CHECK:           memref.load %[[OUT]][
func.func @store_between(%in: memref<?x?xf32>, %out: memref<?xf32>, %v: f32, %i: index) attributes {ptensor.device = "cuda:0"} {
  %zero = arith.constant -0.0 : f32
  linalg.generic {indexing_maps = [#fill, #kept], iterator_types = ["parallel"]}
      ins(%zero : f32) outs(%out : memref<?xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  memref.store %v, %out[%i] : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#fill = affine_map<(d0) -> ()>
#kept = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// A fill with a value known only at run time stays a kernel.
// CHECK-LABEL: func.func @fill_with_argument(
// CHECK-SAME:    %[[IN:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?xf32>, %[[V:.*]]: f32
// CHECK:         gpu.launch
// CHECK:           memref.store %[[V]], %[[OUT]]
// CHECK:         gpu.launch
// CHECK:           memref.load %[[OUT]][
func.func @fill_with_argument(%in: memref<?x?xf32>, %out: memref<?xf32>, %v: f32) attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#fill, #kept], iterator_types = ["parallel"]}
      ins(%v : f32) outs(%out : memref<?xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#fill2 = affine_map<(d0, d1) -> ()>
#all2 = affine_map<(d0, d1) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col0 = affine_map<(d0, d1) -> (d0, 0)>

// A reduction that writes only column 0 of a wider output leaves the other
// columns as the fill made them: the fill stays.
// CHECK-LABEL: func.func @partial_output(
// CHECK-SAME:    %[[IN:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?x2xf32>
// CHECK:         gpu.launch
// CHECK:           memref.store %cst{{.*}}, %[[OUT]]
// CHECK:         gpu.launch
// CHECK:           memref.load %[[OUT]][
func.func @partial_output(%in: memref<?x?xf32>, %out: memref<?x2xf32>) attributes {ptensor.device = "cuda:0"} {
  %zero = arith.constant -0.0 : f32
  linalg.generic {indexing_maps = [#fill2, #all2], iterator_types = ["parallel", "parallel"]}
      ins(%zero : f32) outs(%out : memref<?x2xf32>) {
  ^bb0(%z: f32, %o: f32):
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #col0], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<?x?xf32>) outs(%out : memref<?x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}
