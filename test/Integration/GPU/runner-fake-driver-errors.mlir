// REQUIRES: ptxas
// A failed GPU runtime call inside the compiled function comes back as an
// error: ptensor-runner calls it through ptensor_rt_call_checked, so the
// runtime leaves through that trap instead of aborting, and the runner
// reports the message ("ptensor-runner: error: ...") and exits with status
// 1. (The runner turns an abort into exit status 1 as well, so `not` alone
// would not tell them apart: the checked "error:" prefix and the absent
// "aborting" line do.) Runs on the stand-in driver (runtime/tests/
// fake_cuda.c) with a 1 KiB allocation limit.
// RUN: %python -c "import numpy as np; np.save('%t.n.npy', np.int64(1000)); np.save('%t.small.npy', np.int64(100)); np.save('%t.neg.npy', np.int64(-3))"
// RUN: rm -rf %t.out

// 1000 f32 (4000 bytes) exceed the limit.
// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so PTENSOR_FAKE_CUDA_MAX_ALLOC=1024 PTENSOR_DISABLE_CACHE=1 not ptensor-runner %s -e fill --input %t.n.npy --output-dir %t.out 2>&1 | FileCheck %s --check-prefix=OOM
// OOM-NOT: aborting
// OOM: ptensor-runner: error: ptensor runtime: out of memory allocating 4000 bytes on cuda:0 (free 1024 bytes of {{[0-9]+}})
// OOM-NOT: aborting
// RUN: not ls %t.out

// 100 f32 fit.
// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so PTENSOR_FAKE_CUDA_MAX_ALLOC=1024 PTENSOR_DISABLE_CACHE=1 ptensor-runner %s -e fill --input %t.small.npy --output-dir %t.out
// RUN: %python -c "import numpy as np, sys; r = np.load('%t.out/out0.npy'); sys.exit(0 if r.shape == (100,) else f'shape {r.shape}')"

// A negative dynamic size: the compiled code checks the requested shape in
// host code before it asks for device memory (before, mgpuMemAlloc got -12
// bytes as an unsigned number; the runtime's own refusal of such sizes is
// tested in test/Runtime/mgpu-traps.test).
// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so PTENSOR_DISABLE_CACHE=1 not ptensor-runner %s -e fill --input %t.neg.npy 2>&1 | FileCheck %s --check-prefix=NEG
// NEG-NOT: aborting
// NEG: ptensor-runner: error: ptensor runtime: create: invalid size -3 at dimension 0 of shape [-3] (expected >= 0)
// NEG-NOT: aborting

// Injected faults (PTENSOR_RT_FAULT, runtime/lib/FaultInjection.h): the
// first device allocation, module load or kernel launch fails; each is an
// error with exit status 1, never an abort. The kernels load when the JIT
// module initializes, outside the call's trap: the load error is kept and
// reported by the call (before, the process aborted).
// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so PTENSOR_DISABLE_CACHE=1 PTENSOR_RT_FAULT=device-alloc:1 not ptensor-runner %s -e fill --input %t.small.npy 2>&1 | FileCheck %s --check-prefix=FAULT-ALLOC
// FAULT-ALLOC-NOT: aborting
// FAULT-ALLOC: ptensor-runner: error: ptensor runtime: injected fault: device-alloc #1 (device allocation) fails (PTENSOR_RT_FAULT=device-alloc:1)
// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so PTENSOR_DISABLE_CACHE=1 PTENSOR_RT_FAULT=module-load:1 not ptensor-runner %s -e fill --input %t.small.npy 2>&1 | FileCheck %s --check-prefix=FAULT-LOAD
// FAULT-LOAD-NOT: aborting
// FAULT-LOAD: ptensor-runner: error: ptensor runtime: the GPU kernels of this code were not loaded when it was loaded: injected fault: module-load #1 (module load) fails
// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so PTENSOR_DISABLE_CACHE=1 PTENSOR_RT_FAULT=launch:1 not ptensor-runner %s -e fill --input %t.small.npy 2>&1 | FileCheck %s --check-prefix=FAULT-LAUNCH
// FAULT-LAUNCH-NOT: aborting
// FAULT-LAUNCH: ptensor-runner: error: ptensor runtime: injected fault: launch #1 (kernel launch) fails

// The same size computed from two sizes (2 - 5 = -3).
// RUN: %python -c "import numpy as np; np.save('%t.two.npy', np.int64(2)); np.save('%t.five.npy', np.int64(5))"
// RUN: env PTENSOR_CUDA_DRIVER_LIBRARY=%ptensor_lib/libptensor_fake_cuda.so PTENSOR_DISABLE_CACHE=1 not ptensor-runner %s -e fill_difference --input %t.two.npy --input %t.five.npy 2>&1 | FileCheck %s --check-prefix=NEG

func.func @fill(%n: index) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %v = arith.constant 1.0 : f32
  %t = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %t : !ptensor.ptensor<?xf32, device = "cuda:0">
}

func.func @fill_difference(%a: index, %b: index) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %n = arith.subi %a, %b : index
  %v = arith.constant 1.0 : f32
  %t = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %t : !ptensor.ptensor<?xf32, device = "cuda:0">
}
