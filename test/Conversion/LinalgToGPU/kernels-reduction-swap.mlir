// RUN: ptensor-opt %s --convert-ptensor-linalg-to-gpu --split-input-file | FileCheck %s

// A reduction over two loops whose inputs read the outer loop with the
// smaller strides (a row sum over a transposed view: rows of stride N)
// takes the kernels of its loops swapped: the column kernel (a thread per
// output, neighbouring threads reading neighbouring elements) where the
// strides say so at run time, the row kernels otherwise.

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @dynamic_strides(
// CHECK-SAME:    %[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[O:.*]]: memref<?xf32>)
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         arith.cmpi ult
// CHECK:         arith.cmpi ult
// CHECK:         scf.if %{{.*}} {
// The column kernel of the swapped loops: a thread per output k folds
// a[i, k] over i (ascending), 4 loads in flight.
// CHECK:           gpu.launch
// CHECK-NOT:         gpu.shuffle
// CHECK:             memref.load %[[A]]
// CHECK-NOT:         gpu.shuffle
// CHECK:             gpu.terminator
// CHECK:         } else {
// The row kernels (a block per output, its threads merged by shuffles),
// with and without vector loads.
// CHECK:           gpu.launch
// CHECK:             gpu.shuffle  xor
// CHECK:         }
// CHECK:         return
func.func @dynamic_strides(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>

// Static strides decide at compile time: the row max of a transposed 64x256
// view is a column kernel only; its column max a row kernel only.
// CHECK-LABEL: func.func @static_transposed(
// CHECK-NOT:     gpu.shuffle
// CHECK:         gpu.launch
// CHECK-NOT:     gpu.shuffle
// CHECK:         gpu.terminator
// CHECK-NOT:     gpu.shuffle
// CHECK:         call @separator
// CHECK:         gpu.launch
// CHECK:           gpu.shuffle  xor
// CHECK:         return
func.func private @separator()
func.func @static_transposed(%t: memref<64x256xf32, strided<[1, 64]>>, %r: memref<64xf32>, %c: memref<256xf32>)
    attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%t : memref<64x256xf32, strided<[1, 64]>>) outs(%r : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %o, %x {ptensor.combiner = "maxf"} : f32
    linalg.yield %m : f32
  }
  func.call @separator() : () -> ()
  linalg.generic {indexing_maps = [#id, #cols], iterator_types = ["reduction", "parallel"]}
      ins(%t : memref<64x256xf32, strided<[1, 64]>>) outs(%c : memref<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %o, %x {ptensor.combiner = "maxf"} : f32
    linalg.yield %m : f32
  }
  return
}
