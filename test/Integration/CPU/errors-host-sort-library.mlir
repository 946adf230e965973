// The host sort's library (libptensor_runtime_vqsort.so, Highway's VQSort)
// is loaded beside libptensor_runtime on the first sort, not with the
// runtime (which no longer pays Highway's load-time timer calibration).
// Without it a sort fails with a message naming it; the runner exits 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.array([3.0, -1.0, 2.0], np.float32))"
// RUN: ptensor-runner %s -e sort --input %t/a.npy --print | FileCheck %s --check-prefix=SORTED
// SORTED: out0 (f32, shape (3,)
// SORTED-NEXT: [-1. 2. 3.]
// RUN: env PTENSOR_RUNTIME_VQSORT_LIBRARY=%t/missing.so not ptensor-runner %s -e sort --input %t/a.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ptensor-runner: error: ptensor runtime: the host sort needs libptensor_runtime_vqsort.so (beside libptensor_runtime.so, or PTENSOR_RUNTIME_VQSORT_LIBRARY), which did not load: {{.*}}missing.so: cannot open shared object file
// The runtime itself does not link Highway.
// RUN: %python -c "import subprocess, sys; out = subprocess.run(['ldd', sys.argv[1]], capture_output=True, text=True).stdout; print('hwy' if 'hwy' in out else 'no hwy')" %ptensor_lib/libptensor_runtime.so | FileCheck %s --check-prefix=LINKS
// LINKS: no hwy

func.func @sort(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %r = ptensor.sort %a : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
