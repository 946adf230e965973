// RUN: ptensor-opt %s --convert-ptensor-to-linalg --split-input-file | FileCheck %s
// RUN: ptensor-opt %s --convert-ptensor-to-linalg --ptensor-fuse-elementwise --split-input-file | FileCheck %s --check-prefix=FUSED

// matmul: one reduction generic over (i, j, k) with the sum combiner
// marked; f16 operands are extended and summed in f32, then rounded by a
// generic marked for the library pass (cuBLASLt may write the f16 result).
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_f16(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf16>, %[[Y:.*]]: tensor<8x5xf16>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x5xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[Y]] : tensor<4x8xf16>, tensor<8x5xf16>) outs(%[[INIT]] : tensor<4x5xf32>)
// CHECK: arith.extf
// CHECK: arith.extf
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: arith.addf %{{.*}}, %[[P]] {ptensor.combiner = "addf"} : f32
// CHECK: linalg.generic {{.*}} attrs = {ptensor.rounds_contraction}
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: scf.if
func.func @matmul_f16(%a: !ptensor.ptensor<4x8xf16>, %b: !ptensor.ptensor<8x5xf16>) -> !ptensor.ptensor<4x5xf16> {
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<4x8xf16>, !ptensor.ptensor<8x5xf16>) -> !ptensor.ptensor<4x5xf16>
  return %0 : !ptensor.ptensor<4x5xf16>
}

// -----

// A batch of 1 broadcast statically (read at index 0) and integer
// products summed with addi; a dynamic K is checked at run time with both
// shapes.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch(
// CHECK: %[[DIFFER:.*]] = arith.cmpi ne
// CHECK: scf.if %[[DIFFER]] {
// CHECK: func.call @ptensor_rt_contraction_failed(%{{.*}}, %{{.*}}, %c2_i64, %c1_i64, %c0_i64
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: arith.muli
// CHECK: arith.addi {{.*}} {ptensor.combiner = "addi"} : i32
func.func @batch(%a: !ptensor.ptensor<1x4x?xi32>, %b: !ptensor.ptensor<3x?x2xi32>) -> !ptensor.ptensor<3x4x2xi32> {
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<1x4x?xi32>, !ptensor.ptensor<3x?x2xi32>) -> !ptensor.ptensor<3x4x2xi32>
  return %0 : !ptensor.ptensor<3x4x2xi32>
}

// -----

// A 1-D rhs is a column (no n loop); vecdot along axis 0 reads both
// operands transposed.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[V:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[R:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @matvec_vecdot(
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[V]], #[[R]]], iterator_types = ["parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [#[[T]], #[[T]], #[[R]]], iterator_types = ["parallel", "reduction"]}
func.func @matvec_vecdot(%a: !ptensor.ptensor<3x4xf64>, %v: !ptensor.ptensor<4xf64>) -> (!ptensor.ptensor<3xf64>, !ptensor.ptensor<4xf64>) {
  %0 = ptensor.matmul %a, %v : (!ptensor.ptensor<3x4xf64>, !ptensor.ptensor<4xf64>) -> !ptensor.ptensor<3xf64>
  %1 = ptensor.vecdot %a, %a {axis = 0 : i64} : (!ptensor.ptensor<3x4xf64>, !ptensor.ptensor<3x4xf64>) -> !ptensor.ptensor<4xf64>
  return %0, %1 : !ptensor.ptensor<3xf64>, !ptensor.ptensor<4xf64>
}

// -----

// tensordot with no axes is an outer product: an elementwise generic.
// CHECK-LABEL: func.func @outer(
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.mulf
// CHECK-NOT: ptensor.combiner
// CHECK: return
func.func @outer(%a: !ptensor.ptensor<3xf32>, %b: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<3x4xf32> {
  %0 = ptensor.tensordot %a, %b {lhs_axes = array<i64>, rhs_axes = array<i64>} : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<3x4xf32>
  return %0 : !ptensor.ptensor<3x4xf32>
}

// -----

// An elementwise producer fuses into the contraction: one generic reads
// the operand and scales it in the body.
// FUSED-LABEL: func.func @scaled(
// FUSED: linalg.generic
// FUSED-SAME: iterator_types = ["parallel", "reduction"]
// FUSED: arith.mulf
// FUSED: arith.mulf
// FUSED: arith.addf {{.*}} {ptensor.combiner = "addf"}
// FUSED-NOT: linalg.generic
func.func @scaled(%a: !ptensor.ptensor<3x4xf32>, %v: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<3xf32> {
  %s = arith.constant 2.0 : f32
  %b = ptensor.elementwise_binary multiply %a, %s : (!ptensor.ptensor<3x4xf32>, f32) -> !ptensor.ptensor<3x4xf32>
  %0 = ptensor.matmul %b, %v : (!ptensor.ptensor<3x4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<3xf32>
  return %0 : !ptensor.ptensor<3xf32>
}

// -----

// A matrix product is marked for the library pass, and a producer is not
// fused into it (a fused body could not go to a BLAS): `a * s` stays its
// own generic.
// CHECK-LABEL: func.func @scaled_matrix(
// CHECK: linalg.generic {{.*}} attrs = {ptensor.library_contraction}
// FUSED-LABEL: func.func @scaled_matrix(
// FUSED: %[[SCALED:.*]] = linalg.generic
// FUSED-SAME: iterator_types = ["parallel", "parallel"]
// FUSED: linalg.generic {{.*}} ins(%[[SCALED]], %{{.*}} : tensor<3x4xf32>, tensor<4x5xf32>) {{.*}} attrs = {ptensor.library_contraction}
func.func @scaled_matrix(%a: !ptensor.ptensor<3x4xf32>, %b: !ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<3x5xf32> {
  %s = arith.constant 2.0 : f32
  %c = ptensor.elementwise_binary multiply %a, %s : (!ptensor.ptensor<3x4xf32>, f32) -> !ptensor.ptensor<3x4xf32>
  %0 = ptensor.matmul %c, %b : (!ptensor.ptensor<3x4xf32>, !ptensor.ptensor<4x5xf32>) -> !ptensor.ptensor<3x5xf32>
  return %0 : !ptensor.ptensor<3x5xf32>
}

// -----

// A bf16 matrix product's rounding to bf16 fuses into its consumer (`+ b`)
// on the host, but stays its own generic in a device function: cuBLASLt
// then rounds in the product and the consumer reads the bf16 result.
// FUSED-LABEL: func.func @host_bf16_bias(
// FUSED: %[[SUMS:.*]] = linalg.generic {{.*}} attrs = {ptensor.library_contraction}
// FUSED-NOT: ptensor.rounds_contraction
// FUSED: linalg.generic {{.*}} ins(%[[SUMS]], %{{.*}} : tensor<3x5xf32>, tensor<5xbf16>)
// FUSED-LABEL: func.func @device_bf16_bias(
// FUSED: %[[SUMS:.*]] = linalg.generic {{.*}} attrs = {ptensor.library_contraction}
// FUSED: %[[ROUNDED:.*]] = linalg.generic {{.*}} ins(%[[SUMS]] : tensor<3x5xf32>) {{.*}} attrs = {ptensor.rounds_contraction}
// FUSED: linalg.generic {{.*}} ins(%[[ROUNDED]], %{{.*}} : tensor<3x5xbf16>, tensor<5xbf16>)
func.func @host_bf16_bias(%a: !ptensor.ptensor<3x4xbf16>, %b: !ptensor.ptensor<4x5xbf16>, %bias: !ptensor.ptensor<5xbf16>) -> !ptensor.ptensor<3x5xbf16> {
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<3x4xbf16>, !ptensor.ptensor<4x5xbf16>) -> !ptensor.ptensor<3x5xbf16>
  %1 = ptensor.elementwise_binary add %0, %bias : (!ptensor.ptensor<3x5xbf16>, !ptensor.ptensor<5xbf16>) -> !ptensor.ptensor<3x5xbf16>
  return %1 : !ptensor.ptensor<3x5xbf16>
}
func.func @device_bf16_bias(%a: !ptensor.ptensor<3x4xbf16, device = "cuda:0">, %b: !ptensor.ptensor<4x5xbf16, device = "cuda:0">, %bias: !ptensor.ptensor<5xbf16, device = "cuda:0">) -> !ptensor.ptensor<3x5xbf16, device = "cuda:0"> {
  %0 = ptensor.matmul %a, %b : (!ptensor.ptensor<3x4xbf16, device = "cuda:0">, !ptensor.ptensor<4x5xbf16, device = "cuda:0">) -> !ptensor.ptensor<3x5xbf16, device = "cuda:0">
  %1 = ptensor.elementwise_binary add %0, %bias : (!ptensor.ptensor<3x5xbf16, device = "cuda:0">, !ptensor.ptensor<5xbf16, device = "cuda:0">) -> !ptensor.ptensor<3x5xbf16, device = "cuda:0">
  return %1 : !ptensor.ptensor<3x5xbf16, device = "cuda:0">
}

// -----

// A product over two contracted axes is the library's too (one loop of
// their product where the strides nest at run time): as above, its
// rounding stays out of the consumer on the device.
// FUSED-LABEL: func.func @device_bf16_two_axes(
// FUSED: %[[SUMS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} attrs = {ptensor.library_contraction}
// FUSED: %[[ROUNDED:.*]] = linalg.generic {{.*}} ins(%[[SUMS]] : tensor<3x5xf32>) {{.*}} attrs = {ptensor.rounds_contraction}
// FUSED: linalg.generic {{.*}} ins(%[[ROUNDED]], %{{.*}} : tensor<3x5xbf16>, tensor<5xbf16>)
func.func @device_bf16_two_axes(%a: !ptensor.ptensor<3x4x2xbf16, device = "cuda:0">, %b: !ptensor.ptensor<4x2x5xbf16, device = "cuda:0">, %bias: !ptensor.ptensor<5xbf16, device = "cuda:0">) -> !ptensor.ptensor<3x5xbf16, device = "cuda:0"> {
  %0 = ptensor.tensordot %a, %b {lhs_axes = array<i64: 1, 2>, rhs_axes = array<i64: 0, 1>} : (!ptensor.ptensor<3x4x2xbf16, device = "cuda:0">, !ptensor.ptensor<4x2x5xbf16, device = "cuda:0">) -> !ptensor.ptensor<3x5xbf16, device = "cuda:0">
  %1 = ptensor.elementwise_binary add %0, %bias : (!ptensor.ptensor<3x5xbf16, device = "cuda:0">, !ptensor.ptensor<5xbf16, device = "cuda:0">) -> !ptensor.ptensor<3x5xbf16, device = "cuda:0">
  return %1 : !ptensor.ptensor<3x5xbf16, device = "cuda:0">
}

// -----

// A tensordot contracting every dim of its lhs is a matrix-vector product:
// not of the libraries' shape (no library mark), so its producer fuses in.
// FUSED-LABEL: func.func @all_lhs_dims_contracted(
// FUSED:     linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]
// FUSED-NOT: ptensor.library_contraction
// FUSED:     arith.negf
// FUSED:     return
func.func @all_lhs_dims_contracted(%a: !ptensor.ptensor<4x2xf32>, %b: !ptensor.ptensor<4x2x5xf32>) -> !ptensor.ptensor<5xf32> {
  %n = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<4x2xf32>) -> !ptensor.ptensor<4x2xf32>
  %0 = ptensor.tensordot %n, %b {lhs_axes = array<i64: 0, 1>, rhs_axes = array<i64: 0, 1>} : (!ptensor.ptensor<4x2xf32>, !ptensor.ptensor<4x2x5xf32>) -> !ptensor.ptensor<5xf32>
  return %0 : !ptensor.ptensor<5xf32>
}
