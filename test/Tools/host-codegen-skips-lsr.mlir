// Host code is generated without LLVM's Loop Strength Reduction
// (lib/Compiler/CodegenPassGate.cpp: it took half of the code generation of
// reductions and made them no faster), by the ahead-of-time compiler and by
// the JIT alike. LLVM's own pass gate (-opt-bisect-limit) still sees every
// other pass: the loop pass that codegen runs just before LSR is asked
// about, LSR is not.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env PTENSOR_DISABLE_CACHE=1 ptensor-compile %s -o %t/sum.so --opt-bisect-limit=-1 2>&1 | FileCheck %s
// RUN: %python %S/../Integration/Inputs/make_npy.py %t/a.npy float32 4
// RUN: env PTENSOR_DISABLE_CACHE=1 ptensor-runner %s -e sum --input %t/a.npy --opt-bisect-limit=-1 2>&1 | FileCheck %s --check-prefixes=CHECK,RESULT
// CHECK-NOT: Loop Strength Reduction
// CHECK: BISECT: running pass ({{[0-9]+}}) Canonicalize Freeze Instructions in Loops on loop
// CHECK-NOT: Loop Strength Reduction
// RESULT: 6

func.func @sum(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<f32> {
  %s = ptensor.reduce sum %a : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<f32>
  return %s : !ptensor.ptensor<f32>
}
