// verify: assertion in PointwiseOp::verify (libFuzzer, tools/ptensor-fuzz-parse)
func.func @f(%a: f32) {
  %0 = ptensor.pointwise (%a) promotion [DEFAULT] : (f32) -> (!ptensor.ptensor<f32>) {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  }
  return
}
