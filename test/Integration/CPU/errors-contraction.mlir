// Contracted sizes that differ at run time are an error naming both shapes
// with their real sizes and a non-zero exit (not an abort), for matmul,
// vecdot and tensordot; dynamic batch dims that do not broadcast are the
// broadcast error; sizes that fit run.
// RUN: rm -rf %t && split-file %s %t
// RUN: %python %S/../Inputs/make_npy.py %t/f23.npy float32 2x3
// RUN: %python %S/../Inputs/make_npy.py %t/f43.npy float32 4x3
// RUN: %python %S/../Inputs/make_npy.py %t/f35.npy float32 3x5
// RUN: %python %S/../Inputs/make_npy.py %t/f4.npy float32 4
// RUN: %python %S/../Inputs/make_npy.py %t/f223.npy float32 2x2x3
// RUN: %python %S/../Inputs/make_npy.py %t/f335.npy float32 3x3x5

// RUN: not ptensor-runner %t/matmul.mlir -e matmul --input %t/f23.npy --input %t/f43.npy 2>&1 | FileCheck %s --check-prefix=MATMUL
// MATMUL: ptensor-runner: error: ptensor runtime: matmul: contracted dimensions differ: dimension 1 of shape [2, 3] has size 3 and dimension 0 of shape [4, 3] has size 4
// RUN: ptensor-runner %t/matmul.mlir -e matmul --input %t/f23.npy --input %t/f35.npy --print | FileCheck %s --check-prefix=OK
// OK: out0 (f32, shape (2, 5)

// RUN: not ptensor-runner %t/vecdot.mlir -e vecdot --input %t/f23.npy --input %t/f4.npy 2>&1 | FileCheck %s --check-prefix=VECDOT
// VECDOT: error: ptensor runtime: vecdot: contracted dimensions differ: dimension 1 of shape [2, 3] has size 3 and dimension 0 of shape [4] has size 4

// RUN: not ptensor-runner %t/tensordot.mlir -e tensordot --input %t/f23.npy --input %t/f43.npy 2>&1 | FileCheck %s --check-prefix=TENSORDOT
// TENSORDOT: error: ptensor runtime: tensordot: contracted dimensions differ: dimension 0 of shape [2, 3] has size 2 and dimension 0 of shape [4, 3] has size 4

// RUN: not ptensor-runner %t/batch.mlir -e batch --input %t/f223.npy --input %t/f335.npy 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: ptensor runtime: cannot broadcast shape [3, 3, 5] to shape [2, 3, 5]: size 3 of source dimension 0 is neither 1 nor 2

//--- matmul.mlir
func.func @matmul(%a: !ptensor.ptensor<?x?xf32>, %b: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32> {
  %c = ptensor.matmul %a, %b : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32>
  return %c : !ptensor.ptensor<?x?xf32>
}
//--- vecdot.mlir
func.func @vecdot(%a: !ptensor.ptensor<?x?xf32>, %b: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %c = ptensor.vecdot %a, %b : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %c : !ptensor.ptensor<?xf32>
}
//--- tensordot.mlir
func.func @tensordot(%a: !ptensor.ptensor<?x3xf32>, %b: !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<3x3xf32> {
  %c = ptensor.tensordot %a, %b {lhs_axes = array<i64: 0>, rhs_axes = array<i64: 0>} : (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<3x3xf32>
  return %c : !ptensor.ptensor<3x3xf32>
}
//--- batch.mlir
func.func @batch(%a: !ptensor.ptensor<?x?x?xf32>, %b: !ptensor.ptensor<?x?x?xf32>) -> !ptensor.ptensor<?x?x?xf32> {
  %c = ptensor.matmul %a, %b : (!ptensor.ptensor<?x?x?xf32>, !ptensor.ptensor<?x?x?xf32>) -> !ptensor.ptensor<?x?x?xf32>
  return %c : !ptensor.ptensor<?x?x?xf32>
}
