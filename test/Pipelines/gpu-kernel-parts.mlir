// REQUIRES: ptxas
// ptensor-gpu-module-to-binary's kernels-in-parts (which ptensor-compile's
// and the JIT's kernels half sets; lib/Pipelines/KernelParts.cpp): a module
// of several kernels is generated as PTX in parts on the context's
// threads, one object per part, and ptxas takes the parts together.
// RUN: ptensor-opt %s --ptensor-gpu-module-to-binary="format=isa kernels-in-parts=1" | FileCheck %s
// RUN: ptensor-opt %s --ptensor-gpu-module-to-binary="format=isa kernels-in-parts=1" | %python %S/Inputs/ptx_objects.py %t.part
// RUN: cat %t.part0.ptx %t.part1.ptx | FileCheck %s --check-prefix=INTERNAL
// RUN: %cuda_home/bin/ptxas -arch sm_90 %t.part0.ptx %t.part1.ptx -o %t.cubin
// RUN: llvm-readelf -S %t.cubin | FileCheck %s --check-prefix=CUBIN

// Each part holds its kernels (the larger is placed first) and its own copy
// of the helper, the global and what libdevice's sin brings (a function and
// two tables): made internal, so that the copies do not clash in ptxas, and
// named after the part. ptxas aborts ("double free or corruption") on two
// files that both define libdevice's tables under the same name.
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, properties = {{.*}}, assembly = "{{[^"]*}}.global .align 8 .b8 scales_ptensor_part0[16]{{[^"]*}}.global .align 8 .b8 __cudart_i2opi_d_ptensor_part0[144]{{[^"]*}}.func  (.param .b64 func_retval0) twice_ptensor_part0({{[^"]*}}.visible .entry large({{[^"]*}}">
// CHECK-SAME: #gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, properties = {{.*}}, assembly = "{{[^"]*}}.global .align 8 .b8 scales_ptensor_part1[16]{{[^"]*}}.global .align 8 .b8 __cudart_i2opi_d_ptensor_part1[144]{{[^"]*}}.func  (.param .b64 func_retval0) twice_ptensor_part1({{[^"]*}}.visible .entry small({{[^"]*}}">]
// INTERNAL-NOT: .visible .func
// INTERNAL-NOT: .visible .global
// CUBIN-DAG: .text.large
// CUBIN-DAG: .text.small

// A module that defines a global in device memory its kernels may write
// stays whole: the parts would each have a copy of it.
// CHECK: gpu.binary @stateful [#gpu.object<{{[^>]*}}>, properties = {{[^}]*}}}, assembly = "{{[^"]*}}.visible .global .align 8 .u64 launches{{[^"]*}}.visible .entry first({{[^"]*}}.visible .entry second({{[^"]*}}">]

// Without the option, or without threads, one object for the module.
// RUN: ptensor-opt %s --ptensor-gpu-module-to-binary="format=isa" | FileCheck %s --check-prefix=WHOLE
// RUN: ptensor-opt %s --mlir-disable-threading --ptensor-gpu-module-to-binary="format=isa kernels-in-parts=1" | FileCheck %s --check-prefix=WHOLE
// WHOLE: gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, properties = {{.*}}, assembly = "{{[^"]*}}.visible .entry small({{[^"]*}}.visible .entry large({{[^"]*}}">]

// The parts are PTX for ptensor's own ptxas step: other formats are refused.
// RUN: not ptensor-opt %s --ptensor-gpu-module-to-binary="format=bin kernels-in-parts=1" 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: kernels-in-parts needs format=isa, not 'bin'
// A part's serialization error fails the pass, as for the whole module.
// RUN: not ptensor-opt %s --ptensor-gpu-module-to-binary="format=isa kernels-in-parts=1 toolkit=/nonexistent" 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// TOOLKIT: error: CUDA path: /nonexistent does not exist or is not a directory.

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.mlir.global external constant @scales(dense<[2.0, 3.0]> : tensor<2xf64>) {addr_space = 1 : i32} : !llvm.array<2 x f64>
    llvm.func @__nv_sin(f64) -> f64
    llvm.func @twice(%x: f64, %i: i64) -> f64 attributes {no_inline} {
      %a = llvm.mlir.addressof @scales : !llvm.ptr<1>
      %g = llvm.getelementptr %a[0, %i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, !llvm.array<2 x f64>
      %s = llvm.load %g : !llvm.ptr<1> -> f64
      %y = llvm.fmul %x, %s : f64
      llvm.return %y : f64
    }
    llvm.func @small(%p: !llvm.ptr, %i: i64) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr -> f64
      %y = llvm.call @__nv_sin(%x) : (f64) -> f64
      %z = llvm.call @twice(%y, %i) : (f64, i64) -> f64
      llvm.store %z, %p : f64, !llvm.ptr
      llvm.return
    }
    llvm.func @large(%p: !llvm.ptr, %q: !llvm.ptr, %i: i64) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr -> f64
      %y = llvm.call @__nv_sin(%x) : (f64) -> f64
      %z = llvm.call @twice(%y, %i) : (f64, i64) -> f64
      %w = llvm.call @__nv_sin(%z) : (f64) -> f64
      llvm.store %w, %q : f64, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @stateful [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.mlir.global external @launches(0 : i64) {addr_space = 1 : i32} : i64
    llvm.func @first() attributes {gpu.kernel, nvvm.kernel} {
      %a = llvm.mlir.addressof @launches : !llvm.ptr<1>
      %one = llvm.mlir.constant(1 : i64) : i64
      %old = llvm.atomicrmw add %a, %one monotonic : !llvm.ptr<1>, i64
      llvm.return
    }
    llvm.func @second(%p: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %a = llvm.mlir.addressof @launches : !llvm.ptr<1>
      %n = llvm.load %a : !llvm.ptr<1> -> i64
      llvm.store %n, %p : i64, !llvm.ptr
      llvm.return
    }
  }
}
