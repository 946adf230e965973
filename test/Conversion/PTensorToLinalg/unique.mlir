// RUN: ptensor-opt %s --convert-ptensor-to-linalg | FileCheck %s

// unique on the host (SetsToLinalg.cpp): the input is collapsed to 1-D and
// sorted by ptensor.sort_along (stable, with the permutation in an
// alloc_tensor when indices or inverse_indices are asked for). A sorted
// position starts a run when it is the first or differs from the one
// before (`cmpf une` for floats, so each NaN is its own run). The count →
// compact loops write values, first occurrences and run starts; one loop
// turns the starts into counts (the next start, or n for the last, minus
// the start); inverse_indices is a scatter loop of the run numbers to the
// input positions, viewed in the input's shape.
// CHECK-LABEL: func.func @unique_all(
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?x4xi64>, tensor<?xi64>)
// CHECK: %[[ROWS:.*]] = tensor.dim %[[A]], %c0
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1]] : tensor<?x4xf32> into tensor<?xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[FLAT]]
// CHECK: %[[VINIT:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[PINIT:.*]] = bufferization.alloc_tensor(%[[N]]) : tensor<?xi64>
// CHECK: %[[S:.*]]:2 = ptensor.sort_along %[[FLAT]] into values(%[[VINIT]] : tensor<?xf32>) indices(%[[PINIT]] : tensor<?xi64>) dim 0 {descending = false, dtype = f32, stable = true}
// CHECK: %[[U:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}}) -> (index)
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[I]]
// CHECK: %[[X:.*]] = tensor.extract %[[S]]#0[%[[I]]]
// CHECK: %[[PREV:.*]] = tensor.extract %[[S]]#0[
// CHECK: %[[NE:.*]] = arith.cmpf une, %[[X]], %[[PREV]] : f32
// CHECK: arith.ori %[[FIRST]], %[[NE]] : i1
// CHECK: %[[VALS:.*]] = tensor.empty(%[[U]]) : tensor<?xf32>
// CHECK: %[[IDX:.*]] = tensor.empty(%[[U]]) : tensor<?xi64>
// CHECK: %[[STARTS:.*]] = tensor.empty(%[[U]]) : tensor<?xi64>
// CHECK: %[[C:.*]]:4 = scf.for %[[I2:.*]] = {{.*}} iter_args(%[[V:.*]] = %[[VALS]], %[[F:.*]] = %[[IDX]], %[[ST:.*]] = %[[STARTS]], %[[ROW:.*]] = %{{.*}})
// CHECK: scf.if
// CHECK: %[[X2:.*]] = tensor.extract %[[S]]#0[%[[I2]]]
// CHECK: tensor.insert %[[X2]] into %[[V]][%[[ROW]]]
// CHECK: %[[P:.*]] = tensor.extract %[[S]]#1[%[[I2]]]
// CHECK: tensor.insert %[[P]] into %[[F]][%[[ROW]]]
// CHECK: %[[START:.*]] = arith.index_cast %[[I2]] : index to i64
// CHECK: tensor.insert %[[START]] into %[[ST]][%[[ROW]]]
// CHECK: %[[RUNS:.*]] = tensor.dim %[[C]]#2
// CHECK: %[[COUNTS:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[RUNS]] {{.*}} iter_args(%[[CS:.*]] = %[[C]]#2)
// CHECK: %[[NEXT:.*]] = tensor.extract %[[CS]]
// CHECK: %[[END:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NEXT]] : i64
// CHECK: %[[BEGIN:.*]] = tensor.extract %[[CS]][%[[J]]]
// CHECK: %[[COUNT:.*]] = arith.subi %[[END]], %[[BEGIN]] : i64
// CHECK: tensor.insert %[[COUNT]] into %[[CS]][%[[J]]]
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK: %[[INV:.*]]:2 = scf.for %[[I3:.*]] = %{{.*}} to %[[N]] {{.*}} iter_args(%[[IV:.*]] = %[[INIT]], %[[RUNNO:.*]] = %c-1_i64)
// CHECK: %[[STEP:.*]] = arith.extui %{{.*}} : i1 to i64
// CHECK: %[[NEXTNUM:.*]] = arith.addi %[[RUNNO]], %[[STEP]] : i64
// CHECK: %[[POS:.*]] = tensor.extract %[[S]]#1[%[[I3]]]
// CHECK: %[[TARGET:.*]] = arith.index_cast %[[POS]] : i64 to index
// CHECK: tensor.insert %[[NEXTNUM]] into %[[IV]][%[[TARGET]]]
// CHECK: %[[SHAPED:.*]] = ptensor.strided_view %[[INV]]#0 to offset: %{{.*}}, sizes: [%[[ROWS]]], strides: [%c4, %{{.*}}] : tensor<?xi64> to tensor<?x4xi64>
// CHECK: return %[[C]]#0, %[[C]]#1, %[[SHAPED]], %[[COUNTS]]
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
// CHECK: %[[C:.*]]:2 = scf.for
// CHECK: return %[[C]]#0 : tensor<?xi8>
func.func @unique_values(%a: !ptensor.ptensor<ui8>) -> !ptensor.ptensor<?xui8> {
  %r = ptensor.unique values %a : !ptensor.ptensor<ui8> -> (!ptensor.ptensor<?xui8>)
  return %r : !ptensor.ptensor<?xui8>
}
