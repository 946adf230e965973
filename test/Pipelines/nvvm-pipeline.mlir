// REQUIRES: ptxas
// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline | FileCheck %s --check-prefix=BIN
// RUN: ptensor-opt %s --ptensor-to-nvvm-pipeline=format=isa | FileCheck %s --check-prefix=ISA
// RUN: not ptensor-opt %s --ptensor-to-nvvm-pipeline=cuda-path=/nonexistent 2>&1 | FileCheck %s --check-prefix=ERR

// ptensor-to-nvvm-pipeline: a function on "cuda:0" runs its fused chain as
// kernels (gpu.launch_func on the host side, kernels embedded as
// gpu.binary); a host function in the same module stays loops on the host.

// With the default format=bin, every outlined kernel module is a cubin for
// sm_90 with PTX 8.0 (ptxas ran, on as many threads as the machine has);
// the host calls each through launch_func.
// BIN:     module attributes {gpu.container_module}
// BIN-NOT: gpu.module
// BIN-LABEL: llvm.func @device_chain(
// BIN-SAME:    attributes {ptensor.device = "cuda:0"}
// BIN:         llvm.call @mgpuMemAlloc
// BIN:         gpu.launch_func @[[K:[a-z_0-9]+]]::@{{[a-z_0-9]+}} blocks in
// BIN:       gpu.binary @[[K]] [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", flags = {"ptxas-cmd-options" = ["--split-compile", "0"]}>, properties = {{.*}}, bin = "
// BIN-LABEL: llvm.func @host_neg(
// BIN-NOT:     gpu.launch_func
// BIN-NOT:     mgpu
// BIN:         llvm.fneg
// BIN:         llvm.return
// BIN-NOT:   gpu.module

// With format=isa the embedded object is PTX text: a .target sm_90 module
// that loads its operands from global memory and stores the result there.
// ISA-LABEL: llvm.func @device_chain(
// ISA:         gpu.launch_func
// ISA:       gpu.binary @{{.*}} [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", flags = {{.*}}>, {{.*}}assembly = "{{.*}}.version 8.0{{.*}}.target sm_90{{.*}}.visible .entry {{.*}}ld.global{{.*}}st.global{{.*}}"
// ISA-NOT:   gpu.module

// A missing toolkit is an error that names the path, and the run fails.
// ERR: error: CUDA path: /nonexistent does not exist or is not a directory.

func.func @device_chain(%a: !ptensor.ptensor<?xf32, device = "cuda:0">, %b: !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xf32, device = "cuda:0">, !ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  %1 = ptensor.elementwise_unary exp %0 : (!ptensor.ptensor<?xf32, device = "cuda:0">) -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %1 : !ptensor.ptensor<?xf32, device = "cuda:0">
}

func.func @host_neg(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %0 : !ptensor.ptensor<?xf32>
}
