// RUN: ptensor-opt %s | FileCheck %s
// RUN: ptensor-opt %s --mlir-print-op-generic | ptensor-opt | FileCheck %s

// Result types of the manipulation ops (ptensor/Semantics/Manipulation.h):
// each op is written with the type the rules give; the verifier rejects any
// other (manipulation-invalid.mlir).

// CHECK-LABEL: func.func @reshape(
func.func @reshape(%a: !ptensor.ptensor<4x6xf32>, %b: !ptensor.ptensor<?x?xf32>,
                   %n: index) {
  // CHECK: ptensor.reshape %{{.*}} [2, -1] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<2x12xf32>
  %0 = ptensor.reshape %a [2, -1] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<2x12xf32>
  // CHECK: ptensor.reshape %{{.*}} [-1] {copy = true} : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xf32>
  %1 = ptensor.reshape %b [-1] {copy = true} : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?xf32>
  // CHECK: ptensor.reshape %{{.*}} [%{{.*}}, -1] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<?x?xf32>
  %2 = ptensor.reshape %a [%n, -1] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<?x?xf32>
  // CHECK: ptensor.reshape %{{.*}} [] : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<f32>
  %3 = ptensor.reshape %b [] : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<f32>
  return
}

// CHECK-LABEL: func.func @combine(
func.func @combine(%a: !ptensor.ptensor<2x?xf32>, %b: !ptensor.ptensor<?x4xf16>,
                   %c: !ptensor.ptensor<4xi32>, %d: !ptensor.ptensor<?xi8>) {
  // CHECK: ptensor.combine concat %{{.*}}, %{{.*}} axis 0 : (!ptensor.ptensor<2x?xf32>, !ptensor.ptensor<?x4xf16>) -> !ptensor.ptensor<?x4xf32>
  %0 = ptensor.combine concat %a, %b axis 0 : (!ptensor.ptensor<2x?xf32>, !ptensor.ptensor<?x4xf16>) -> !ptensor.ptensor<?x4xf32>
  // CHECK: ptensor.combine concat {{.*}} axis -1 : {{.*}} -> !ptensor.ptensor<8xi32>
  %1 = ptensor.combine concat %c, %c axis -1 : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<8xi32>
  // CHECK: ptensor.combine stack {{.*}} axis -1 : {{.*}} -> !ptensor.ptensor<4x3xi32>
  %2 = ptensor.combine stack %c, %d, %c axis -1 : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<?xi8>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4x3xi32>
  // CHECK: ptensor.combine stack {{.*}} axis 0 : {{.*}} -> !ptensor.ptensor<1x?xi8>
  %3 = ptensor.combine stack %d axis 0 : (!ptensor.ptensor<?xi8>) -> !ptensor.ptensor<1x?xi8>
  return
}

// CHECK-LABEL: func.func @roll_triangle(
func.func @roll_triangle(%a: !ptensor.ptensor<?x4x4xf32>, %m: !ptensor.ptensor<?x4xf32>, %row: index) {
  // CHECK: ptensor.roll %{{.*}} shifts [1, -2] axes [0, 2] : !ptensor.ptensor<?x4x4xf32> -> !ptensor.ptensor<?x4x4xf32>
  %0 = ptensor.roll %a shifts [1, -2] axes [0, 2] : !ptensor.ptensor<?x4x4xf32> -> !ptensor.ptensor<?x4x4xf32>
  // CHECK: ptensor.roll %{{.*}} shifts [5] axes [1, -1]
  %1 = ptensor.roll %a shifts [5] axes [1, -1] : !ptensor.ptensor<?x4x4xf32> -> !ptensor.ptensor<?x4x4xf32>
  // CHECK: ptensor.extract_triangle lower %{{.*}} offset -1 : !ptensor.ptensor<?x4x4xf32> -> !ptensor.ptensor<?x4x4xf32>
  %2 = ptensor.extract_triangle lower %a offset -1 : !ptensor.ptensor<?x4x4xf32> -> !ptensor.ptensor<?x4x4xf32>
  // CHECK: ptensor.extract_triangle upper %{{.*}} : !ptensor.ptensor
  %3 = ptensor.extract_triangle upper %a : !ptensor.ptensor<?x4x4xf32> -> !ptensor.ptensor<?x4x4xf32>
  // CHECK: ptensor.extract_triangle upper %{{.*}} offset 2 first_row %{{.*}} : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
  %4 = ptensor.extract_triangle upper %m offset 2 first_row %row : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
  return
}

// CHECK-LABEL: func.func @extract_mask(
func.func @extract_mask(%a: !ptensor.ptensor<?x4xf32>, %m: !ptensor.ptensor<?x4xi1>, %r: !ptensor.ptensor<3xi1>,
                        %b: !ptensor.ptensor<3x4x5xi8>) {
  // CHECK: ptensor.extract_mask %{{.*}}, %{{.*}} : (!ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?x4xi1>) -> !ptensor.ptensor<?xf32>
  %0 = ptensor.extract_mask %a, %m : (!ptensor.ptensor<?x4xf32>, !ptensor.ptensor<?x4xi1>) -> !ptensor.ptensor<?xf32>
  // CHECK: ptensor.extract_mask %{{.*}}, %{{.*}} : (!ptensor.ptensor<3x4x5xi8>, !ptensor.ptensor<3xi1>) -> !ptensor.ptensor<?x4x5xi8>
  %1 = ptensor.extract_mask %b, %r : (!ptensor.ptensor<3x4x5xi8>, !ptensor.ptensor<3xi1>) -> !ptensor.ptensor<?x4x5xi8>
  return
}

// CHECK-LABEL: func.func @take(
func.func @take(%x: !ptensor.ptensor<?x8xf32>, %i: !ptensor.ptensor<?xi32>, %v: !ptensor.ptensor<?xf16, team = 1>,
                %p: !ptensor.ptensor<5xui8, team = 1>) {
  // CHECK: ptensor.take %{{.*}}, %{{.*}} axis 1 : (!ptensor.ptensor<?x8xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x?xf32>
  %0 = ptensor.take %x, %i axis 1 : (!ptensor.ptensor<?x8xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x?xf32>
  // CHECK: ptensor.take %{{.*}}, %{{.*}} axis -2 : (!ptensor.ptensor<?x8xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x8xf32>
  %1 = ptensor.take %x, %i axis -2 : (!ptensor.ptensor<?x8xf32>, !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?x8xf32>
  // CHECK: ptensor.take %{{.*}}, %{{.*}} : (!ptensor.ptensor<?xf16, team = 1>, !ptensor.ptensor<5xui8, team = 1>) -> !ptensor.ptensor<5xf16, team = 1>
  %2 = ptensor.take %v, %p : (!ptensor.ptensor<?xf16, team = 1>, !ptensor.ptensor<5xui8, team = 1>) -> !ptensor.ptensor<5xf16, team = 1>
  return
}

// CHECK-LABEL: func.func @creation(
func.func @creation(%a: !ptensor.ptensor<?x4xf32, device = "cuda:0">, %n: index, %v: f32) {
  // CHECK: ptensor.eye (%{{.*}}) offset 1 : !ptensor.ptensor<?x4xf32>
  %0 = ptensor.eye (%n) offset 1 : !ptensor.ptensor<?x4xf32>
  // CHECK: ptensor.eye () : !ptensor.ptensor<3x3xi1>
  %1 = ptensor.eye () : !ptensor.ptensor<3x3xi1>
  // CHECK: ptensor.create_like %{{.*}} fill %{{.*}} {dtype = i64} : !ptensor.ptensor<?x4xf32, device = "cuda:0">, f32 -> !ptensor.ptensor<?x4xi64, device = "cuda:0">
  %2 = ptensor.create_like %a fill %v {dtype = i64} : !ptensor.ptensor<?x4xf32, device = "cuda:0">, f32 -> !ptensor.ptensor<?x4xi64, device = "cuda:0">
  // CHECK: ptensor.create_like %{{.*}} fill %{{.*}} : !ptensor.ptensor<?x4xf32, device = "cuda:0">, f32 -> !ptensor.ptensor<?x4xf32, device = "cuda:0">
  %3 = ptensor.create_like %a fill %v : !ptensor.ptensor<?x4xf32, device = "cuda:0">, f32 -> !ptensor.ptensor<?x4xf32, device = "cuda:0">
  return
}

// CHECK-LABEL: func.func @meshgrid(
func.func @meshgrid(%a: !ptensor.ptensor<3xf32>, %b: !ptensor.ptensor<?xf32>, %c: !ptensor.ptensor<2xf32>) {
  // CHECK: ptensor.meshgrid xy {{.*}} -> (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>)
  %0:2 = ptensor.meshgrid xy %a, %b : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<?xf32>) -> (!ptensor.ptensor<?x3xf32>, !ptensor.ptensor<?x3xf32>)
  // CHECK: ptensor.meshgrid ij {{.*}} -> (!ptensor.ptensor<3x?x2xf32>, !ptensor.ptensor<3x?x2xf32>, !ptensor.ptensor<3x?x2xf32>)
  %1:3 = ptensor.meshgrid ij %a, %b, %c : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<?xf32>, !ptensor.ptensor<2xf32>) -> (!ptensor.ptensor<3x?x2xf32>, !ptensor.ptensor<3x?x2xf32>, !ptensor.ptensor<3x?x2xf32>)
  return
}

// CHECK-LABEL: func.func @attributes(
func.func @attributes(%a: !ptensor.ptensor<4x?xf32>) -> (index, index, index, index) {
  // CHECK: ptensor.shape %{{.*}} : !ptensor.ptensor<4x?xf32>
  %m, %n = ptensor.shape %a : !ptensor.ptensor<4x?xf32>
  // CHECK: ptensor.size %{{.*}} : !ptensor.ptensor<4x?xf32>
  %s = ptensor.size %a : !ptensor.ptensor<4x?xf32>
  // CHECK: ptensor.rank %{{.*}} : !ptensor.ptensor<4x?xf32>
  %r = ptensor.rank %a : !ptensor.ptensor<4x?xf32>
  return %n, %s, %r, %m : index, index, index, index
}
