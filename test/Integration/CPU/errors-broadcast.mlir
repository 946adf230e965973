// A run-time broadcast failure (dynamic sizes 3 and 4, neither 1) is an
// error naming both shapes with their real sizes and a non-zero exit (not
// an abort: `not` fails on a signal), never reading out of bounds; a dynamic size of 1 against 4 broadcasts. Each function is its own
// module (split-file) so that one compile failure cannot mask another case.
// RUN: rm -rf %t && split-file %s %t
// RUN: %python %S/../Inputs/make_npy.py %t/f3.npy float32 3
// RUN: %python %S/../Inputs/make_npy.py %t/f4.npy float32 4
// RUN: %python %S/../Inputs/make_npy.py %t/f1.npy float32 1
// RUN: %python %S/../Inputs/make_npy.py %t/f24.npy float32 2x4
// RUN: %python %S/../Inputs/make_npy.py %t/f23.npy float32 2x3

// RUN: not ptensor-runner %t/add.mlir -e add --input %t/f3.npy --input %t/f4.npy 2>&1 | FileCheck %s --check-prefix=DYN
// DYN: ptensor-runner: error: ptensor runtime: cannot broadcast shape [4] to shape [3]: size 4 of source dimension 0 is neither 1 nor 3
// RUN: ptensor-runner %t/add.mlir -e add --input %t/f1.npy --input %t/f4.npy --print | FileCheck %s --check-prefix=OK
// OK: out0 (f32, shape (4,)

// A dynamic dim against a static one.
// RUN: not ptensor-runner %t/mixed.mlir -e mixed --input %t/f3.npy --input %t/f24.npy 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: error: ptensor runtime: cannot broadcast shape [3] to shape [2, 4]: size 3 of source dimension 0 is neither 1 nor 4

// The explicit broadcast op with a dynamic source size.
// RUN: not ptensor-runner %t/explicit.mlir -e explicit --input %t/f23.npy 2>&1 | FileCheck %s --check-prefix=EXPLICIT
// EXPLICIT: error: ptensor runtime: cannot broadcast shape [2, 3] to shape [2, 4]: size 3 of source dimension 1 is neither 1 nor 4

//--- add.mlir
func.func @add(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %c : !ptensor.ptensor<?xf32>
}

//--- mixed.mlir
func.func @mixed(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<2x4xf32>) -> !ptensor.ptensor<2x4xf32> {
  %c = ptensor.elementwise_binary multiply %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<2x4xf32>) -> !ptensor.ptensor<2x4xf32>
  return %c : !ptensor.ptensor<2x4xf32>
}

//--- explicit.mlir
func.func @explicit(%a: !ptensor.ptensor<2x?xf32>) -> !ptensor.ptensor<2x4xf32> {
  %c = ptensor.broadcast %a to () : !ptensor.ptensor<2x?xf32> -> !ptensor.ptensor<2x4xf32>
  return %c : !ptensor.ptensor<2x4xf32>
}
