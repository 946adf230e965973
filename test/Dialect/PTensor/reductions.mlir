// RUN: ptensor-opt %s | FileCheck %s
// RUN: ptensor-opt %s --mlir-print-op-generic | ptensor-opt | FileCheck %s

// Result types of the reductions (ptensor/Semantics/Reductions.def): every
// op is written with the type the rules give, the verifier rejects any
// other (reductions-invalid.mlir), and FileCheck pins it down.

// Axes: none (all), one, several, negative; keepdims keeps size-1 dims.
// CHECK-LABEL: func.func @axes(
func.func @axes(%a: !ptensor.ptensor<4x?x6xf32>) {
  // CHECK: ptensor.reduce sum %{{.*}} : !ptensor.ptensor<4x?x6xf32> -> !ptensor.ptensor<f32>
  %0 = ptensor.reduce sum %a : !ptensor.ptensor<4x?x6xf32> -> !ptensor.ptensor<f32>
  // CHECK: ptensor.reduce max %{{.*}} axes [1] : {{.*}} -> !ptensor.ptensor<4x6xf32>
  %1 = ptensor.reduce max %a axes [1] : !ptensor.ptensor<4x?x6xf32> -> !ptensor.ptensor<4x6xf32>
  // CHECK: ptensor.reduce min %{{.*}} axes [-1, 0] : {{.*}} -> !ptensor.ptensor<?xf32>
  %2 = ptensor.reduce min %a axes [-1, 0] : !ptensor.ptensor<4x?x6xf32> -> !ptensor.ptensor<?xf32>
  // CHECK: ptensor.reduce mean %{{.*}} axes [0, 2] {keepdims = true} : {{.*}} -> !ptensor.ptensor<1x?x1xf32>
  %3 = ptensor.reduce mean %a axes [0, 2] {keepdims = true} : !ptensor.ptensor<4x?x6xf32> -> !ptensor.ptensor<1x?x1xf32>
  // An empty list of axes reduces nothing.
  // CHECK: ptensor.reduce sum %{{.*}} axes [] : {{.*}} -> !ptensor.ptensor<4x?x6xf32>
  %4 = ptensor.reduce sum %a axes [] : !ptensor.ptensor<4x?x6xf32> -> !ptensor.ptensor<4x?x6xf32>
  return
}

// sum/prod widen bool and integers (numpy, the array API) unless `dtype`
// is given; floats keep their dtype.
// CHECK-LABEL: func.func @sum_dtypes(
func.func @sum_dtypes(%b: !ptensor.ptensor<?xi1>, %i: !ptensor.ptensor<?xi8>, %u: !ptensor.ptensor<?xui16>, %h: !ptensor.ptensor<?xf16>) {
  // CHECK: -> !ptensor.ptensor<i64>
  %0 = ptensor.reduce sum %b : !ptensor.ptensor<?xi1> -> !ptensor.ptensor<i64>
  // CHECK: -> !ptensor.ptensor<i64>
  %1 = ptensor.reduce prod %i : !ptensor.ptensor<?xi8> -> !ptensor.ptensor<i64>
  // CHECK: -> !ptensor.ptensor<ui64>
  %2 = ptensor.reduce sum %u : !ptensor.ptensor<?xui16> -> !ptensor.ptensor<ui64>
  // CHECK: -> !ptensor.ptensor<f16>
  %3 = ptensor.reduce sum %h : !ptensor.ptensor<?xf16> -> !ptensor.ptensor<f16>
  // CHECK: ptensor.reduce sum %{{.*}} {dtype = i16} : {{.*}} -> !ptensor.ptensor<i16>
  %4 = ptensor.reduce sum %i {dtype = i16} : !ptensor.ptensor<?xi8> -> !ptensor.ptensor<i16>
  // CHECK: ptensor.reduce sum %{{.*}} {dtype = f32} : {{.*}} -> !ptensor.ptensor<f32>
  %5 = ptensor.reduce sum %h {dtype = f32} : !ptensor.ptensor<?xf16> -> !ptensor.ptensor<f32>
  // CHECK: ptensor.reduce prod %{{.*}} {dtype = f64} : {{.*}} -> !ptensor.ptensor<f64>
  %6 = ptensor.reduce prod %u {dtype = f64} : !ptensor.ptensor<?xui16> -> !ptensor.ptensor<f64>
  return
}

// max/min keep any dtype; var/std/mean keep float dtypes.
// CHECK-LABEL: func.func @same_dtype(
func.func @same_dtype(%b: !ptensor.ptensor<3x?xi1>, %u: !ptensor.ptensor<3x?xui8>, %h: !ptensor.ptensor<3x?xbf16>) {
  // CHECK: -> !ptensor.ptensor<?xi1>
  %0 = ptensor.reduce max %b axes [0] : !ptensor.ptensor<3x?xi1> -> !ptensor.ptensor<?xi1>
  // CHECK: -> !ptensor.ptensor<3xui8>
  %1 = ptensor.reduce min %u axes [1] : !ptensor.ptensor<3x?xui8> -> !ptensor.ptensor<3xui8>
  // CHECK: ptensor.reduce var %{{.*}} axes [1] {correction = 1.000000e+00 : f64} : {{.*}} -> !ptensor.ptensor<3xbf16>
  %2 = ptensor.reduce var %h axes [1] {correction = 1.0 : f64} : !ptensor.ptensor<3x?xbf16> -> !ptensor.ptensor<3xbf16>
  // CHECK: -> !ptensor.ptensor<bf16>
  %3 = ptensor.reduce std %h : !ptensor.ptensor<3x?xbf16> -> !ptensor.ptensor<bf16>
  return
}

// any/all give i1; argmax/argmin give i64 over one axis or the flattened
// tensor; device and team are the input's.
// CHECK-LABEL: func.func @tests_and_indices(
func.func @tests_and_indices(%a: !ptensor.ptensor<?x5xf32, device = "cuda:0">, %t: !ptensor.ptensor<?x5xi32, team = 1>) {
  // CHECK: ptensor.test any %{{.*}} axes [1] : {{.*}} -> !ptensor.ptensor<?xi1, device = "cuda:0">
  %0 = ptensor.test any %a axes [1] : !ptensor.ptensor<?x5xf32, device = "cuda:0"> -> !ptensor.ptensor<?xi1, device = "cuda:0">
  // CHECK: ptensor.test all %{{.*}} {keepdims = true} : {{.*}} -> !ptensor.ptensor<1x1xi1, team = 1>
  %1 = ptensor.test all %t {keepdims = true} : !ptensor.ptensor<?x5xi32, team = 1> -> !ptensor.ptensor<1x1xi1, team = 1>
  // CHECK: ptensor.find_index argmax %{{.*}} axis -1 : {{.*}} -> !ptensor.ptensor<?xi64, device = "cuda:0">
  %2 = ptensor.find_index argmax %a axis -1 : !ptensor.ptensor<?x5xf32, device = "cuda:0"> -> !ptensor.ptensor<?xi64, device = "cuda:0">
  // CHECK: ptensor.find_index argmin %{{.*}} : {{.*}} -> !ptensor.ptensor<i64, team = 1>
  %3 = ptensor.find_index argmin %t : !ptensor.ptensor<?x5xi32, team = 1> -> !ptensor.ptensor<i64, team = 1>
  // CHECK: ptensor.find_index argmin %{{.*}} axis 0 {keepdims = true} : {{.*}} -> !ptensor.ptensor<1x5xi64, team = 1>
  %4 = ptensor.find_index argmin %t axis 0 {keepdims = true} : !ptensor.ptensor<?x5xi32, team = 1> -> !ptensor.ptensor<1x5xi64, team = 1>
  return
}

// An empty static axis is fine for kinds with an identity.
// CHECK-LABEL: func.func @empty_with_identity(
func.func @empty_with_identity(%a: !ptensor.ptensor<0x3xf32>) {
  // CHECK: -> !ptensor.ptensor<3xf32>
  %0 = ptensor.reduce sum %a axes [0] : !ptensor.ptensor<0x3xf32> -> !ptensor.ptensor<3xf32>
  // CHECK: -> !ptensor.ptensor<0xf32>
  %1 = ptensor.reduce max %a axes [1] : !ptensor.ptensor<0x3xf32> -> !ptensor.ptensor<0xf32>
  return
}
