// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// Views never copy: bufferization.to_buffer (read_only) of the source and
// memref.extract_strided_metadata give the source's layout, and
// ptensor.strided_view of the source tensor applies the view's offset, sizes
// (dynamic ones) and strides; bufferization sees it as an alias of the
// source and lowers it to a memref.reinterpret_cast.

// permute_dims permutes sizes and strides; the offset is kept.
// CHECK-LABEL: func.func @permute(
// CHECK-SAME:    %[[A:.*]]: tensor<4x?x8xf32>) -> tensor<8x4x?xf32>
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<4x?x8xf32> to memref<4x?x8xf32, strided<[?, ?, ?], offset: ?>>
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:3, %[[ST:.*]]:3 = memref.extract_strided_metadata %[[BUF]]
// CHECK:         %[[T:.*]] = ptensor.strided_view %[[A]] to offset: %[[OFF]], sizes: [%[[SZ]]#1], strides: [%[[ST]]#2, %[[ST]]#0, %[[ST]]#1]
// CHECK-SAME:      : tensor<4x?x8xf32> to tensor<8x4x?xf32>
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.copy
// CHECK:         return %[[T]]
func.func @permute(%a: !ptensor.ptensor<4x?x8xf32>) -> !ptensor.ptensor<8x4x?xf32> {
  %0 = ptensor.permute_dims %a [2, 0, 1] : !ptensor.ptensor<4x?x8xf32> -> !ptensor.ptensor<8x4x?xf32>
  return %0 : !ptensor.ptensor<8x4x?xf32>
}

// -----

// flip of the last axis: the offset moves to the last element,
// offset + max(size - 1, 0) * stride, and the stride is negated.
// CHECK-LABEL: func.func @flip_last(
// CHECK-SAME:    %[[A:.*]]: tensor<4x?xf32>)
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK:         %[[CM1:.*]] = arith.constant -1 : index
// CHECK:         %[[LAST:.*]] = arith.addi %[[SZ]]#1, %[[CM1]] : index
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[CLAMP:.*]] = arith.maxsi %[[LAST]], %[[C0]] : index
// CHECK:         %[[SHIFT:.*]] = arith.muli %[[CLAMP]], %[[ST]]#1 : index
// CHECK:         %[[NOFF:.*]] = arith.addi %[[OFF]], %[[SHIFT]] : index
// CHECK:         %[[NST:.*]] = arith.muli %[[ST]]#1, %{{.*}} : index
// CHECK:         ptensor.strided_view %[[A]] to offset: %[[NOFF]], sizes: [%[[SZ]]#1], strides: [%[[ST]]#0, %[[NST]]]
func.func @flip_last(%a: !ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<4x?xf32> {
  %0 = ptensor.flip %a [-1] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x?xf32>
  return %0 : !ptensor.ptensor<4x?xf32>
}

// -----

// Flipping two axes negates both strides and accumulates both shifts.
// CHECK-LABEL: func.func @flip_both(
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK:         %[[S0:.*]] = arith.muli %{{.*}}, %[[ST]]#0 : index
// CHECK:         %[[O0:.*]] = arith.addi %[[OFF]], %[[S0]] : index
// CHECK:         %[[N0:.*]] = arith.muli %[[ST]]#0, %{{.*}} : index
// CHECK:         %[[S1:.*]] = arith.muli %{{.*}}, %[[ST]]#1 : index
// CHECK:         %[[O1:.*]] = arith.addi %[[O0]], %[[S1]] : index
// CHECK:         %[[N1:.*]] = arith.muli %[[ST]]#1, %{{.*}} : index
// CHECK:         ptensor.strided_view %{{.*}} to offset: %[[O1]], sizes: [], strides: [%[[N0]], %[[N1]]]
// CHECK-SAME:      : tensor<3x5xi16> to tensor<3x5xi16>
func.func @flip_both(%a: !ptensor.ptensor<3x5xi16>) -> !ptensor.ptensor<3x5xi16> {
  %0 = ptensor.flip %a [0, 1] : !ptensor.ptensor<3x5xi16> -> !ptensor.ptensor<3x5xi16>
  return %0 : !ptensor.ptensor<3x5xi16>
}

// -----

// extract_slice: offset += offsets[d] * stride[d], stride[d] *= steps[d]
// (negative steps give negative strides; products with 0 and 1 fold),
// here with static result sizes (@slice_dynamic_size has an operand); a
// dynamic source dim gets a bounds check without
// overflow: size - 1 <= (dim - 1 - offset) / step, the offset inside. A
// failed check calls the runtime with the source's shape and (offset, size,
// step) of the dim (ShapeCheckKind::ExtractSlice = 5, dim 1).
// CHECK-LABEL: func.func @slice_with_steps(
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[D0:.*]] = arith.muli %[[C3]], %[[ST]]#0 : index
// CHECK:         %[[O0:.*]] = arith.addi %[[OFF]], %[[D0]] : index
// CHECK:         %[[CM2:.*]] = arith.constant -2 : index
// CHECK:         %[[N0:.*]] = arith.muli %[[ST]]#0, %[[CM2]] : index
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[LAST:.*]] = arith.addi %[[SZ]]#1, %[[CM2]] : index
// CHECK:         %[[LEFT:.*]] = arith.divsi %[[LAST]], %[[C2]] : index
// CHECK:         %[[FITS:.*]] = arith.cmpi sle, %[[C2]], %[[LEFT]] : index
// CHECK:         %[[INSIDE:.*]] = arith.cmpi sgt, %[[SZ]]#1, %{{.*}} : index
// CHECK:         %[[OK:.*]] = arith.andi %[[INSIDE]], %[[FITS]] : i1
// CHECK:         %[[BAD:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK:         scf.if %[[BAD]] {
// CHECK:           %[[C5:.*]] = arith.constant 5 : i64
// CHECK:           %[[OPERAND:.*]] = arith.constant 0 : i64
// CHECK:           %[[DIM:.*]] = arith.constant 1 : i64
// CHECK:           func.call @ptensor_rt_shapes_failed(%{{.*}}, %{{.*}}, %[[C5]], %[[OPERAND]], %[[DIM]])
// CHECK:         }
// CHECK:         %[[O1:.*]] = arith.addi %[[O0]], %[[ST]]#1 : index
// CHECK:         %[[N1:.*]] = arith.muli %[[ST]]#1, %[[C2]] : index
// CHECK:         ptensor.strided_view %{{.*}} to offset: %[[O1]], sizes: [], strides: [%[[N0]], %[[N1]]]
// CHECK-SAME:      : tensor<4x?xf32> to tensor<2x3xf32>
func.func @slice_with_steps(%a: !ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<2x3xf32> {
  %0 = ptensor.extract_slice %a [3, 1] [2, 3] [-2, 2] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<2x3xf32>
  return %0 : !ptensor.ptensor<2x3xf32>
}

// -----

// A size given at run time is the view's size, checked too (>= 0, and
// none or in bounds); the static dim 1 needs no check.
// CHECK-LABEL: func.func @slice_dynamic_size(
// CHECK-SAME:      %[[A:.*]]: tensor<?x8xf32>, %[[N:.*]]: index)
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK:         %[[NM1:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK:         arith.cmpi sle, %[[NM1]], %{{.*}} : index
// CHECK:         %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %{{.*}} : index
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : index
// CHECK:         scf.if
// CHECK:           func.call @ptensor_rt_shapes_failed(
// CHECK:         }
// CHECK-NOT:     scf.if
// CHECK:         ptensor.strided_view %[[A]] to offset: %{{.*}}, sizes: [%[[N]]], strides: [%[[ST]]#0, %{{.*}}]
// CHECK-SAME:      : tensor<?x8xf32> to tensor<?x2xf32>
func.func @slice_dynamic_size(%a: !ptensor.ptensor<?x8xf32>, %n: index) -> !ptensor.ptensor<?x2xf32> {
  %0 = ptensor.extract_slice %a [0, 1] [%n, 2] [1, 3] : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x2xf32>
  return %0 : !ptensor.ptensor<?x2xf32>
}

// -----

// Static source sizes need no run-time check.
// CHECK-LABEL: func.func @slice_static_unchecked(
// CHECK-NOT:     cf.assert
// CHECK:         ptensor.strided_view
func.func @slice_static_unchecked(%a: !ptensor.ptensor<8xf32>) -> !ptensor.ptensor<4xf32> {
  %0 = ptensor.extract_slice %a [7] [4] [-2] : !ptensor.ptensor<8xf32> -> !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

// expand_dims inserts size 1 with stride 0; squeeze drops size-1 dims.
// CHECK-LABEL: func.func @expand_and_squeeze(
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         ptensor.strided_view %{{.*}} to offset: %[[OFF]], sizes: [%[[SZ]]#1], strides: [%[[ST]]#0, %[[C0]], %[[ST]]#1]
// CHECK-SAME:      : tensor<4x?xf32> to tensor<4x1x?xf32>
// CHECK:         %[[BASE2:.*]], %[[OFF2:.*]], %[[SZ2:.*]]:3, %[[ST2:.*]]:3 = memref.extract_strided_metadata
// CHECK:         ptensor.strided_view %{{.*}} to offset: %[[OFF2]], sizes: [], strides: [%[[ST2]]#1]
// CHECK-SAME:      : tensor<1x5x1xi8> to tensor<5xi8>
func.func @expand_and_squeeze(%a: !ptensor.ptensor<4x?xf32>, %s: !ptensor.ptensor<1x5x1xi8>) -> (!ptensor.ptensor<4x1x?xf32>, !ptensor.ptensor<5xi8>) {
  %0 = ptensor.expand_dims %a 1 : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x1x?xf32>
  %1 = ptensor.squeeze %s [0, -1] : !ptensor.ptensor<1x5x1xi8> -> !ptensor.ptensor<5xi8>
  return %0, %1 : !ptensor.ptensor<4x1x?xf32>, !ptensor.ptensor<5xi8>
}

// -----

// A negative expand_dims axis counts from the end of the result.
// CHECK-LABEL: func.func @expand_negative_axis(
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK:         ptensor.strided_view %{{.*}} to offset: %[[OFF]], sizes: [], strides: [%[[ST]]#0, %[[ST]]#1, %{{.*}}]
func.func @expand_negative_axis(%a: !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<2x3x1xf32> {
  %0 = ptensor.expand_dims %a -1 : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<2x3x1xf32>
  return %0 : !ptensor.ptensor<2x3x1xf32>
}

// -----

// A view feeding an elementwise op: the generic reads the view's tensor.
// CHECK-LABEL: func.func @view_then_compute(
// CHECK:         %[[V:.*]] = ptensor.strided_view
// CHECK:         linalg.generic {{.*}} ins(%[[V]] : tensor<3x2xf32>)
func.func @view_then_compute(%a: !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<3x2xf32> {
  %t = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<3x2xf32>
  %0 = ptensor.elementwise_unary negative %t : (!ptensor.ptensor<3x2xf32>) -> !ptensor.ptensor<3x2xf32>
  return %0 : !ptensor.ptensor<3x2xf32>
}
