// RUN: ptensor-opt %s --convert-ptensor-to-linalg --canonicalize --split-input-file | FileCheck %s

// The manipulation ops on builtin tensors: copies as generics into boxes of
// one result tensor, views as ptensor.strided_view of the source's metadata.

// concat: the result sized by the summed axis, a run-time check that the
// other sizes agree (naming both shapes), and one copy per operand into its
// box of one result tensor; the f16 part is extended in its copy.
// CHECK-LABEL: func.func @concat(
// CHECK:         %[[D0:.*]] = tensor.dim %arg0, %c1
// CHECK:         %[[N:.*]] = tensor.dim %arg1, %c0
// CHECK:         %[[NE:.*]] = arith.cmpi ne, %[[D0]], %c3
// CHECK:         scf.if %[[NE]] {
// CHECK:           func.call @ptensor_rt_shapes_failed(
// CHECK:         %[[ROWS:.*]] = arith.addi %[[N]], %c2
// CHECK:         %[[E:.*]] = tensor.empty(%[[ROWS]]) : tensor<?x3xf32>
// CHECK:         %[[P0:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0] [2, %[[D0]]] [1, 1]
// CHECK:         %[[S1:.*]] = tensor.extract_slice %[[P0]][2, 0] [%[[N]], 3] [1, 1]
// CHECK:         %[[C1:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<?x3xf16>) outs(%[[S1]] : tensor<?x3xf32>)
// CHECK:           arith.extf
// CHECK:         tensor.insert_slice %[[C1]] into %[[P0]][2, 0] [%[[N]], 3] [1, 1]
func.func @concat(%a: !ptensor.ptensor<2x?xf32>, %b: !ptensor.ptensor<?x3xf16>) -> !ptensor.ptensor<?x3xf32> {
  %c = ptensor.combine concat %a, %b axis 0 : (!ptensor.ptensor<2x?xf32>, !ptensor.ptensor<?x3xf16>) -> !ptensor.ptensor<?x3xf32>
  return %c : !ptensor.ptensor<?x3xf32>
}

// -----

// stack: each operand copied into its size-1 slot of the new axis.
// CHECK-LABEL: func.func @stack(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x2xi32>
// CHECK:         %[[P0:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [4, 1] [1, 1] : tensor<4xi32> into tensor<4x2xi32>
// CHECK:         tensor.insert_slice %arg1 into %[[P0]][0, 1] [4, 1] [1, 1] : tensor<4xi32> into tensor<4x2xi32>
func.func @stack(%a: !ptensor.ptensor<4xi32>, %b: !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4x2xi32> {
  %c = ptensor.combine stack %a, %b axis 1 : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4x2xi32>
  return %c : !ptensor.ptensor<4x2xi32>
}

// -----

// roll by -3 of 5: [0, 3) goes to [2, 5) and [3, 5) to [0, 2).
// CHECK-LABEL: func.func @roll(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<5xf32>
// CHECK:         %[[A:.*]] = tensor.extract_slice %arg0[0] [3] [1]
// CHECK:         %[[P:.*]] = tensor.insert_slice %[[A]] into %[[E]][2] [3] [1]
// CHECK:         %[[B:.*]] = tensor.extract_slice %arg0[3] [2] [1]
// CHECK:         tensor.insert_slice %[[B]] into %[[P]][0] [2] [1]
func.func @roll(%a: !ptensor.ptensor<5xf32>) -> !ptensor.ptensor<5xf32> {
  %c = ptensor.roll %a shifts [-3] axes [0] : !ptensor.ptensor<5xf32> -> !ptensor.ptensor<5xf32>
  return %c : !ptensor.ptensor<5xf32>
}

// -----

// A static size above 2^62: the shift is reduced modulo the size without
// overflowing int64 (((shift % n) + n) % n did; the sanitizer build runs
// this). Element 0 goes to 2^62, [1, 2^62 + 1) to [0, 2^62).
// CHECK-LABEL: func.func @roll_huge(
// CHECK:         tensor.extract_slice %arg0[0] [1] [1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[4611686018427387904] [1] [1]
// CHECK:         tensor.extract_slice %arg0[1] [4611686018427387904] [1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0] [4611686018427387904] [1]
func.func @roll_huge(%a: !ptensor.ptensor<4611686018427387905xi8>) -> !ptensor.ptensor<4611686018427387905xi8> {
  %c = ptensor.roll %a shifts [4611686018427387904] axes [0] : !ptensor.ptensor<4611686018427387905xi8> -> !ptensor.ptensor<4611686018427387905xi8>
  return %c : !ptensor.ptensor<4611686018427387905xi8>
}

// -----

// tril: an elementwise generic selecting by the last two loop indices.
// CHECK-LABEL: func.func @tril(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:           %[[I:.*]] = linalg.index 1 : index
// CHECK:           %[[J:.*]] = linalg.index 2 : index
// CHECK:           %[[D:.*]] = arith.subi %[[J]], %[[I]]
// CHECK:           %[[K:.*]] = arith.cmpi sle, %[[D]], %c-1
// CHECK:           arith.select %[[K]], %{{.*}}, %cst
func.func @tril(%a: !ptensor.ptensor<?x4x4xf32>) -> !ptensor.ptensor<?x4x4xf32> {
  %c = ptensor.extract_triangle lower %a offset -1 : !ptensor.ptensor<?x4x4xf32> -> !ptensor.ptensor<?x4x4xf32>
  return %c : !ptensor.ptensor<?x4x4xf32>
}

// -----

// triu of rows that start at row %first of the matrix (a team block): the
// row index counts from there.
// CHECK-LABEL: func.func @triu_from_row(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK:           %[[R:.*]] = arith.addi %[[I]], %arg1 : index
// CHECK:           %[[J:.*]] = linalg.index 1 : index
// CHECK:           %[[D:.*]] = arith.subi %[[J]], %[[R]]
// CHECK:           %[[K:.*]] = arith.cmpi sge, %[[D]], %c1
// CHECK:           arith.select %[[K]], %{{.*}}, %cst
func.func @triu_from_row(%a: !ptensor.ptensor<?x5xf64>, %first: index) -> !ptensor.ptensor<?x5xf64> {
  %c = ptensor.extract_triangle upper %a offset 1 first_row %first : !ptensor.ptensor<?x5xf64> -> !ptensor.ptensor<?x5xf64>
  return %c : !ptensor.ptensor<?x5xf64>
}

// -----

// reshape: the runtime says from the strided metadata whether a view is
// possible and gives its strides; else a new row-major copy and the view of
// it.
// CHECK-LABEL: func.func @reshape(
// CHECK:         %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata
// CHECK:         %[[OK:.*]] = call @ptensor_rt_reshape_strides(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>) -> i1
// CHECK:         %[[S0:.*]] = memref.load %{{.*}}[%c0]
// CHECK:         %[[T0:.*]] = arith.index_cast %[[S0]] : i64 to index
// CHECK:         %[[S1:.*]] = memref.load %{{.*}}[%c1]
// CHECK:         %[[T1:.*]] = arith.index_cast %[[S1]] : i64 to index
// CHECK:         scf.if %[[OK]] -> (tensor<2x12xf32>) {
// CHECK:           ptensor.strided_view %arg0 to offset: %[[OFF]], sizes: [], strides: [%[[T0]], %[[T1]]] : tensor<4x6xf32> to tensor<2x12xf32>
// CHECK:         } else {
// CHECK:           %[[COPY:.*]] = bufferization.alloc_tensor() copy(%arg0) : tensor<4x6xf32>
// CHECK:           ptensor.strided_view %[[COPY]] to offset: %c0, sizes: [], strides: [%c12, %c1]
func.func @reshape(%a: !ptensor.ptensor<4x6xf32>) -> !ptensor.ptensor<2x12xf32> {
  %c = ptensor.reshape %a [2, -1] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<2x12xf32>
  return %c : !ptensor.ptensor<2x12xf32>
}

// -----

// copy = true: always the copy.
// CHECK-LABEL: func.func @reshape_copy(
// CHECK-NOT:     scf.if
// CHECK:         %[[COPY:.*]] = bufferization.alloc_tensor() copy(%arg0)
// CHECK:         ptensor.strided_view %[[COPY]] to offset: %c0, sizes: [], strides: [%c1] : tensor<4x6xf32> to tensor<24xf32>
func.func @reshape_copy(%a: !ptensor.ptensor<4x6xf32>) -> !ptensor.ptensor<24xf32> {
  %c = ptensor.reshape %a [-1] {copy = true} : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<24xf32>
  return %c : !ptensor.ptensor<24xf32>
}

// -----

// copy = false with dynamic sizes: the -1 is count / n, a run-time check
// of the element counts (with both shapes), an assertion that a view is
// possible, and the view.
// CHECK-LABEL: func.func @reshape_view(
// CHECK:         %{{.*}}, %[[OFF:.*]], %[[SZ:.*]]:2, %{{.*}}:2 = memref.extract_strided_metadata
// CHECK:         %[[COUNT:.*]] = arith.muli %[[SZ]]#0, %[[SZ]]#1
// CHECK:         %[[DIV:.*]] = arith.maxsi %arg1, %c1
// CHECK:         %[[INF:.*]] = arith.divsi %[[COUNT]], %[[DIV]]
// CHECK:         func.call @ptensor_rt_shapes_failed(
// CHECK:         %[[OK:.*]] = call @ptensor_rt_reshape_strides(
// CHECK:         %[[T0:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:         %[[T1:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:         cf.assert %[[OK]], "ptensor: reshape with copy=False
// CHECK-NOT:     alloc_tensor
// CHECK:         ptensor.strided_view %arg0 to offset: %[[OFF]], sizes: [%arg1, %[[INF]]], strides: [%[[T0]], %[[T1]]]
func.func @reshape_view(%a: !ptensor.ptensor<?x?xf32>, %n: index) -> !ptensor.ptensor<?x?xf32> {
  %c = ptensor.reshape %a [%n, -1] {copy = false} : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?x?xf32>
  return %c : !ptensor.ptensor<?x?xf32>
}

// -----

// eye: ones where column - row == offset.
// CHECK-LABEL: func.func @eye(
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<?x4xf32>)
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK:           %[[J:.*]] = linalg.index 1 : index
// CHECK:           %[[D:.*]] = arith.subi %[[J]], %[[I]]
// CHECK:           %[[ON:.*]] = arith.cmpi eq, %[[D]], %c1
// CHECK:           arith.uitofp %[[ON]] : i1 to f32
func.func @eye(%n: index) -> !ptensor.ptensor<?x4xf32> {
  %c = ptensor.eye (%n) offset 1 : !ptensor.ptensor<?x4xf32>
  return %c : !ptensor.ptensor<?x4xf32>
}

// -----

// meshgrid: zero-stride views, no copies.
// CHECK-LABEL: func.func @meshgrid(
// CHECK:         %{{.*}}, %[[OA:.*]], %{{.*}}, %[[SA:.*]] = memref.extract_strided_metadata
// CHECK:         %{{.*}}, %[[OB:.*]], %[[NB:.*]], %[[SB:.*]] = memref.extract_strided_metadata
// CHECK:         ptensor.strided_view %arg0 to offset: %[[OA]], sizes: [%[[NB]]], strides: [%c0, %[[SA]]] : tensor<3xf32> to tensor<?x3xf32>
// CHECK:         ptensor.strided_view %arg1 to offset: %[[OB]], sizes: [%[[NB]]], strides: [%[[SB]], %c0] : tensor<?xf32> to tensor<?x3xf32>
// CHECK-NOT:     linalg.generic
func.func @meshgrid(%a: !ptensor.ptensor<3xf32>, %b: !ptensor.ptensor<?xf32>) -> (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>) {
  %c:2 = ptensor.meshgrid xy %a, %b : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<?xf32>) -> (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>)
  return %c#0, %c#1 : !ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>
}

// -----

// size, shape and create_like read the sizes with tensor.dim.
// CHECK-LABEL: func.func @attributes(
// CHECK:         %[[D:.*]] = tensor.dim %arg0, %c1
// CHECK:         %[[N:.*]] = arith.muli %[[D]], %c4
// CHECK:         %[[V:.*]] = arith.fptosi %arg1 : f32 to i8
// CHECK:         %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<4x?xi8>
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[V]] : i8) outs(%[[E]] : tensor<4x?xi8>)
// CHECK:         return %[[N]], %{{.*}}, %[[F]]
func.func @attributes(%a: !ptensor.ptensor<4x?xf32>, %v: f32) -> (index, index, !ptensor.ptensor<4x?xi8>) {
  %s = ptensor.size %a : !ptensor.ptensor<4x?xf32>
  %m, %n = ptensor.shape %a : !ptensor.ptensor<4x?xf32>
  %z = ptensor.create_like %a fill %v {dtype = i8} : !ptensor.ptensor<4x?xf32>, f32 -> !ptensor.ptensor<4x?xi8>
  return %s, %n, %z : index, index, !ptensor.ptensor<4x?xi8>
}

// -----

// extract_mask (CompactionToLinalg.cpp): a run-time check of the mask's
// sizes; the (bool) mask collapsed to 1-D as the flags; count_true and
// select_true give the positions of the true ones; one
// generic over them unravels each position over the mask's dims and
// gathers the source element there.
// CHECK-LABEL: func.func @extract_mask(
// CHECK:         func.call @ptensor_rt_shapes_failed(
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<?x4xi1> into tensor<?xi1>
// CHECK:         %[[COUNT:.*]] = ptensor.count_true %[[FLAT]] : tensor<?xi1>
// CHECK:         %[[E:.*]] = tensor.empty(%[[COUNT]]) : tensor<?xi64>
// CHECK:         %[[POS:.*]] = ptensor.select_true %[[FLAT]] into %[[E]]
// CHECK:         linalg.generic {{.*}} ins(%[[POS]] : tensor<?xi64>) outs(%{{.*}} : tensor<?xf32>)
// CHECK:           %[[P:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:           %[[J:.*]] = arith.remui %[[P]], %c4 : index
// CHECK:           %[[I:.*]] = arith.divui %[[P]], %c4 : index
// CHECK:           %[[V:.*]] = tensor.extract %arg0[%[[I]], %[[J]]] : tensor<?x4xf32>
// CHECK:           linalg.yield %[[V]] : f32
func.func @extract_mask(%a: !ptensor.ptensor<?x4xf32>, %m: !ptensor.ptensor<?x4xi1>) -> !ptensor.ptensor<?xf32> {
  %r = ptensor.extract_mask %a, %m : (!ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?x4xi1>) -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
