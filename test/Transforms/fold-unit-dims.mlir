// RUN: ptensor-opt %s -split-input-file --ptensor-fold-unit-dims | FileCheck %s

// A static size-1 loop dim is dropped through rank-reducing slices (not
// reshapes), as upstream's linalg-fold-unit-extent-dims with
// use-rank-reducing-slices.
// CHECK-LABEL: func.func @unit_dim(
// CHECK:         %[[IN:.*]] = tensor.extract_slice %{{.*}}[0, 0] [1, 5] [1, 1] : tensor<1x5xf32> to tensor<5xf32>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]{{.*}} ins(%[[IN]] : tensor<5xf32>)
// CHECK:         tensor.insert_slice %[[R]] into %{{.*}}[0, 0] [1, 5] [1, 1] : tensor<5xf32> into tensor<1x5xf32>
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @unit_dim(%a: tensor<1x5xf32>) -> tensor<1x5xf32> {
  %e = tensor.empty() : tensor<1x5xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<1x5xf32>) outs(%e : tensor<1x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<1x5xf32>
  return %r : tensor<1x5xf32>
}

// -----

// A loop of static size 0 (no work): the op keeps its dims. A rank-reducing
// slice of the 0x1 tensor would not verify in MLIR 22 ("offset 0 is
// out-of-bounds: 0 >= 0"); found by test/Integration/CPU/fuzz_values.py (a
// sum over a 0x1 tensor failed the CPU pipeline).
// CHECK-LABEL: func.func @empty_loop(
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%{{.*}} : tensor<0x1xf32>)
#map0 = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
func.func @empty_loop(%a: tensor<0x1xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [#map0, #map1], iterator_types = ["reduction", "reduction"]}
      ins(%a : tensor<0x1xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
