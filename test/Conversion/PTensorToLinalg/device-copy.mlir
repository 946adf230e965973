// RUN: ptensor-opt %s --convert-ptensor-to-linalg=device-copies=true | FileCheck %s
// RUN: not ptensor-opt %s --convert-ptensor-to-linalg 2>&1 | FileCheck %s --check-prefix=ERR

// With device-copies, a copy between the host and a GPU becomes a fresh
// row-major buffer (dynamic sizes from the source) filled by a gpu.memcpy
// marked with its direction, reading the source's strided view.
// CHECK-LABEL: func.func @to_device(
// CHECK-SAME:    %[[A:.*]]: tensor<4x?xf32>) -> tensor<4x?xf32> attributes {ptensor.device = "cuda:0"}
// CHECK:         %[[SRC:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<4x?xf32> to memref<4x?xf32, strided<[?, ?], offset: ?>>
// CHECK:         %[[N:.*]] = memref.dim %[[SRC]], %c1
// CHECK:         %[[DST:.*]] = memref.alloc(%[[N]]) : memref<4x?xf32>
// CHECK:         gpu.memcpy %[[DST]], %[[SRC]] : memref<4x?xf32>, memref<4x?xf32, strided<[?, ?], offset: ?>> {ptensor.device_copy = "host_to_device"}
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[DST]] restrict writable
// CHECK:         return %[[R]]

// Unsigned dtypes keep their storage type.
// CHECK-LABEL: func.func @to_host(
// CHECK:         gpu.memcpy {{.*}} : memref<8xi16>, memref<8xi16, strided<[?], offset: ?>> {ptensor.device_copy = "device_to_host"}

// CHECK-LABEL: func.func @between_devices(
// CHECK:         gpu.memcpy {{.*}} {ptensor.device_copy = "device_to_device"}

// Host copies stay values.
// CHECK-LABEL: func.func @host_copy(
// CHECK-NOT:     gpu.memcpy
// CHECK:         return %arg0

// Without the option the first device copy is an error naming the pipeline.
// ERR: error: a copy from the host to "cuda:0" needs ptensor-to-nvvm-pipeline (device code); this lowering compiles host code only (convert-ptensor-to-linalg{device-copies=true} lowers it)

func.func @to_device(%a: !ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<4x?xf32, device = "cuda:0"> {
  %0 = ptensor.copy %a : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<4x?xf32, device = "cuda:0">
}

func.func @to_host(%a: !ptensor.ptensor<8xui16, device = "cuda">) -> !ptensor.ptensor<8xui16> {
  %0 = ptensor.copy %a : !ptensor.ptensor<8xui16, device = "cuda"> -> !ptensor.ptensor<8xui16>
  return %0 : !ptensor.ptensor<8xui16>
}

func.func @between_devices(%a: !ptensor.ptensor<8xf64, device = "cuda:0">) -> !ptensor.ptensor<8xf64, device = "cuda:1"> {
  %0 = ptensor.copy %a : !ptensor.ptensor<8xf64, device = "cuda:0"> -> !ptensor.ptensor<8xf64, device = "cuda:1">
  return %0 : !ptensor.ptensor<8xf64, device = "cuda:1">
}

func.func @host_copy(%a: !ptensor.ptensor<8xf64>) -> !ptensor.ptensor<8xf64, team = 1> {
  %0 = ptensor.copy %a : !ptensor.ptensor<8xf64> -> !ptensor.ptensor<8xf64, team = 1>
  return %0 : !ptensor.ptensor<8xf64, team = 1>
}
