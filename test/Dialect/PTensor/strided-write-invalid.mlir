// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

func.func @element_type(%v: tensor<4xf64>, %d: tensor<4xf32>) {
  // expected-error @below {{'ptensor.strided_write' op expected the destination element type 'f32', found 'f64'}}
  %0 = ptensor.strided_write %v into %d : tensor<4xf64> into tensor<4xf32>
  return
}

// -----

func.func @shape(%v: tensor<3xf32>, %d: tensor<4xf32>) {
  // expected-error @below {{'ptensor.strided_write' op expected a value of the destination's shape 'tensor<4xf32>', found 'tensor<3xf32>'}}
  %0 = ptensor.strided_write %v into %d : tensor<3xf32> into tensor<4xf32>
  return
}

// -----

func.func @view_strides(%v: tensor<2x2xf32>, %d: tensor<4xf32>, %o: index, %s: index) {
  // expected-error @below {{'ptensor.strided_write' op expected 2 strides (the view rank), found 1}}
  %0 = ptensor.strided_write %v into %d to offset: %o, sizes: [], strides: [%s] : tensor<2x2xf32> into tensor<4xf32>
  return
}

// -----

func.func @view_operands_without_offset(%v: tensor<4xf32>, %d: tensor<4xf32>, %s: index) {
  // expected-error @below {{'ptensor.strided_write' op expected sizes and strides only with an offset}}
  %0 = "ptensor.strided_write"(%v, %d, %s) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}> : (tensor<4xf32>, tensor<4xf32>, index) -> tensor<4xf32>
  return
}
