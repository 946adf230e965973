// RUN: ptensor-opt %s -split-input-file --ptensor-release-deleted | FileCheck %s

// A released buffer's deallocation moves up to the release when nothing
// that shares the buffer is used between them; every release is erased.

#id = affine_map<(d0) -> (d0)>

// The deallocation moves up: the next allocation can reuse the memory.
// CHECK-LABEL: func.func @moved(
// CHECK:         %[[A:.*]] = memref.alloc
// CHECK:         linalg.generic {{.*}} outs(%[[A]]
// CHECK:         linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    %[[B:.*]] = memref.alloc
// CHECK-NOT:     ptensor.release_buffer
// CHECK:         memref.dealloc %[[B]]
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @moved(%n: index, %x: memref<?xf32>) {
  %a = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%a : memref<?xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  }
  ptensor.release_buffer %a : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  }
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}

// -----

// A view released (and deallocated through a cast): the allocation is
// freed at the release, the cast's deallocation is gone.
// CHECK-LABEL: func.func @view(
// CHECK:         %[[A:.*]] = memref.alloc
// CHECK-NEXT:    %[[V:.*]] = memref.reinterpret_cast %[[A]]
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    %[[C:.*]] = memref.cast %[[A]]
// CHECK-NEXT:    return
func.func @view(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  %v = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
  ptensor.release_buffer %v : memref<?xf32, strided<[1]>>
  %c = memref.cast %a : memref<?xf32> to memref<?xf32, strided<[?], offset: ?>>
  memref.dealloc %c : memref<?xf32, strided<[?], offset: ?>>
  return
}

// -----

// Written after the release (bufferization reused the buffer in place): the
// deallocation stays where the pipeline put it.
// CHECK-LABEL: func.func @used_after(
// CHECK:         %[[A:.*]] = memref.alloc
// CHECK-NOT:     memref.dealloc
// CHECK:         linalg.generic
// CHECK:         linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NOT:     ptensor.release_buffer
#id = affine_map<(d0) -> (d0)>
func.func @used_after(%n: index, %x: memref<?xf32>) {
  %a = memref.alloc(%n) : memref<?xf32>
  ptensor.release_buffer %a : memref<?xf32>
  %s = memref.subview %a[0] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%s : memref<?xf32, strided<[1]>>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  }
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// The base pointer taken out before the release and used after it: kept.
// CHECK-LABEL: func.func @pointer_used_after(
// CHECK:         %[[A:.*]] = memref.alloc
// CHECK:         memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT:    call @use
// CHECK-NEXT:    memref.dealloc %[[A]]
func.func private @use(index)
func.func @pointer_used_after(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  %p = memref.extract_aligned_pointer_as_index %a : memref<?xf32> -> index
  ptensor.release_buffer %a : memref<?xf32>
  call @use(%p) : (index) -> ()
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// A conditional deallocation (ownership decided at run time), a returned
// buffer and a function argument: nothing moves; the releases go.
// CHECK-LABEL: func.func @not_moved(
// CHECK-NOT:     ptensor.release_buffer
// CHECK:         scf.if
// CHECK-NEXT:      memref.dealloc
// CHECK:         return
func.func @not_moved(%n: index, %own: i1, %arg: memref<?xf32>) -> memref<?xf32> {
  %a = memref.alloc(%n) : memref<?xf32>
  %r = memref.alloc(%n) : memref<?xf32>
  ptensor.release_buffer %a : memref<?xf32>
  ptensor.release_buffer %r : memref<?xf32>
  ptensor.release_buffer %arg : memref<?xf32>
  scf.if %own {
    memref.dealloc %a : memref<?xf32>
  }
  return %r : memref<?xf32>
}

// -----

// Yielded out of a region before the release and read through the region's
// result after it: kept.
// CHECK-LABEL: func.func @yielded(
// CHECK:         %[[A:.*]] = memref.alloc
// CHECK:         scf.if
// CHECK:         memref.load
// CHECK-NEXT:    memref.dealloc %[[A]]
func.func @yielded(%n: index, %c: i1, %b: memref<?xf32>) -> f32 {
  %a = memref.alloc(%n) : memref<?xf32>
  %r = scf.if %c -> memref<?xf32> {
    scf.yield %a : memref<?xf32>
  } else {
    scf.yield %b : memref<?xf32>
  }
  ptensor.release_buffer %a : memref<?xf32>
  %c0 = arith.constant 0 : index
  %x = memref.load %r[%c0] : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return %x : f32
}
