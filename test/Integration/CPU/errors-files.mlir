// ptensor-runner reports unreadable inputs and modules: a truncated .npy, a
// file that is not .npy, a missing input file, a missing module, an unknown
// function. Each is an error on stderr and a non-zero exit.
// RUN: %python %S/../Inputs/make_npy.py %t.f3.npy float32 3
// RUN: %python %S/../Inputs/make_npy.py %t.trunc.npy --truncated
// RUN: %python %S/../Inputs/make_npy.py %t.garbage.npy --garbage

// RUN: not ptensor-runner %s -e add --input %t.trunc.npy --input %t.f3.npy 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: error: input #0: {{.*}}data too short

// RUN: not ptensor-runner %s -e add --input %t.garbage.npy --input %t.f3.npy 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: error: input #0: {{.*}}not a .npy file

// RUN: not ptensor-runner %s -e add --input %t.f3.npy --input %t.does-not-exist.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: input #1: {{.*}}does-not-exist.npy: cannot open

// RUN: not ptensor-runner %s.does-not-exist -e add 2>&1 | FileCheck %s --check-prefix=NOMODULE
// NOMODULE: error: cannot open {{.*}}does-not-exist

// RUN: not ptensor-runner %s -e nosuch --input %t.f3.npy 2>&1 | FileCheck %s --check-prefix=NOFUNC
// NOFUNC: error: no public function @nosuch

// The output directory cannot be created (a file is in the way).
// RUN: not ptensor-runner %s -e add --input %t.f3.npy --input %t.f3.npy --output-dir %t.f3.npy/sub 2>&1 | FileCheck %s --check-prefix=OUTDIR
// OUTDIR: error: cannot create

func.func @add(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %c : !ptensor.ptensor<?xf32>
}
