// RUN: ptensor-opt %s --ptensor-merge-gpu-modules --split-input-file --verify-diagnostics | FileCheck %s

// Three outlined modules, each with a kernel of the function's name and a
// copy of the same helper: one module; the kernels take their old modules'
// names, the helper is kept once, and the launches follow.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         func.func @f(
// CHECK:           gpu.launch_func @f_kernel::@f_kernel blocks
// CHECK:           gpu.launch_func @f_kernel::@f_kernel_0 blocks
// CHECK:           gpu.launch_func @f_kernel::@f_kernel_1 blocks
// CHECK:         gpu.module @f_kernel {
// CHECK-COUNT-1:   func.func private @helper(
// CHECK-DAG:       gpu.func @f_kernel(%{{.*}}: memref<?xf32>) kernel
// CHECK-DAG:       gpu.func @f_kernel_0(%{{.*}}: memref<?xi32>) kernel
// CHECK-DAG:       gpu.func @f_kernel_1(%{{.*}}: memref<?xf64>) kernel
// CHECK-NOT:     gpu.module
module attributes {gpu.container_module} {
  func.func @f(%a: memref<?xf32>, %b: memref<?xi32>, %c: memref<?xf64>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xi32>)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%c : memref<?xf64>)
    return
  }
  gpu.module @f_kernel {
    func.func private @helper(%x: i32) -> i32 {
      return %x : i32
    }
    gpu.func @f_kernel(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    func.func private @helper(%x: i32) -> i32 {
      return %x : i32
    }
    gpu.func @f_kernel(%b: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %b[%c0] : memref<?xi32>
      %w = func.call @helper(%v) : (i32) -> i32
      memref.store %w, %b[%c0] : memref<?xi32>
      gpu.return
    }
  }
  gpu.module @f_kernel_1 {
    gpu.func @f_kernel(%c: memref<?xf64>) kernel {
      gpu.return
    }
  }
}

// -----

// A different helper of the same name is renamed, with its calls; modules
// of different targets stay apart.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.launch_func @g_kernel::@g_kernel blocks
// CHECK:         gpu.launch_func @g_kernel::@g_kernel_0 blocks
// CHECK:         gpu.launch_func @other::@k blocks
// CHECK:       gpu.module @g_kernel {
// CHECK:         func.func private @helper(%{{.*}}: i32) -> i32 {
// CHECK-NEXT:      return %{{.*}} : i32
// CHECK:         gpu.func @g_kernel() kernel
// CHECK:         func.func private @helper_m0(%{{.*}}: i32) -> i32 {
// CHECK-NEXT:      arith.addi
// CHECK:         gpu.func @g_kernel_0() kernel
// CHECK:           func.call @helper_m0(
// CHECK:       gpu.module @other [#nvvm.target<chip = "sm_80">]
module attributes {gpu.container_module} {
  func.func @g() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g_kernel::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @g_kernel_0::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @other::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @g_kernel {
    func.func private @helper(%x: i32) -> i32 {
      return %x : i32
    }
    gpu.func @g_kernel() kernel {
      gpu.return
    }
  }
  gpu.module @g_kernel_0 {
    func.func private @helper(%x: i32) -> i32 {
      %y = arith.addi %x, %x : i32
      return %y : i32
    }
    gpu.func @g_kernel() kernel {
      %c2 = arith.constant 2 : i32
      %r = func.call @helper(%c2) : (i32) -> i32
      gpu.return
    }
  }
  gpu.module @other [#nvvm.target<chip = "sm_80">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// A single module is left alone.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.launch_func @h_kernel::@h_kernel
// CHECK:       gpu.module @h_kernel {
module attributes {gpu.container_module} {
  func.func @h() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @h_kernel::@h_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @h_kernel {
    gpu.func @h_kernel() kernel {
      gpu.return
    }
  }
}
