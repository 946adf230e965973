// RUN: ptensor-opt %s --ptensor-parallel-threshold=min-iterations=1000 | FileCheck %s

// An outermost parallel region gets an `if`: the product of its loop
// nest's trip counts against the threshold (a nest with fewer iterations
// runs on the calling thread).
// CHECK-LABEL: func.func @nest(
// CHECK-SAME:    %[[N:.*]]: index, %[[M:.*]]: index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[E0:.*]] = arith.subi %[[N]], %[[C0]] : index
// CHECK:         %[[T0:.*]] = arith.ceildivsi %[[E0]], %[[C1]] : index
// CHECK:         %[[P0:.*]] = arith.muli %{{.*}}, %[[T0]] : index
// CHECK:         %[[E1:.*]] = arith.subi %[[M]], %[[C0]] : index
// CHECK:         %[[T1:.*]] = arith.ceildivsi %[[E1]], %[[C2]] : index
// CHECK:         %[[P1:.*]] = arith.muli %[[P0]], %[[T1]] : index
// CHECK:         %[[LIMIT:.*]] = arith.constant 1000 : index
// CHECK:         %[[LARGE:.*]] = arith.cmpi sge, %[[P1]], %[[LIMIT]] : index
// CHECK:         omp.parallel if(%[[LARGE]]) {
// An inner region and one with its own `if` are left alone.
// CHECK:           omp.parallel {
// CHECK:         omp.parallel if(%{{.*}}) {
// CHECK-NOT:     arith.cmpi
func.func @nest(%n: index, %m: index, %cond: i1, %buf: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%n, %m) step (%c1, %c2) {
        memref.store %f, %buf[%i, %j] : memref<?x?xf32>
        omp.yield
      }
    }
    omp.parallel {
      omp.terminator
    }
    omp.terminator
  }
  omp.parallel if(%cond) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %f, %buf[%i, %i] : memref<?x?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
