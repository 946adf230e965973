// verify: stderr has 'runtime error:' (signed overflow summing the sizes along a concat's axis; audit of the libFuzzer target)
func.func @c(%c: !ptensor.ptensor<4611686018427387904xi32>) {
  %1 = ptensor.combine concat %c, %c axis -1 : (!ptensor.ptensor<4611686018427387904xi32>, !ptensor.ptensor<4611686018427387904xi32>) -> !ptensor.ptensor<8xi32>
  return
}
