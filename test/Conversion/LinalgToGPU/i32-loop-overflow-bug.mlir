// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu | FileCheck %s

// Regression test (fixed). Was BUG: the 32-bit grid-stride loop can wrap around and read/write out of
// bounds. The i32 variant is taken when count < 2^31, and its loop is a
// signed `scf.for ... : i32` (lowered to `arith.cmpi slt`) stepping by
// gridDim * blockDim (up to 1056 * 256 = 270336). For 2^31 - 270336 <= count
// < 2^31 the last `lin += step` of some threads exceeds INT32_MAX, wraps to
// a negative value, `lin < count` (signed) stays true, and remui/divui then
// split that value as a huge unsigned index: loads and stores far out of
// bounds (tensors of ~2.1e9 elements, e.g. 8.6 GB of f32, fit on an H100).
// Expected: an unsigned loop comparison (`scf.for unsigned`, no wrap since
// count + step < 2^32), or a 32-bit threshold of 2^31 - blocks * blockSize.
// This test checks the first fix.

#id = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (0, d1)>

// CHECK-LABEL: func.func @broadcast_add(
// CHECK:         gpu.launch
// CHECK:           scf.for unsigned %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
func.func @broadcast_add(%a: memref<?x4xf32>, %b: memref<1x4xf32>, %out: memref<?x4xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<?x4xf32>, memref<1x4xf32>) outs(%out : memref<?x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
