// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// Views never copy: bufferization.to_buffer (read_only) of the source,
// memref.extract_strided_metadata, a memref.reinterpret_cast with the view's
// offset, sizes and strides, and bufferization.to_tensor back.

// permute_dims permutes sizes and strides; the offset is kept.
// CHECK-LABEL: func.func @permute(
// CHECK-SAME:    %[[A:.*]]: tensor<4x?x8xf32>) -> tensor<8x4x?xf32>
// CHECK:         %[[BUF:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<4x?x8xf32> to memref<4x?x8xf32, strided<[?, ?, ?], offset: ?>>
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:3, %[[ST:.*]]:3 = memref.extract_strided_metadata %[[BUF]]
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [8, 4, %[[SZ]]#1], strides: [%[[ST]]#2, %[[ST]]#0, %[[ST]]#1]
// CHECK-SAME:      : memref<f32> to memref<8x4x?xf32, strided<[?, ?, ?], offset: ?>>
// CHECK:         %[[T:.*]] = bufferization.to_tensor %[[V]] restrict : memref<8x4x?xf32, strided<[?, ?, ?], offset: ?>> to tensor<8x4x?xf32>
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
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[CM1:.*]] = arith.constant -1 : index
// CHECK:         %[[LAST:.*]] = arith.addi %[[SZ]]#1, %[[CM1]] : index
// CHECK:         %[[CLAMP:.*]] = arith.maxsi %[[LAST]], %[[C0]] : index
// CHECK:         %[[SHIFT:.*]] = arith.muli %[[CLAMP]], %[[ST]]#1 : index
// CHECK:         %[[NOFF:.*]] = arith.addi %[[OFF]], %[[SHIFT]] : index
// CHECK:         %[[NST:.*]] = arith.muli %[[ST]]#1, %{{.*}} : index
// CHECK:         memref.reinterpret_cast %[[BASE]] to offset: [%[[NOFF]]], sizes: [4, %[[SZ]]#1], strides: [%[[ST]]#0, %[[NST]]]
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
// CHECK:         memref.reinterpret_cast %[[BASE]] to offset: [%[[O1]]], sizes: [3, 5], strides: [%[[N0]], %[[N1]]]
func.func @flip_both(%a: !ptensor.ptensor<3x5xi16>) -> !ptensor.ptensor<3x5xi16> {
  %0 = ptensor.flip %a [0, 1] : !ptensor.ptensor<3x5xi16> -> !ptensor.ptensor<3x5xi16>
  return %0 : !ptensor.ptensor<3x5xi16>
}

// -----

// extract_slice: offset += offsets[d] * stride[d], stride[d] *= steps[d]
// (negative steps give negative strides), static result sizes; a dynamic
// source dim gets a bounds check on the highest element read.
// CHECK-LABEL: func.func @slice_with_steps(
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[D0:.*]] = arith.muli %[[C3]], %[[ST]]#0 : index
// CHECK:         %[[O0:.*]] = arith.addi %[[OFF]], %[[D0]] : index
// CHECK:         %[[CM2:.*]] = arith.constant -2 : index
// CHECK:         %[[N0:.*]] = arith.muli %[[ST]]#0, %[[CM2]] : index
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK:         %[[IN:.*]] = arith.cmpi slt, %[[C5]], %[[SZ]]#1 : index
// CHECK:         cf.assert %[[IN]], "ptensor: extract_slice of dimension 1 reads element 5, past the end of the source"
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[D1:.*]] = arith.muli %[[C1]], %[[ST]]#1 : index
// CHECK:         %[[O1:.*]] = arith.addi %[[O0]], %[[D1]] : index
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[N1:.*]] = arith.muli %[[ST]]#1, %[[C2]] : index
// CHECK:         memref.reinterpret_cast %[[BASE]] to offset: [%[[O1]]], sizes: [2, 3], strides: [%[[N0]], %[[N1]]]
// CHECK-SAME:      to memref<2x3xf32, strided<[?, ?], offset: ?>>
func.func @slice_with_steps(%a: !ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<2x3xf32> {
  %0 = ptensor.extract_slice %a [3, 1] [2, 3] [-2, 2] : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<2x3xf32>
  return %0 : !ptensor.ptensor<2x3xf32>
}

// -----

// Static source sizes need no run-time check.
// CHECK-LABEL: func.func @slice_static_unchecked(
// CHECK-NOT:     cf.assert
// CHECK:         memref.reinterpret_cast
func.func @slice_static_unchecked(%a: !ptensor.ptensor<8xf32>) -> !ptensor.ptensor<4xf32> {
  %0 = ptensor.extract_slice %a [7] [4] [-2] : !ptensor.ptensor<8xf32> -> !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

// expand_dims inserts size 1 with stride 0; squeeze drops size-1 dims.
// CHECK-LABEL: func.func @expand_and_squeeze(
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [4, 1, %[[SZ]]#1], strides: [%[[ST]]#0, %[[C0]], %[[ST]]#1]
// CHECK-SAME:      to memref<4x1x?xf32, strided<[?, ?, ?], offset: ?>>
// CHECK:         %[[BASE2:.*]], %[[OFF2:.*]], %[[SZ2:.*]]:3, %[[ST2:.*]]:3 = memref.extract_strided_metadata
// CHECK:         memref.reinterpret_cast %[[BASE2]] to offset: [%[[OFF2]]], sizes: [5], strides: [%[[ST2]]#1]
// CHECK-SAME:      : memref<i8> to memref<5xi8, strided<[?], offset: ?>>
func.func @expand_and_squeeze(%a: !ptensor.ptensor<4x?xf32>, %s: !ptensor.ptensor<1x5x1xi8>) -> (!ptensor.ptensor<4x1x?xf32>, !ptensor.ptensor<5xi8>) {
  %0 = ptensor.expand_dims %a 1 : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x1x?xf32>
  %1 = ptensor.squeeze %s [0, -1] : !ptensor.ptensor<1x5x1xi8> -> !ptensor.ptensor<5xi8>
  return %0, %1 : !ptensor.ptensor<4x1x?xf32>, !ptensor.ptensor<5xi8>
}

// -----

// A negative expand_dims axis counts from the end of the result.
// CHECK-LABEL: func.func @expand_negative_axis(
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %[[SZ:.*]]:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK:         memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [2, 3, 1], strides: [%[[ST]]#0, %[[ST]]#1, %{{.*}}]
func.func @expand_negative_axis(%a: !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<2x3x1xf32> {
  %0 = ptensor.expand_dims %a -1 : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<2x3x1xf32>
  return %0 : !ptensor.ptensor<2x3x1xf32>
}

// -----

// A view feeding an elementwise op: the generic reads the view's tensor.
// CHECK-LABEL: func.func @view_then_compute(
// CHECK:         %[[V:.*]] = bufferization.to_tensor %{{.*}} restrict
// CHECK:         linalg.generic {{.*}} ins(%[[V]] : tensor<3x2xf32>)
func.func @view_then_compute(%a: !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<3x2xf32> {
  %t = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<2x3xf32> -> !ptensor.ptensor<3x2xf32>
  %0 = ptensor.elementwise_unary negative %t : (!ptensor.ptensor<3x2xf32>) -> !ptensor.ptensor<3x2xf32>
  return %0 : !ptensor.ptensor<3x2xf32>
}
