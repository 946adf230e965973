// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline=format=isa | FileCheck %s
// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline="format=isa chip=sm_75" | FileCheck %s --check-prefix=SM75

// A bf16 kernel rounds its f32 results with the chip's instruction from
// sm_80 on (ptensor-native-bf16-rounding; here packed two at a time), and
// with the bit form before (integer ops, no conversion to bf16).
// CHECK: cvt.rn.bf16x2.f32
// SM75: .target sm_75
// SM75-NOT: cvt.rn.bf16
func.func @add(%a: !ptensor.ptensor<1024xbf16, device = "cuda:0">, %b: !ptensor.ptensor<1024xbf16, device = "cuda:0">) -> !ptensor.ptensor<1024xbf16, device = "cuda:0"> {
  %r = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<1024xbf16, device = "cuda:0">, !ptensor.ptensor<1024xbf16, device = "cuda:0">) -> !ptensor.ptensor<1024xbf16, device = "cuda:0">
  return %r : !ptensor.ptensor<1024xbf16, device = "cuda:0">
}
