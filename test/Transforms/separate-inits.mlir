// RUN: ptensor-opt %s --ptensor-separate-inits --split-input-file | FileCheck %s
// RUN: ptensor-opt %s --ptensor-separate-inits --one-shot-bufferize=bufferize-function-boundaries --split-input-file | FileCheck %s --check-prefix=BUF
// RUN: ptensor-opt %s --one-shot-bufferize=bufferize-function-boundaries --split-input-file | FileCheck %s --check-prefix=SHARED

// Two same-shape products that CSE left with one zero fill: each gets a
// fill (and an empty tensor) of its own, and bufferization allocates two
// buffers and copies nothing. Without the pass the second product's sums
// start as a copy of the first's filled buffer.
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @two_products(
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK: %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<8x8xf32>)
// CHECK: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<8x8xf32>)
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {{.*}} outs(%[[F0]] : tensor<8x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[F1]] : tensor<8x8xf32>)
// BUF-LABEL: func.func @two_products(
// BUF-COUNT-2: memref.alloc()
// BUF-NOT: memref.copy
// SHARED-LABEL: func.func @two_products(
// SHARED: memref.copy
func.func @two_products(%x: tensor<8x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %m = arith.mulf %u, %v : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %q = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w2 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %m = arith.mulf %u, %v : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %p, %q : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A fill read as an input and accumulated into: the accumulating op gets a
// fill of its own (accumulating into the one that is read would need a
// copy); the input keeps the original.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @fill_as_input(
// CHECK: %[[ONES:.*]] = linalg.fill
// CHECK: %[[OWN:.*]] = linalg.fill
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[ONES]] : tensor<16xf32>, tensor<16xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[OWN]] : tensor<16xf32>)
// BUF-LABEL: func.func @fill_as_input(
// BUF-NOT: memref.copy
// BUF: return
func.func @fill_as_input(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %ones : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %s = arith.addf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %acc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%ones : tensor<16xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = arith.addf %o, %u : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %sum, %acc : tensor<16xf32>, tensor<16xf32>
}

// -----

// A fill that is no op's init (a returned constant tensor) is left alone.
// CHECK-LABEL: func.func @fill_returned(
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT: linalg.fill
func.func @fill_returned(%v: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}

// -----

// An empty tensor shared (by CSE) between a product's zero fill and an
// elementwise result: the fill gets an empty tensor of its own, so the
// accumulator's buffer is not reused for the later result.
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @shared_empty(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK: %[[OWN:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[OWN]] : tensor<8x8xf32>)
// CHECK: %[[P:.*]] = linalg.generic {{.*}} outs(%[[F]] : tensor<8x8xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<8x8xf32>) outs(%[[E]] : tensor<8x8xf32>)
func.func @shared_empty(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %m = arith.mulf %u, %v : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%u: f32, %o: f32):
    %s = arith.maximumf %u, %zero : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// The empty tensor of a fill inside a region, defined outside it: each
// clone is made beside the original, outside the region (an allocation
// would otherwise move into a loop body).
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @fill_in_region(
// CHECK: tensor.empty()
// CHECK: tensor.empty()
// CHECK: scf.if
// CHECK-NOT: tensor.empty
// CHECK-COUNT-2: linalg.fill
// CHECK: scf.yield
func.func @fill_in_region(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>, %cond: i1) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %r:2 = scf.if %cond -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %m = arith.mulf %u, %v : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<8x8xf32>
    %q = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %m = arith.mulf %u, %v : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<8x8xf32>
    scf.yield %p, %q : tensor<8x8xf32>, tensor<8x8xf32>
  } else {
    scf.yield %x, %w : tensor<8x8xf32>, tensor<8x8xf32>
  }
  return %r#0, %r#1 : tensor<8x8xf32>, tensor<8x8xf32>
}
