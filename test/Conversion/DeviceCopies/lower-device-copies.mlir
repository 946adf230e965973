// RUN: ptensor-opt %s --split-input-file --verify-diagnostics --ptensor-lower-device-copies | FileCheck %s

// ptensor-lower-device-copies on the marked gpu.memcpy ops of
// convert-ptensor-to-linalg{device-copies=true}, after the GPU conversion
// (device destinations are gpu.alloc by then).

// To the device from a strided host view: the destination stays on the
// device; the source is copied as is when row-major with offset 0 (checked
// at run time), else staged on the host (linalg.copy, loops later) and
// freed after the async memcpy.
// CHECK-LABEL: func.func @to_device(
// CHECK-SAME:    %[[SRC:.*]]: memref<4x?xf32, strided<[?, ?], offset: ?>>
// CHECK:         %[[DST:.*]], %{{.*}} = gpu.alloc async
// CHECK:         %{{.*}}, %[[OFF:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[SRC]]
// CHECK:         arith.cmpi eq, %[[OFF]], %c0{{(_[0-9]+)?}} :
// CHECK:         arith.cmpi eq, %[[STRIDES]]#1, %c1{{(_[0-9]+)?}} :
// CHECK:         arith.cmpi eq, %[[STRIDES]]#0, %{{.*}} :
// CHECK:         %[[ROWMAJOR:.*]] = arith.andi
// CHECK:         %[[FLAT:.*]] = scf.if %[[ROWMAJOR]] -> (memref<4x?xf32>) {
// CHECK:           %[[N:.*]] = memref.dim %[[SRC]], %c1
// CHECK:           %[[SAME:.*]] = memref.reinterpret_cast %[[SRC]] to offset: [0], sizes: [4, %[[N]]], strides: [%[[N]], 1] : memref<4x?xf32, strided<[?, ?], offset: ?>> to memref<4x?xf32>
// CHECK:           scf.yield %[[SAME]]
// CHECK:         } else {
// CHECK:           %[[STAGE:.*]] = memref.alloc(%{{.*}}) : memref<4x?xf32>
// CHECK:           linalg.copy ins(%[[SRC]] : {{.*}}) outs(%[[STAGE]] : memref<4x?xf32>)
// CHECK:           scf.yield %[[STAGE]]
// CHECK:         }
// CHECK:         %[[STAGED:.*]] = arith.xori %[[ROWMAJOR]], %true
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK:         %[[T1:.*]] = gpu.memcpy async [%[[T0]]] %[[DST]], %[[FLAT]] : memref<4x?xf32>, memref<4x?xf32>
// CHECK:         gpu.wait [%[[T1]]]
// CHECK:         scf.if %[[STAGED]] {
// CHECK:           memref.dealloc %[[FLAT]]
// CHECK:         }
// CHECK-NOT:     ptensor.device_copy
// CHECK:         return %[[DST]]
func.func @to_device(%src: memref<4x?xf32, strided<[?, ?], offset: ?>>) -> memref<4x?xf32> attributes {ptensor.device = "cuda:0"} {
  %c1 = arith.constant 1 : index
  %n = memref.dim %src, %c1 : memref<4x?xf32, strided<[?, ?], offset: ?>>
  %t = gpu.wait async
  %dst, %t1 = gpu.alloc async [%t] (%n) : memref<4x?xf32>
  gpu.wait [%t1]
  gpu.memcpy %dst, %src : memref<4x?xf32>, memref<4x?xf32, strided<[?, ?], offset: ?>> {ptensor.device_copy = "host_to_device"}
  return %dst : memref<4x?xf32>
}

// -----

// A broadcast view (stride 0 along a dim of size 1) is row-major where it
// matters: it is reinterpreted (a memref.cast between these static layouts
// is invalid), still checked at run time.
// CHECK-LABEL: func.func @broadcast_source(
// CHECK-SAME:    %[[SRC:.*]]: memref<1x3xf32, strided<[0, 1]>>
// CHECK:         scf.if %{{.*}} -> (memref<1x3xf32>) {
// CHECK:           %[[SAME:.*]] = memref.reinterpret_cast %[[SRC]] to offset: [0], sizes: [1, 3], strides: [3, 1] : memref<1x3xf32, strided<[0, 1]>> to memref<1x3xf32>
// CHECK:           scf.yield %[[SAME]]
func.func @broadcast_source(%src: memref<1x3xf32, strided<[0, 1]>>) -> memref<1x3xf32> attributes {ptensor.device = "cuda:0"} {
  %t = gpu.wait async
  %dst, %t1 = gpu.alloc async [%t] () : memref<1x3xf32>
  gpu.wait [%t1]
  gpu.memcpy %dst, %src : memref<1x3xf32>, memref<1x3xf32, strided<[0, 1]>> {ptensor.device_copy = "host_to_device"}
  return %dst : memref<1x3xf32>
}

// -----

// To the host: the destination (gpu.alloc of the device function) moves to
// the host with its stream; a strided device source is staged by a
// grid-stride kernel into a device buffer that is freed after the copy.
// CHECK-LABEL: func.func @to_host(
// CHECK-SAME:    %[[SRC:.*]]: memref<8xf32, strided<[?], offset: ?>>
// CHECK-NOT:     gpu.wait
// CHECK:         %[[DST:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         %[[FLAT:.*]] = scf.if %{{.*}} -> (memref<8xf32>) {
// CHECK:         } else {
// CHECK:           %[[STAGE:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<8xf32>
// CHECK:           gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %c256
// CHECK:             scf.for
// CHECK:               %[[V:.*]] = memref.load %[[SRC]][%{{.*}}] : memref<8xf32, strided<[?], offset: ?>>
// CHECK:               memref.store %[[V]], %[[STAGE]][%{{.*}}] : memref<8xf32>
// CHECK:           scf.yield %[[STAGE]]
// CHECK:         gpu.memcpy async [%{{.*}}] %[[DST]], %[[FLAT]]
// CHECK:         scf.if
// CHECK:           gpu.dealloc async [%{{.*}}] %[[FLAT]]
// CHECK:         return %[[DST]]
func.func @to_host(%src: memref<8xf32, strided<[?], offset: ?>>) -> memref<8xf32> attributes {ptensor.device = "cuda:0"} {
  %t = gpu.wait async
  %dst, %t1 = gpu.alloc async [%t] () : memref<8xf32>
  gpu.wait [%t1]
  gpu.memcpy %dst, %src : memref<8xf32>, memref<8xf32, strided<[?], offset: ?>> {ptensor.device_copy = "device_to_host"}
  return %dst : memref<8xf32>
}

// -----

// A row-major source by its type is copied directly; a host destination
// that is freed in the function is freed on the host.
// CHECK-LABEL: func.func @row_major_source(
// CHECK-SAME:    %[[SRC:.*]]: memref<2x3xi8>
// CHECK-NOT:     scf.if
// CHECK:         %[[DST:.*]] = memref.alloc() : memref<2x3xi8>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[DST]], %[[SRC]] : memref<2x3xi8>, memref<2x3xi8>
// CHECK:         memref.dealloc %[[DST]]
// CHECK-NOT:     gpu.dealloc
func.func @row_major_source(%src: memref<2x3xi8>) attributes {ptensor.device = "cuda:0"} {
  %t = gpu.wait async
  %dst, %t1 = gpu.alloc async [%t] () : memref<2x3xi8>
  gpu.wait [%t1]
  gpu.memcpy %dst, %src : memref<2x3xi8>, memref<2x3xi8> {ptensor.device_copy = "device_to_host"}
  %t2 = gpu.wait async
  %t3 = gpu.dealloc async [%t2] %dst : memref<2x3xi8>
  gpu.wait [%t3]
  return
}

// -----

// A device destination that was still a memref.alloc moves to the device.
// CHECK-LABEL: func.func @host_alloc_to_device(
// CHECK:         %[[DST:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<4xf64>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[DST]], %arg0
// CHECK:         gpu.dealloc async [%{{.*}}] %[[DST]]
func.func @host_alloc_to_device(%src: memref<4xf64>) {
  %dst = memref.alloc() : memref<4xf64>
  gpu.memcpy %dst, %src : memref<4xf64>, memref<4xf64> {ptensor.device_copy = "device_to_device"}
  memref.dealloc %dst : memref<4xf64>
  return
}

// -----

func.func @host_result_read_by_kernel(%src: memref<4xf32>) attributes {ptensor.device = "cuda:0"} {
  %t = gpu.wait async
  %dst, %t1 = gpu.alloc async [%t] () : memref<4xf32>
  gpu.wait [%t1]
  // expected-error @below {{the result of a copy to the host is read by a GPU kernel of the same function; only returning it is supported (copy it in a host function)}}
  gpu.memcpy %dst, %src : memref<4xf32>, memref<4xf32> {ptensor.device_copy = "device_to_host"}
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    // expected-note @below {{read here}}
    %e = memref.load %dst[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @bad_direction(%src: memref<4xf32>, %dst: memref<4xf32>) {
  // expected-error @below {{expected 'ptensor.device_copy' to be "host_to_device", "device_to_host" or "device_to_device"}}
  gpu.memcpy %dst, %src : memref<4xf32>, memref<4xf32> {ptensor.device_copy = "sideways"}
  return
}

// -----

func.func @not_fresh(%src: memref<4xf32>, %dst: memref<4xf32>) {
  // expected-error @below {{expected the destination of a device copy to be a fresh memref.alloc or gpu.alloc}}
  gpu.memcpy %dst, %src : memref<4xf32>, memref<4xf32> {ptensor.device_copy = "host_to_device"}
  return
}

// -----

// Unmarked memcpy ops are left alone.
// CHECK-LABEL: func.func @unmarked(
// CHECK:         gpu.memcpy %arg1, %arg0 : memref<4xf32>, memref<4xf32>
func.func @unmarked(%src: memref<4xf32>, %dst: memref<4xf32>) {
  gpu.memcpy %dst, %src : memref<4xf32>, memref<4xf32>
  return
}
