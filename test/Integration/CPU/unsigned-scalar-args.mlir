// ptensor-runner passes unsigned scalar arguments (0-d .npy files) with all
// their bits, values >= 2^63 of ui64 included, and the lowering keeps their
// unsigned meaning (zero extension, uitofp, unsigned arange lengths).
// Expected values are NumPy's:
//   np.full(2, np.uint64(2**64 - 2))              -> [18446744073709551614 ...]
//   np.uint8([1, 200]) + np.uint8(40000 % 256)    -> [65 8]   (ui16 40000, weak)
//   np.float32([1, 200]) * np.float32(40000)      -> [40000 8000000]
//   np.arange(10, 200, 50, dtype=np.uint8)        -> [10 60 110 160]
//   np.arange(200, 10, 50, dtype=np.uint8)        -> []
// RUN: %python -c "import numpy as np; np.save('%t.u64.npy', np.array(2**64 - 2, np.uint64)); np.save('%t.u16.npy', np.array(40000, np.uint16)); np.save('%t.a.npy', np.array([1, 200], np.uint8)); np.save('%t.lo.npy', np.array(10, np.uint8)); np.save('%t.hi.npy', np.array(200, np.uint8)); np.save('%t.step.npy', np.array(50, np.uint8))"
// RUN: ptensor-runner %s -e fill_u64 --input %t.u64.npy | FileCheck %s --check-prefix=FILL
// RUN: ptensor-runner %s -e scalar_u16 --input %t.a.npy --input %t.u16.npy | FileCheck %s --check-prefix=U16
// RUN: ptensor-runner %s -e arange_u8 --input %t.lo.npy --input %t.hi.npy --input %t.step.npy | FileCheck %s --check-prefix=ARANGE

// FILL: out0 (ui64, shape (2,)):
// FILL-NEXT: [18446744073709551614 18446744073709551614]
func.func @fill_u64(%s: ui64) -> !ptensor.ptensor<2xui64> {
  %0 = ptensor.create () fill %s : ui64 -> !ptensor.ptensor<2xui64>
  return %0 : !ptensor.ptensor<2xui64>
}

// U16: out0 (ui8, shape (2,)):
// U16-NEXT: [65 8]
// U16: out1 (f32, shape (2,)):
// U16-NEXT: [4.e+04 8.e+06]
func.func @scalar_u16(%a: !ptensor.ptensor<2xui8>, %s: ui16) -> (!ptensor.ptensor<2xui8>, !ptensor.ptensor<2xf32>) {
  %0 = ptensor.elementwise_binary add %a, %s : (!ptensor.ptensor<2xui8>, ui16) -> !ptensor.ptensor<2xui8>
  %f = ptensor.cast %a : !ptensor.ptensor<2xui8> -> !ptensor.ptensor<2xf32>
  %1 = ptensor.elementwise_binary multiply %f, %s : (!ptensor.ptensor<2xf32>, ui16) -> !ptensor.ptensor<2xf32>
  return %0, %1 : !ptensor.ptensor<2xui8>, !ptensor.ptensor<2xf32>
}

// ARANGE: out0 (ui8, shape (4,)):
// ARANGE-NEXT: [ 10  60 110 160]
// ARANGE: out1 (ui8, shape (0,)):
// ARANGE-NEXT: []
func.func @arange_u8(%lo: ui8, %hi: ui8, %step: ui8) -> (!ptensor.ptensor<?xui8>, !ptensor.ptensor<?xui8>) {
  %0 = ptensor.arange %lo, %hi, %step : ui8 -> !ptensor.ptensor<?xui8>
  %1 = ptensor.arange %hi, %lo, %step : ui8 -> !ptensor.ptensor<?xui8>
  return %0, %1 : !ptensor.ptensor<?xui8>, !ptensor.ptensor<?xui8>
}
