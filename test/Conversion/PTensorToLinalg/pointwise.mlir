// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// ptensor.pointwise: the scalar body is inlined into one linalg.generic with
// one output per result; inputs are converted to the block argument types,
// yielded values to the output dtypes; scalar inputs are used directly.

// CHECK-LABEL: func.func @two_results_inlined(
// CHECK-SAME:    %[[R:.*]]: tensor<?xf32>, %[[T:.*]]: tensor<?xf16>, %[[K:.*]]: f64) -> (tensor<?xf32>, tensor<?xi1>)
// CHECK:         %[[E0:.*]] = tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK:         %[[E1:.*]] = tensor.empty(%{{.*}}) : tensor<?xi1>
// CHECK:         %[[G:.*]]:2 = linalg.generic
// CHECK-SAME:      ins(%[[R]], %[[T]] : tensor<?xf32>, tensor<?xf16>) outs(%[[E0]], %[[E1]] : tensor<?xf32>, tensor<?xi1>)
// CHECK-NEXT:    ^bb0(%[[M:.*]]: f32, %[[A:.*]]: f16, %{{.*}}: f32, %{{.*}}: i1):
// CHECK-NEXT:      %[[AF:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT:      %[[KF:.*]] = arith.truncf %[[K]] : f64 to f32
// CHECK-NEXT:      %[[C:.*]] = math.cos %[[AF]] : f32
// CHECK-NEXT:      %[[X:.*]] = arith.mulf %[[M]], %[[C]] : f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[KF]] : f32
// CHECK-NEXT:      %[[B:.*]] = arith.cmpf olt, %[[Y]], %[[M]] : f32
// CHECK-NEXT:      linalg.yield %[[Y]], %[[B]] : f32, i1
// CHECK-NOT:     ptensor.
// CHECK:         return %[[G]]#0, %[[G]]#1
func.func @two_results_inlined(%r: !ptensor.ptensor<?xf32>, %t: !ptensor.ptensor<?xf16>, %s: f64)
    -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi1>) {
  %re, %im = ptensor.pointwise (%r, %t, %s) promotion [DEFAULT, ALWAYS_BOOL]
      : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf16>, f64)
      -> (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi1>) {
  ^bb0(%m: f32, %a: f32, %k: f32):
    %c = math.cos %a : f32
    %x = arith.mulf %m, %c : f32
    %y = arith.mulf %x, %k : f32
    %b = arith.cmpf olt, %y, %m : f32
    ptensor.yield %y, %b : f32, i1
  }
  return %re, %im : !ptensor.ptensor<?xf32>, !ptensor.ptensor<?xi1>
}

// -----

// The yielded value is converted to the output dtype (f32 body, f16 output)
// and a broadcast input is read through a broadcasting map.
// CHECK-DAG:   #[[BC:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @converted_store_and_broadcast(
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[BC]], #{{.*}}]
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<3x4xf16>, tensor<1x4xf16>) outs(%{{.*}} : tensor<3x4xf16>)
// CHECK-NEXT:    ^bb0(%[[P:.*]]: f16, %[[Q:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[PF:.*]] = arith.extf %[[P]] : f16 to f32
// CHECK-NEXT:      %[[QF:.*]] = arith.extf %[[Q]] : f16 to f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[PF]], %[[QF]] : f32
// CHECK-NEXT:      %[[H:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[H]] : f16
func.func @converted_store_and_broadcast(%a: !ptensor.ptensor<3x4xf16>, %b: !ptensor.ptensor<1x4xf16>) -> !ptensor.ptensor<3x4xf16> {
  %0 = ptensor.pointwise (%a, %b) promotion [DEFAULT] : (!ptensor.ptensor<3x4xf16>, !ptensor.ptensor<1x4xf16>) -> (!ptensor.ptensor<3x4xf16>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    ptensor.yield %s : f32
  }
  return %0 : !ptensor.ptensor<3x4xf16>
}

// -----

// Integer bodies with an INT_TO_FLOAT output: i32 yield converted to f32.
// CHECK-LABEL: func.func @int_body_float_output(
// CHECK:         ^bb0(%[[X:.*]]: i32, %{{.*}}: i32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.muli %[[X]], %[[X]] : i32
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[S]] : i32 to f32
// CHECK-NEXT:      linalg.yield %[[S]], %[[F]] : i32, f32
func.func @int_body_float_output(%a: !ptensor.ptensor<8xi32>) -> (!ptensor.ptensor<8xi32>, !ptensor.ptensor<8xf32>) {
  %0, %1 = ptensor.pointwise (%a) promotion [DEFAULT, INT_TO_FLOAT] : (!ptensor.ptensor<8xi32>) -> (!ptensor.ptensor<8xi32>, !ptensor.ptensor<8xf32>) {
  ^bb0(%x: i32):
    %s = arith.muli %x, %x : i32
    ptensor.yield %s, %s : i32, i32
  }
  return %0, %1 : !ptensor.ptensor<8xi32>, !ptensor.ptensor<8xf32>
}

// -----

// Scalar ops of the body become the elementwise kinds' own scalar code:
// isnan an unordered compare, unsigned floor_divide a divui guarded against
// a zero divisor (NumPy's 0), the cast from ui8 a uitofp.
// CHECK-LABEL: func.func @scalar_kinds(
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[I:.*]]: i8, %{{.*}}: i1, %{{.*}}: f32):
// CHECK:           %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK:           %[[ZERO:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : i8
// CHECK:           %[[SAFE:.*]] = arith.select %[[ZERO]], %{{.*}}, %[[I]] : i8
// CHECK:           %[[Q:.*]] = arith.divui %[[I]], %[[SAFE]] : i8
// CHECK:           %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : i8
// CHECK:           %[[F:.*]] = arith.uitofp %[[R]] : i8 to f32
// CHECK:           linalg.yield %[[NAN]], %[[F]] : i1, f32
// CHECK-NOT:     ptensor.scalar
func.func @scalar_kinds(%a: !ptensor.ptensor<?xf32>, %b: !ptensor.ptensor<?xui8>)
    -> (!ptensor.ptensor<?xi1>, !ptensor.ptensor<?xf32>) {
  %0:2 = ptensor.pointwise (%a, %b) promotion [ALWAYS_BOOL, DEFAULT]
      : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xui8>)
      -> (!ptensor.ptensor<?xi1>, !ptensor.ptensor<?xf32>) {
  ^bb0(%x: f32, %i: i8):
    %n = ptensor.scalar_unary_test isnan %x : f32
    %q = ptensor.scalar_binary floor_divide %i, %i as ui8 : i8
    %f = ptensor.scalar_cast %q as ui8 to f32 : i8
    ptensor.yield %n, %f : i1, f32
  }
  return %0#0, %0#1 : !ptensor.ptensor<?xi1>, !ptensor.ptensor<?xf32>
}
