// RUN: ptensor-opt %s --ptensor-layout | FileCheck %s

// Regression test (fixed). Was BUG: ptensor-layout collects ptensor.cast (Layout.cpp's op list) but
// hoistPermutation does cast<InferTypeOpInterface>(op), which CastOp does
// not implement: a cast of a permute_dims view crashes ptensor-opt
// (segfault in InferTypeOpInterface::inferReturnTypes).
// Expected: the cast is computed on the unpermuted source and the result
// permuted (or the cast is left alone), never a crash.

// CHECK-LABEL: func.func @cast_of_permuted_view(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4x8xf32>)
// CHECK:         %[[C:.*]] = ptensor.cast %[[A]] : !ptensor.ptensor<4x8xf32> -> !ptensor.ptensor<4x8xf16>
// CHECK:         %[[T:.*]] = ptensor.permute_dims %[[C]] [1, 0] : !ptensor.ptensor<4x8xf16> -> !ptensor.ptensor<8x4xf16>
// CHECK:         return %[[T]]
func.func @cast_of_permuted_view(%a: !ptensor.ptensor<4x8xf32>) -> !ptensor.ptensor<8x4xf16> {
  %ta = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<4x8xf32> -> !ptensor.ptensor<8x4xf32>
  %h = ptensor.cast %ta : !ptensor.ptensor<8x4xf32> -> !ptensor.ptensor<8x4xf16>
  return %h : !ptensor.ptensor<8x4xf16>
}
