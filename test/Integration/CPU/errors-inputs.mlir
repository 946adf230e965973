// ptensor-runner rejects inputs that do not match the signature: a wrong
// number of --input files, a wrong dtype, rank or static size, and a scalar
// argument given a non-0-d array or the wrong dtype. Each error names the
// function and argument and exits non-zero.
// RUN: %python %S/../Inputs/make_npy.py %t.f3.npy float32 3
// RUN: %python %S/../Inputs/make_npy.py %t.d3.npy float64 3
// RUN: %python %S/../Inputs/make_npy.py %t.f34.npy float32 3x4
// RUN: %python %S/../Inputs/make_npy.py %t.f35.npy float32 3x5
// RUN: %python %S/../Inputs/make_npy.py %t.f234.npy float32 2x3x4
// RUN: %python %S/../Inputs/make_npy.py %t.s.npy float32 scalar
// RUN: %python %S/../Inputs/make_npy.py %t.s1.npy float32 1
// RUN: %python %S/../Inputs/make_npy.py %t.sd.npy float64 scalar
// RUN: %python %S/../Inputs/make_npy.py %t.h3.npy float16 3
// RUN: %python %S/../Inputs/make_npy.py %t.b3.npy bf16 3

// RUN: not ptensor-runner %s -e add --input %t.f3.npy 2>&1 | FileCheck %s --check-prefix=FEW
// FEW: error: @add expects 2 inputs, got 1
// RUN: not ptensor-runner %s -e add --input %t.f3.npy --input %t.f3.npy --input %t.f3.npy 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: error: @add expects 2 inputs, got 3

// RUN: not ptensor-runner %s -e add --input %t.f3.npy --input %t.d3.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: @add: argument #1 {{.*}}expected dtype f32, got f64
// f16 and bf16 are both 2-byte floats but different dtypes.
// RUN: not ptensor-runner %s -e add --input %t.h3.npy --input %t.f3.npy 2>&1 | FileCheck %s --check-prefix=F16
// F16: error: @add: argument #0 {{.*}}expected dtype f32, got f16
// RUN: not ptensor-runner %s -e bf16 --input %t.h3.npy 2>&1 | FileCheck %s --check-prefix=BF16
// BF16: error: @bf16: argument #0 {{.*}}expected dtype bf16, got f16

// RUN: not ptensor-runner %s -e add --input %t.f3.npy --input %t.f34.npy 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: error: @add: argument #1 {{.*}}expected rank 1, got rank 2
// RUN: not ptensor-runner %s -e static --input %t.f234.npy --input %t.s.npy 2>&1 | FileCheck %s --check-prefix=RANK3
// RANK3: error: @static: argument #0 {{.*}}expected rank 2, got rank 3

// RUN: not ptensor-runner %s -e static --input %t.f35.npy --input %t.s.npy 2>&1 | FileCheck %s --check-prefix=DIM
// DIM: error: @static: argument #0 {{.*}}expected shape [3, 4], got [3, 5]

// RUN: not ptensor-runner %s -e static --input %t.f34.npy --input %t.s1.npy 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: error: {{.*}}argument #1 is a scalar (f32), so expected a 0-d array, got shape (1,)
// A 0-d array of another dtype converts when that is exact (f64 2.5 to an
// f32 parameter), and is refused, naming the parameter and the value, when
// it is not (f64 0.1, a float 1.5 for an integer, 300 for an i8).
// RUN: %python -c "import numpy as np; np.save('%t.half.npy', np.float64(2.5)); np.save('%t.tenth.npy', np.float64(0.1)); np.save('%t.i300.npy', np.int64(300)); np.save('%t.f15.npy', np.float32(1.5)); np.save('%t.i7.npy', np.int64(7))"
// RUN: ptensor-runner %s -e static --input %t.f34.npy --input %t.half.npy --print | FileCheck %s --check-prefix=SEXACT
// SEXACT: {{\[\[}}2.5 3.5 4.5 5.5]
// RUN: not ptensor-runner %s -e static --input %t.f34.npy --input %t.tenth.npy 2>&1 | FileCheck %s --check-prefix=SDTYPE
// SDTYPE: error: input #1: argument #1 is a f32 scalar; the f64 value 0.1 of the 0-d array does not convert exactly to f32
// RUN: not ptensor-runner %s -e shift --input %t.i300.npy 2>&1 | FileCheck %s --check-prefix=SRANGE
// SRANGE: error: input #0: argument #0 is a i8 scalar; the i64 value 300 of the 0-d array does not convert exactly to i8
// RUN: not ptensor-runner %s -e shift --input %t.f15.npy 2>&1 | FileCheck %s --check-prefix=SFRAC
// SFRAC: error: input #0: argument #0 is a i8 scalar; the f32 value 1.5 of the 0-d array does not convert exactly to i8
// RUN: ptensor-runner %s -e shift --input %t.i7.npy --print | FileCheck %s --check-prefix=SINT
// SINT: [ 8  9 10]

// The correct inputs run (the negative checks above are not vacuous).
// RUN: ptensor-runner %s -e static --input %t.f34.npy --input %t.s.npy --print | FileCheck %s --check-prefix=OK
// RUN: ptensor-runner %s -e bf16 --input %t.b3.npy --print | FileCheck %s --check-prefix=OK
// OK: out0

func.func @add(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %c : !ptensor.ptensor<?xf32>
}

func.func @static(%a: !ptensor.ptensor<3x4xf32>, %s: f32) -> !ptensor.ptensor<3x4xf32> {
  %c = ptensor.elementwise_binary add %a, %s : (!ptensor.ptensor<3x4xf32>, f32) -> !ptensor.ptensor<3x4xf32>
  return %c : !ptensor.ptensor<3x4xf32>
}

func.func @bf16(%a: !ptensor.ptensor<?xbf16>) -> !ptensor.ptensor<?xbf16> {
  %c = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xbf16>) -> !ptensor.ptensor<?xbf16>
  return %c : !ptensor.ptensor<?xbf16>
}

func.func @shift(%s: i8) -> !ptensor.ptensor<3xi8> {
  %c1 = arith.constant 1 : i64
  %c4 = arith.constant 4 : i64
  %r = ptensor.arange %c1, %c4, %c1 : i64 -> !ptensor.ptensor<3xi8>
  %c = ptensor.elementwise_binary add %r, %s : (!ptensor.ptensor<3xi8>, i8) -> !ptensor.ptensor<3xi8>
  return %c : !ptensor.ptensor<3xi8>
}
