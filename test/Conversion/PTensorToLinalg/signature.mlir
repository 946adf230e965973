// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// Function signatures, calls and returns are converted to builtin tensors
// (unsigned dtypes become signless); functions whose ptensors live on a
// GPU are marked `ptensor.device` with the device.

// CHECK-LABEL: func.func @callee(
// CHECK-SAME:    %[[A:.*]]: tensor<4xi8>) -> tensor<4xi8> {
// CHECK:         return %[[A]] : tensor<4xi8>
// CHECK-LABEL: func.func @caller(
// CHECK-SAME:    %[[A:.*]]: tensor<4xi8>, %[[S:.*]]: f32) -> (tensor<4xi8>, f32) {
// CHECK:         %[[R:.*]] = call @callee(%[[A]]) : (tensor<4xi8>) -> tensor<4xi8>
// CHECK:         return %[[R]], %[[S]] : tensor<4xi8>, f32
// CHECK:       func.func private @decl(tensor<?x3xbf16>, index) -> tensor<i1>
// CHECK-NOT:   !ptensor
func.func @callee(%a: !ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xui8> {
  return %a : !ptensor.ptensor<4xui8>
}
func.func @caller(%a: !ptensor.ptensor<4xui8>, %s: f32) -> (!ptensor.ptensor<4xui8>, f32) {
  %0 = call @callee(%a) : (!ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xui8>
  return %0, %s : !ptensor.ptensor<4xui8>, f32
}
func.func private @decl(!ptensor.ptensor<?x3xbf16>, index) -> !ptensor.ptensor<i1>

// -----

// Device marking: from the signature, from an op inside the body, and not
// for host functions. Teams alone do not mark a function.
// CHECK-LABEL: func.func @on_gpu(
// CHECK-SAME:    %{{.*}}: tensor<4xf32>) -> tensor<4xf32> attributes {ptensor.device = "cuda:0"}
// CHECK:         linalg.generic
// CHECK:           arith.negf
// CHECK-LABEL: func.func @gpu_inside(
// CHECK-SAME:    attributes {ptensor.device = "cuda:1"}
// CHECK:         linalg.fill
// CHECK-LABEL: func.func @on_host(
// CHECK-NOT:     ptensor.device
// CHECK:         return
// CHECK-LABEL: func.func @team_only(
// CHECK-NOT:     ptensor.device
// CHECK:         return
func.func @on_gpu(%a: !ptensor.ptensor<4xf32, device = "cuda:0">) -> !ptensor.ptensor<4xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<4xf32, device = "cuda:0">) -> !ptensor.ptensor<4xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<4xf32, device = "cuda:0">
}
func.func @gpu_inside(%n: index, %v: f32) {
  %0 = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?xf32, device = "cuda:1">
  return
}
func.func @on_host(%a: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32> {
  return %a : !ptensor.ptensor<4xf32>
}
func.func @team_only(%a: !ptensor.ptensor<4xf32, team = 1>) -> !ptensor.ptensor<4xf32, team = 1> {
  return %a : !ptensor.ptensor<4xf32, team = 1>
}
