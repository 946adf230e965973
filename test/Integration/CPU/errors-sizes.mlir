// A negative size given at run time (an index argument) is an error naming
// the op, the size, its dimension and the requested shape, with exit status
// 1 and no output file: before, create of (-3, -2) made a 6-element buffer
// and the runner died in an LLVM ERROR writing a (-3, -2) array, and a
// reshape of 6 elements into (-3, -2) passed the element-count check.
// RUN: rm -rf %t && split-file %s %t
// RUN: %python -c "import numpy as np; np.save('%t/m3.npy', np.int64(-3)); np.save('%t/m2.npy', np.int64(-2)); np.save('%t/two.npy', np.int64(2)); np.save('%t/one.npy', np.ones(1, np.float32)); np.save('%t/six.npy', np.arange(6, dtype=np.float32)); np.save('%t/m1.npy', np.int64(-1)); np.save('%t/zero.npy', np.int64(0))"

// RUN: not ptensor-runner %t/create.mlir -e create --input %t/m3.npy --input %t/m2.npy --output-dir %t/out 2>&1 | FileCheck %s --check-prefix=CREATE
// CREATE: ptensor-runner: error: ptensor runtime: create: invalid size -3 at dimension 0 of shape [-3, -2] (expected >= 0)
// RUN: not ls %t/out
// RUN: not ptensor-runner %t/create.mlir -e create --input %t/two.npy --input %t/m2.npy 2>&1 | FileCheck %s --check-prefix=CREATE1
// CREATE1: error: ptensor runtime: create: invalid size -2 at dimension 1 of shape [2, -2] (expected >= 0)
// RUN: ptensor-runner %t/create.mlir -e create --input %t/two.npy --input %t/two.npy --print | FileCheck %s --check-prefix=OK
// OK: out0 (f32, shape (2, 2)

// Sizes whose product overflows: checked before any multiplication can wrap
// (before, 3037000500^2 f64 wrapped to a small allocation and crashed).
// RUN: %python -c "import numpy as np; np.save('%t/big.npy', np.int64(3037000500))"
// RUN: not ptensor-runner %t/create.mlir -e create --input %t/big.npy --input %t/big.npy 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: ptensor runtime: create: shape [3037000500, 3037000500] of 4-byte elements needs more than 2^62 bytes

// A static shape that needs more than 2^62 bytes fails when the code runs
// (before, 2^31 x 2^31 f64 wrapped to a 0-byte allocation); so does an
// arange whose length does.
// RUN: not ptensor-runner %t/static.mlir -e static 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: error: ptensor runtime: create: shape [2147483648, 2147483648] of 8-byte elements needs more than 2^62 bytes
// RUN: not ptensor-runner %t/arange.mlir -e arange 2>&1 | FileCheck %s --check-prefix=ARANGE
// ARANGE: error: ptensor runtime: arange: shape [4611686018427387904] of 8-byte elements needs more than 2^62 bytes

// A constant negative size is the same error (when the function runs).
// RUN: not ptensor-runner %t/constant.mlir -e constant 2>&1 | FileCheck %s --check-prefix=CONSTANT
// CONSTANT: error: ptensor runtime: create: invalid size -3 at dimension 1 of shape [2, -3] (expected >= 0)

// RUN: not ptensor-runner %t/eye.mlir -e eye --input %t/m3.npy 2>&1 | FileCheck %s --check-prefix=EYE
// EYE: error: ptensor runtime: eye: invalid size -3 at dimension 0 of shape [-3, 3] (expected >= 0)

// RUN: not ptensor-runner %t/linspace.mlir -e linspace --input %t/m3.npy 2>&1 | FileCheck %s --check-prefix=LINSPACE
// LINSPACE: error: ptensor runtime: linspace: invalid size -3 at dimension 0 of shape [-3] (expected >= 0)

// RUN: not ptensor-runner %t/broadcast.mlir -e broadcast --input %t/one.npy --input %t/m3.npy 2>&1 | FileCheck %s --check-prefix=BROADCAST
// BROADCAST: error: ptensor runtime: broadcast_to: invalid size -3 at dimension 0 of shape [-3] (expected >= 0)

// RUN: not ptensor-runner %t/reshape.mlir -e reshape --input %t/six.npy --input %t/m3.npy --input %t/m2.npy 2>&1 | FileCheck %s --check-prefix=RESHAPE
// RESHAPE: error: ptensor runtime: reshape: invalid size -3 at dimension 0 of shape [-3, -2] (expected >= 0)

// A -1 given at run time is no inferred size: the static -1 is (dimension 1).
// RUN: not ptensor-runner %t/reshape-inferred.mlir -e reshape --input %t/six.npy --input %t/m1.npy 2>&1 | FileCheck %s --check-prefix=RESHAPE-INFERRED
// RESHAPE-INFERRED: error: ptensor runtime: reshape: invalid size -1 at dimension 0 of shape [-1, -1] (expected >= 0)

// A 0 size counts as 1 in the byte bound: the message says so.
// RUN: not ptensor-runner %t/create3.mlir -e create3 --input %t/zero.npy --input %t/big.npy --input %t/big.npy 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: ptensor runtime: create: shape [0, 3037000500, 3037000500] of 4-byte elements needs more than 2^62 bytes (sizes of 0 counted as 1: the strides of the other dimensions span that much)

//--- create.mlir
func.func @create(%n: index, %m: index) -> !ptensor.ptensor<?x?xf32> {
  %v = arith.constant 1.0 : f32
  %t = ptensor.create (%n, %m) fill %v : f32 -> !ptensor.ptensor<?x?xf32>
  return %t : !ptensor.ptensor<?x?xf32>
}

//--- constant.mlir
func.func @constant() -> !ptensor.ptensor<2x?xi32> {
  %n = arith.constant -3 : index
  %v = arith.constant 7 : i32
  %t = ptensor.create (%n) fill %v : i32 -> !ptensor.ptensor<2x?xi32>
  return %t : !ptensor.ptensor<2x?xi32>
}

//--- static.mlir
func.func @static() -> !ptensor.ptensor<2147483648x2147483648xf64> {
  %v = arith.constant 1.0 : f64
  %t = ptensor.create () fill %v : f64 -> !ptensor.ptensor<2147483648x2147483648xf64>
  return %t : !ptensor.ptensor<2147483648x2147483648xf64>
}

//--- arange.mlir
func.func @arange() -> !ptensor.ptensor<?xi64> {
  %start = arith.constant 0 : i64
  %stop = arith.constant 4611686018427387904 : i64
  %step = arith.constant 1 : i64
  %t = ptensor.arange %start, %stop, %step : i64 -> !ptensor.ptensor<?xi64>
  return %t : !ptensor.ptensor<?xi64>
}

//--- eye.mlir
func.func @eye(%n: index) -> !ptensor.ptensor<?x3xf32> {
  %t = ptensor.eye (%n) : !ptensor.ptensor<?x3xf32>
  return %t : !ptensor.ptensor<?x3xf32>
}

//--- linspace.mlir
func.func @linspace(%n: index) -> !ptensor.ptensor<?xf64> {
  %lo = arith.constant 0.0 : f64
  %hi = arith.constant 1.0 : f64
  %t = ptensor.linspace %lo, %hi, %n : f64 -> !ptensor.ptensor<?xf64>
  return %t : !ptensor.ptensor<?xf64>
}

//--- broadcast.mlir
func.func @broadcast(%a: !ptensor.ptensor<1xf32>, %n: index) -> !ptensor.ptensor<?xf32> {
  %t = ptensor.broadcast %a to (%n) : !ptensor.ptensor<1xf32> -> !ptensor.ptensor<?xf32>
  return %t : !ptensor.ptensor<?xf32>
}

//--- reshape-inferred.mlir
func.func @reshape(%a: !ptensor.ptensor<?xf32>, %n: index) -> !ptensor.ptensor<?x?xf32> {
  %t = ptensor.reshape %a [%n, -1] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?x?xf32>
  return %t : !ptensor.ptensor<?x?xf32>
}

//--- create3.mlir
func.func @create3(%n: index, %m: index, %k: index) -> !ptensor.ptensor<?x?x?xf32> {
  %v = arith.constant 1.0 : f32
  %t = ptensor.create (%n, %m, %k) fill %v : f32 -> !ptensor.ptensor<?x?x?xf32>
  return %t : !ptensor.ptensor<?x?x?xf32>
}

//--- reshape.mlir
func.func @reshape(%a: !ptensor.ptensor<?xf32>, %n: index, %m: index) -> !ptensor.ptensor<?x?xf32> {
  %t = ptensor.reshape %a [%n, %m] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?x?xf32>
  return %t : !ptensor.ptensor<?x?xf32>
}
