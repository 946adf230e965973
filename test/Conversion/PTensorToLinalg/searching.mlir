// RUN: ptensor-opt %s --convert-ptensor-to-linalg | FileCheck %s

// searchsorted: one parallel generic over the values whose body is a
// branch-free binary search of the sorted tensor, read by position: an
// scf.while halving [base, base + len) while len > 1 (ceil(log2 n) steps
// for every value), base moving past the lower half when its last element
// goes right, then one comparison of the last candidate (none when n is 0).
// Left: the search goes right past elements sorted before the value;
// right: past elements the value is not sorted before. Floats in
// ptensor.sort's order (NaNs last), compared in f32 for f16/bf16.
// CHECK-LABEL: func.func @right(
// CHECK-SAME: %[[S:.*]]: tensor<?xf32>, %[[V:.*]]: tensor<?x3xf32>) -> tensor<?x3xi64>
// CHECK: %[[N:.*]] = tensor.dim %[[S]], %{{.*}} : tensor<?xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[V]] : tensor<?x3xf32>) outs(%{{.*}} : tensor<?x3xi64>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: i64):
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[END:.*]]:2 = scf.while (%[[BASE:.*]] = %[[C0]], %[[LEN:.*]] = %[[N]]) : (index, index) -> (index, index)
// CHECK: arith.cmpi ugt, %[[LEN]], %[[C1]] : index
// CHECK: } do {
// CHECK: ^bb0(%[[B:.*]]: index, %[[L:.*]]: index):
// CHECK: %[[HALF:.*]] = arith.shrui %[[L]], %[[C1]] : index
// CHECK: %[[MID:.*]] = arith.addi %[[B]], %[[HALF]] : index
// CHECK: %[[LAST:.*]] = arith.subi %[[MID]], %[[C1]] : index
// CHECK: %[[E:.*]] = tensor.extract %[[S]][%[[LAST]]] : tensor<?xf32>
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[IN]], %[[E]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[E]], %[[E]] : f32
// CHECK: %[[NUM:.*]] = arith.cmpf ord, %[[IN]], %[[IN]] : f32
// CHECK: %[[BEFORE_NAN:.*]] = arith.andi %[[NAN]], %[[NUM]] : i1
// CHECK: %[[BEFORE:.*]] = arith.ori %[[LT]], %[[BEFORE_NAN]] : i1
// CHECK: %[[GO:.*]] = arith.xori %[[BEFORE]], %true : i1
// CHECK: %[[NB:.*]] = arith.select %[[GO]], %[[MID]], %[[B]] : index
// CHECK: %[[NL:.*]] = arith.subi %[[L]], %[[HALF]] : index
// CHECK: scf.yield %[[NB]], %[[NL]] : index, index
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[N]], %[[C0]] : index
// CHECK: %[[POS:.*]] = scf.if %[[EMPTY]] -> (index) {
// CHECK: scf.yield %[[C0]] : index
// CHECK: } else {
// CHECK: %[[E2:.*]] = tensor.extract %[[S]][%[[END]]#0] : tensor<?xf32>
// CHECK: %[[PAST:.*]] = arith.addi %[[END]]#0, %[[C1]] : index
// CHECK: %[[AT:.*]] = arith.select %{{.*}}, %[[PAST]], %[[END]]#0 : index
// CHECK: scf.yield %[[AT]] : index
// CHECK: %[[R:.*]] = arith.index_cast %[[POS]] : index to i64
// CHECK: linalg.yield %[[R]] : i64
func.func @right(%s: !ptensor.ptensor<?xf32>, %v: !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<?x3xi64> {
  %0 = ptensor.searchsorted right %s, %v : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?x3xf32>) -> !ptensor.ptensor<?x3xi64>
  return %0 : !ptensor.ptensor<?x3xi64>
}

// Mixed dtypes compare in the promoted one (ui8 and i32: i32, the ui8
// zero-extended); a left search of integers goes right past smaller ones.
// CHECK-LABEL: func.func @mixed(
// CHECK: ^bb0(%[[IN:.*]]: i32, %{{.*}}: i64):
// CHECK: scf.while
// CHECK: %[[E:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<?xi8>
// CHECK: %[[W:.*]] = arith.extui %[[E]] : i8 to i32
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[W]], %[[IN]] : i32
// CHECK-NEXT: arith.select %[[LT]]
func.func @mixed(%s: !ptensor.ptensor<?xui8>, %v: !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi64> {
  %0 = ptensor.searchsorted %s, %v : (!ptensor.ptensor<?xui8>, !ptensor.ptensor<4xi32>) -> !ptensor.ptensor<4xi64>
  return %0 : !ptensor.ptensor<4xi64>
}

// An integer against a float compares in f64 (numpy's rule).
// CHECK-LABEL: func.func @int_float(
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: i64):
// CHECK: %[[V:.*]] = arith.extf %[[IN]] : f32 to f64
// CHECK: scf.while
// CHECK: %[[E:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<?xi32>
// CHECK: %[[W:.*]] = arith.sitofp %[[E]] : i32 to f64
// CHECK: arith.cmpf olt, %[[W]], %[[V]] : f64
func.func @int_float(%s: !ptensor.ptensor<?xi32>, %v: !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xi64> {
  %0 = ptensor.searchsorted %s, %v : (!ptensor.ptensor<?xi32>, !ptensor.ptensor<4xf32>) -> !ptensor.ptensor<4xi64>
  return %0 : !ptensor.ptensor<4xi64>
}

// f16 compares in f32 (exact, the same order); a 0-d value gives a 0-d
// generic.
// CHECK-LABEL: func.func @half(
// CHECK: linalg.generic {{.*}} iterator_types = []} ins(%{{.*}} : tensor<f16>) outs(%{{.*}} : tensor<i64>)
// CHECK: %[[V:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: scf.while
// CHECK: %[[E:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: arith.cmpf olt, %[[E]], %[[V]] : f32
func.func @half(%s: !ptensor.ptensor<8xf16>, %v: !ptensor.ptensor<f16>) -> !ptensor.ptensor<i64> {
  %0 = ptensor.searchsorted %s, %v : (!ptensor.ptensor<8xf16>, !ptensor.ptensor<f16>) -> !ptensor.ptensor<i64>
  return %0 : !ptensor.ptensor<i64>
}

// A sorter is checked before the search: its size against the sorted
// tensor's (dynamic here: ptensor_rt_shapes_failed, op 4, with both
// shapes), then its indices against [0, n) (flags counted by count_true,
// none allowed). The search reads the sorted tensor through it.
// CHECK-LABEL: func.func @sorter(
// CHECK-SAME: %[[S:.*]]: tensor<?xi32>, %[[V:.*]]: tensor<5xi16>, %[[P:.*]]: tensor<?xi64>)
// CHECK: %[[N:.*]] = tensor.dim %[[S]], %{{.*}} : tensor<?xi32>
// CHECK: %[[M:.*]] = tensor.dim %[[P]], %{{.*}} : tensor<?xi64>
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[M]], %[[N]] : index
// CHECK: scf.if
// CHECK: %[[OP:.*]] = arith.constant 4 : i64
// CHECK: func.call @ptensor_rt_shapes_failed(%{{.*}}, %{{.*}}, %[[OP]], %{{.*}}, %{{.*}})
// CHECK: %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[FLAGS:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<?xi64>) outs(%{{.*}} : tensor<?xi1>)
// CHECK: ^bb0(%[[I:.*]]: i64, %{{.*}}: i1):
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : i64
// CHECK: %[[PAST:.*]] = arith.cmpi sge, %[[I]], %[[N64]] : i64
// CHECK: arith.ori %[[NEG]], %[[PAST]] : i1
// CHECK: %[[BAD:.*]] = ptensor.count_true %[[FLAGS]] : tensor<?xi1>
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[BAD]], %{{.*}} : index
// CHECK: cf.assert %[[OK]], "searchsorted: a sorter index is out of range (expected every index in [0, size of the sorted tensor))"
// Five values on the host: a line of at most 5 * 16 elements is first
// gathered in the sorter's order, and the values search that copy (one
// load per step); a longer one is searched through the sorter.
// CHECK: %[[C80:.*]] = arith.constant 80 : index
// CHECK: %[[LONG:.*]] = arith.cmpi sgt, %[[N]], %[[C80]] : index
// CHECK: %[[GATHER:.*]] = arith.xori %[[LONG]], %{{.*}} : i1
// CHECK: scf.if %[[GATHER]] -> (tensor<5xi64>) {
// CHECK: %[[LINE:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<?xi64>) outs(%{{.*}} : tensor<?xi32>)
// CHECK: %[[AT0:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: tensor.extract %[[S]][%[[AT0]]] : tensor<?xi32>
// CHECK: linalg.generic {{.*}} ins(%[[V]] : tensor<5xi16>) outs(%{{.*}} : tensor<5xi64>)
// CHECK: scf.while
// CHECK-NOT: tensor.extract %[[P]]
// CHECK: tensor.extract %[[LINE]][%{{.*}}] : tensor<?xi32>
// CHECK: } else {
// CHECK: linalg.generic {{.*}} ins(%[[V]] : tensor<5xi16>) outs(%{{.*}} : tensor<5xi64>)
// CHECK: arith.extsi %{{.*}} : i16 to i32
// CHECK: scf.while
// CHECK: %[[AT:.*]] = tensor.extract %[[P]][%{{.*}}] : tensor<?xi64>
// CHECK: %[[ATI:.*]] = arith.index_cast %[[AT]] : i64 to index
// CHECK: tensor.extract %[[S]][%[[ATI]]] : tensor<?xi32>
func.func @sorter(%s: !ptensor.ptensor<?xi32>, %v: !ptensor.ptensor<5xi16>, %p: !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<5xi64> {
  %0 = ptensor.searchsorted %s, %v sorter %p : (!ptensor.ptensor<?xi32>, !ptensor.ptensor<5xi16>, !ptensor.ptensor<?xi64>) -> !ptensor.ptensor<5xi64>
  return %0 : !ptensor.ptensor<5xi64>
}

// On a GPU every value searches through the sorter (no gathered copy: the
// searches are parallel, and few values would pay for the whole line).
// CHECK-LABEL: func.func @sorter_on_gpu(
// CHECK: ptensor.count_true
// CHECK: cf.assert
// CHECK-NOT: scf.if
// CHECK: linalg.generic
// CHECK: scf.while
// CHECK: tensor.extract %arg2
// CHECK: return
func.func @sorter_on_gpu(%s: !ptensor.ptensor<6xf32, device = "cuda:0">, %v: !ptensor.ptensor<2xf32, device = "cuda:0">, %p: !ptensor.ptensor<6xi32, device = "cuda:0">) -> !ptensor.ptensor<2xi64, device = "cuda:0"> {
  %0 = ptensor.searchsorted %s, %v sorter %p : (!ptensor.ptensor<6xf32, device = "cuda:0">, !ptensor.ptensor<2xf32, device = "cuda:0">, !ptensor.ptensor<6xi32, device = "cuda:0">) -> !ptensor.ptensor<2xi64, device = "cuda:0">
  return %0 : !ptensor.ptensor<2xi64, device = "cuda:0">
}

// Static sizes (checked by the verifier): no run-time size check; the
// range check remains (the indices are data).
// CHECK-LABEL: func.func @static_sorter(
// CHECK-NOT: ptensor_rt_shapes_failed
// CHECK: ptensor.count_true
// CHECK: cf.assert
func.func @static_sorter(%s: !ptensor.ptensor<6xf32>, %v: !ptensor.ptensor<2xf32>, %p: !ptensor.ptensor<6xui8>) -> !ptensor.ptensor<2xi64> {
  %0 = ptensor.searchsorted %s, %v sorter %p : (!ptensor.ptensor<6xf32>, !ptensor.ptensor<2xf32>, !ptensor.ptensor<6xui8>) -> !ptensor.ptensor<2xi64>
  return %0 : !ptensor.ptensor<2xi64>
}
