// take's run-time check of its indices, with exit status 1 and no output
// file: an index past the end of the axis or before its start (below
// -size) would read outside the source. Indices in [-size, size) give
// numpy's result (negative ones count from the end).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(12, dtype=np.float32).reshape(3, 4)); np.save('%t/i.npy', np.array([3, -4, 0, -1], np.int32)); np.save('%t/past.npy', np.array([1, 4], np.int32)); np.save('%t/before.npy', np.array([-5, 0], np.int32))"

// RUN: ptensor-runner %s -e take --input %t/x.npy --input %t/i.npy --print | FileCheck %s --check-prefix=OK
// OK: out0 (f32, shape (3, 4)):
// OK-NEXT: {{\[\[}} 3.  0.  0.  3.]

// RUN: not ptensor-runner %s -e take --input %t/x.npy --input %t/past.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not ptensor-runner %s -e take --input %t/x.npy --input %t/before.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: ptensor-runner: error: ptensor runtime: take: an index is out of range (expected every index in [-size, size) of the axis taken along; negative ones count from the end)
// RUN: not ls %t/out

func.func @take(%x: !ptensor.ptensor<?x?xf32>, %i: !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x?xf32> {
  %0 = ptensor.take %x, %i axis 1 : (!ptensor.ptensor<?x?xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x?xf32>
  return %0 : !ptensor.ptensor<?x?xf32>
}
