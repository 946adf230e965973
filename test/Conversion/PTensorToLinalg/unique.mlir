// RUN: ptensor-opt %s --convert-ptensor-to-linalg | FileCheck %s

// unique (SetsToLinalg.cpp), the same IR on the host and the GPU: the input
// is collapsed to 1-D and sorted by ptensor.sort_along (stable, with the
// permutation in an alloc_tensor when indices or inverse_indices are asked
// for). A parallel generic flags the run starts: the first position, or one
// that differs from the position before (`cmpf une` for floats, so each
// NaN is its own run). count_true and select_true give the run starts; one
// generic over them gathers the values, the first occurrences and the
// counts (the next start, or n for the last, minus the start);
// ptensor.scatter_runs writes inverse_indices, viewed in the input's shape.
// CHECK-LABEL: func.func @unique_all(
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?x4xi64>, tensor<?xi64>)
// CHECK: %[[ROWS:.*]] = tensor.dim %[[A]], %c0
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1]] : tensor<?x4xf32> into tensor<?xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[FLAT]]
// CHECK: %[[VINIT:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[PINIT:.*]] = bufferization.alloc_tensor(%[[N]]) : tensor<?xi64>
// CHECK: %[[S:.*]]:2 = ptensor.sort_along %[[FLAT]] into values(%[[VINIT]] : tensor<?xf32>) indices(%[[PINIT]] : tensor<?xi64>) dim 0 {descending = false, dtype = f32, stable = true}
// CHECK: %[[STARTS:.*]] = linalg.generic {{.*}} ins(%[[S]]#0 : tensor<?xf32>) outs(%{{.*}} : tensor<?xi1>)
// CHECK: ^bb0(%[[X:[^:]*]]: f32, %{{.*}}: i1):
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[I]]
// CHECK: %[[PREV:.*]] = tensor.extract %[[S]]#0[
// CHECK: %[[NE:.*]] = arith.cmpf une, %[[X]], %[[PREV]] : f32
// CHECK: %[[FLAG:.*]] = arith.ori %[[FIRST]], %[[NE]] : i1
// CHECK: linalg.yield %[[FLAG]] : i1
// CHECK: %[[U:.*]] = ptensor.count_true %[[STARTS]] : tensor<?xi1>
// CHECK: %[[E:.*]] = tensor.empty(%[[U]]) : tensor<?xi64>
// CHECK: %[[FIRSTS:.*]] = ptensor.select_true %[[STARTS]] into %[[E]]
// CHECK: %[[RUNS:.*]] = tensor.dim %[[FIRSTS]]
// CHECK: %[[R:.*]]:3 = linalg.generic {{.*}} ins(%[[FIRSTS]] : tensor<?xi64>) outs({{.*}} : tensor<?xf32>, tensor<?xi64>, tensor<?xi64>)
// CHECK: ^bb0(%[[START:[^:]*]]: i64,
// CHECK: %[[AT:.*]] = arith.index_cast %[[START]] : i64 to index
// CHECK: %[[V:.*]] = tensor.extract %[[S]]#0[%[[AT]]]
// CHECK: %[[P:.*]] = tensor.extract %[[S]]#1[%[[AT]]]
// CHECK: %[[J:.*]] = linalg.index 0
// CHECK: %[[NEXT:.*]] = arith.addi %[[J]]
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[NEXT]], %[[RUNS]]
// CHECK: %[[NEXTSTART:.*]] = tensor.extract %[[FIRSTS]]
// CHECK: %[[END:.*]] = arith.select %[[LAST]], %{{.*}}, %[[NEXTSTART]] : i64
// CHECK: %[[COUNT:.*]] = arith.subi %[[END]], %[[START]] : i64
// CHECK: linalg.yield %[[V]], %[[P]], %[[COUNT]] : f32, i64, i64
// CHECK: %[[IE:.*]] = tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK: %[[INV:.*]] = ptensor.scatter_runs %[[STARTS]], %[[S]]#1 into %[[IE]]
// CHECK: %[[SHAPED:.*]] = ptensor.strided_view %[[INV]] to offset: %{{.*}}, sizes: [%[[ROWS]]], strides: [%c4, %{{.*}}] : tensor<?xi64> to tensor<?x4xi64>
// CHECK: return %[[R]]#0, %[[R]]#1, %[[SHAPED]], %[[R]]#2
func.func @unique_all(%a: !ptensor.ptensor<?x4xf32>) -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<?x4xi64>, !ptensor.ptensor<?xi64>) {
  %r:4 = ptensor.unique all %a : !ptensor.ptensor<?x4xf32> -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<?x4xi64>, !ptensor.ptensor<?xi64>)
  return %r#0, %r#1, %r#2, %r#3 : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>, !ptensor.ptensor<?x4xi64>, !ptensor.ptensor<?xi64>
}

// Values only of a 0-d input: expanded to one element, sorted without the
// permutation (stability does not matter), integers compared with `ne`.
// CHECK-LABEL: func.func @unique_values(
// CHECK-SAME: %[[A:.*]]: tensor<i8>) -> tensor<?xi8>
// CHECK: %[[ONE:.*]] = tensor.expand_shape %[[A]] [] output_shape [1] : tensor<i8> into tensor<1xi8>
// CHECK: %[[S:.*]] = ptensor.sort_along %[[ONE]] into values(%{{.*}} : tensor<?xi8>) dim 0 {descending = false, dtype = ui8, stable = false}
// CHECK-NOT: alloc_tensor
// CHECK: arith.cmpi ne, %{{.*}}, %{{.*}} : i8
// CHECK: ptensor.count_true
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-NOT: scatter_runs
// CHECK: return %[[R]] : tensor<?xi8>
func.func @unique_values(%a: !ptensor.ptensor<ui8>) -> !ptensor.ptensor<?xui8> {
  %r = ptensor.unique values %a : !ptensor.ptensor<ui8> -> (!ptensor.ptensor<?xui8>)
  return %r : !ptensor.ptensor<?xui8>
}
