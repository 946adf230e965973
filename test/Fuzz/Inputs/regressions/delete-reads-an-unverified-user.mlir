// verify: assertion in getIdentityFold, called by DeleteOp::verify on a later op not verified yet (audit of the libFuzzer target)
!v = !ptensor.ptensor<?xf32>
func.func @f(%a: !v) {
  %d = ptensor.dim %a, 0 : !v
  ptensor.delete %a : !v
  %p = ptensor.elementwise_unary positive %d : (index) -> index
  return
}
