// RUN: not ptensor-opt %s --ptensor-gpu-module-to-binary=format=foo 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not ptensor-opt %s --ptensor-gpu-module-to-binary="format=isa toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=TOOLKIT

// ptensor-gpu-module-to-binary (the last pass of ptensor-to-nvvm-pipeline)
// fails where MLIR 22's gpu-module-to-binary reports an error without
// failing: an unknown format, or a toolkit without libdevice (which would
// leave a gpu.binary with unresolved __nv_* calls).

// FORMAT: error: unknown kernel format 'foo': expected bin, isa, fatbin or llvm
// TOOLKIT: error: CUDA path: /nonexistent does not exist or is not a directory.

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @kernel() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}
