// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

// One case per message of the manipulation ops' type inference and
// verifiers (ptensor/Semantics/Manipulation.cpp, ManipulationOps.cpp).

func.func @reshape_two_inferred(%a: !ptensor.ptensor<4x6xf32>) {
  // expected-error @below {{reshape: only one dimension can be -1, but shape [-1, -1] has more}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reshape %a [-1, -1] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<?x?xf32>
  return
}

// -----

func.func @reshape_negative(%a: !ptensor.ptensor<4x6xf32>) {
  // expected-error @below {{reshape: invalid size -2 in shape [-2, 12] (expected >= 0, or -1 once)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reshape %a [-2, 12] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<2x12xf32>
  return
}

// -----

func.func @reshape_count(%a: !ptensor.ptensor<4x6xf32>) {
  // expected-error @below {{reshape: cannot reshape shape [4, 6] (24 elements) into shape [5, 5] (25 elements)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reshape %a [5, 5] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<5x5xf32>
  return
}

// -----

func.func @reshape_indivisible(%a: !ptensor.ptensor<4x6xf32>) {
  // expected-error @below {{reshape: cannot reshape shape [4, 6] (24 elements) into shape [5, -1]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reshape %a [5, -1] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<5x?xf32>
  return
}

// -----

// Found by scripts/fuzz-mlir.py under UBSan: the product of the sizes
// overflowed int64 (undefined behaviour) before it was compared.
func.func @reshape_overflow(%a: !ptensor.ptensor<4x6xf32>) {
  // expected-error @below {{reshape: shape [5, 9223372036854775807] has more elements than int64 can count}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reshape %a [5, 9223372036854775807] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<5x?xf32>
  return
}

// -----

// A source whose element count overflows int64 is not statically known.
func.func @reshape_huge_source(%a: !ptensor.ptensor<4611686018427387904x4xf32>) {
  // expected-error @below {{reshape: cannot infer the -1 in shape [0, -1] beside a dimension of size 0}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reshape %a [0, -1] : !ptensor.ptensor<4611686018427387904x4xf32> -> !ptensor.ptensor<0x?xf32>
  return
}

// -----

func.func @reshape_zero(%a: !ptensor.ptensor<0x6xf32>) {
  // expected-error @below {{reshape: cannot infer the -1 in shape [0, -1] beside a dimension of size 0}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reshape %a [0, -1] : !ptensor.ptensor<0x6xf32> -> !ptensor.ptensor<0x?xf32>
  return
}

// -----

func.func @concat_0d(%a: !ptensor.ptensor<f32>) {
  // expected-error @below {{concat needs operands of rank >= 1, but got a 0-d one}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.combine concat %a, %a axis 0 : (!ptensor.ptensor<f32>, !ptensor.ptensor<f32>) -> !ptensor.ptensor<2xf32>
  return
}

// -----

func.func @concat_rank(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{concat: operands must have one rank, but operand 1 has shape [3] and operand 0 [2, 3]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.combine concat %a, %b axis 0 : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<?x3xf32>
  return
}

// -----

func.func @concat_axis(%a: !ptensor.ptensor<2x3xf32>) {
  // expected-error @below {{concat: axis 2 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.combine concat %a, %a axis 2 : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<2x3xf32>) -> !ptensor.ptensor<2x6xf32>
  return
}

// -----

func.func @concat_sizes(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<2x4xf32>) {
  // expected-error @below {{concat: operand 1 has shape [2, 4], which differs from operand 0's shape [2, 3] in dimension 1 (only the concatenated one may differ)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.combine concat %a, %b axis 0 : (!ptensor.ptensor<2x3xf32>, !ptensor.ptensor<2x4xf32>) -> !ptensor.ptensor<4x3xf32>
  return
}

// -----

func.func @stack_sizes(%a: !ptensor.ptensor<3xf32>, %b: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{stack: operand 1 has shape [4], which differs from operand 0's shape [3] in dimension 0 (stacked operands have one shape)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.combine stack %a, %b axis 0 : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<2x3xf32>
  return
}

// -----

func.func @stack_axis(%a: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{stack: axis -3 is out of range for a tensor of rank 1 (expected -2 <= axis < 2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.combine stack %a axis -3 : (!ptensor.ptensor<3xf32>) -> !ptensor.ptensor<1x3xf32>
  return
}

// -----

func.func @combine_none() {
  // expected-error @below {{concat needs at least one operand}}
  // expected-error @below {{failed to infer returned types}}
  %0 = "ptensor.combine"() <{kind = 0 : i32, axis = 0 : i64}> : () -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @concat_dtypes(%a: !ptensor.ptensor<3xui64>, %b: !ptensor.ptensor<3xi8>) {
  // expected-error @below {{concat: cannot promote 'ui64' with signed 'i8': no integer type holds both (cast one operand first)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.combine concat %a, %b axis 0 : (!ptensor.ptensor<3xui64>, !ptensor.ptensor<3xi8>) -> !ptensor.ptensor<6xi64>
  return
}

// -----

func.func @combine_devices(%a: !ptensor.ptensor<3xf32>, %b: !ptensor.ptensor<3xf32, device = "cuda:0">) {
  // expected-error @below {{operands must be on the same device, but got host and "cuda:0"}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.combine concat %a, %b axis 0 : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<3xf32, device = "cuda:0">) -> !ptensor.ptensor<6xf32>
  return
}

// -----

func.func @roll_no_axes(%a: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{roll needs at least one axis (roll the 1-D reshape to roll the flattened tensor)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.roll %a shifts [1] axes [] : !ptensor.ptensor<3xf32> -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @roll_shifts(%a: !ptensor.ptensor<3x4xf32>) {
  // expected-error @below {{roll needs one shift, or one per axis, but got 2 shifts for 3 axes}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.roll %a shifts [1, 2] axes [0, 1, 0] : !ptensor.ptensor<3x4xf32> -> !ptensor.ptensor<3x4xf32>
  return
}

// -----

func.func @roll_axis(%a: !ptensor.ptensor<3x4xf32>) {
  // expected-error @below {{roll: axis 2 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.roll %a shifts [1] axes [2] : !ptensor.ptensor<3x4xf32> -> !ptensor.ptensor<3x4xf32>
  return
}

// -----

func.func @triangle_rank(%a: !ptensor.ptensor<4xf32>) {
  // expected-error @below {{extract_triangle needs at least 2 dimensions (the last two hold the matrices), but got shape [4]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_triangle lower %a : !ptensor.ptensor<4xf32> -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @create_like_dtype(%a: !ptensor.ptensor<4xf32>, %v: f32) {
  // expected-error @below {{create_like: 'index' is not a ptensor dtype}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.create_like %a fill %v {dtype = index} : !ptensor.ptensor<4xf32>, f32 -> !ptensor.ptensor<4xf32>
  return
}

// -----

func.func @meshgrid_none() {
  // expected-error @below {{meshgrid needs at least one operand}}
  // expected-error @below {{failed to infer returned types}}
  "ptensor.meshgrid"() <{indexing = 0 : i32}> : () -> ()
  return
}

// -----

func.func @meshgrid_rank(%a: !ptensor.ptensor<3xf32>, %b: !ptensor.ptensor<2x2xf32>) {
  // expected-error @below {{meshgrid needs 1-D operands, but operand 1 has shape [2, 2]}}
  // expected-error @below {{failed to infer returned types}}
  %0:2 = ptensor.meshgrid ij %a, %b : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<2x2xf32>) -> (!ptensor.ptensor<3x2xf32>, !ptensor.ptensor<3x2xf32>)
  return
}

// -----

func.func @meshgrid_dtype(%a: !ptensor.ptensor<3xf32>, %b: !ptensor.ptensor<2xi32>) {
  // expected-error @below {{meshgrid needs operands of one dtype, but operand 1 is 'i32' and operand 0 'f32'}}
  // expected-error @below {{failed to infer returned types}}
  %0:2 = ptensor.meshgrid ij %a, %b : (!ptensor.ptensor<3xf32>, !ptensor.ptensor<2xi32>) -> (!ptensor.ptensor<3x2xf32>, !ptensor.ptensor<3x2xf32>)
  return
}

// -----

func.func @reshape_sizes(%a: !ptensor.ptensor<4x6xf32>, %n: index) {
  // expected-error @below {{reshape has 1 size operands for 0 dynamic sizes}}
  // expected-error @below {{failed to infer returned types}}
  %0 = "ptensor.reshape"(%a, %n) <{static_sizes = array<i64: 4, 6>}> : (!ptensor.ptensor<4x6xf32>, index) -> !ptensor.ptensor<4x6xf32>
  return
}

// -----

func.func @reshape_result(%a: !ptensor.ptensor<4x6xf32>) {
  // expected-error @below {{'ptensor.reshape' op inferred type(s) '!ptensor.ptensor<2x12xf32>' are incompatible with return type(s) of operation '!ptensor.ptensor<12x2xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.reshape %a [2, -1] : !ptensor.ptensor<4x6xf32> -> !ptensor.ptensor<12x2xf32>
  return
}

// -----

func.func @eye_rank(%n: index) {
  // expected-error @below {{'ptensor.eye' op eye makes a 2-D result, but the result shape is [3]}}
  %0 = ptensor.eye () : !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @eye_sizes(%n: index) {
  // expected-error @below {{'ptensor.eye' op}}
  %0 = ptensor.eye (%n) : !ptensor.ptensor<3x3xf32>
  return
}

// -----

func.func @mask_dtype(%a: !ptensor.ptensor<4xf32>, %m: !ptensor.ptensor<4xi8>) {
  // expected-error @below {{extract_mask needs a bool mask, but got i8}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_mask %a, %m : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4xi8>) -> !ptensor.ptensor<?xf32>
  return
}

// -----

func.func @mask_rank(%a: !ptensor.ptensor<4xf32>, %m: !ptensor.ptensor<4x2xi1>) {
  // expected-error @below {{extract_mask needs a mask of rank 1 to 1 (the source's), but got shape [4, 2]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_mask %a, %m : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<4x2xi1>) -> !ptensor.ptensor<?xf32>
  return
}

// -----

func.func @mask_sizes(%a: !ptensor.ptensor<4x3xf32>, %m: !ptensor.ptensor<4x2xi1>) {
  // expected-error @below {{extract_mask: the mask's shape [4, 2] does not match the first 2 dimensions of shape [4, 3]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.extract_mask %a, %m : (!ptensor.ptensor<4x3xf32>, !ptensor.ptensor<4x2xi1>) -> !ptensor.ptensor<?xf32>
  return
}

// -----

func.func @take_0d(%x: !ptensor.ptensor<f32>, %i: !ptensor.ptensor<3xi64>) {
  // expected-error @below {{take of a 0-d tensor (expected a tensor of rank 1 or more)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.take %x, %i : (!ptensor.ptensor<f32>, !ptensor.ptensor<3xi64>) -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @take_2d_indices(%x: !ptensor.ptensor<4xf32>, %i: !ptensor.ptensor<3x2xi64>) {
  // expected-error @below {{take needs 1-D indices, but got shape [3, 2]}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.take %x, %i : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<3x2xi64>) -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @take_float_indices(%x: !ptensor.ptensor<4xf32>, %i: !ptensor.ptensor<3xf32>) {
  // expected-error @below {{take needs integer indices, but got f32}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.take %x, %i : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @take_bool_indices(%x: !ptensor.ptensor<4xf32>, %i: !ptensor.ptensor<3xi1>) {
  // expected-error @below {{take needs integer indices, but got i1}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.take %x, %i : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<3xi1>) -> !ptensor.ptensor<3xf32>
  return
}

// -----

func.func @take_no_axis(%x: !ptensor.ptensor<4x5xf32>, %i: !ptensor.ptensor<3xi64>) {
  // expected-error @below {{take of a tensor of shape [4, 5] needs an axis (it may be left out for a 1-D tensor only)}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.take %x, %i : (!ptensor.ptensor<4x5xf32>, !ptensor.ptensor<3xi64>) -> !ptensor.ptensor<3x5xf32>
  return
}

// -----

func.func @take_axis(%x: !ptensor.ptensor<4x5xf32>, %i: !ptensor.ptensor<3xi64>) {
  // expected-error @below {{take: axis 2 is out of range for a tensor of rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.take %x, %i axis 2 : (!ptensor.ptensor<4x5xf32>, !ptensor.ptensor<3xi64>) -> !ptensor.ptensor<4x3xf32>
  return
}

// -----

func.func @take_devices(%x: !ptensor.ptensor<4xf32>, %i: !ptensor.ptensor<3xi64, device = "cuda:0">) {
  // expected-error @below {{operands must be on the same device, but got host and "cuda:0"}}
  // expected-error @below {{failed to infer returned types}}
  %0 = ptensor.take %x, %i : (!ptensor.ptensor<4xf32>, !ptensor.ptensor<3xi64, device = "cuda:0">) -> !ptensor.ptensor<3xf32>
  return
}
