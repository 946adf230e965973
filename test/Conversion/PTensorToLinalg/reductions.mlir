// RUN: ptensor-opt %s --convert-ptensor-to-linalg --split-input-file | FileCheck %s
// RUN: ptensor-opt %s --convert-ptensor-to-linalg --ptensor-fuse-elementwise --split-input-file | FileCheck %s --check-prefix=FUSED

// A sum over the last dim: a generic with a reduction iterator, accumulating
// f32 elements in f64 from -0.0 (the identity of addf), marked with its
// combiner, then rounded to f32 by an elementwise generic.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sum_rows(
// CHECK-DAG: %[[ID:.*]] = arith.constant -0.000000e+00 : f64
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ID]] : f64) outs(%{{.*}} : tensor<4xf64>)
// CHECK: %[[ACC:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4x?xf32>) outs(%[[INIT]] : tensor<4xf64>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[OUT:.*]]: f64):
// CHECK:   %[[W:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK:   %[[S:.*]] = arith.addf %[[OUT]], %[[W]] {ptensor.combiner = "addf"} : f64
// CHECK:   linalg.yield %[[S]] : f64
// CHECK: linalg.generic {{.*}} ins(%[[ACC]] : tensor<4xf64>)
// CHECK:   arith.truncf %{{.*}} : f64 to f32
func.func @sum_rows(%a: !ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<4xf32> {
  %0 = ptensor.reduce sum %a axes [1] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

// Integer sums accumulate in the result dtype (i64); keepdims is an
// expand_shape of the kept dims.
// CHECK-LABEL: func.func @sum_i8_keepdims(
// CHECK: %[[ACC:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
// CHECK:   arith.extsi %{{.*}} : i8 to i64
// CHECK:   arith.addi {{.*}} {ptensor.combiner = "addi"} : i64
// CHECK: tensor.expand_shape %[[ACC]] {{\[\[}}0, 1]] output_shape [1, %{{.*}}] : tensor<?xi64> into tensor<1x?xi64>
func.func @sum_i8_keepdims(%a: !ptensor.ptensor<3x?xi8>) -> !ptensor.ptensor<1x?xi64> {
  %0 = ptensor.reduce sum %a axes [0] {keepdims = true} : !ptensor.ptensor<3x?xi8> -> !ptensor.ptensor<1x?xi64>
  return %0 : !ptensor.ptensor<1x?xi64>
}

// -----

// A requested dtype narrower than the input: each element is cast to it
// first (f64 -> f32), then widened to the f64 accumulator; a narrower
// integer one wraps each element (i32 -> i8) and accumulates in i8.
// CHECK-LABEL: func.func @sum_cast_first(
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf64>) outs(%{{.*}} : tensor<f64>)
// CHECK: ^bb0(%[[X:.*]]: f64, %[[OUT:.*]]: f64):
// CHECK:   %[[R:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK:   %[[W:.*]] = arith.extf %[[R]] : f32 to f64
// CHECK:   arith.addf %[[OUT]], %[[W]] {ptensor.combiner = "addf"} : f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8xi32>) outs(%{{.*}} : tensor<i8>)
// CHECK:   %[[T:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK-NEXT: arith.addi %{{.*}}, %[[T]] {ptensor.combiner = "addi"} : i8
func.func @sum_cast_first(%a: !ptensor.ptensor<8xf64>, %b: !ptensor.ptensor<8xi32>) -> (!ptensor.ptensor<f32>, !ptensor.ptensor<i8>) {
  %0 = ptensor.reduce sum %a {dtype = f32} : !ptensor.ptensor<8xf64> -> !ptensor.ptensor<f32>
  %1 = ptensor.reduce sum %b {dtype = i8} : !ptensor.ptensor<8xi32> -> !ptensor.ptensor<i8>
  return %0, %1 : !ptensor.ptensor<f32>, !ptensor.ptensor<i8>
}

// -----

// max of unsigned integers compares unsigned, from the lowest value; a
// dynamic reduced dim is checked to be non-empty at run time.
// CHECK-LABEL: func.func @max_ui8(
// CHECK: %[[N:.*]] = arith.muli
// CHECK: %[[OK:.*]] = arith.cmpi ne, %[[N]], %{{.*}} : index
// CHECK: cf.assert %[[OK]], "max of an empty axis: a reduced dimension has size 0, and max has no identity"
// CHECK: linalg.fill ins(%{{.*}} : i8)
// CHECK: arith.maxui {{.*}} {ptensor.combiner = "maxui"} : i8
func.func @max_ui8(%a: !ptensor.ptensor<?xui8>) -> !ptensor.ptensor<ui8> {
  %0 = ptensor.reduce max %a : !ptensor.ptensor<?xui8> -> !ptensor.ptensor<ui8>
  return %0 : !ptensor.ptensor<ui8>
}

// -----

// argmax on the CPU over a dim that keeps the innermost: two reductions
// LLVM vectorizes. The maximum (NaN propagating), then the least position
// holding it (or a NaN, when the maximum is NaN) as an i64 min from
// INT64_MAX; the position is along the reduced dim (linalg.index).
// CHECK-LABEL: func.func @argmax_cols(
// CHECK-DAG: %[[LOW:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:   arith.maximumf {{.*}} {ptensor.combiner = "maxf"} : f32
// CHECK: %[[NOIDX:.*]] = arith.constant 9223372036854775807 : i64
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}}, %[[MAX]] :
// CHECK:   %[[EQ:.*]] = arith.cmpf oeq, %[[X:.*]], %[[M:.*]] {ptensor.first_match_extremum} : f32
// CHECK:   %[[MNAN:.*]] = arith.cmpf uno, %[[M]], %[[M]] : f32
// CHECK:   %[[XNAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK:   %[[MATCH:.*]] = arith.select %[[MNAN]], %[[XNAN]], %[[EQ]] : i1
// CHECK:   linalg.index 0 : index
// CHECK:   %[[POS:.*]] = arith.select %[[MATCH]], %{{.*}}, %{{.*}} : i64
// CHECK:   arith.minsi %{{.*}}, %[[POS]] {ptensor.combiner = "minsi"} : i64
// CHECK: return %[[R]]
func.func @argmax_cols(%a: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?xi64> {
  %0 = ptensor.find_index argmax %a axis 0 : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xi64>
  return %0 : !ptensor.ptensor<?xi64>
}

// -----

// Over the innermost dim of a kept one, the CPU, like a GPU, reduces
// (value, i64 position) pairs in one generic (convert-ptensor-reductions-
// to-loops folds them in blocks: the block's maximum, then one search).
// CHECK-LABEL: func.func @argmax_rows(
// CHECK-DAG: %[[NOIDX:.*]] = arith.constant 9223372036854775807 : i64
// CHECK-DAG: %[[LOW:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:   linalg.index 1 : index
// CHECK:   arith.cmpf ogt
// CHECK:   arith.select {{.*}} {ptensor.combiner = "argmaxf"} : f32
// CHECK: return %[[R]]#1
func.func @argmax_rows(%a: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?xi64> {
  %0 = ptensor.find_index argmax %a axis -1 : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xi64>
  return %0 : !ptensor.ptensor<?xi64>
}

// -----

// Over every dim, the min is marked a first-match search (the host loops
// then read only the first chunk holding the maximum).
// CHECK-LABEL: func.func @argmax_all(
// CHECK:   arith.maximumf {{.*}} {ptensor.combiner = "maxf"} : f32
// CHECK:   arith.cmpf oeq, %{{.*}}, %{{.*}} {ptensor.first_match_extremum} : f32
// CHECK:   arith.minsi %{{.*}}, %{{.*}} {ptensor.combiner = "minsi", ptensor.first_match} : i64
func.func @argmax_all(%a: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<i64> {
  %0 = ptensor.find_index argmax %a : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<i64>
  return %0 : !ptensor.ptensor<i64>
}

// -----

// argmax on a GPU: one reduction of (value, i64 index) accumulators from
// (-inf, INT64_MAX) (the GPU kernels combine pairs across threads); the
// result is the index accumulator.
// CHECK-LABEL: func.func @argmax_rows_gpu(
// CHECK-DAG: %[[NOIDX:.*]] = arith.constant 9223372036854775807 : i64
// CHECK-DAG: %[[LOW:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:   linalg.index 1 : index
// CHECK:   arith.cmpf ogt
// CHECK:   arith.select {{.*}} {ptensor.combiner = "argmaxf"} : f32
// CHECK: return %[[R]]#1
func.func @argmax_rows_gpu(%a: !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xi64, device = "cuda:0"> {
  %0 = ptensor.find_index argmax %a axis -1 : !ptensor.ptensor<?x?xf32, device = "cuda:0"> -> !ptensor.ptensor<?xi64, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xi64, device = "cuda:0">
}

// -----

// var: two reductions in f64 — the mean (sum / N), then the squared
// deviations from it (the mean read through the kept-dims map) divided by
// max(N - correction, 0).
// CHECK-LABEL: func.func @var_rows(
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<?xf64>)
// CHECK:   arith.divf
// CHECK: %[[SQ:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[KEPT:.*]], #[[KEPT]]], iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %[[MEAN]] : tensor<?x?xf16>, tensor<?xf64>)
// CHECK:   arith.subf
// CHECK:   arith.mulf
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}} ins(%[[SQ]] : tensor<?xf64>)
func.func @var_rows(%a: !ptensor.ptensor<?x?xf16>) -> !ptensor.ptensor<?xf16> {
  %0 = ptensor.reduce var %a axes [1] {correction = 1.0 : f64} : !ptensor.ptensor<?x?xf16> -> !ptensor.ptensor<?xf16>
  return %0 : !ptensor.ptensor<?xf16>
}

// -----

// Elementwise producers fuse into the reduction: sum((a - b)**2) is one
// generic reading a and b (and writing nothing else); the marked combiner
// survives fusion.
// FUSED-LABEL: func.func @sum_sq_diff(
// FUSED: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>)
// FUSED:   arith.subf
// FUSED:   arith.mulf
// FUSED:   arith.addf {{.*}} {ptensor.combiner = "addf"} : f64
// FUSED-NOT: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// FUSED: return
func.func @sum_sq_diff(%a: !ptensor.ptensor<?x?xf32>, %b: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?xf32> {
  %d = ptensor.elementwise_binary subtract %a, %b : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  %q = ptensor.elementwise_binary multiply %d, %d : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  %s = ptensor.reduce sum %q axes [1] : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xf32>
  return %s : !ptensor.ptensor<?xf32>
}

// -----

// any/all fold `x != 0` with or/and into i1.
// CHECK-LABEL: func.func @all_f32(
// CHECK: linalg.fill ins(%true : i1)
// CHECK: arith.cmpf une
// CHECK: arith.andi {{.*}} {ptensor.combiner = "and"} : i1
func.func @all_f32(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<i1> {
  %0 = ptensor.test all %a : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<i1>
  return %0 : !ptensor.ptensor<i1>
}

// -----

// A reduction over no dims (`axes []`) is elementwise: each element merged
// with the identity, without reading an accumulator.
// CHECK-LABEL: func.func @sum_no_axes(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<3x?xi32>) outs(%{{.*}} : tensor<3x?xi64>)
// CHECK: ^bb0(%[[X:.*]]: i32, %{{.*}}: i64):
// CHECK:   %[[W:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK:   arith.addi %{{.*}}, %[[W]] : i64
// CHECK-NOT: iterator_types = ["parallel", "reduction"]
func.func @sum_no_axes(%a: !ptensor.ptensor<3x?xi32>) -> !ptensor.ptensor<3x?xi64> {
  %0 = ptensor.reduce sum %a axes [] : !ptensor.ptensor<3x?xi32> -> !ptensor.ptensor<3x?xi64>
  return %0 : !ptensor.ptensor<3x?xi64>
}
