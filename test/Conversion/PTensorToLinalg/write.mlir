// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// ptensor.write (out= / in-place) materializes the value in the
// destination's own buffer, which keeps its (fully dynamic) strides.

// CHECK-LABEL: func.func @write_in_place(
// CHECK-SAME:    %[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>)
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK:           arith.addf
// CHECK:         %[[DST:.*]] = bufferization.to_buffer %[[A]] : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK:         bufferization.materialize_in_destination %[[SUM]] in restrict writable %[[DST]] : (tensor<?xf32>, memref<?xf32, strided<[?], offset: ?>>) -> ()
// CHECK-NOT:     ptensor.write
// CHECK:         return
func.func @write_in_place(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>) {
  %s = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  ptensor.write %s into %a : !ptensor.ptensor<?xf32>
  return
}

// -----

// Rank 2, unsigned dtype (stored as i16), into a separate out= argument.
// CHECK-LABEL: func.func @write_out_arg(
// CHECK-SAME:    %[[A:.*]]: tensor<2x3xi16>, %[[OUT:.*]]: tensor<2x3xi16>)
// CHECK:         %[[NEG:.*]] = linalg.generic
// CHECK:         %[[DST:.*]] = bufferization.to_buffer %[[OUT]] : tensor<2x3xi16> to memref<2x3xi16, strided<[?, ?], offset: ?>>
// CHECK:         bufferization.materialize_in_destination %[[NEG]] in restrict writable %[[DST]]
func.func @write_out_arg(%a: !ptensor.ptensor<2x3xui16>, %out: !ptensor.ptensor<2x3xui16>) {
  %n = ptensor.elementwise_unary bitwise_invert %a : (!ptensor.ptensor<2x3xui16>) -> !ptensor.ptensor<2x3xui16>
  ptensor.write %n into %out : !ptensor.ptensor<2x3xui16>
  return
}

// -----

// Into a view of an argument (out= into a transposed array): a memref view
// of the argument's buffer with the view's offset and strides, written in
// place; the view's tensor is not written.
// CHECK-LABEL: func.func @write_into_view(
// CHECK-SAME:    %[[A:.*]]: tensor<5x6xf32>, %[[B:.*]]: tensor<6x5xf32>)
// CHECK:         %[[MD:.*]] = bufferization.to_buffer %[[A]] read_only
// CHECK:         %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[MD]]
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK:         %[[SRC:.*]] = bufferization.to_buffer %[[A]] read_only
// CHECK:         %[[DST:.*]] = memref.reinterpret_cast %[[SRC]] to offset: [%[[OFF]]], sizes: [6, 5], strides: [%[[ST]]#1, %[[ST]]#0]
// CHECK:         bufferization.materialize_in_destination %[[SUM]] in restrict writable %[[DST]] : (tensor<6x5xf32>, memref<6x5xf32, strided<[?, ?], offset: ?>>) -> ()
func.func @write_into_view(%a: !ptensor.ptensor<5x6xf32>, %b: !ptensor.ptensor<6x5xf32>) {
  %at = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<5x6xf32> -> !ptensor.ptensor<6x5xf32>
  %s = ptensor.elementwise_binary add %b, %b : (!ptensor.ptensor<6x5xf32>, !ptensor.ptensor<6x5xf32>) -> !ptensor.ptensor<6x5xf32>
  ptensor.write %s into %at : !ptensor.ptensor<6x5xf32>
  return
}
