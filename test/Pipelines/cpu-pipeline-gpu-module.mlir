// A module on GPU tensors never silently becomes host loops: the CPU
// pipeline refuses it, naming the function and its device (ptensor-compile
// picks the GPU target for it unless --target=cpu is given:
// Integration/GPU/runner-no-driver.mlir).
// RUN: not ptensor-opt %s --ptensor-to-cpu-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: function @neg works on "cuda:0" tensors, but this lowering compiles host code only (host-only, as in ptensor-to-cpu-pipeline); compile it with ptensor-to-nvvm-pipeline (ptensor-compile --target=cuda)
// RUN: not ptensor-compile %s --target=cpu -o %t.so 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not test -e %t.so

func.func @neg(%a: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xf32, device = "cuda:0">
}
