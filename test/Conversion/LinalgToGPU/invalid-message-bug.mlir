// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu -verify-diagnostics

// Regression test (fixed). Was BUG (diagnostic text): LinalgToGPU.cpp says "linal.generic" instead of
// "linalg.generic" in its error message.

func.func @reduction(%a: memref<4xf32>, %b: memref<f32>) attributes {ptensor.device = "cuda:0"} {
  // expected-error @+1 {{cannot turn this loop nest into a GPU kernel: expected an elementwise linalg.generic on memrefs}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%a : memref<4xf32>) outs(%b : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}
