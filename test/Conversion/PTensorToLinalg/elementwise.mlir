// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// Every elementwise op becomes one linalg.generic on builtin tensors
// (unsigned dtypes as signless integers) whose body converts the elements
// to the computation dtype, computes, and converts to the result dtype.

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @unary_dynamic(
// CHECK-SAME:    %[[A:.*]]: tensor<4x?xf32>) -> tensor<4x?xf32>
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[N:.*]] = tensor.dim %[[A]], %[[C1]] : tensor<4x?xf32>
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<4x?xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:      ins(%[[A]] : tensor<4x?xf32>) outs(%[[E]] : tensor<4x?xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[Y:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[Y]] : f32
// CHECK:         return %[[R]] : tensor<4x?xf32>
func.func @unary_dynamic(%a: !ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<4x?xf32> {
  %0 = ptensor.elementwise_unary exp %a : (!ptensor.ptensor<4x?xf32>) -> !ptensor.ptensor<4x?xf32>
  return %0 : !ptensor.ptensor<4x?xf32>
}

// -----

// f16 computes in f32 inside the body: extf, the op, one truncf.
// CHECK-LABEL: func.func @f16_add_opmath(
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[XE:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:      %[[YE:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[XE]], %[[YE]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
func.func @f16_add_opmath(%a: !ptensor.ptensor<4xf16>, %b: !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xf16>, !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xf16>
  return %0 : !ptensor.ptensor<4xf16>
}

// -----

// Unsigned floor division: divui by a divisor with 0 replaced by 1, and 0
// where the divisor is 0 (never traps). ui32 is i32 in the tensor type.
// CHECK-LABEL: func.func @unsigned_floor_divide(
// CHECK-SAME:    tensor<4xi32>, %{{.*}}: tensor<4xi32>) -> tensor<4xi32>
// CHECK:         ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-NOT:       arith.floordivsi
// CHECK-NOT:       arith.divsi
// CHECK:           %[[Z:.*]] = arith.cmpi eq, %[[Y]], %{{.*}} : i32
// CHECK:           %[[SAFE:.*]] = arith.select %[[Z]], %{{.*}}, %[[Y]] : i32
// CHECK:           %[[Q:.*]] = arith.divui %[[X]], %[[SAFE]] : i32
// CHECK:           %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @unsigned_floor_divide(%a: !ptensor.ptensor<4xui32>, %b: !ptensor.ptensor<4xui32>) -> !ptensor.ptensor<4xui32> {
  %0 = ptensor.elementwise_binary floor_divide %a, %b : (!ptensor.ptensor<4xui32>, !ptensor.ptensor<4xui32>) -> !ptensor.ptensor<4xui32>
  return %0 : !ptensor.ptensor<4xui32>
}

// -----

// Signed floor division: floordivsi on a divisor guarded against 0 and -1
// (INT_MIN // -1 traps in hardware); y == -1 gives 0 - x (wraps), y == 0
// gives 0.
// CHECK-LABEL: func.func @signed_floor_divide(
// CHECK:         ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:           %[[IS0:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i32
// CHECK:           %[[M1:.*]] = arith.constant -1 : i32
// CHECK:           %[[ISM1:.*]] = arith.cmpi eq, %[[Y]], %[[M1]] : i32
// CHECK:           %[[BAD:.*]] = arith.ori %[[IS0]], %[[ISM1]] : i1
// CHECK:           %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:           %[[SAFE:.*]] = arith.select %[[BAD]], %[[ONE]], %[[Y]] : i32
// CHECK:           %[[Q:.*]] = arith.floordivsi %[[X]], %[[SAFE]] : i32
// CHECK:           %[[NEG:.*]] = arith.subi %{{.*}}, %[[X]] : i32
// CHECK:           %[[R1:.*]] = arith.select %{{.*}}, %[[NEG]], %[[Q]] : i32
// CHECK:           %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %[[R1]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @signed_floor_divide(%a: !ptensor.ptensor<4xi32>, %b: !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi32> {
  %0 = ptensor.elementwise_binary floor_divide %a, %b : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi32>
  return %0 : !ptensor.ptensor<4xi32>
}

// -----

// Mixed signedness: i8 and ui8 are widened to i16 by extsi / extui, and the
// unsigned maximum of ui16 uses maxui.
// CHECK-LABEL: func.func @mixed_signedness(
// CHECK:         ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i16):
// CHECK-NEXT:      %[[XS:.*]] = arith.extsi %[[X]] : i8 to i16
// CHECK-NEXT:      %[[YU:.*]] = arith.extui %[[Y]] : i8 to i16
// CHECK-NEXT:      %[[M:.*]] = arith.maxsi %[[XS]], %[[YU]] : i16
// CHECK-NEXT:      linalg.yield %[[M]] : i16
// CHECK:         ^bb0(%[[P:.*]]: i16, %[[Q:.*]]: i16, %{{.*}}: i16):
// CHECK-NEXT:      %[[U:.*]] = arith.maxui %[[P]], %[[Q]] : i16
// CHECK-NEXT:      linalg.yield %[[U]] : i16
func.func @mixed_signedness(%a: !ptensor.ptensor<4xi8>, %b: !ptensor.ptensor<4xui8>, %c: !ptensor.ptensor<4xui16>)
    -> (!ptensor.ptensor<4xi16>, !ptensor.ptensor<4xui16>) {
  %0 = ptensor.elementwise_binary maximum %a, %b : (!ptensor.ptensor<4xi8>, !ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xi16>
  %1 = ptensor.elementwise_binary maximum %c, %c : (!ptensor.ptensor<4xui16>, !ptensor.ptensor<4xui16>) -> !ptensor.ptensor<4xui16>
  return %0, %1 : !ptensor.ptensor<4xi16>, !ptensor.ptensor<4xui16>
}

// -----

// Integer true division computes in f32 (INT_TO_FLOAT).
// CHECK-LABEL: func.func @int_divide_in_f32(
// CHECK:         ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT:      %[[XF:.*]] = arith.sitofp %[[X]] : i32 to f32
// CHECK-NEXT:      %[[YF:.*]] = arith.sitofp %[[Y]] : i32 to f32
// CHECK-NEXT:      %[[D:.*]] = arith.divf %[[XF]], %[[YF]] : f32
// CHECK-NEXT:      linalg.yield %[[D]] : f32
func.func @int_divide_in_f32(%a: !ptensor.ptensor<4xi32>, %b: !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xf32> {
  %0 = ptensor.elementwise_binary divide %a, %b : (!ptensor.ptensor<4xi32>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xf32>
  return %0 : !ptensor.ptensor<4xf32>
}

// -----

// Comparisons: unsigned predicates for unsigned dtypes, an i1 output, and
// a weak f64 scalar compared in f32 with an integer tensor. The scalar is
// an operand of the body, not of the generic.
// CHECK-LABEL: func.func @comparisons(
// CHECK-SAME:    %[[U:.*]]: tensor<4xi8>, %[[I:.*]]: tensor<4xi32>, %[[S:.*]]: f64)
// CHECK:         linalg.generic {{.*}} ins(%[[U]], %[[U]] : tensor<4xi8>, tensor<4xi8>) outs(%{{.*}} : tensor<4xi1>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i1):
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi ult, %[[X]], %[[Y]] : i8
// CHECK-NEXT:      linalg.yield %[[LT]] : i1
// CHECK:         linalg.generic {{.*}} ins(%[[I]] : tensor<4xi32>) outs(%{{.*}} : tensor<4xi1>)
// CHECK-NEXT:    ^bb0(%[[Z:.*]]: i32, %{{.*}}: i1):
// CHECK-NEXT:      %[[ZF:.*]] = arith.sitofp %[[Z]] : i32 to f32
// CHECK-NEXT:      %[[SF:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf olt, %[[ZF]], %[[SF]] : f32
// CHECK-NEXT:      linalg.yield %[[C]] : i1
func.func @comparisons(%u: !ptensor.ptensor<4xui8>, %i: !ptensor.ptensor<4xi32>, %s: f64)
    -> (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi1>) {
  %0 = ptensor.elementwise_binary_test less %u, %u : (!ptensor.ptensor<4xui8>, !ptensor.ptensor<4xui8>) -> !ptensor.ptensor<4xi1>
  %1 = ptensor.elementwise_binary_test less %i, %s : (!ptensor.ptensor<4xi32>, f64) -> !ptensor.ptensor<4xi1>
  return %0, %1 : !ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi1>
}

// -----

// Unary predicates look at the value as stored (no widening of f16).
// CHECK-LABEL: func.func @isnan_as_stored(
// CHECK:         ^bb0(%[[X:.*]]: f16, %{{.*}}: i1):
// CHECK-NEXT:      %[[N:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f16
// CHECK-NEXT:      linalg.yield %[[N]] : i1
func.func @isnan_as_stored(%a: !ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xi1> {
  %0 = ptensor.elementwise_unary_test isnan %a : (!ptensor.ptensor<4xf16>) -> !ptensor.ptensor<4xi1>
  return %0 : !ptensor.ptensor<4xi1>
}

// -----

// where: the condition is read as i1, x and y converted to the result dtype
// (here an f32 scalar truncated to f16), one select.
// CHECK-LABEL: func.func @where_select(
// CHECK-SAME:    %[[C:.*]]: tensor<4xi1>, %[[X:.*]]: tensor<4xf16>, %[[S:.*]]: f32)
// CHECK:         linalg.generic {{.*}} ins(%[[C]], %[[X]] : tensor<4xi1>, tensor<4xf16>) outs(%{{.*}} : tensor<4xf16>)
// CHECK-NEXT:    ^bb0(%[[CB:.*]]: i1, %[[XB:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[ST:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[CB]], %[[XB]], %[[ST]] : f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
func.func @where_select(%c: !ptensor.ptensor<4xi1>, %x: !ptensor.ptensor<4xf16>, %s: f32) -> !ptensor.ptensor<4xf16> {
  %0 = ptensor.where %c, %x, %s : (!ptensor.ptensor<4xi1>, !ptensor.ptensor<4xf16>, f32) -> !ptensor.ptensor<4xf16>
  return %0 : !ptensor.ptensor<4xf16>
}

// -----

// Casts: unsigned to float is uitofp, float to bool is `!= 0`, bool to int
// zero-extends, float to unsigned is fptoui.
// CHECK-LABEL: func.func @casts(
// CHECK:         ^bb0(%[[A:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT:      %[[AF:.*]] = arith.uitofp %[[A]] : i32 to f32
// CHECK-NEXT:      linalg.yield %[[AF]] : f32
// CHECK:         ^bb0(%[[B:.*]]: f64, %{{.*}}: i1):
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:      %[[NZ:.*]] = arith.cmpf une, %[[B]], %[[Z]] : f64
// CHECK-NEXT:      linalg.yield %[[NZ]] : i1
// CHECK:         ^bb0(%[[C:.*]]: i1, %{{.*}}: i16):
// CHECK-NEXT:      %[[CE:.*]] = arith.extui %[[C]] : i1 to i16
// CHECK-NEXT:      linalg.yield %[[CE]] : i16
// CHECK:         ^bb0(%[[D:.*]]: f64, %{{.*}}: i8):
// CHECK-NEXT:      %[[DU:.*]] = arith.fptoui %[[D]] : f64 to i8
// CHECK-NEXT:      linalg.yield %[[DU]] : i8
func.func @casts(%a: !ptensor.ptensor<4xui32>, %b: !ptensor.ptensor<4xf64>, %c: !ptensor.ptensor<4xi1>)
    -> (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi16>, !ptensor.ptensor<4xui8>) {
  %0 = ptensor.cast %a : !ptensor.ptensor<4xui32> -> !ptensor.ptensor<4xf32>
  %1 = ptensor.cast %b : !ptensor.ptensor<4xf64> -> !ptensor.ptensor<4xi1>
  %2 = ptensor.cast %c : !ptensor.ptensor<4xi1> -> !ptensor.ptensor<4xi16>
  %3 = ptensor.cast %b : !ptensor.ptensor<4xf64> -> !ptensor.ptensor<4xui8>
  return %0, %1, %2, %3 : !ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi1>, !ptensor.ptensor<4xi16>, !ptensor.ptensor<4xui8>
}

// -----

// f32 -> bf16 rounds to nearest even on the bits (bias 0x7FFF + lsb, shift
// by 16) and keeps NaNs quiet (| 0x40), instead of arith.truncf.
// CHECK-LABEL: func.func @cast_to_bf16_bit_rounding(
// CHECK:         ^bb0(%[[X:.*]]: f32, %{{.*}}: bf16):
// CHECK-NOT:       arith.truncf
// CHECK:           %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK:           %[[LSB:.*]] = arith.andi
// CHECK:           %[[C7FFF:.*]] = arith.constant 32767 : i32
// CHECK:           %[[BIAS:.*]] = arith.addi %[[LSB]], %[[C7FFF]] : i32
// CHECK:           %[[SUM:.*]] = arith.addi %[[BITS]], %[[BIAS]] : i32
// CHECK:           %[[RND:.*]] = arith.shrui %[[SUM]], %{{.*}} : i32
// CHECK:           %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK:           %[[C40:.*]] = arith.constant 64 : i32
// CHECK:           %[[QNAN:.*]] = arith.ori %{{.*}}, %[[C40]] : i32
// CHECK:           %[[SEL:.*]] = arith.select %[[NAN]], %[[QNAN]], %[[RND]] : i32
// CHECK:           %[[T:.*]] = arith.trunci %[[SEL]] {ptensor.bf16_rounding} : i32 to i16
// CHECK:           %[[B:.*]] = arith.bitcast %[[T]] {ptensor.bf16_rounding} : i16 to bf16
// CHECK-NEXT:      linalg.yield %[[B]] : bf16
func.func @cast_to_bf16_bit_rounding(%a: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xbf16> {
  %0 = ptensor.cast %a : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xbf16>
  return %0 : !ptensor.ptensor<4xbf16>
}

// -----

// bf16 arithmetic: widened on the bits (bf16 is the upper half of an f32;
// not arith.extf, which LLVM narrows back into bf16 ceil/floor that x86
// lowers with a libcall), rounded back with the bit sequence.
// CHECK-LABEL: func.func @bf16_multiply(
// CHECK:         ^bb0(%[[X:.*]]: bf16, %[[Y:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:      %[[XB:.*]] = arith.bitcast %[[X]] : bf16 to i16
// CHECK-NEXT:      %[[XW:.*]] = arith.extui %[[XB]] : i16 to i32
// CHECK:           %[[XS:.*]] = arith.shli %[[XW]], %{{.*}} : i32
// CHECK-NEXT:      %[[XE:.*]] = arith.bitcast %[[XS]] : i32 to f32
// CHECK:           %[[YE:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[XE]], %[[YE]] : f32
// CHECK-NEXT:      arith.bitcast %[[M]] : f32 to i32
// CHECK:           arith.bitcast %{{.*}} {ptensor.bf16_rounding} : i16 to bf16
// CHECK-NEXT:      linalg.yield
func.func @bf16_multiply(%a: !ptensor.ptensor<?xbf16>, %b: !ptensor.ptensor<?xbf16>) -> !ptensor.ptensor<?xbf16> {
  %0 = ptensor.elementwise_binary multiply %a, %b : (!ptensor.ptensor<?xbf16>, !ptensor.ptensor<?xbf16>) -> !ptensor.ptensor<?xbf16>
  return %0 : !ptensor.ptensor<?xbf16>
}

// -----

// Rank 0.
// CHECK-DAG:   #[[R0:.*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @rank0(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<f64>
// CHECK:         linalg.generic {indexing_maps = [#[[R0]], #[[R0]]], iterator_types = []} ins(%arg0 : tensor<f64>) outs(%[[E]] : tensor<f64>)
// CHECK:           arith.negf
func.func @rank0(%a: !ptensor.ptensor<f64>) -> !ptensor.ptensor<f64> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<f64>) -> !ptensor.ptensor<f64>
  return %0 : !ptensor.ptensor<f64>
}
