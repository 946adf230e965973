// An extract_slice whose size is given at run time: a[1::2, 6::-3][:n] of a
// 5x8 array, equal to numpy's; sizes that read past the source (also one
// whose last element overflows int64) or are negative are errors naming
// the source's shape, the dim and the elements read, with exit status 1.
// RUN: rm -rf %t && split-file %s %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.arange(40, dtype=np.float32).reshape(5, 8)); [np.save('%t/n%d.npy' % i, np.int64(v)) for i, v in enumerate([0, 2, 3, -1, 2**63 - 1, 4, 1])]"

// RUN: ptensor-runner %t/cols.mlir -e cols --input %t/a.npy --input %t/n1.npy --print | FileCheck %s --check-prefix=TWO
// TWO:      out0 (f32, shape (2, 2)):
// TWO-NEXT: {{\[\[}}14. 11.]
// TWO-NEXT:  [30. 27.]]
// RUN: ptensor-runner %t/cols.mlir -e cols --input %t/a.npy --input %t/n0.npy --print | FileCheck %s --check-prefix=NONE
// NONE: out0 (f32, shape (0, 2)):

// RUN: not ptensor-runner %t/cols.mlir -e cols --input %t/a.npy --input %t/n2.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=PAST
// PAST: ptensor-runner: error: ptensor runtime: extract_slice of shape [5, 8]: slice of dimension 0 reads elements 1 to 5, outside [0, 5)
// RUN: not ls %t/out
// RUN: not ptensor-runner %t/cols.mlir -e cols --input %t/a.npy --input %t/n3.npy 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: ptensor runtime: extract_slice of shape [5, 8]: size of dimension 0 must be >= 0, got -1
// RUN: not ptensor-runner %t/cols.mlir -e cols --input %t/a.npy --input %t/n4.npy 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: error: ptensor runtime: extract_slice of shape [5, 8]: slice of dimension 0: offset 1 + (size 9223372036854775807 - 1) * step 2 overflows int64

// Negative steps at run time: a[4::-2][:n] of the dynamic rows (3 rows fit,
// a fourth would read row -2), and a[:, 7::-3][:, :n] of a static 5x8
// source (3 columns fit, a fourth would read column -2).
// RUN: ptensor-runner %t/cols.mlir -e back_rows --input %t/a.npy --input %t/n2.npy --print | FileCheck %s --check-prefix=BACK-ROWS
// BACK-ROWS:      out0 (f32, shape (3, 2)):
// BACK-ROWS-NEXT: {{\[\[}}32. 33.]
// BACK-ROWS-NEXT:  [16. 17.]
// BACK-ROWS-NEXT:  [ 0.  1.]]
// RUN: not ptensor-runner %t/cols.mlir -e back_rows --input %t/a.npy --input %t/n5.npy 2>&1 | FileCheck %s --check-prefix=BACK-ROWS-PAST
// BACK-ROWS-PAST: error: ptensor runtime: extract_slice of shape [5, 8]: slice of dimension 0 reads elements 4 to -2, outside [0, 5)
// RUN: ptensor-runner %t/cols.mlir -e back_cols --input %t/a.npy --input %t/n2.npy --print | FileCheck %s --check-prefix=BACK-COLS
// BACK-COLS:      out0 (f32, shape (5, 3)):
// BACK-COLS-NEXT: {{\[\[}} 7.  4.  1.]
// RUN: not ptensor-runner %t/cols.mlir -e back_cols --input %t/a.npy --input %t/n5.npy 2>&1 | FileCheck %s --check-prefix=BACK-COLS-PAST
// BACK-COLS-PAST: error: ptensor runtime: extract_slice of shape [5, 8]: slice of dimension 1 reads elements 7 to -2, outside [0, 8)
// The lowest int64 step: one element is read; a second would be element
// 4 - 2^63 (no overflow: the offset is >= 0).
// RUN: ptensor-runner %t/cols.mlir -e lowest_step --input %t/a.npy --input %t/n6.npy --print | FileCheck %s --check-prefix=LOWEST
// LOWEST:      out0 (f32, shape (1, 8)):
// LOWEST-NEXT: {{\[\[}}32. 33. 34. 35. 36. 37. 38. 39.]]
// RUN: not ptensor-runner %t/cols.mlir -e lowest_step --input %t/a.npy --input %t/n1.npy 2>&1 | FileCheck %s --check-prefix=LOWEST-PAST
// LOWEST-PAST: error: ptensor runtime: extract_slice of shape [5, 8]: slice of dimension 0 reads elements 4 to -9223372036854775804, outside [0, 5)

//--- cols.mlir
func.func @cols(%a: !ptensor.ptensor<?x8xf32>, %n: index) -> !ptensor.ptensor<?x2xf32> {
  %0 = ptensor.extract_slice %a [1, 6] [%n, 2] [2, -3] : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x2xf32>
  return %0 : !ptensor.ptensor<?x2xf32>
}
func.func @back_rows(%a: !ptensor.ptensor<?x8xf32>, %n: index) -> !ptensor.ptensor<?x2xf32> {
  %0 = ptensor.extract_slice %a [4, 0] [%n, 2] [-2, 1] : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x2xf32>
  return %0 : !ptensor.ptensor<?x2xf32>
}
func.func @back_cols(%a: !ptensor.ptensor<5x8xf32>, %n: index) -> !ptensor.ptensor<5x?xf32> {
  %0 = ptensor.extract_slice %a [0, 7] [5, %n] [1, -3] : !ptensor.ptensor<5x8xf32> -> !ptensor.ptensor<5x?xf32>
  return %0 : !ptensor.ptensor<5x?xf32>
}
func.func @lowest_step(%a: !ptensor.ptensor<?x8xf32>, %n: index) -> !ptensor.ptensor<?x8xf32> {
  %0 = ptensor.extract_slice %a [4, 0] [%n, 8] [-9223372036854775808, 1] : !ptensor.ptensor<?x8xf32> -> !ptensor.ptensor<?x8xf32>
  return %0 : !ptensor.ptensor<?x8xf32>
}
