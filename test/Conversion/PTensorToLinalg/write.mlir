// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg -verify-diagnostics | FileCheck %s

// ptensor.write (out= / in-place) becomes ptensor.strided_write into the
// destination's tensor; later uses of the destination use its result, so
// they are ordered after the write.

// CHECK-LABEL: func.func @write_in_place(
// CHECK-SAME:    %[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>)
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK:           arith.addf
// CHECK:         ptensor.strided_write %[[SUM]] into %[[A]] : tensor<?xf32> into tensor<?xf32>
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
// CHECK:         ptensor.strided_write %[[NEG]] into %[[OUT]] : tensor<2x3xi16> into tensor<2x3xi16>
func.func @write_out_arg(%a: !ptensor.ptensor<2x3xui16>, %out: !ptensor.ptensor<2x3xui16>) {
  %n = ptensor.elementwise_unary bitwise_invert %a : (!ptensor.ptensor<2x3xui16>) -> !ptensor.ptensor<2x3xui16>
  ptensor.write %n into %out : !ptensor.ptensor<2x3xui16>
  return
}

// -----

// Into a view of an argument (out= into a transposed array): a strided
// write into the argument with the view's offset and strides.
// CHECK-LABEL: func.func @write_into_view(
// CHECK-SAME:    %[[A:.*]]: tensor<5x6xf32>, %[[B:.*]]: tensor<6x5xf32>)
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK:         %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK:         ptensor.strided_write %[[SUM]] into %[[A]] to offset: %[[OFF]], sizes: [], strides: [%[[ST]]#1, %[[ST]]#0] : tensor<6x5xf32> into tensor<5x6xf32>
func.func @write_into_view(%a: !ptensor.ptensor<5x6xf32>, %b: !ptensor.ptensor<6x5xf32>) {
  %at = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<5x6xf32> -> !ptensor.ptensor<6x5xf32>
  %s = ptensor.elementwise_binary add %b, %b : (!ptensor.ptensor<6x5xf32>, !ptensor.ptensor<6x5xf32>) -> !ptensor.ptensor<6x5xf32>
  ptensor.write %s into %at : !ptensor.ptensor<6x5xf32>
  return
}

// -----

// Reads after a write (an op, the return, a view made before the write)
// read the write's result; the read before it reads the argument.
// CHECK-LABEL: func.func @reads_after_write(
// CHECK-SAME:    %[[A:.*]]: tensor<4xf32>
// CHECK:         %[[BEFORE:.*]] = linalg.generic {{.*}} ins(%[[A]] :
// CHECK:         %[[W:.*]] = ptensor.strided_write %{{.*}} into %[[A]]
// CHECK:         ptensor.strided_view %[[W]]
// CHECK:         linalg.generic {{.*}} ins(%[[W]], %[[BEFORE]] :
// CHECK:         return %{{.*}}, %[[W]], %{{.*}} :
func.func @reads_after_write(%a: !ptensor.ptensor<4xf32>) -> (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) {
  %f = ptensor.flip %a [0] : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf32>
  %t = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  %s = ptensor.elementwise_binary add %a, %a : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  ptensor.write %s into %a : !ptensor.ptensor<4xf32>
  %r = ptensor.elementwise_binary add %a, %t : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  return %r, %a, %f : !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>
}

// -----

// A tensor defined outside the write's block cannot be ordered.
func.func @write_outside_block(%a: !ptensor.ptensor<4xf32>, %c: i1) {
  scf.if %c {
    %s = ptensor.elementwise_binary add %a, %a : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
    // expected-error @below {{'ptensor.write' op expected the written tensor to be defined in the block of the write (later reads could not be ordered after it), found it defined outside}}
    ptensor.write %s into %a : !ptensor.ptensor<4xf32>
  }
  return
}
