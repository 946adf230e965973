// RUN: ptensor-runner %s -e upow | FileCheck %s
// RUN: ptensor-opt %s --ptensor-promote-types --convert-ptensor-to-linalg | FileCheck %s --check-prefix=IR

// Integer `pow` with an unsigned dtype reads the exponent as unsigned, also
// with its top bit set (math.ipowi alone would take it as a negative power
// and give 0), modulo 2^width like NumPy:
//   np.uint8(3) ** np.uint8([128, 200])            == [1, 161]
//   np.uint8([0, 2]) ** np.uint8([0, 255])         == [1, 0]
//   np.uint16(3) ** np.uint16(40000)               == 27905
//   np.uint32(3) ** np.uint32(2**31)               == 1
//   np.uint64(3) ** np.uint64(2**64 - 1)           == 12297829382473034411
//   np.uint64(7) ** np.uint64(2**63 + 5)           == 16807
// Signed pow keeps math.ipowi: np.int8(-2) ** np.int8(3) == -8.

// CHECK: out0 (ui8, shape (2,)):
// CHECK-NEXT: [  1 161]
// CHECK: out1 (ui8, shape (2,)):
// CHECK-NEXT: [1 0]
// CHECK: out2 (ui16, shape (1,)):
// CHECK-NEXT: [27905]
// CHECK: out3 (ui32, shape (1,)):
// CHECK-NEXT: [1]
// CHECK: out4 (ui64, shape (1,)):
// CHECK-NEXT: [12297829382473034411]
// CHECK: out5 (ui64, shape (1,)):
// CHECK-NEXT: [16807]
// CHECK: out6 (i8, shape (1,)):
// CHECK-NEXT: [-8]

// The exponent's low bit is split off, ipowi gets the rest shifted right.
// IR-LABEL: func.func @upow(
// IR:         linalg.generic
// IR:           %[[HALF:.*]] = arith.shrui %[[Y:.*]], %{{.*}} : i8
// IR:           %[[P:.*]] = math.ipowi %[[X:.*]], %[[HALF]] : i8
// IR:           %[[SQ:.*]] = arith.muli %[[P]], %[[P]] : i8
// IR:           arith.andi %[[Y]], %{{.*}} : i8
// IR:           arith.select %{{.*}}, %{{.*}}, %[[SQ]] : i8

func.func @upow() -> (!ptensor.ptensor<2xui8>, !ptensor.ptensor<2xui8>, !ptensor.ptensor<1xui16>, !ptensor.ptensor<1xui32>, !ptensor.ptensor<1xui64>, !ptensor.ptensor<1xui64>, !ptensor.ptensor<1xi8>) {
  %c0 = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %cm2 = arith.constant -2 : i64
  %c128 = arith.constant 128 : i64
  %c201 = arith.constant 201 : i64
  %c72 = arith.constant 72 : i64
  %c255 = arith.constant 255 : i64
  %c256 = arith.constant 256 : i64
  %c40000 = arith.constant 40000 : i64
  %c2p31 = arith.constant 2147483648 : i64
  // 2^64 - 1 and 2^63 + 5 as i64 bits (same width: ui64 keeps them)
  %cm1 = arith.constant -1 : i64
  %cbig = arith.constant -9223372036854775803 : i64
  %c7 = arith.constant 7 : i64
  // [3, 3] ** [128, 200] in ui8
  %a = ptensor.create () fill %c3 : i64 -> !ptensor.ptensor<2xui8>
  %b = ptensor.arange %c128, %c201, %c72 : i64 -> !ptensor.ptensor<2xui8>
  %p = ptensor.elementwise_binary pow %a, %b : (!ptensor.ptensor<2xui8>, !ptensor.ptensor<2xui8>) -> !ptensor.ptensor<2xui8>
  // [0, 2] ** [0, 255] in ui8
  %a0 = ptensor.arange %c0, %c4, %c2 : i64 -> !ptensor.ptensor<2xui8>
  %b0 = ptensor.arange %c0, %c256, %c255 : i64 -> !ptensor.ptensor<2xui8>
  %p0 = ptensor.elementwise_binary pow %a0, %b0 : (!ptensor.ptensor<2xui8>, !ptensor.ptensor<2xui8>) -> !ptensor.ptensor<2xui8>
  // [3] ** [40000] in ui16
  %a16 = ptensor.create () fill %c3 : i64 -> !ptensor.ptensor<1xui16>
  %b16 = ptensor.create () fill %c40000 : i64 -> !ptensor.ptensor<1xui16>
  %p16 = ptensor.elementwise_binary pow %a16, %b16 : (!ptensor.ptensor<1xui16>, !ptensor.ptensor<1xui16>) -> !ptensor.ptensor<1xui16>
  // [3] ** [2^31] in ui32
  %a32 = ptensor.create () fill %c3 : i64 -> !ptensor.ptensor<1xui32>
  %b32 = ptensor.create () fill %c2p31 : i64 -> !ptensor.ptensor<1xui32>
  %p32 = ptensor.elementwise_binary pow %a32, %b32 : (!ptensor.ptensor<1xui32>, !ptensor.ptensor<1xui32>) -> !ptensor.ptensor<1xui32>
  // [3] ** [2^64 - 1] and [7] ** [2^63 + 5] in ui64
  %a64 = ptensor.create () fill %c3 : i64 -> !ptensor.ptensor<1xui64>
  %b64 = ptensor.create () fill %cm1 : i64 -> !ptensor.ptensor<1xui64>
  %p64 = ptensor.elementwise_binary pow %a64, %b64 : (!ptensor.ptensor<1xui64>, !ptensor.ptensor<1xui64>) -> !ptensor.ptensor<1xui64>
  %a64b = ptensor.create () fill %c7 : i64 -> !ptensor.ptensor<1xui64>
  %b64b = ptensor.create () fill %cbig : i64 -> !ptensor.ptensor<1xui64>
  %p64b = ptensor.elementwise_binary pow %a64b, %b64b : (!ptensor.ptensor<1xui64>, !ptensor.ptensor<1xui64>) -> !ptensor.ptensor<1xui64>
  // [-2] ** [3] in i8
  %a8 = ptensor.create () fill %cm2 : i64 -> !ptensor.ptensor<1xi8>
  %b8 = ptensor.create () fill %c3 : i64 -> !ptensor.ptensor<1xi8>
  %p8 = ptensor.elementwise_binary pow %a8, %b8 : (!ptensor.ptensor<1xi8>, !ptensor.ptensor<1xi8>) -> !ptensor.ptensor<1xi8>
  return %p, %p0, %p16, %p32, %p64, %p64b, %p8 : !ptensor.ptensor<2xui8>, !ptensor.ptensor<2xui8>, !ptensor.ptensor<1xui16>, !ptensor.ptensor<1xui32>, !ptensor.ptensor<1xui64>, !ptensor.ptensor<1xui64>, !ptensor.ptensor<1xi8>
}

// A signed pow is ipowi on the operands as they are.
// IR-LABEL: func.func @spow(
// IR:         linalg.generic
// IR-NOT:       arith.shrui
// IR:           math.ipowi %{{.*}}, %{{.*}} : i8
// IR-NOT:       arith.shrui
// IR:         return
func.func @spow(%a: !ptensor.ptensor<4xi8>, %b: !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi8> {
  %0 = ptensor.elementwise_binary pow %a, %b : (!ptensor.ptensor<4xi8>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi8>
  return %0 : !ptensor.ptensor<4xi8>
}
