// RUN: ptensor-opt %s -split-input-file --ptensor-fuse-elementwise | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --pass-pipeline='builtin.module(ptensor-fuse-elementwise{max-recompute-ops=0})' | FileCheck %s --check-prefix=SINGLE
// RUN: ptensor-opt %s -split-input-file --pass-pipeline='builtin.module(ptensor-fuse-elementwise{max-recompute-ops=17})' | FileCheck %s --check-prefix=LIMIT17

// ptensor-fuse-elementwise: chains of elementwise generics on tensors fuse
// into one; a producer with several users is recomputed in each when its
// body is cheap (at most max-recompute-ops scalar ops, math ops count 8).

#map = affine_map<(d0) -> (d0)>

// A chain of three single-use generics becomes one generic whose body holds
// all three scalar ops; the intermediate tensors disappear.
// CHECK-LABEL: func.func @chain_of_three(
// CHECK-SAME:    %[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32>)
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[S]], %[[X]] : f32
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[M]] : f32
// CHECK-NEXT:      linalg.yield %[[N]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
// The chain fuses with max-recompute-ops=0 too (every producer has one use).
// SINGLE-LABEL: func.func @chain_of_three(
// SINGLE-COUNT-1: linalg.generic
// SINGLE-NOT:    linalg.generic
// SINGLE:        return
func.func @chain_of_three(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e0 = tensor.empty(%n) : tensor<?xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e0 : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%0, %a : tensor<?xf32>, tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%n) : tensor<?xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%1 : tensor<?xf32>) outs(%e2 : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// A cheap producer (one addf) with two users is recomputed in both: two
// generics remain, each reading %a and %b directly.
// CHECK-LABEL: func.func @cheap_producer_recomputed(
// CHECK-SAME:    %[[A:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK:         %[[R1:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] :
// CHECK:           arith.addf
// CHECK-NEXT:      arith.negf
// CHECK:         %[[R2:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] :
// CHECK:           arith.addf
// CHECK-NEXT:      arith.mulf
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R1]], %[[R2]]
// With max-recompute-ops=0 the shared producer stays a generic of its own.
// SINGLE-LABEL: func.func @cheap_producer_recomputed(
// SINGLE:        %[[P:.*]] = linalg.generic
// SINGLE:          arith.addf
// SINGLE:        linalg.generic {{.*}} ins(%[[P]] :
// SINGLE:          arith.negf
// SINGLE:        linalg.generic {{.*}} ins(%[[P]] :
// SINGLE:          arith.mulf
func.func @cheap_producer_recomputed(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %c1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%p : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %c2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%p : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %c1, %c2 : tensor<8xf32>, tensor<8xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// An expensive producer (math.exp + math.sin count 8 each: 17 > 16) with two
// users is not recomputed: both consumers read its result.
// CHECK-LABEL: func.func @expensive_producer_kept(
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK:           math.exp
// CHECK:           math.sin
// CHECK:         %[[R1:.*]] = linalg.generic {{.*}} ins(%[[P]] :
// CHECK-NOT:       math.
// CHECK:           arith.negf
// CHECK:         %[[R2:.*]] = linalg.generic {{.*}} ins(%[[P]] :
// CHECK-NOT:       math.
// CHECK:           arith.mulf
// CHECK:         return %[[R1]], %[[R2]]
// With max-recompute-ops=17 the same producer (cost 17) is recomputed.
// LIMIT17-LABEL: func.func @expensive_producer_kept(
// LIMIT17:        linalg.generic {{.*}} ins(%arg0, %arg1 :
// LIMIT17:          math.exp
// LIMIT17:          math.sin
// LIMIT17:          arith.negf
// LIMIT17:        linalg.generic {{.*}} ins(%arg0, %arg1 :
// LIMIT17:          math.exp
// LIMIT17:          math.sin
// LIMIT17:          arith.mulf
// LIMIT17-NOT:    linalg.generic
// LIMIT17:        return
func.func @expensive_producer_kept(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = math.exp %x : f32
    %t = math.sin %y : f32
    %u = arith.addf %s, %t : f32
    linalg.yield %u : f32
  } -> tensor<8xf32>
  %c1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%p : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %c2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%p : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %c1, %c2 : tensor<8xf32>, tensor<8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>

// A broadcasting producer (the lowering of a static ptensor.broadcast) fuses
// into its consumer: the consumer reads the small operand through the
// broadcasting map.
// CHECK-DAG:     #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG:     #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @broadcast_producer_fused(
// CHECK-SAME:    %[[A:.*]]: tensor<4x5xf32>, %[[B:.*]]: tensor<1x5xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<4x5xf32>, tensor<1x5xf32>)
// CHECK:           arith.subf
// CHECK-NOT:     linalg.generic
func.func @broadcast_producer_fused(%a: tensor<4x5xf32>, %b: tensor<1x5xf32>) -> tensor<4x5xf32> {
  %e = tensor.empty() : tensor<4x5xf32>
  %bb = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<1x5xf32>) outs(%e : tensor<4x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x5xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %bb : tensor<4x5xf32>, tensor<4x5xf32>) outs(%e : tensor<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.subf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
