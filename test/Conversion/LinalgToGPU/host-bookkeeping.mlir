// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu | FileCheck %s

// Allocations of a device function hold tensor data and become device
// memory, except host bookkeeping: the arrays of pointers and ownership
// flags that the lowering of `bufferization.dealloc` builds for several
// conditionally owned buffers are stored and loaded on the host and passed
// to its helper function. Converting those made the host write device
// memory (a segfault on a real GPU with two reshapes returned as views).

func.func private @dealloc_helper(%p: memref<?xindex>, %f: memref<?xi1>) {
  return
}

// CHECK-LABEL: func.func @mixed(
// CHECK:         gpu.alloc async {{.*}} (%{{.*}}) : memref<?xf32>
// CHECK:         %[[PTRS:.*]] = memref.alloc() : memref<2xindex>
// CHECK:         %[[FLAGS:.*]] = memref.alloc() : memref<2xi1>
// CHECK:         call @dealloc_helper(
// CHECK:         memref.load %[[FLAGS]]
// CHECK:         gpu.dealloc async {{.*}} : memref<?xf32>
// CHECK:         memref.dealloc %[[PTRS]] : memref<2xindex>
// CHECK:         memref.dealloc %[[FLAGS]] : memref<2xi1>
func.func @mixed(%n: index, %p: index, %f: i1) -> i1 attributes {ptensor.device = "cuda:0"} {
  %c0 = arith.constant 0 : index
  %data = memref.alloc(%n) : memref<?xf32>
  %ptrs = memref.alloc() : memref<2xindex>
  %flags = memref.alloc() : memref<2xi1>
  memref.store %p, %ptrs[%c0] : memref<2xindex>
  memref.store %f, %flags[%c0] : memref<2xi1>
  %pc = memref.cast %ptrs : memref<2xindex> to memref<?xindex>
  %fc = memref.cast %flags : memref<2xi1> to memref<?xi1>
  call @dealloc_helper(%pc, %fc) : (memref<?xindex>, memref<?xi1>) -> ()
  %r = memref.load %flags[%c0] : memref<2xi1>
  memref.dealloc %data : memref<?xf32>
  memref.dealloc %ptrs : memref<2xindex>
  memref.dealloc %flags : memref<2xi1>
  return %r : i1
}
