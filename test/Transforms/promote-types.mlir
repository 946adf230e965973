// RUN: ptensor-opt %s -split-input-file --ptensor-promote-types | FileCheck %s

// ptensor-promote-types: every elementwise operand gets the dtype the op
// computes in (casts for ptensors, arith conversions for builtin scalars),
// and a result computed in a wider dtype is cast back once.

// f16 computes in f32 (opmath): both operands widened, one rounding at the end.
// CHECK-LABEL: func.func @f16_add_in_f32(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4xf16>, %[[B:.*]]: !ptensor.ptensor<4xf16>)
// CHECK:         %[[CA:.*]] = ptensor.cast %[[A]] : !ptensor.ptensor<4xf16> -> !ptensor.ptensor<4xf32>
// CHECK:         %[[CB:.*]] = ptensor.cast %[[B]] : !ptensor.ptensor<4xf16> -> !ptensor.ptensor<4xf32>
// CHECK:         %[[SUM:.*]] = ptensor.elementwise_binary add %[[CA]], %[[CB]] : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
// CHECK:         %[[R:.*]] = ptensor.cast %[[SUM]] : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf16>
// CHECK:         return %[[R]] : !ptensor.ptensor<4xf16>
func.func @f16_add_in_f32(%a: !ptensor.ptensor<4xf16>, %b: !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xf16>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
  return %c : !ptensor.ptensor<4xf16>
}

// -----

// bf16 unary ops compute in f32 too.
// CHECK-LABEL: func.func @bf16_unary_in_f32(
// CHECK:         %[[C:.*]] = ptensor.cast %{{.*}} : !ptensor.ptensor<?xbf16> -> !ptensor.ptensor<?xf32>
// CHECK:         %[[S:.*]] = ptensor.elementwise_unary sqrt %[[C]] : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
// CHECK:         %[[R:.*]] = ptensor.cast %[[S]] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?xbf16>
// CHECK:         return %[[R]]
func.func @bf16_unary_in_f32(%a: !ptensor.ptensor<?xbf16>) -> !ptensor.ptensor<?xbf16> {
  %c = ptensor.elementwise_unary sqrt %a : (!ptensor.ptensor<?xbf16>) -> !ptensor.ptensor<?xbf16>
  return %c : !ptensor.ptensor<?xbf16>
}

// -----

// INT_TO_FLOAT: exp of i32 casts the input to f32; the result already is
// f32, so there is no cast back.
// CHECK-LABEL: func.func @i32_exp_to_f32(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<?xi32>)
// CHECK:         %[[C:.*]] = ptensor.cast %[[A]] : !ptensor.ptensor<?xi32> -> !ptensor.ptensor<?xf32>
// CHECK:         %[[E:.*]] = ptensor.elementwise_unary exp %[[C]] : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
// CHECK-NOT:     ptensor.cast
// CHECK:         return %[[E]] : !ptensor.ptensor<?xf32>
func.func @i32_exp_to_f32(%a: !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xf32> {
  %c = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xf32>
  return %c : !ptensor.ptensor<?xf32>
}

// -----

// Integer division is INT_TO_FLOAT as well.
// CHECK-LABEL: func.func @i8_divide_to_f32(
// CHECK-DAG:     %[[CA:.*]] = ptensor.cast %{{.*}} : !ptensor.ptensor<4xi8> -> !ptensor.ptensor<4xf32>
// CHECK-DAG:     %[[CB:.*]] = ptensor.cast %{{.*}} : !ptensor.ptensor<4xi8> -> !ptensor.ptensor<4xf32>
// CHECK:         ptensor.elementwise_binary divide %[[CA]], %[[CB]] : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
func.func @i8_divide_to_f32(%a: !ptensor.ptensor<4xi8>, %b: !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xf32> {
  %c = ptensor.elementwise_binary divide %a, %b : (!ptensor.ptensor<4xi8>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xf32>
  return %c : !ptensor.ptensor<4xf32>
}

// -----

// Signed with unsigned: the smallest signed type holding both (i8 + ui8 -> i16).
// CHECK-LABEL: func.func @i8_ui8_to_i16(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4xi8>, %[[B:.*]]: !ptensor.ptensor<4xui8>)
// CHECK:         %[[CA:.*]] = ptensor.cast %[[A]] : !ptensor.ptensor<4xi8> -> !ptensor.ptensor<4xi16>
// CHECK:         %[[CB:.*]] = ptensor.cast %[[B]] : !ptensor.ptensor<4xui8> -> !ptensor.ptensor<4xi16>
// CHECK:         %[[S:.*]] = ptensor.elementwise_binary add %[[CA]], %[[CB]] : (!ptensor.ptensor<4xi16>, !ptensor.ptensor<4xi16>) -> !ptensor.ptensor<4xi16>
// CHECK-NOT:     ptensor.cast
// CHECK:         return %[[S]]
func.func @i8_ui8_to_i16(%a: !ptensor.ptensor<4xi8>, %b: !ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xi16> {
  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xi8>, !ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xi16>
  return %c : !ptensor.ptensor<4xi16>
}

// -----

// Comparisons compare in the promoted dtype (i8 vs f16 -> f16 -> opmath f32)
// and keep their i1 result.
// CHECK-LABEL: func.func @compare_in_promoted_dtype(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4xi8>, %[[B:.*]]: !ptensor.ptensor<4xf16>)
// CHECK:         %[[CA:.*]] = ptensor.cast %[[A]] : !ptensor.ptensor<4xi8> -> !ptensor.ptensor<4xf32>
// CHECK:         %[[CB:.*]] = ptensor.cast %[[B]] : !ptensor.ptensor<4xf16> -> !ptensor.ptensor<4xf32>
// CHECK:         %[[R:.*]] = ptensor.elementwise_binary_test less %[[CA]], %[[CB]] : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xi1>
// CHECK-NOT:     ptensor.cast
// CHECK:         return %[[R]] : !ptensor.ptensor<4xi1>
func.func @compare_in_promoted_dtype(%a: !ptensor.ptensor<4xi8>, %b: !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xi1> {
  %c = ptensor.elementwise_binary_test less %a, %b : (!ptensor.ptensor<4xi8>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xi1>
  return %c : !ptensor.ptensor<4xi1>
}

// -----

// Integer comparison: only the narrower operand is cast.
// CHECK-LABEL: func.func @compare_i8_i32(
// CHECK-SAME:    %[[A:.*]]: !ptensor.ptensor<4xi8>, %[[B:.*]]: !ptensor.ptensor<4xi32>)
// CHECK:         %[[CA:.*]] = ptensor.cast %[[A]] : !ptensor.ptensor<4xi8> -> !ptensor.ptensor<4xi32>
// CHECK-NOT:     ptensor.cast
// CHECK:         ptensor.elementwise_binary_test greater_equal %[[CA]], %[[B]] : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi1>
func.func @compare_i8_i32(%a: !ptensor.ptensor<4xi8>, %b: !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi1> {
  %c = ptensor.elementwise_binary_test greater_equal %a, %b : (!ptensor.ptensor<4xi8>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi1>
  return %c : !ptensor.ptensor<4xi1>
}

// -----

// Unary predicates test the value as stored (no opmath): no cast.
// CHECK-LABEL: func.func @isnan_f16_as_stored(
// CHECK-NOT:     ptensor.cast
// CHECK:         ptensor.elementwise_unary_test isnan %{{.*}} : (!ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xi1>
func.func @isnan_f16_as_stored(%a: !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xi1> {
  %c = ptensor.elementwise_unary_test isnan %a : (!ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xi1>
  return %c : !ptensor.ptensor<4xi1>
}

// -----

// `where` (NO_OPMATH) selects in the result dtype: x and y are cast to it,
// the i1 condition is not.
// CHECK-LABEL: func.func @where_casts_values_not_condition(
// CHECK-SAME:    %[[C:.*]]: !ptensor.ptensor<4xi1>, %[[X:.*]]: !ptensor.ptensor<4xf16>, %[[Y:.*]]: !ptensor.ptensor<4xf32>)
// CHECK-NOT:     ptensor.cast %[[C]]
// CHECK:         %[[CX:.*]] = ptensor.cast %[[X]] : !ptensor.ptensor<4xf16> -> !ptensor.ptensor<4xf32>
// CHECK-NOT:     ptensor.cast
// CHECK:         %[[R:.*]] = ptensor.where %[[C]], %[[CX]], %[[Y]] : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
// CHECK:         return %[[R]]
func.func @where_casts_values_not_condition(%c: !ptensor.ptensor<4xi1>, %x: !ptensor.ptensor<4xf16>, %y: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32> {
  %0 = ptensor.where %c, %x, %y : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xf16>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

// `where` on f16 stays in f16 (no opmath); a weak f32 scalar is truncated.
// CHECK-LABEL: func.func @where_f16_scalar(
// CHECK-SAME:    %[[C:.*]]: !ptensor.ptensor<4xi1>, %[[S:.*]]: f32, %[[X:.*]]: !ptensor.ptensor<4xf16>)
// CHECK:         %[[T:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NOT:     ptensor.cast
// CHECK:         ptensor.where %[[C]], %[[T]], %[[X]] : (!ptensor.ptensor<4xi1>, f16, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
func.func @where_f16_scalar(%c: !ptensor.ptensor<4xi1>, %s: f32, %x: !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16> {
  %0 = ptensor.where %c, %s, %x : (!ptensor.ptensor<4xi1>, f32, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
  return %0 : !ptensor.ptensor<4xf16>
}

// -----

// Weak scalars are converted with arith ops to the computation dtype: an
// integer scalar with an f32 tensor (sitofp), a float scalar with an integer
// tensor (the tensor goes to f32, the f64 scalar is truncated), an index
// scalar with an i8 tensor (index_cast + trunci).
// CHECK-LABEL: func.func @weak_scalars(
// CHECK-SAME:    %[[F:[^:]*]]: !ptensor.ptensor<4xf32>, %[[SI:[^:]*]]: i32, %[[I:[^:]*]]: !ptensor.ptensor<4xi8>, %[[SF:[^:]*]]: f64, %[[SX:[^:]*]]: index)
// CHECK:         %[[SI_F:.*]] = arith.sitofp %[[SI]] : i32 to f32
// CHECK:         %[[R0:.*]] = ptensor.elementwise_binary add %[[F]], %[[SI_F]] : (!ptensor.ptensor<4xf32>, f32) -> !ptensor.ptensor<4xf32>
// CHECK:         %[[I_F:.*]] = ptensor.cast %[[I]] : !ptensor.ptensor<4xi8> -> !ptensor.ptensor<4xf32>
// CHECK:         %[[SF_F:.*]] = arith.truncf %[[SF]] : f64 to f32
// CHECK:         %[[R1:.*]] = ptensor.elementwise_binary add %[[I_F]], %[[SF_F]] : (!ptensor.ptensor<4xf32>, f32) -> !ptensor.ptensor<4xf32>
// CHECK:         %[[SX_64:.*]] = arith.index_cast %[[SX]] : index to i64
// CHECK:         %[[SX_8:.*]] = arith.trunci %[[SX_64]] : i64 to i8
// CHECK:         %[[R2:.*]] = ptensor.elementwise_binary subtract %[[SX_8]], %[[I]] : (i8, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi8>
// CHECK:         return %[[R0]], %[[R1]], %[[R2]]
func.func @weak_scalars(%f: !ptensor.ptensor<4xf32>, %si: i32, %i: !ptensor.ptensor<4xi8>, %sf: f64, %sx: index)
    -> (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi8>) {
  %0 = ptensor.elementwise_binary add %f, %si : (!ptensor.ptensor<4xf32>, i32) -> !ptensor.ptensor<4xf32>
  %1 = ptensor.elementwise_binary add %i, %sf : (!ptensor.ptensor<4xi8>, f64) -> !ptensor.ptensor<4xf32>
  %2 = ptensor.elementwise_binary subtract %sx, %i : (index, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<4xi8>
  return %0, %1, %2 : !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi8>
}

// -----

// Placement is kept by the inserted casts.
// CHECK-LABEL: func.func @placement_kept(
// CHECK:         ptensor.cast %{{.*}} : !ptensor.ptensor<4xf16, device = "cuda:0"> -> !ptensor.ptensor<4xf32, device = "cuda:0">
// CHECK:         ptensor.elementwise_unary exp %{{.*}} : (!ptensor.ptensor<4xf32, device = "cuda:0">) -> !ptensor.ptensor<4xf32, device = "cuda:0">
// CHECK:         ptensor.cast %{{.*}} : !ptensor.ptensor<4xf32, device = "cuda:0"> -> !ptensor.ptensor<4xf16, device = "cuda:0">
func.func @placement_kept(%a: !ptensor.ptensor<4xf16, device = "cuda:0">) -> !ptensor.ptensor<4xf16, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<4xf16, device = "cuda:0">) -> !ptensor.ptensor<4xf16, device = "cuda:0">
  return %0 : !ptensor.ptensor<4xf16, device = "cuda:0">
}

// -----

// Already in the computation dtype: nothing changes.
// CHECK-LABEL: func.func @already_in_compute_dtype(
// CHECK-SAME:    %[[A:[^:]*]]: !ptensor.ptensor<4xf32>, %[[B:[^:]*]]: !ptensor.ptensor<4xf32>, %[[S:[^:]*]]: f32, %[[I:[^:]*]]: !ptensor.ptensor<4xi64>)
// CHECK-NOT:     ptensor.cast
// CHECK-NOT:     arith.
// CHECK:         %[[X:.*]] = ptensor.elementwise_binary add %[[A]], %[[B]]
// CHECK:         %[[Y:.*]] = ptensor.elementwise_binary multiply %[[X]], %[[S]]
// CHECK:         %[[Z:.*]] = ptensor.elementwise_binary_test equal %[[I]], %[[I]]
// CHECK:         %[[W:.*]] = ptensor.elementwise_unary negative %[[I]]
// CHECK-NOT:     ptensor.cast
// CHECK-NOT:     arith.
// CHECK:         return %[[Y]], %[[Z]], %[[W]]
func.func @already_in_compute_dtype(%a: !ptensor.ptensor<4xf32>, %b: !ptensor.ptensor<4xf32>, %s: f32, %i: !ptensor.ptensor<4xi64>)
    -> (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi64>) {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xf32>
  %1 = ptensor.elementwise_binary multiply %0, %s : (!ptensor.ptensor<4xf32>, f32) -> !ptensor.ptensor<4xf32>
  %2 = ptensor.elementwise_binary_test equal %i, %i : (!ptensor.ptensor<4xi64>, !ptensor.ptensor<4xi64>) -> !ptensor.ptensor<4xi1>
  %3 = ptensor.elementwise_unary negative %i : (!ptensor.ptensor<4xi64>) -> !ptensor.ptensor<4xi64>
  return %1, %2, %3 : !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi64>
}

// -----

// Ops that are not elementwise arithmetic (views, pointwise) are left alone.
// CHECK-LABEL: func.func @others_untouched(
// CHECK-NOT:     ptensor.cast
// CHECK:         ptensor.flip
// CHECK:         ptensor.pointwise
// CHECK-NOT:     ptensor.cast
func.func @others_untouched(%a: !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16> {
  %0 = ptensor.flip %a [0] : !ptensor.ptensor<4xf16> -> !ptensor.ptensor<4xf16>
  %1 = ptensor.pointwise (%0) promotion [DEFAULT] : (!ptensor.ptensor<4xf16>) -> (!ptensor.ptensor<4xf16>) {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    ptensor.yield %y : f32
  }
  return %1 : !ptensor.ptensor<4xf16>
}
