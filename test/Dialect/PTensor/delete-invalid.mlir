// RUN: ptensor-opt %s -split-input-file -verify-diagnostics

!v = !ptensor.ptensor<?xf32>

func.func @use_after(%a: !v) -> !v {
  %t = ptensor.elementwise_unary exp %a : (!v) -> !v
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is used later (expected every use of it, and of the views that may share its storage, before the delete)}}
  ptensor.delete %t : !v
  // expected-note @below {{the later use}}
  %r = ptensor.elementwise_unary abs %t : (!v) -> !v
  return %r : !v
}

// -----

!v = !ptensor.ptensor<?xf32>

func.func @returned(%a: !v) -> !v {
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is used later}}
  ptensor.delete %a : !v
  // expected-note @below {{the later use}}
  return %a : !v
}

// -----

!m = !ptensor.ptensor<4x?xf32>

func.func @view_used_after(%a: !m) -> !ptensor.ptensor<?x4xf32> {
  %v = ptensor.permute_dims %a [1, 0] : !m -> !ptensor.ptensor<?x4xf32>
  %f = ptensor.flip %v [0] : !ptensor.ptensor<?x4xf32> -> !ptensor.ptensor<?x4xf32>
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is used later}}
  ptensor.delete %a : !m
  // expected-note @below {{the later use}}
  %r = ptensor.elementwise_unary abs %f : (!ptensor.ptensor<?x4xf32>) -> !ptensor.ptensor<?x4xf32>
  return %r : !ptensor.ptensor<?x4xf32>
}

// -----

!m = !ptensor.ptensor<4x6xf32>

func.func @reshape_used_after(%a: !m) -> !ptensor.ptensor<24xf32> {
  %r = ptensor.reshape %a [24] : !m -> !ptensor.ptensor<24xf32>
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is used later}}
  ptensor.delete %a : !m
  // expected-note @below {{the later use}}
  return %r : !ptensor.ptensor<24xf32>
}

// -----

!v = !ptensor.ptensor<?xf32>

func.func @twice(%a: !v) {
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is deleted again later (expected one delete per tensor)}}
  ptensor.delete %a : !v
  // expected-note @below {{the later use}}
  ptensor.delete %a : !v
  return
}

// -----

!v = !ptensor.ptensor<?xf32>

func.func @in_later_region(%a: !v, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is used later}}
  ptensor.delete %a : !v
  scf.for %i = %c0 to %n step %c1 {
    // expected-note @below {{the later use}}
    %d = ptensor.dim %a, 0 : !v
  }
  return
}

// -----

func.func @not_ptensor(%a: tensor<4xf32>) {
  // expected-error @below {{'ptensor.delete' op operand #0 must be ptensor, but got 'tensor<4xf32>'}}
  ptensor.delete %a : tensor<4xf32>
  return
}

// -----

!v = !ptensor.ptensor<?xf32>

func.func @defined_outside(%a: !v, %c: i1) {
  scf.if %c {
    // expected-error @below {{'ptensor.delete' op deletes a tensor defined outside its block (expected the delete in the block that defines the tensor)}}
    ptensor.delete %a : !v
  }
  return
}

// -----

!v = !ptensor.ptensor<?xf32>

// A region op that yields the tensor: its result may be the tensor.
func.func @yielded(%a: !v, %b: !v, %c: i1) -> !v {
  %t = ptensor.elementwise_unary exp %a : (!v) -> !v
  %r = scf.if %c -> (!v) {
    scf.yield %t : !v
  } else {
    scf.yield %b : !v
  }
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is used later}}
  ptensor.delete %t : !v
  // expected-note @below {{the later use}}
  %s = ptensor.elementwise_unary abs %r : (!v) -> !v
  return %s : !v
}

// -----

!v = !ptensor.ptensor<?xf32>

// A copy to the same type and a double negative fold to the tensor itself:
// using them after the delete is using it.
func.func @copy_folds(%a: !v) -> !v {
  %t = ptensor.elementwise_unary exp %a : (!v) -> !v
  %c = ptensor.copy %t : !v -> !v
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is used later}}
  ptensor.delete %t : !v
  // expected-note @below {{the later use}}
  return %c : !v
}

// -----

!v = !ptensor.ptensor<?xf32>

func.func @double_negative(%a: !v) -> !v {
  %t = ptensor.elementwise_unary exp %a : (!v) -> !v
  %n = ptensor.elementwise_unary negative %t : (!v) -> !v
  %m = ptensor.elementwise_unary negative %n : (!v) -> !v
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is used later}}
  ptensor.delete %t : !v
  // expected-note @below {{the later use}}
  return %m : !v
}

// -----

!v = !ptensor.ptensor<?xf32>

// A use in a later block runs after the delete (the tensor's block
// dominates it).
func.func @used_in_a_later_block(%a: !v) -> !v {
  %t = ptensor.elementwise_unary exp %a : (!v) -> !v
  // expected-error @below {{'ptensor.delete' op deletes a tensor that is used later}}
  ptensor.delete %t : !v
  cf.br ^next
^next:
  // expected-note @below {{the later use}}
  %u = ptensor.elementwise_unary abs %t : (!v) -> !v
  return %u : !v
}
