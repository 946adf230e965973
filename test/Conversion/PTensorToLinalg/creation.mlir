// RUN: ptensor-opt %s -split-input-file --convert-ptensor-to-linalg | FileCheck %s

// create -> tensor.empty + linalg.fill with the fill value converted to the
// dtype; arange / linspace -> a generic without inputs whose body computes
// the value from linalg.index. A size given at run time is checked first:
// a negative one, or a shape of more than 2^62 bytes (4 x ? f16: 8 bytes per
// unit of the run-time size), calls ptensor_rt_size_failed with the
// requested shape, the op (0: create, 4: linspace) and the element size.

// CHECK-LABEL: func.func private @ptensor_rt_size_failed(memref<?xi64>, i64, i64, i64)
// CHECK-LABEL: func.func @create_fill(
// CHECK-SAME:    %[[N:.*]]: index, %[[V:.*]]: f64) -> tensor<4x?xf16>
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[LIMIT:.*]] = arith.constant 4611686018427387904 : index
// CHECK-DAG:     %[[BYTES4:.*]] = arith.constant 8 : index
// CHECK:         %[[EXT:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK:         %[[ROOM:.*]] = arith.divui %[[LIMIT]], %[[EXT]] : index
// CHECK:         %[[BIG:.*]] = arith.cmpi ult, %[[ROOM]], %[[BYTES4]] : index
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[N]], %[[Z]] : index
// CHECK:         %[[BAD:.*]] = arith.ori %[[NEG]], %[[BIG]] : i1
// CHECK:         scf.if %[[BAD]] {
// CHECK:           %[[SHAPE:.*]] = memref.alloca() : memref<2xi64>
// CHECK:           memref.store %{{.*}}, %[[SHAPE]][%{{.*}}] : memref<2xi64>
// CHECK:           %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:           memref.store %[[NI]], %[[SHAPE]][%{{.*}}] : memref<2xi64>
// CHECK:           %[[DYN:.*]] = memref.cast %[[SHAPE]] : memref<2xi64> to memref<?xi64>
// CHECK:           %[[OP:.*]] = arith.constant 0 : i64
// CHECK:           %[[WIDTH:.*]] = arith.constant 2 : i64
// CHECK:           func.call @ptensor_rt_size_failed(%[[DYN]], %[[OP]], %[[WIDTH]], %{{.*}})
// CHECK:         }
// CHECK:         %[[H:.*]] = arith.truncf %[[V]] : f64 to f16
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<4x?xf16>
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[H]] : f16) outs(%[[E]] : tensor<4x?xf16>) -> tensor<4x?xf16>
// CHECK:         return %[[F]]
func.func @create_fill(%n: index, %v: f64) -> !ptensor.ptensor<4x?xf16> {
  %0 = ptensor.create (%n) fill %v : f64 -> !ptensor.ptensor<4x?xf16>
  return %0 : !ptensor.ptensor<4x?xf16>
}

// -----

// An integer fill of a bool tensor is `!= 0`. Static sizes need no check.
// CHECK-LABEL: func.func @create_bool(
// CHECK-SAME:    %[[V:.*]]: i32)
// CHECK-NOT:     ptensor_rt_size_failed
// CHECK:         %[[B:.*]] = arith.cmpi ne, %[[V]], %{{.*}} : i32
// CHECK:         linalg.fill ins(%[[B]] : i1) outs(%{{.*}} : tensor<2x2xi1>)
func.func @create_bool(%v: i32) -> !ptensor.ptensor<2x2xi1> {
  %0 = ptensor.create () fill %v : i32 -> !ptensor.ptensor<2x2xi1>
  return %0 : !ptensor.ptensor<2x2xi1>
}

// -----

// arange on index: n = max(ceildiv(stop - start, step), 0); element i is
// start + i * step.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @arange_index(
// CHECK-SAME:    %[[START:.*]]: index, %[[STOP:.*]]: index, %[[STEP:.*]]: index) -> tensor<?xi64>
// CHECK:         %[[D:.*]] = arith.subi %[[STOP]], %[[START]] : index
// CHECK:         %[[Q:.*]] = arith.ceildivsi %[[D]], %[[STEP]] : index
// CHECK:         %[[Q64:.*]] = arith.index_cast %[[Q]] : index to i64
// CHECK:         %[[M:.*]] = arith.maxsi %[[Q64]], %{{.*}} : i64
// CHECK:         %[[LEN:.*]] = arith.index_cast %[[M]] : i64 to index
// CHECK:         %[[E:.*]] = tensor.empty(%[[LEN]]) : tensor<?xi64>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel"]} outs(%[[E]] : tensor<?xi64>)
// CHECK-NEXT:    ^bb0(%{{.*}}: i64):
// CHECK-NEXT:      %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[OFF:.*]] = arith.muli %[[I]], %[[STEP]] : index
// CHECK-NEXT:      %[[X:.*]] = arith.addi %[[START]], %[[OFF]] : index
// CHECK-NEXT:      %[[X64:.*]] = arith.index_cast %[[X]] : index to i64
// CHECK-NEXT:      linalg.yield %[[X64]] : i64
func.func @arange_index(%a: index, %b: index, %s: index) -> !ptensor.ptensor<?xi64> {
  %0 = ptensor.arange %a, %b, %s : index -> !ptensor.ptensor<?xi64>
  return %0 : !ptensor.ptensor<?xi64>
}

// -----

// arange on floats with a static result size: the computed length is
// checked against it at run time; values computed in f64, stored as f32.
// CHECK-LABEL: func.func @arange_static_float(
// CHECK-SAME:    %[[START:.*]]: f64, %[[STOP:.*]]: f64, %[[STEP:.*]]: f64) -> tensor<10xf32>
// CHECK:         %[[D:.*]] = arith.subf %[[STOP]], %[[START]] : f64
// CHECK:         %[[Q:.*]] = arith.divf %[[D]], %[[STEP]] : f64
// CHECK:         %[[C:.*]] = math.ceil %[[Q]] : f64
// CHECK:         arith.fptosi %[[C]] : f64 to i64
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK:         cf.assert %[[OK]], "ptensor: arange gives a different number of elements than the static result size 10"
// CHECK:         tensor.empty() : tensor<10xf32>
// CHECK:         linalg.generic
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK:           %[[IF:.*]] = arith.sitofp %{{.*}} : i64 to f64
// CHECK:           %[[OFF:.*]] = arith.mulf %[[IF]], %[[STEP]] : f64
// CHECK:           %[[X:.*]] = arith.addf %[[START]], %[[OFF]] : f64
// CHECK:           %[[XF:.*]] = arith.truncf %[[X]] : f64 to f32
// CHECK:           linalg.yield %[[XF]] : f32
func.func @arange_static_float(%a: f64, %b: f64, %s: f64) -> !ptensor.ptensor<10xf32> {
  %0 = ptensor.arange %a, %b, %s : f64 -> !ptensor.ptensor<10xf32>
  return %0 : !ptensor.ptensor<10xf32>
}

// -----

// linspace with endpoint: step = (stop - start) / max(num - 1, 1); the last
// element is exactly `stop` (select on index == num - 1 and index > 0).
// CHECK-LABEL: func.func @linspace_endpoint(
// CHECK-SAME:    %[[LO:.*]]: f64, %[[HI:.*]]: f64, %[[N:.*]]: index) -> tensor<?xf32>
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[N]], %{{.*}} : index
// CHECK:         scf.if %{{.*}} {
// CHECK:           func.call @ptensor_rt_size_failed(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         }
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         %[[NM1:.*]] = arith.subi %[[N]], %[[ONE]] : index
// CHECK:         %[[DIV:.*]] = arith.maxsi %[[NM1]], %[[ONE]] : index
// CHECK:         %[[RANGE:.*]] = arith.subf %[[HI]], %[[LO]] : f64
// CHECK:         %[[STEP:.*]] = arith.divf %[[RANGE]], %{{.*}} : f64
// CHECK:         %[[LASTI:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[E]] : tensor<?xf32>)
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK:           %[[V:.*]] = arith.addf %[[LO]], %{{.*}} : f64
// CHECK:           %[[ISLAST:.*]] = arith.cmpi eq, %[[I]], %[[LASTI]] : index
// CHECK:           %[[POS:.*]] = arith.cmpi sgt, %[[I]], %{{.*}} : index
// CHECK:           %[[BOTH:.*]] = arith.andi %[[ISLAST]], %[[POS]] : i1
// CHECK:           %[[SEL:.*]] = arith.select %[[BOTH]], %[[HI]], %[[V]] : f64
// CHECK:           %[[R:.*]] = arith.truncf %[[SEL]] : f64 to f32
// CHECK:           linalg.yield %[[R]] : f32
func.func @linspace_endpoint(%lo: f64, %hi: f64, %n: index) -> !ptensor.ptensor<?xf32> {
  %0 = ptensor.linspace %lo, %hi, %n : f64 -> !ptensor.ptensor<?xf32>
  return %0 : !ptensor.ptensor<?xf32>
}

// -----

// linspace without endpoint divides by num and has no last-element select;
// a static length is checked against num.
// CHECK-LABEL: func.func @linspace_no_endpoint(
// CHECK-SAME:    %[[LO:.*]]: f64, %[[HI:.*]]: f64, %[[N:.*]]: index) -> tensor<5xf64>
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %[[N]], %[[C5]] : index
// CHECK:         cf.assert %[[OK]], "ptensor: linspace gives a different number of elements than the static result size 5"
// CHECK:         linalg.generic
// CHECK:           linalg.index 0
// CHECK-NOT:       arith.select
// CHECK:           linalg.yield %{{.*}} : f64
func.func @linspace_no_endpoint(%lo: f64, %hi: f64, %n: index) -> !ptensor.ptensor<5xf64> {
  %0 = ptensor.linspace %lo, %hi, %n {endpoint = false} : f64 -> !ptensor.ptensor<5xf64>
  return %0 : !ptensor.ptensor<5xf64>
}

// -----

// from_ranked / to_ranked reconcile builtin and ptensor tensor types;
// host-to-host copies and dim lower to the value and tensor.dim.
// CHECK-LABEL: func.func @movement(
// CHECK-SAME:    %[[T:.*]]: tensor<4x?xf32>, %[[M:.*]]: memref<8xi8>)
// CHECK:         %[[MT:.*]] = bufferization.to_tensor %[[M]] restrict : memref<8xi8> to tensor<8xi8>
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[D:.*]] = tensor.dim %[[T]], %[[C1]] : tensor<4x?xf32>
// CHECK:         %[[R:.*]] = tensor.cast %[[T]] : tensor<4x?xf32> to tensor<4x3xf32>
// CHECK:         return %[[MT]], %[[D]], %[[R]]
func.func @movement(%t: tensor<4x?xf32>, %m: memref<8xi8>) -> (!ptensor.ptensor<8xui8>, index, tensor<4x3xf32>) {
  %p = ptensor.from_ranked %t : tensor<4x?xf32> -> !ptensor.ptensor<4x?xf32>
  %u = ptensor.from_ranked %m : memref<8xi8> -> !ptensor.ptensor<8xui8>
  %c = ptensor.copy %p : !ptensor.ptensor<4x?xf32> -> !ptensor.ptensor<4x?xf32>
  %d = ptensor.dim %c, 1 : !ptensor.ptensor<4x?xf32>
  %r = ptensor.to_ranked %c : !ptensor.ptensor<4x?xf32> -> tensor<4x3xf32>
  return %u, %d, %r : !ptensor.ptensor<8xui8>, index, tensor<4x3xf32>
}
