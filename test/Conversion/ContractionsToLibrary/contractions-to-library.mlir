// RUN: ptensor-opt %s -split-input-file --convert-ptensor-contractions-to-library | FileCheck %s
// RUN: ptensor-opt %s -split-input-file --convert-ptensor-contractions-to-library=host=false | FileCheck %s --check-prefix=NOHOST

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>

// A host f32 matrix product: one call of ptensor_rt_cpu_gemm with each
// operand's pointer, offset and strides along (batch, rows, cols) — batch
// 1 and batch strides 0 without a batch loop —; the fill and the generic
// run only when the library declines.
// CHECK: func.func private @ptensor_rt_cpu_gemm(i64, i64, i64, i64, i64, i64, index, i64, i64, i64, i64, index, i64, i64, i64, i64, index, i64, i64, i64, i64) -> i1
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>
// CHECK: %[[AB:.*]], %[[AOFF:.*]], %[[ASIZES:.*]]:2, %[[ASTRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[M:.*]] = arith.index_cast %[[ASIZES]]#0
// CHECK: %[[AP:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[AO:.*]] = arith.index_cast %[[AOFF]]
// CHECK: %[[AR:.*]] = arith.index_cast %[[ASTRIDES]]#0
// CHECK: %[[AC:.*]] = arith.index_cast %[[ASTRIDES]]#1
// CHECK: %[[TAKEN:.*]] = call @ptensor_rt_cpu_gemm(%[[ZERO]], %[[ZERO]], %[[ONE]], %[[M]], %{{.*}}, %{{.*}}, %[[AP]], %[[AO]], %[[ZERO]], %[[AR]], %[[AC]],
// CHECK: %[[DECLINED:.*]] = arith.xori %[[TAKEN]], %true
// CHECK: scf.if %[[DECLINED]] {
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.generic
// NOHOST-LABEL: func.func @matmul(
// NOHOST-NOT: call
// NOHOST: return
func.func @matmul(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %zero = arith.constant -0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batch whose rhs is stretched (read at index 0: batch stride 0 by
// construction) on the GPU: ptensor_rt_gpu_gemm, f16 operands summed in
// f32 (types 2 and 0).
#a = affine_map<(p, i, j, k) -> (p, i, k)>
#b = affine_map<(p, i, j, k) -> (0, k, j)>
#c = affine_map<(p, i, j, k) -> (p, i, j)>
// CHECK-LABEL: func.func @batch_f16(
// CHECK: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[P:.*]] = arith.index_cast %{{.*}}#0 : index to i64
// CHECK: call @ptensor_rt_gpu_gemm(%[[TWO]], %[[ZERO]], %[[P]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]],
// CHECK: scf.if
// CHECK-NEXT: linalg.generic
// NOHOST-LABEL: func.func @batch_f16(
// NOHOST: call @ptensor_rt_gpu_gemm
func.func @batch_f16(%a: memref<4x?x?xf16>, %b: memref<1x?x?xf16>, %c: memref<4x?x?xf32>) attributes {ptensor.device} {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x?x?xf16>, memref<1x?x?xf16>) outs(%c : memref<4x?x?xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// What stays generated: f16 on the host (the host BLAS takes f32/f64),
// integers, a matrix-vector product, an unmarked body.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#v = affine_map<(i, k) -> (k)>
#m = affine_map<(i, k) -> (i, k)>
#r = affine_map<(i, k) -> (i)>
// CHECK-LABEL: func.func @generated(
// CHECK-NOT: call
// CHECK: return
func.func @generated(%h: memref<?x?xf16>, %hc: memref<?x?xf32>, %i: memref<?x?xi32>,
                     %ic: memref<?x?xi32>, %x: memref<?x?xf32>, %v: memref<?xf32>,
                     %r: memref<?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %h : memref<?x?xf16>, memref<?x?xf16>) outs(%hc : memref<?x?xf32>) {
  ^bb0(%x0: f16, %y0: f16, %o: f32):
    %xe = arith.extf %x0 : f16 to f32
    %ye = arith.extf %y0 : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%i, %i : memref<?x?xi32>, memref<?x?xi32>) outs(%ic : memref<?x?xi32>) {
  ^bb0(%x0: i32, %y0: i32, %o: i32):
    %p = arith.muli %x0, %y0 : i32
    %s = arith.addi %o, %p {ptensor.combiner = "addi"} : i32
    linalg.yield %s : i32
  }
  linalg.generic {indexing_maps = [#m, #v, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x, %v : memref<?x?xf32>, memref<?xf32>) outs(%r : memref<?xf32>) {
  ^bb0(%x0: f32, %y0: f32, %o: f32):
    %p = arith.mulf %x0, %y0 : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %x : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x0: f32, %y0: f32, %o: f32):
    %p = arith.mulf %x0, %y0 : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 operands widened to f32 the way convertScalar does it (the bits
// shifted into the high half) are taken on the GPU: types 3 and 0.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
// CHECK-LABEL: func.func @bf16(
// CHECK: %[[THREE:.*]] = arith.constant 3 : i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: call @ptensor_rt_gpu_gemm(%[[THREE]], %[[ZERO]],
func.func @bf16(%a: memref<?x?xbf16>, %c: memref<?x?xf32>) attributes {ptensor.device} {
  %c16 = arith.constant 16 : i32
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %a : memref<?x?xbf16>, memref<?x?xbf16>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xb = arith.bitcast %x : bf16 to i16
    %xw = arith.extui %xb : i16 to i32
    %xs = arith.shli %xw, %c16 : i32
    %xf = arith.bitcast %xs : i32 to f32
    %yb = arith.bitcast %y : bf16 to i16
    %yw = arith.extui %yb : i16 to i32
    %ys = arith.shli %yw, %c16 : i32
    %yf = arith.bitcast %ys : i32 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The f32 sums rounded to the f16 result by the marked generic: cuBLASLt
// writes the f16 result itself (types 2 and 2); the f32 buffer, its fill,
// the sums, the rounding and the deallocation are the declined call's. An
// unmarked generic (fusion made it: it may compute more than the
// rounding) stays after the call, which then writes the f32 sums.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @rounded(
// CHECK-SAME: %[[A:.*]]: memref<8x8xf16>, %[[D:.*]]: memref<8x8xf16>, %[[E:.*]]: memref<8x8xf16>
// CHECK: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: %[[DP:.*]] = memref.extract_aligned_pointer_as_index %[[D]]
// CHECK: call @ptensor_rt_gpu_gemm(%[[TWO]], %[[TWO]], {{.*}}, %[[DP]],
// CHECK: scf.if
// CHECK-NEXT: %[[SUMS:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[SUMS]]
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[SUMS]]
// CHECK: linalg.generic {{.*}} ins(%[[SUMS]] : memref<8x8xf32>) outs(%[[D]] : memref<8x8xf16>) attrs = {ptensor.rounds_contraction}
// CHECK: memref.dealloc %[[SUMS]]
// CHECK-NEXT: }
// CHECK: %[[SUMS2:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: call @ptensor_rt_gpu_gemm(%[[TWO2:.*]], %[[ZERO]],
// CHECK: scf.if
// CHECK: linalg.generic {{.*}} ins(%[[SUMS2]] : memref<8x8xf32>) outs(%[[E]] : memref<8x8xf16>) {
func.func @rounded(%a: memref<8x8xf16>, %d: memref<8x8xf16>, %e: memref<8x8xf16>) attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %sums = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %a : memref<8x8xf16>, memref<8x8xf16>) outs(%sums : memref<8x8xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sums : memref<8x8xf32>) outs(%d : memref<8x8xf16>) attrs = {ptensor.rounds_contraction} {
  ^bb0(%x: f32, %o: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %sums : memref<8x8xf32>
  %sums2 = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %a : memref<8x8xf16>, memref<8x8xf16>) outs(%sums2 : memref<8x8xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sums2 : memref<8x8xf32>) outs(%e : memref<8x8xf16>) {
  ^bb0(%x: f32, %o: f16):
    %c = arith.constant 0.0 : f32
    %m = arith.maximumf %x, %c : f32
    %r = arith.truncf %m : f32 to f16
    linalg.yield %r : f16
  }
  memref.dealloc %sums2 : memref<8x8xf32>
  return
}

// -----

// A bias added per output column, in place (what a static `x @ w + b`
// bufferizes to): ptensor_rt_gpu_gemm_epilogue with the flags (BIAS = 1),
// the scale 1 and the bias buffer's pointer, offset and stride; the sums
// and the addition are the declined call's,
// and the result is read after it. A consumer that is not `sums + bias[j]`
// (a product here) stays after a plain call.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @bias(
// CHECK-SAME: %[[A:.*]]: memref<8x4xf32>, %[[B:.*]]: memref<4x6xf32>, %[[BIAS:.*]]: memref<6xf32>
// CHECK: %[[SUMS:.*]] = memref.alloc() : memref<8x6xf32>
// CHECK: %[[ALPHA:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[BP:.*]] = memref.extract_aligned_pointer_as_index %[[BIAS]]
// CHECK: call @ptensor_rt_gpu_gemm_epilogue({{.*}}, %c1_i64, %[[ALPHA]], %[[BP]], %{{.*}}, %{{.*}}) :
// CHECK: scf.if
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[SUMS]]
// CHECK: linalg.generic {{.*}} ins(%[[SUMS]], %[[BIAS]] : memref<8x6xf32>, memref<6xf32>) outs(%[[SUMS]] : memref<8x6xf32>)
// CHECK: memref.cast %[[SUMS]]
// CHECK: call @ptensor_rt_gpu_gemm(
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[BIAS]] : memref<8x6xf32>, memref<6xf32>)
// CHECK: arith.mulf
func.func @bias(%a: memref<8x4xf32>, %b: memref<4x6xf32>, %bias: memref<6xf32>) -> (memref<?x6xf32>, memref<8x6xf32>) attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %sums = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%sums : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sums, %bias : memref<8x6xf32>, memref<6xf32>) outs(%sums : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %r = memref.cast %sums : memref<8x6xf32> to memref<?x6xf32>
  %sums2 = memref.alloc() : memref<8x6xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%sums2 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sums2, %bias : memref<8x6xf32>, memref<6xf32>) outs(%sums2 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  }
  return %r, %sums2 : memref<?x6xf32>, memref<8x6xf32>
}

// -----

// Dynamic sizes (what a dynamic `relu(x @ w + b)` bufferizes to): the
// consumer reads the sums and the bias through the broadcast views the
// broadcast pass builds (a row vector for the bias: strides [0, s]), with
// the broadcast checks and the elementwise asserts between the product and
// its consumer. The epilogue call (BIAS | RELU = 3, the bias's stride along
// the columns) is made where the sums' view addresses the sums as they are
// at run time (same offset and sizes, same strides where a size is not 1:
// neither broadcast nor permuted), else declined; the declined branch runs the fill, the
// product and the consumer. A view read by anything but the consumer keeps
// a plain call.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @dynamic_bias(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf32>, %[[B:[^:]*]]: memref<?x?xf32>, %[[BIAS:[^:]*]]: memref<?xf32>
// CHECK: %[[SUMS:.*]] = memref.alloc(
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[SUMS]]
// CHECK: %[[BVIEW:.*]] = memref.reinterpret_cast %[[BIAS]]
// CHECK: call @ptensor_rt_broadcast_failed
// CHECK: cf.assert
// CHECK: %[[OUT:.*]] = memref.alloc(
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[BSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[BVIEW]]
// CHECK: %[[BSTRIDE:.*]] = arith.index_cast %[[BSTRIDES]]#1
// CHECK: %{{.*}}, %[[VOFF:.*]], %[[VSIZES:.*]]:2, %[[VSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[VIEW]]
// CHECK: %{{.*}}, %[[SOFF:.*]], %[[SSIZES:.*]]:2, %[[SSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[SUMS]]
// CHECK: %[[SAMEOFF:.*]] = arith.cmpi eq, %[[VOFF]], %[[SOFF]]
// CHECK: %[[UNIT0:.*]] = arith.cmpi eq, %[[SSIZES]]#0, %c1
// CHECK: %[[STRIDE0:.*]] = arith.cmpi eq, %[[VSTRIDES]]#0, %[[SSTRIDES]]#0
// CHECK: %[[USED0:.*]] = arith.ori %[[UNIT0]], %[[STRIDE0]]
// CHECK: %[[SIZE0:.*]] = arith.cmpi eq, %[[VSIZES]]#0, %[[SSIZES]]#0
// CHECK: %[[DIM0:.*]] = arith.andi %[[SIZE0]], %[[USED0]]
// CHECK: %[[SAME0:.*]] = arith.andi %[[SAMEOFF]], %[[DIM0]]
// CHECK: %[[UNIT1:.*]] = arith.cmpi eq, %[[SSIZES]]#1, %c1
// CHECK: %[[STRIDE1:.*]] = arith.cmpi eq, %[[VSTRIDES]]#1, %[[SSTRIDES]]#1
// CHECK: %[[USED1:.*]] = arith.ori %[[UNIT1]], %[[STRIDE1]]
// CHECK: %[[SIZE1:.*]] = arith.cmpi eq, %[[VSIZES]]#1, %[[SSIZES]]#1
// CHECK: %[[DIM1:.*]] = arith.andi %[[SIZE1]], %[[USED1]]
// CHECK: %[[SAME:.*]] = arith.andi %[[SAME0]], %[[DIM1]]
// CHECK: %[[TAKEN:.*]] = scf.if %[[SAME]] -> (i1) {
// CHECK-NEXT: %[[CALL:.*]] = func.call @ptensor_rt_gpu_gemm_epilogue({{.*}}, %c3_i64, %{{.*}}, %{{.*}}, %{{.*}}, %[[BSTRIDE]]) :
// CHECK-NEXT: scf.yield %[[CALL]] : i1
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT: scf.yield %[[FALSE]] : i1
// CHECK: %[[DECLINED:.*]] = arith.xori %[[TAKEN]]
// CHECK: scf.if %[[DECLINED]] {
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[SUMS]]
// CHECK: linalg.generic {{.*}} ins(%[[VIEW]], %[[BVIEW]] : {{.*}}) outs(%[[OUT]] :
// CHECK: arith.maximumf
// CHECK: return
// CHECK-LABEL: func.func @view_read_twice(
// CHECK-NOT: ptensor_rt_gpu_gemm_epilogue
// CHECK: call @ptensor_rt_gpu_gemm(
func.func @dynamic_bias(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %bias: memref<?xf32>, %n: index, %s0: index, %s1: index, %bs: index, %bad: i1, %shape: memref<?xi64>) -> memref<?x?xf32> attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %b, %c1 : memref<?x?xf32>
  %sums = memref.alloc(%m, %k) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%sums : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  %view = memref.reinterpret_cast %sums to offset: [0], sizes: [%m, %n], strides: [%s0, %s1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?]>>
  %bview = memref.reinterpret_cast %bias to offset: [0], sizes: [%m, %n], strides: [0, %bs] : memref<?xf32> to memref<?x?xf32, strided<[0, ?]>>
  scf.if %bad {
    %sizes = memref.alloca() : memref<2xi64>
    %mi = arith.index_cast %m : index to i64
    memref.store %mi, %sizes[%c0] : memref<2xi64>
    %cast = memref.cast %sizes : memref<2xi64> to memref<?xi64>
    func.call @ptensor_rt_broadcast_failed(%cast, %shape) : (memref<?xi64>, memref<?xi64>) -> ()
  }
  %vm = memref.dim %view, %c0 : memref<?x?xf32, strided<[?, ?]>>
  %vn = memref.dim %view, %c1 : memref<?x?xf32, strided<[?, ?]>>
  %same = arith.cmpi eq, %vm, %m : index
  cf.assert %same, "sizes differ"
  %out = memref.alloc(%vm, %vn) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%view, %bview : memref<?x?xf32, strided<[?, ?]>>, memref<?x?xf32, strided<[0, ?]>>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %c0f = arith.constant 0.0 : f32
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %c0f : f32
    linalg.yield %r : f32
  }
  memref.dealloc %sums : memref<?x?xf32>
  return %out : memref<?x?xf32>
}
func.func private @ptensor_rt_broadcast_failed(memref<?xi64>, memref<?xi64>)

func.func @view_read_twice(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %bias: memref<?xf32>, %n: index, %dest: memref<?x?xf32>) -> memref<?x?xf32> attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %b, %c1 : memref<?x?xf32>
  %sums = memref.alloc(%m, %k) : memref<?x?xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%sums : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  %view = memref.reinterpret_cast %sums to offset: [0], sizes: [%m, %n], strides: [%n, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  %out = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%view : memref<?x?xf32, strided<[?, 1]>>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c0f = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %c0f : f32
    linalg.yield %r : f32
  }
  memref.copy %view, %dest : memref<?x?xf32, strided<[?, 1]>> to memref<?x?xf32>
  return %out : memref<?x?xf32>
}

// -----

// Epilogues in the product: ReLU after the bias as `maximumf` with 0
// (flags BIAS | RELU = 3), and a scale by a constant before the bias into
// another buffer (BIAS = 1, alpha 0.5): each is ptensor_rt_gpu_gemm_epilogue,
// the consumer the declined call's. GELU's tanh form (cuBLASLt's GELU is
// less accurate than the generated code), a GELU-like body, ReLU against 1
// and a body with more in it stay after a plain call.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @relu_bias(
// CHECK-DAG: %[[FLAGS:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: call @ptensor_rt_gpu_gemm_epilogue({{.*}}, %[[FLAGS]], %[[ONE]], %{{.*}}, %{{.*}}, %{{.*}}) :
// CHECK: scf.if
// CHECK: arith.maximumf
// CHECK: return
func.func @relu_bias(%a: memref<8x4xf32>, %b: memref<4x6xf32>, %bias: memref<6xf32>) -> memref<8x6xf32> attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %sums = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%sums : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sums, %bias : memref<8x6xf32>, memref<6xf32>) outs(%sums : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %s = arith.addf %y, %x : f32
    %r = arith.maximumf %c0, %s : f32
    linalg.yield %r : f32
  }
  return %sums : memref<8x6xf32>
}

// CHECK-LABEL: func.func @scaled_bias(
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<8x6xf32>
// CHECK: %[[OUTP:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
// CHECK: call @ptensor_rt_gpu_gemm_epilogue({{.*}}, %[[OUTP]], {{.*}}, %c1_i64, %[[HALF]], %{{.*}}, %{{.*}}, %{{.*}}) :
// CHECK: scf.if
// CHECK: arith.mulf
// CHECK: return %[[OUT]]
func.func @scaled_bias(%a: memref<8x4xf32>, %b: memref<4x6xf32>, %bias: memref<6xf32>) -> memref<8x6xf32> attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %sums = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%sums : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc() : memref<8x6xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sums, %bias : memref<8x6xf32>, memref<6xf32>) outs(%out : memref<8x6xf32>) {
  ^bb0(%v: f32, %y: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %scaled = arith.mulf %v, %half : f32
    %x = arith.addf %scaled, %y : f32
    linalg.yield %x : f32
  }
  memref.dealloc %sums : memref<8x6xf32>
  return %out : memref<8x6xf32>
}

// CHECK-LABEL: func.func @gelu(
// CHECK-NOT: ptensor_rt_gpu_gemm_epilogue
// CHECK: call @ptensor_rt_gpu_gemm(
// CHECK: math.tanh
func.func @gelu(%a: memref<8x4xf32>, %b: memref<4x6xf32>) -> memref<8x6xf32> attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %sums = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%sums : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sums : memref<8x6xf32>) outs(%sums : memref<8x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %c0 = arith.constant 0.7978845608028654 : f32
    %c1 = arith.constant 0.044715 : f32
    %one = arith.constant 1.0 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x, %x2 : f32
    %k = arith.mulf %x3, %c1 : f32
    %s = arith.addf %k, %x : f32
    %u = arith.mulf %s, %c0 : f32
    %t = math.tanh %u : f32
    %p = arith.addf %t, %one : f32
    %hp = arith.mulf %p, %half : f32
    %r = arith.mulf %x, %hp : f32
    linalg.yield %r : f32
  }
  return %sums : memref<8x6xf32>
}

// CHECK-LABEL: func.func @not_epilogues(
// CHECK-NOT: ptensor_rt_gpu_gemm_epilogue
// CHECK: call @ptensor_rt_gpu_gemm(
// CHECK: call @ptensor_rt_gpu_gemm(
// CHECK: call @ptensor_rt_gpu_gemm(
// CHECK: return
func.func @not_epilogues(%a: memref<8x4xf32>, %b: memref<4x6xf32>, %bias: memref<6xf32>) -> (memref<8x6xf32>, memref<8x6xf32>, memref<8x6xf32>) attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %s1 = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%s1 : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%s1 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  // GELU-like, with 0.0447 for 0.044715.
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s1 : memref<8x6xf32>) outs(%s1 : memref<8x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %c0 = arith.constant 0.7978845608028654 : f32
    %c1 = arith.constant 0.0447 : f32
    %one = arith.constant 1.0 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x, %x2 : f32
    %k = arith.mulf %x3, %c1 : f32
    %s = arith.addf %k, %x : f32
    %u = arith.mulf %s, %c0 : f32
    %t = math.tanh %u : f32
    %p = arith.addf %t, %one : f32
    %hp = arith.mulf %p, %half : f32
    %r = arith.mulf %x, %hp : f32
    linalg.yield %r : f32
  }
  %s2 = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%s2 : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%s2 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  // max(sums + bias, 1).
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s2, %bias : memref<8x6xf32>, memref<6xf32>) outs(%s2 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %c1 = arith.constant 1.0 : f32
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %c1 : f32
    linalg.yield %r : f32
  }
  %s3 = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%s3 : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%s3 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  // relu(sums + bias) with an exp beside it.
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s3, %bias : memref<8x6xf32>, memref<6xf32>) outs(%s3 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %s = arith.addf %x, %y : f32
    %e = math.exp %s : f32
    %r = arith.maximumf %s, %c0 : f32
    %q = arith.addf %r, %e : f32
    linalg.yield %q : f32
  }
  return %s1, %s2, %s3 : memref<8x6xf32>, memref<8x6xf32>, memref<8x6xf32>
}

// -----

// A scale alone (flags 0, alpha 2): no bias buffer (a null pointer, offset
// 0, stride 1).
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @scaled(
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f64
// CHECK-DAG: %[[NULL:.*]] = arith.constant 0 : index
// CHECK: call @ptensor_rt_gpu_gemm_epilogue({{.*}}, %c0_i64, %[[TWO]], %[[NULL]], %c0_i64, %c1_i64) :
func.func @scaled(%a: memref<8x4xf32>, %b: memref<4x6xf32>) -> memref<8x6xf32> attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %sums = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%sums : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%sums : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sums : memref<8x6xf32>) outs(%sums : memref<8x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %two, %x : f32
    linalg.yield %r : f32
  }
  return %sums : memref<8x6xf32>
}

// -----

// Not epilogues either: a scale by 0.1 before the bias (cuBLASLt may round
// 0.1 * sum + bias once, the program rounds twice), ReLU against -0.0 (it
// gives -0.0 where cuBLASLt gives +0), and an output that is a function
// argument (an out= that may be an operand's buffer).
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @not_exact(
// CHECK-NOT: ptensor_rt_gpu_gemm_epilogue
// CHECK: return
func.func @not_exact(%a: memref<8x4xf32>, %b: memref<4x6xf32>, %bias: memref<6xf32>, %dest: memref<8x6xf32>) -> (memref<8x6xf32>, memref<8x6xf32>) attributes {ptensor.device} {
  %zero = arith.constant -0.0 : f32
  %s1 = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%s1 : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%s1 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s1, %bias : memref<8x6xf32>, memref<6xf32>) outs(%s1 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %tenth = arith.constant 0.1 : f32
    %m = arith.mulf %x, %tenth : f32
    %s = arith.addf %m, %y : f32
    linalg.yield %s : f32
  }
  %s2 = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%s2 : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%s2 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s2 : memref<8x6xf32>) outs(%s2 : memref<8x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %nz = arith.constant -0.0 : f32
    %r = arith.maximumf %x, %nz : f32
    linalg.yield %r : f32
  }
  %s3 = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%s3 : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x6xf32>) outs(%s3 : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s3, %bias : memref<8x6xf32>, memref<6xf32>) outs(%dest : memref<8x6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return %s1, %s2 : memref<8x6xf32>, memref<8x6xf32>
}

// -----

// A tensordot over two pairs of axes: one contracted loop of the two
// sizes' product for the library, read along the inner loop's strides,
// called only where in both operands the outer loop's stride is the inner
// one's size times its stride (contiguous here at run time); elsewhere
// the generated loops run.
#a = affine_map<(i, j, k, l) -> (i, k, l)>
#b = affine_map<(i, j, k, l) -> (j, k, l)>
#c = affine_map<(i, j, k, l) -> (i, j)>
// CHECK-LABEL: func.func @two_contracted_loops(
// CHECK-SAME: %[[A:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %[[B:.*]]: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
// CHECK: %[[AM:.*]], %[[AOFF:.*]], %[[ASIZES:.*]]:3, %[[ASTRIDES:.*]]:3 = memref.extract_strided_metadata %[[A]]
// CHECK: %[[BM:.*]], %[[BOFF:.*]], %[[BSIZES:.*]]:3, %[[BSTRIDES:.*]]:3 = memref.extract_strided_metadata %[[B]]
// CHECK: %[[K:.*]] = arith.index_cast %[[ASIZES]]#1 : index to i64
// CHECK: %[[L:.*]] = arith.index_cast %[[ASIZES]]#2 : index to i64
// CHECK: %[[KL:.*]] = arith.muli %[[K]], %[[L]] : i64
// CHECK: %[[AL:.*]] = arith.index_cast %[[ASTRIDES]]#2 : index to i64
// CHECK: %[[AEXP:.*]] = arith.muli %[[L]], %[[AL]] : i64
// CHECK: %[[AK:.*]] = arith.index_cast %[[ASTRIDES]]#1 : index to i64
// CHECK: %[[AOK:.*]] = arith.cmpi eq, %[[AK]], %[[AEXP]] : i64
// CHECK: %[[BL:.*]] = arith.index_cast %[[BSTRIDES]]#2 : index to i64
// CHECK: %[[BEXP:.*]] = arith.muli %[[L]], %[[BL]] : i64
// CHECK: %[[BK:.*]] = arith.index_cast %[[BSTRIDES]]#1 : index to i64
// CHECK: %[[BOK:.*]] = arith.cmpi eq, %[[BK]], %[[BEXP]] : i64
// CHECK: %[[NESTED:.*]] = arith.andi %[[AOK]], %[[BOK]] : i1
// CHECK: %[[TAKEN:.*]] = scf.if %[[NESTED]] -> (i1) {
// CHECK-NEXT: %[[CALL:.*]] = func.call @ptensor_rt_cpu_gemm(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[KL]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}},
// CHECK-NEXT: scf.yield %[[CALL]] : i1
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT: scf.yield %[[FALSE]] : i1
// CHECK: %[[DECLINED:.*]] = arith.xori %[[TAKEN]], %true
// CHECK: scf.if %[[DECLINED]] {
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.generic
func.func @two_contracted_loops(%a: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %b: memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, %c: memref<?x?xf32>) {
  %zero = arith.constant -0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batch with two contracted loops on the GPU: batch size p, one
// contracted loop of k * l for cuBLASLt under the nesting test of both
// operands.
#a = affine_map<(p, i, j, k, l) -> (p, i, k, l)>
#b = affine_map<(p, i, j, k, l) -> (p, k, l, j)>
#c = affine_map<(p, i, j, k, l) -> (p, i, j)>
// CHECK-LABEL: func.func @batch_two_contracted_loops(
// CHECK: %[[P:.*]] = arith.index_cast %{{.*}}#0 : index to i64
// CHECK: %[[K:.*]] = arith.index_cast %{{.*}}#2 : index to i64
// CHECK: %[[L:.*]] = arith.index_cast %{{.*}}#3 : index to i64
// CHECK: %[[KL:.*]] = arith.muli %[[K]], %[[L]] : i64
// CHECK-COUNT-2: arith.cmpi eq
// CHECK: %[[NESTED:.*]] = arith.andi
// CHECK: scf.if %[[NESTED]] -> (i1) {
// CHECK-NEXT: func.call @ptensor_rt_gpu_gemm(%{{.*}}, %{{.*}}, %[[P]], %{{.*}}, %{{.*}}, %[[KL]],
// NOHOST-LABEL: func.func @batch_two_contracted_loops(
// NOHOST: call @ptensor_rt_gpu_gemm
func.func @batch_two_contracted_loops(%a: memref<?x?x?x?xf32>, %b: memref<?x?x?x?xf32>, %c: memref<?x?x?xf32>) attributes {ptensor.device} {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%c : memref<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p {ptensor.combiner = "addf"} : f32
    linalg.yield %s : f32
  }
  return
}
