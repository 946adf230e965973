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

// -----

// A module holding more than symbols (here module flags) stays apart; the
// others are merged, and a kernel the same as one already there (the same
// text, calling nothing) is kept once.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.launch_func @p::@k blocks
// CHECK:         gpu.launch_func @q::@k blocks
// CHECK:         gpu.launch_func @p::@k blocks
// CHECK:       gpu.module @p {
// CHECK-COUNT-1: gpu.func
// CHECK:       gpu.module @q {
// CHECK-NEXT:    llvm.module_flags
module attributes {gpu.container_module} {
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @p::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @q::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @r::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @p {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @q {
    llvm.module_flags [#llvm.mlir.module_flag<error, "wchar_size", 4 : i32>]
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @r {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// The same text is not enough when what it calls differs: @g of @b calls
// @b's @h, which differs from @a's @h; @g is kept (renamed) and calls the
// renamed @h.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.launch_func @a::@k blocks
// CHECK:         gpu.launch_func @a::@b blocks
// CHECK:       gpu.module @a {
// CHECK:         func.func private @h() -> i32 {
// CHECK:           arith.constant 1 : i32
// CHECK:         func.func private @g() -> i32 {
// CHECK:           call @h()
// CHECK:         func.func private @h_m0() -> i32 {
// CHECK:           arith.constant 2 : i32
// CHECK:         func.func private @g_m0() -> i32 {
// CHECK:           call @h_m0()
// CHECK:         gpu.func @b() kernel {
// CHECK:           call @g_m0()
module attributes {gpu.container_module} {
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @a {
    func.func private @h() -> i32 {
      %c = arith.constant 1 : i32
      return %c : i32
    }
    func.func private @g() -> i32 {
      %r = func.call @h() : () -> i32
      return %r : i32
    }
    gpu.func @k() kernel {
      %r = func.call @g() : () -> i32
      gpu.return
    }
  }
  gpu.module @b {
    func.func private @h() -> i32 {
      %c = arith.constant 2 : i32
      return %c : i32
    }
    func.func private @g() -> i32 {
      %r = func.call @h() : () -> i32
      return %r : i32
    }
    gpu.func @k() kernel {
      %r = func.call @g() : () -> i32
      gpu.return
    }
  }
}

// -----

// Same-named declarations that differ name outside functions: renaming one
// would break the link, so the modules stay apart.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         gpu.launch_func @c::@k blocks
// CHECK:         gpu.launch_func @d::@k blocks
// CHECK:       gpu.module @c {
// CHECK:       gpu.module @d {
module attributes {gpu.container_module} {
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @c::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @d::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @c {
    func.func private @outside(f32) -> f32
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @d {
    func.func private @outside(f64) -> f64
    gpu.func @k() kernel {
      %c = arith.constant 1.0 : f64
      %r = func.call @outside(%c) : (f64) -> f64
      gpu.return
    }
  }
}
