// RUN: ptensor-opt %s -split-input-file --convert-ptensor-linalg-to-gpu="unroll=2" | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --convert-ptensor-linalg-to-gpu=unroll=1 | FileCheck %s --check-prefix=U1

// The flat vector path: operands tested for contiguity and 16-byte alignment
// at run time, a vector is 16 bytes of the smallest element type (8 lanes
// for f16 + f32: one 16-byte f16 load, two for the f32 operands), each
// thread loads `unroll` vectors before storing, then leftover vectors one
// per thread, then the last count % 8 elements one per thread.

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME:    %[[A:.*]]: memref<?xf16, strided<[?], offset: ?>>, %[[B:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[NV:.*]] = arith.divui %[[COUNT:.*]], %[[C8]] : index
// CHECK:         arith.cmpi ult, %[[NV]], %{{.*}} : index
// CHECK:         %[[FA:.*]] = memref.reinterpret_cast
// CHECK:         %[[FB:.*]] = memref.reinterpret_cast
// CHECK:         %[[FO:.*]] = memref.reinterpret_cast
// Two vectors per thread: half as many threads.
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         arith.ceildivui %[[NV]], %[[C2]] : index
// CHECK:         gpu.launch
// CHECK:           %[[NV32:.*]] = arith.index_castui %[[NV]] : index to i32
// CHECK:           %[[CHUNK:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:           %[[CHUNKS:.*]] = arith.divui %[[NV32]], %[[CHUNK]] : i32
// CHECK:           scf.for unsigned %{{.*}} = %{{.*}} to %[[CHUNKS]] step %{{.*}} : i32 {
// Every load of both vectors comes before the first store.
// CHECK-COUNT-2:     vector.load %[[FA]][%{{.*}}] {alignment = 16 : i64} : memref<?xf16, strided<[1], offset: ?>>, vector<8xf16>
// CHECK-NOT:         vector.store
// CHECK:             vector.load %[[FB]][%{{.*}}] {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>>, vector<8xf32>
// CHECK-COUNT-8:     arith.addf
// CHECK:             vector.store %{{.*}}, %[[FO]][%{{.*}}] {alignment = 16 : i64} : memref<?xf32, strided<[1], offset: ?>>, vector<8xf32>
// CHECK-COUNT-8:     arith.addf
// CHECK:             vector.store %{{.*}}, %[[FO]]
// CHECK:           }
// Leftover vectors, one per thread.
// CHECK:           scf.for unsigned %{{.*}} = %{{.*}} to %[[NV32]] step %{{.*}} : i32 {
// CHECK:             vector.load %[[FA]]
// CHECK:             vector.store %{{.*}}, %[[FO]]
// CHECK:           }
// The scalar tail: elements NV * 8 ... count - 1.
// CHECK:           %[[NVI:.*]] = arith.index_castui %[[NV32]] : i32 to index
// CHECK:           %[[TAILSTART:.*]] = arith.muli %[[NVI]], %{{.*}} : index
// CHECK:           %[[TAIL:.*]] = arith.subi %[[COUNT]], %[[TAILSTART]] : index
// CHECK:           %[[ID:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[ID]], %[[TAIL]] : index
// CHECK:           scf.if %[[IN]] {
// CHECK:             %[[E:.*]] = arith.addi %[[TAILSTART]], %[[ID]] : index
// CHECK:             memref.load %[[FA]][%[[E]]]
// CHECK:             memref.load %[[FB]][%[[E]]]
// CHECK:             memref.store %{{.*}}, %[[FO]][%[[E]]]
// CHECK:           gpu.terminator

// Without unrolling there is no chunk loop.
// U1-LABEL: func.func @mixed(
// U1:         gpu.launch
// U1-NOT:       arith.divui
// U1:           scf.for unsigned
// U1-COUNT-8:     arith.addf
// U1-NOT:         arith.addf
// U1:           }
// U1:           scf.if
func.func @mixed(%a: memref<?xf16, strided<[?], offset: ?>>, %b: memref<?xf32>, %out: memref<?xf32>) attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : memref<?xf16, strided<[?], offset: ?>>, memref<?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f16, %y: f32, %o: f32):
    %e = arith.extf %x : f16 to f32
    %s = arith.addf %e, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// i8: 16 lanes per 16-byte vector; a scalar operand is used in every lane.
#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @bytes(
// CHECK:         gpu.launch
// CHECK:           vector.load %{{.*}} {alignment = 16 : i64} : memref<?xi8, strided<[1], offset: ?>>, vector<16xi8>
// CHECK-COUNT-16:  arith.addi %{{.*}}, %[[S:.*]] : i8
// CHECK:           vector.store %{{.*}} {alignment = 16 : i64} : memref<?xi8, strided<[1], offset: ?>>, vector<16xi8>
func.func @bytes(%a: memref<?xi8>, %s: i8, %out: memref<?xi8>) attributes {ptensor.device = "cuda:0"} {
  linalg.generic {indexing_maps = [#map, affine_map<(d0) -> ()>, #map], iterator_types = ["parallel"]}
      ins(%a, %s : memref<?xi8>, i8) outs(%out : memref<?xi8>) {
  ^bb0(%x: i8, %y: i8, %o: i8):
    %r = arith.addi %x, %y : i8
    linalg.yield %r : i8
  }
  return
}
