// searchsorted's run-time checks of a sorter, with exit status 1 and no
// output file: a sorter whose dynamic size differs from the sorted line's
// (both shapes named), and sorter indices outside [0, size) (negative, or
// past the end: the search would read outside the line). A good sorter
// gives numpy's result.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/s.npy', np.array([3.0, 1.0, 2.0, 2.0], np.float32)); np.save('%t/v.npy', np.array([2.0, 0.5, 9.0], np.float32)); np.save('%t/p.npy', np.array([1, 2, 3, 0], np.int64)); np.save('%t/short.npy', np.array([1, 2, 0], np.int64)); np.save('%t/past.npy', np.array([1, 2, 4, 0], np.int64)); np.save('%t/neg.npy', np.array([1, -1, 3, 0], np.int64))"

// RUN: ptensor-runner %s -e search --input %t/s.npy --input %t/v.npy --input %t/p.npy --print | FileCheck %s --check-prefix=OK
// OK: out0 (i64, shape (3,)):
// OK-NEXT: [3 0 4]

// RUN: not ptensor-runner %s -e search --input %t/s.npy --input %t/v.npy --input %t/short.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: ptensor-runner: error: ptensor runtime: searchsorted: the sorter's shape [3] does not match the sorted tensor's shape [4] (expected one index per element)
// RUN: not ls %t/out

// RUN: not ptensor-runner %s -e search --input %t/s.npy --input %t/v.npy --input %t/past.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not ptensor-runner %s -e search --input %t/s.npy --input %t/v.npy --input %t/neg.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: ptensor-runner: error: ptensor runtime: searchsorted: a sorter index is out of range (expected every index in [0, size of the sorted tensor))
// RUN: not ls %t/out

func.func @search(%s: !ptensor.ptensor<?xf32>, %v: !ptensor.ptensor<?xf32>, %p: !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<?xi64> {
  %0 = ptensor.searchsorted right %s, %v sorter %p : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<?xi64>
  return %0 : !ptensor.ptensor<?xi64>
}
