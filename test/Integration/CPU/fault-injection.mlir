// PTENSOR_RT_FAULT (runtime/lib/FaultInjection.h) fails the N-th host
// allocation of compiled code: ptensor-runner reports the injected error,
// exits with status 1 and writes no output. Without the variable, or with
// an entry that does not parse (a warning), the same run works.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.linspace(-2, 2, 1000, dtype=np.float32))"
// RUN: env PTENSOR_RT_FAULT=host-alloc:1 not ptensor-runner %s -e twice --input %t/x.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: ptensor-runner: error: ptensor runtime: injected fault: host-alloc #1 (host allocation) fails (PTENSOR_RT_FAULT=host-alloc:1)
// RUN: not ls %t/out
// RUN: env PTENSOR_RT_FAULT=host-alloc:2 not ptensor-runner %s -e twice --input %t/x.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: error: ptensor runtime: injected fault: host-alloc #2 (host allocation) fails
// RUN: not ls %t/out
// RUN: env PTENSOR_RT_FAULT=host-alloc:0,nowhere:3 ptensor-runner %s -e twice --input %t/x.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=IGNORED
// IGNORED: ptensor runtime: PTENSOR_RT_FAULT: ignoring 'host-alloc:0' (expected SITE:N with N >= 1 and SITE one of host-alloc, device-alloc, module-load, launch)
// IGNORED: ptensor runtime: PTENSOR_RT_FAULT: ignoring 'nowhere:3'
// RUN: %python -c "import numpy as np, sys; x = np.load('%t/x.npy'); a, b = np.load('%t/out/out0.npy'), np.load('%t/out/out1.npy'); np.testing.assert_allclose(a, np.exp(x), rtol=1e-6); np.testing.assert_allclose(b, np.exp(x) * x, rtol=1e-6)"

// Two results: two host allocations (exp, then exp * x materialized apart
// because both are returned).
func.func @twice(%x: !ptensor.ptensor<?xf32>) -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) {
  %e = ptensor.elementwise_unary exp %x : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  %m = ptensor.elementwise_binary multiply %e, %x : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %e, %m : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>
}
