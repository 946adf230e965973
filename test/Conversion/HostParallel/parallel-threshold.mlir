// RUN: ptensor-opt %s --ptensor-parallel-threshold=min-iterations=1000 | FileCheck %s
// RUN: ptensor-opt %s --ptensor-parallel-threshold="min-iterations=1000 team-size=4" | FileCheck %s --check-prefix=TEAM

// An outermost parallel region gets an `if`: the product of its loop
// nest's trip counts against the threshold (a nest with fewer iterations
// runs on the calling thread; an empty loop counts 0 trips).
// CHECK-LABEL: func.func @nest(
// CHECK-SAME:    %[[N:.*]]: index, %[[M:.*]]: index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[E0:.*]] = arith.subi %[[N]], %[[C0]] : index
// CHECK:         %[[N0:.*]] = arith.maxsi %[[E0]], %{{.*}} : index
// CHECK:         %[[T0:.*]] = arith.ceildivsi %[[N0]], %[[C1]] : index
// CHECK:         %[[P0:.*]] = arith.muli %{{.*}}, %[[T0]] : index
// CHECK:         %[[E1:.*]] = arith.subi %[[M]], %[[C0]] : index
// CHECK:         %[[N1:.*]] = arith.maxsi %[[E1]], %{{.*}} : index
// CHECK:         %[[T1:.*]] = arith.ceildivsi %[[N1]], %[[C2]] : index
// CHECK:         %[[P1:.*]] = arith.muli %[[P0]], %[[T1]] : index
// CHECK:         %[[LIMIT:.*]] = arith.constant 1000 : index
// CHECK:         %[[LARGE:.*]] = arith.cmpi sge, %[[P1]], %[[LIMIT]] : index
// Without a num_threads clause the count is asked at run time (the team
// size, here 1, shares the CPUs); one thread is serial.
// CHECK:         %[[PROCS:.*]] = arith.constant 1 : i64
// CHECK:         %[[THREADS:.*]] = call @ptensor_rt_host_threads(%[[PROCS]]) : (i64) -> i32
// CHECK:         %[[SEVERAL:.*]] = arith.cmpi sgt, %[[THREADS]], %{{.*}} : i32
// CHECK:         %[[BOTH:.*]] = arith.andi %[[LARGE]], %[[SEVERAL]] : i1
// CHECK:         omp.parallel if(%[[BOTH]]) num_threads(%[[THREADS]] : i32) {
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

// A region that is one worksharing loop nest is versioned instead: the
// parallel region when large, a serial copy of the nest (scf.for loops, the
// body cloned) on the calling thread when small: no OpenMP runtime call.
// CHECK-LABEL: func.func @versioned(
// CHECK-SAME:    %[[N:.*]]: index, %[[M:.*]]: index, %[[BUF:.*]]: memref<?x?xf32>
// CHECK:         %[[LARGE:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : index
// CHECK:         scf.if %[[LARGE]] {
// CHECK-NEXT:      omp.parallel num_threads(%{{.*}} : i32) {
// CHECK-NEXT:        omp.wsloop {
// CHECK-NEXT:          omp.loop_nest (%[[I:.*]], %[[J:.*]]) : index = (%[[C0:.*]], %[[C0]]) to (%[[N]], %[[M]]) step (%[[C1:.*]], %[[C1]]) {
// CHECK-NEXT:            memref.store %{{.*}}, %[[BUF]][%[[I]], %[[J]]]
// CHECK:         } else {
// CHECK-NEXT:      scf.for %[[SI:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:        scf.for %[[SJ:.*]] = %[[C0]] to %[[M]] step %[[C1]] {
// CHECK-NEXT:          memref.store %{{.*}}, %[[BUF]][%[[SI]], %[[SJ]]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     omp.yield
// CHECK:         return
func.func @versioned(%n: index, %m: index, %buf: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.constant 2 : i32
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%t : i32) {
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
        memref.store %f, %buf[%i, %j] : memref<?x?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// A nest whose body may leave through the caller's trap (a check, an
// allocation, a runtime call) runs only serially: traps must not jump over
// OpenMP's frames.
// CHECK-LABEL: func.func @checked(
// CHECK-NOT:     omp.
// CHECK:         scf.for
// CHECK:           cf.assert
// CHECK-NOT:     omp.
// CHECK:         return
func.func @checked(%n: index, %ok: i1, %buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.constant 2 : i32
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%t : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        cf.assert %ok, "bad"
        memref.store %f, %buf[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// Inclusive bounds (which convert-scf-to-openmp does not make) are left
// alone: the trip count and a serial copy would both need the last
// iteration.
// CHECK-LABEL: func.func @inclusive(
// CHECK-NOT:     scf.if
// CHECK:         omp.parallel num_threads(
// TEAM-LABEL:  func.func @nest(
// TEAM:          %[[PROCS:.*]] = arith.constant 4 : i64
// TEAM:          call @ptensor_rt_host_threads(%[[PROCS]])
func.func @inclusive(%n: index, %buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.constant 2 : i32
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%t : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) inclusive step (%c1) {
        memref.store %f, %buf[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// The loops inside a nest's body weigh each iteration by 1 + their work (a
// reduction's rows and columns): trip counts of loops whose bounds are
// known before the region (a pure op computing one is copied out), a tiled
// block's min(size, n) (lower to min(lower + 1024, m): at most 1024 and at
// most m columns), summed over sibling loops and multiplied down nested
// ones; a loop bounded by a division that may trap (a dynamic divisor)
// counts once, and the division stays in the region.
// CHECK-LABEL: func.func @inner_loops(
// CHECK-SAME:    %[[N:.*]]: index, %[[M:.*]]: index, %[[ROWS:.*]]: index, %[[D:.*]]: index
// CHECK:         %[[C1024:.*]] = arith.constant 1024 : index
// CHECK:         %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:         %[[COLS:.*]] = arith.minsi %[[C1024]], %[[M]] : index
// CHECK:         %[[POS:.*]] = arith.maxsi %[[COLS]], %{{.*}} : index
// CHECK:         %[[BLOCK:.*]] = arith.ceildivsi %[[POS]], %{{.*}} : index
// CHECK:         %[[HALF:.*]] = arith.divsi %[[ROWS]], %{{.*}} : index
// CHECK:         %[[E0:.*]] = arith.subi %[[HALF]], %{{.*}} : index
// CHECK:         %[[T0:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK:         %[[W0:.*]] = arith.muli %[[T0]], %[[BLOCK]] : index
// CHECK:         %[[E1:.*]] = arith.subi %[[ROWS]], %{{.*}} : index
// CHECK:         %[[T1:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK:         %[[W1:.*]] = arith.addi %[[W0]], %[[T1]] : index
// CHECK:         %[[W:.*]] = arith.addi %[[W1]], %{{.*}} : index
// CHECK:         %[[BODY:.*]] = arith.addi %[[W]], %{{.*}} : index
// CHECK:         %[[ALL:.*]] = arith.muli %[[P]], %[[BODY]] : index
// CHECK:         arith.cmpi sge, %[[ALL]], %{{.*}} : index
// CHECK-NOT:     arith.divsi %[[ROWS]], %[[D]]
// CHECK:         scf.if
// CHECK:           omp.parallel
// CHECK:             arith.divsi %[[ROWS]], %[[D]]
func.func @inner_loops(%n: index, %m: index, %rows: index, %d: index, %buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c1024 = arith.constant 1024 : index
  %t = arith.constant 2 : i32
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%t : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %first = arith.muli %i, %c1024 : index
        %end = arith.addi %first, %c1024 : index
        %last = arith.minsi %end, %m : index
        %half = arith.divsi %rows, %c2 : index
        scf.for %r = %c0 to %half step %c1 {
          scf.for %j = %first to %last step %c1 {
            memref.store %f, %buf[%j] : memref<?xf32>
          }
        }
        scf.for %r = %c0 to %rows step %c1 {
          memref.store %f, %buf[%r] : memref<?xf32>
        }
        %q = arith.divsi %rows, %d : index
        scf.for %r = %c0 to %q step %c1 {
          memref.store %f, %buf[%r] : memref<?xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// A loop whose bounds follow from the nest's induction variable in another
// way than a tiled block counts its trips in the nest's first iteration
// (the induction variable at its lower bound: the nests split their work
// in equal tasks), here rows %i * 64 to %i * 64 + 50 of a chunk: 50. An
// scf.if counts its larger branch: max(50, 2 x 50).
// CHECK-LABEL: func.func @first_iteration(
// CHECK-SAME:    %[[N:.*]]: index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C50:.*]] = arith.constant 50 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:         %[[LO:.*]] = arith.muli %[[C0]], %[[C64]] : index
// CHECK:         %[[HI:.*]] = arith.addi %[[LO]], %[[C50]] : index
// CHECK:         arith.subi %[[HI]], %[[LO]] : index
// CHECK:         %[[THEN:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK:         %[[ELSE:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:         %[[W:.*]] = arith.maxsi %[[THEN]], %[[ELSE]] : index
// CHECK:         %[[BODY:.*]] = arith.addi %[[W]], %{{.*}} : index
// CHECK:         %[[ALL:.*]] = arith.muli %[[P]], %[[BODY]] : index
// CHECK:         arith.cmpi sge, %[[ALL]], %{{.*}} : index
func.func @first_iteration(%n: index, %flag: i1, %buf: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c50 = arith.constant 50 : index
  %c64 = arith.constant 64 : index
  %t = arith.constant 2 : i32
  %f = arith.constant 1.0 : f32
  omp.parallel num_threads(%t : i32) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %lo = arith.muli %i, %c64 : index
        %hi = arith.addi %lo, %c50 : index
        scf.if %flag {
          scf.for %r = %lo to %hi step %c1 {
            memref.store %f, %buf[%r] : memref<?xf32>
          }
        } else {
          scf.for %r = %lo to %hi step %c1 {
            memref.store %f, %buf[%r] : memref<?xf32>
          }
          scf.for %r = %lo to %hi step %c1 {
            memref.store %f, %buf[%r] : memref<?xf32>
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
