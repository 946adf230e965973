// verify: null kind read in the scalar ops' inferReturnTypes, run by the parser ("" parses to no kind; audit of the libFuzzer target)
func.func @f(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.pointwise (%a) promotion [DEFAULT] : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  ^bb0(%x: f32):
    %e = ptensor.scalar_unary "" %x : f32
    ptensor.yield %e : f32
  }
  return %0 : !ptensor.ptensor<?xf32>
}
