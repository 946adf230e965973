// XFAIL: *
// RUN: ptensor-runner %s -e upow | FileCheck %s

// BUG: integer `pow` lowers to math.ipowi, which treats the exponent as a
// signed integer (a negative exponent gives 0 unless the base is +-1). For
// unsigned dtypes an exponent with the top bit set (ui8 >= 128, ui32 >=
// 2^31, ...) is therefore computed as a negative power: 3 ** 128 in ui8
// gives 0, but NumPy (and modular arithmetic) give 1 (3 has order 64 mod
// 256); 3 ** 2^31 in ui32 gives 0 instead of 1.
//   numpy: np.uint8(3) ** np.uint8(128) == 1, np.uint8(3) ** np.uint8(200) == 161
// Expected: unsigned exponents are used as unsigned (e.g. square-and-multiply
// over the exponent's bits, or ipowi on a zero-extended wider type).

// CHECK: out0 (ui8, shape (2,)):
// CHECK-NEXT: [1 161]
// CHECK: out1 (ui32, shape (1,)):
// CHECK-NEXT: [1]

func.func @upow() -> (!ptensor.ptensor<2xui8>, !ptensor.ptensor<1xui32>) {
  %c3 = arith.constant 3 : i64
  %c128 = arith.constant 128 : i64
  %c201 = arith.constant 201 : i64
  %c72 = arith.constant 72 : i64
  %c2p31 = arith.constant 2147483648 : i64
  // [3, 3] ** [128, 200] in ui8
  %a = ptensor.create () fill %c3 : i64 -> !ptensor.ptensor<2xui8>
  %b = ptensor.arange %c128, %c201, %c72 : i64 -> !ptensor.ptensor<2xui8>
  %p = ptensor.elementwise_binary pow %a, %b : (!ptensor.ptensor<2xui8>, !ptensor.ptensor<2xui8>) -> !ptensor.ptensor<2xui8>
  // [3] ** [2^31] in ui32
  %a32 = ptensor.create () fill %c3 : i64 -> !ptensor.ptensor<1xui32>
  %b32 = ptensor.create () fill %c2p31 : i64 -> !ptensor.ptensor<1xui32>
  %p32 = ptensor.elementwise_binary pow %a32, %b32 : (!ptensor.ptensor<1xui32>, !ptensor.ptensor<1xui32>) -> !ptensor.ptensor<1xui32>
  return %p, %p32 : !ptensor.ptensor<2xui8>, !ptensor.ptensor<1xui32>
}
