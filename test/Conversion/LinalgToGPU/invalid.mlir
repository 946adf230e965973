// RUN: ptensor-opt %s -split-input-file --convert-ptensor-linalg-to-gpu -verify-diagnostics

// Generics in device functions that the kernel builder cannot handle are an
// error located on the generic (the pass fails), not silently left on the
// host where they would dereference device pointers.

// Generics the kernel builder cannot handle are an error on the op.
func.func @reduction(%a: memref<4xf32>, %b: memref<f32>) attributes {ptensor.device = "cuda:0"} {
  // expected-error @+1 {{cannot turn this loop nest into a GPU kernel}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%a : memref<4xf32>) outs(%b : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

func.func @on_tensors(%a: tensor<4xf32>) -> tensor<4xf32> attributes {ptensor.device = "cuda:0"} {
  // expected-error @+1 {{cannot turn this loop nest into a GPU kernel}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
