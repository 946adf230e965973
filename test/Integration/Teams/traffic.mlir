// REQUIRES: mpi
// What each program sends, against the minimum (docs/Teams.md): aligned
// elementwise work sends nothing; a sum over the split dim one all-reduce
// of the result (3 f64 partials: 24 bytes); a vector broadcast against the
// rows one all-gather of the process's part of the vector.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Inputs/make_npy.py %t/a.npy float32 10x3
// RUN: %python %S/../Inputs/make_npy.py %t/v.npy float32 3
// RUN: mpirun -np 2 ptensor-runner %s -e chain --input %t/a.npy --input %t/a.npy --output-dir %t/chain --report-latency 2>&1 | FileCheck %s --check-prefix=CHAIN
// CHAIN-DAG: rank 0 of 2: 0 collectives, 0 bytes sent
// CHAIN-DAG: rank 1 of 2: 0 collectives, 0 bytes sent
// RUN: mpirun -np 2 ptensor-runner %s -e colsum --input %t/a.npy --output-dir %t/colsum --report-latency 2>&1 | FileCheck %s --check-prefix=SUM
// SUM-DAG: rank 0 of 2: 1 collectives, 24 bytes sent
// SUM-DAG: rank 1 of 2: 1 collectives, 24 bytes sent
// RUN: mpirun -np 2 ptensor-runner %s -e dynamic_chain --input %t/a.npy --input %t/a.npy --output-dir %t/dynamic_chain --report-latency 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// Dynamic rows: one 8-byte sum of the rows of each argument (the check
// that they agree), none for the values of the chain.
// DYNAMIC-DAG: rank 0 of 2: 2 collectives, 16 bytes sent
// DYNAMIC-DAG: rank 1 of 2: 2 collectives, 16 bytes sent
// RUN: mpirun -np 2 ptensor-runner %s -e row --input %t/a.npy --input %t/v.npy --output-dir %t/row --report-latency 2>&1 | FileCheck %s --check-prefix=ROW
// Of 3 elements (12 bytes) over 2 processes, rank 0 holds 2 and rank 1 one.
// ROW-DAG: rank 0 of 2: 1 collectives, 8 bytes sent
// ROW-DAG: rank 1 of 2: 1 collectives, 4 bytes sent
// Slices of the rows move only rows that change process: a[1:8:2] keeps
// each of its rows where it is (rows 1, 3 on rank 0, rows 5, 7 on rank 1);
// a[::-1] sends each process's 5 rows of 12 bytes to the other. Each is
// two collectives: the 4-byte agreement that every process can take part
// (its rows of the slice, packed by the compiled code, and its plan), then
// the exchange.
// RUN: mpirun -np 2 ptensor-runner %s -e odd_rows --input %t/a.npy --output-dir %t/odd_rows --report-latency 2>&1 | FileCheck %s --check-prefix=ODD
// ODD-DAG: rank 0 of 2: 2 collectives, 4 bytes sent
// ODD-DAG: rank 1 of 2: 2 collectives, 4 bytes sent
// RUN: mpirun -np 2 ptensor-runner %s -e reversed --input %t/a.npy --output-dir %t/reversed --report-latency 2>&1 | FileCheck %s --check-prefix=REVERSED
// REVERSED-DAG: rank 0 of 2: 2 collectives, 64 bytes sent
// REVERSED-DAG: rank 1 of 2: 2 collectives, 64 bytes sent
// A transpose resplits: of a.T (3 x 10), rank 0 gets rows 0-1, rank 1
// row 2, each with all 10 columns; rank 0 sends its 5 columns of row 2
// (20 bytes), rank 1 its 5 columns of rows 0-1 (40 bytes), each with the
// 4-byte agreement (a gather would send each whole block: 60 bytes).
// RUN: mpirun -np 2 ptensor-runner %s -e transposed --input %t/a.npy --output-dir %t/transposed --report-latency 2>&1 | FileCheck %s --check-prefix=TRANSPOSED
// TRANSPOSED-DAG: rank 0 of 2: 2 collectives, 24 bytes sent
// TRANSPOSED-DAG: rank 1 of 2: 2 collectives, 44 bytes sent
// A reshape that changes the rows reblocks: a.reshape(5, 6) on 2 processes
// gives rank 0 elements 0-17 (it holds 0-14: it sends nothing) and rank 1
// elements 18-29 (it holds 15-29: it sends 15-17, 12 bytes); each also
// sends the 4-byte agreement.
// RUN: mpirun -np 2 ptensor-runner %s -e reblocked --input %t/a.npy --output-dir %t/reblocked --report-latency 2>&1 | FileCheck %s --check-prefix=REBLOCKED
// REBLOCKED-DAG: rank 0 of 2: 2 collectives, 4 bytes sent
// REBLOCKED-DAG: rank 1 of 2: 2 collectives, 16 bytes sent
// A roll of the rows is two slices of them: np.roll(a, 3, 0) gives rank 0
// rows 7-9 and 0-1 (it holds 0-4: rank 1 sends 7-9, 36 bytes) and rank 1
// rows 2-6 (rank 0 sends 2-4, 36 bytes); each slice has its 4-byte
// agreement (a gather: 60 bytes each).
// RUN: mpirun -np 2 ptensor-runner %s -e rolled --input %t/a.npy --output-dir %t/rolled --report-latency 2>&1 | FileCheck %s --check-prefix=ROLLED
// ROLLED-DAG: rank 0 of 2: 4 collectives, 44 bytes sent
// ROLLED-DAG: rank 1 of 2: 4 collectives, 44 bytes sent
// A dot product of two split vectors: one all-reduce of the f64 partial
// (8 bytes); tril of a split matrix nothing (each block is told its first
// row; the sizes are static).
// RUN: %python %S/../Inputs/make_npy.py %t/x.npy float32 10
// RUN: mpirun -np 2 ptensor-runner %s -e dot --input %t/x.npy --input %t/x.npy --output-dir %t/dot --report-latency 2>&1 | FileCheck %s --check-prefix=DOT
// DOT-DAG: rank 0 of 2: 1 collectives, 8 bytes sent
// DOT-DAG: rank 1 of 2: 1 collectives, 8 bytes sent
// RUN: mpirun -np 2 ptensor-runner %s -e lower --input %t/a.npy --output-dir %t/lower --report-latency 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER-DAG: rank 0 of 2: 0 collectives, 0 bytes sent
// LOWER-DAG: rank 1 of 2: 0 collectives, 0 bytes sent
// nonzero of x (0 1 2 3 4 0 1 2 3 4) on 2 processes: each block has 4
// nonzeros, the result's blocks too, so the all-to-all moves nothing; 24
// bytes each: the count's all-reduce (8), the agreement that each could
// allocate the part sizes (4), their allgather (8), the plan's agreement
// (4). unique values of a (10x3, values 0-4): the count's all-reduce (8)
// and each block's 5 distinct values (20); the gather of the input would
// send 60 each.
// RUN: mpirun -np 2 ptensor-runner %s -e found --input %t/x.npy --output-dir %t/found --report-latency 2>&1 | FileCheck %s --check-prefix=FOUND
// FOUND-DAG: rank 0 of 2: 5 collectives, 24 bytes sent
// FOUND-DAG: rank 1 of 2: 5 collectives, 24 bytes sent
// RUN: mpirun -np 2 ptensor-runner %s -e distinct --input %t/a.npy --output-dir %t/distinct --report-latency 2>&1 | FileCheck %s --check-prefix=DISTINCT
// DISTINCT-DAG: rank 0 of 2: 2 collectives, 28 bytes sent
// DISTINCT-DAG: rank 1 of 2: 2 collectives, 28 bytes sent
// A sample sort of x (blocks 0 1 2 3 4 and 0 1 2 3 4) on 2 processes: the
// samples of each block are 1 and 3, the one splitter 1, so rank 0 keeps
// 0 1 and sends 2 3 4 (12 bytes), rank 1 sends 0 1 (8 bytes), and the
// rebalance moves one 4 from rank 1 to rank 0 (12 bytes each in the two
// moves); the other 68 bytes in 12 collectives are the fixed cost: the
// sample count (8), the samples' gather (8), the exchange's two agreements
// and run sizes, twice, and its agreement on the result's size (16 + 20),
// the rebalance's agreements and part sizes (16). A gather would send each
// block whole (20 bytes).
// RUN: mpirun -np 2 ptensor-runner %s -e sorted --input %t/x.npy --output-dir %t/sorted --report-latency 2>&1 | FileCheck %s --check-prefix=SORTED
// SORTED-DAG: rank 0 of 2: 14 collectives, 80 bytes sent
// SORTED-DAG: rank 1 of 2: 14 collectives, 80 bytes sent
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); np.testing.assert_array_equal(np.load('%t/sorted/out0.npy'), np.sort(x))"
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); a = np.load('%t/a.npy'); np.testing.assert_array_equal(np.load('%t/found/out0.npy'), np.nonzero(x)[0]); np.testing.assert_array_equal(np.load('%t/distinct/out0.npy'), np.unique(a))"
// RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); np.testing.assert_allclose(np.load('%t/dot/out0.npy'), np.dot(x.astype(np.float64), x).astype(np.float32), rtol=1e-6)"
// RUN: %python -c "import numpy as np; a = np.load('%t/a.npy'); np.testing.assert_array_equal(np.load('%t/lower/out0.npy'), np.tril(a, -1))"
// RUN: %python -c "import numpy as np; a = np.load('%t/a.npy'); np.testing.assert_array_equal(np.load('%t/rolled/out0.npy'), np.roll(a, 3, 0))"
// RUN: %python -c "import numpy as np; a = np.load('%t/a.npy'); np.testing.assert_array_equal(np.load('%t/reblocked/out0.npy'), a.reshape(5, 6))"
// RUN: %python -c "import numpy as np; a = np.load('%t/a.npy'); np.testing.assert_array_equal(np.load('%t/odd_rows/out0.npy'), a[1:8:2]); np.testing.assert_array_equal(np.load('%t/reversed/out0.npy'), a[::-1]); np.testing.assert_array_equal(np.load('%t/transposed/out0.npy'), a.T)"

func.func @dot(%x: !ptensor.ptensor<10xf32, team = 1>, %y: !ptensor.ptensor<10xf32, team = 1>) -> !ptensor.ptensor<f32, team = 1> {
  %0 = ptensor.vecdot %x, %y : (!ptensor.ptensor<10xf32, team = 1>, !ptensor.ptensor<10xf32, team = 1>) -> !ptensor.ptensor<f32, team = 1>
  return %0 : !ptensor.ptensor<f32, team = 1>
}
func.func @lower(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1> {
  %0 = ptensor.extract_triangle lower %a offset -1 : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  return %0 : !ptensor.ptensor<10x3xf32, team = 1>
}
func.func @found(%x: !ptensor.ptensor<10xf32, team = 1>) -> !ptensor.ptensor<?xi64, team = 1> {
  %0:1 = ptensor.nonzero %x : !ptensor.ptensor<10xf32, team = 1> -> (!ptensor.ptensor<?xi64, team = 1>)
  return %0#0 : !ptensor.ptensor<?xi64, team = 1>
}
func.func @sorted(%x: !ptensor.ptensor<10xf32, team = 1>) -> !ptensor.ptensor<10xf32, team = 1> {
  %0 = ptensor.sort %x : !ptensor.ptensor<10xf32, team = 1> -> !ptensor.ptensor<10xf32, team = 1>
  return %0 : !ptensor.ptensor<10xf32, team = 1>
}
func.func @distinct(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1> {
  %0 = ptensor.unique values %a : !ptensor.ptensor<10x3xf32, team = 1> -> (!ptensor.ptensor<?xf32, team = 1>)
  return %0 : !ptensor.ptensor<?xf32, team = 1>
}
func.func @chain(%a: !ptensor.ptensor<10x3xf32, team = 1>, %b: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1>
  %1 = ptensor.elementwise_unary exp %0 : (!ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1>
  return %1 : !ptensor.ptensor<10x3xf32, team = 1>
}
func.func @dynamic_chain(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1> {
  %0 = ptensor.elementwise_binary multiply %a, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %1 = ptensor.elementwise_binary add %0, %a : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  %2 = ptensor.elementwise_unary sqrt %1 : (!ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  return %2 : !ptensor.ptensor<?x3xf32, team = 1>
}
func.func @colsum(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<3xf32, team = 1> {
  %0 = ptensor.reduce sum %a axes [0] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  return %0 : !ptensor.ptensor<3xf32, team = 1>
}
func.func @odd_rows(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<4x3xf32, team = 1> {
  %0 = ptensor.extract_slice %a [1, 0] [4, 3] [2, 1] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<4x3xf32, team = 1>
  return %0 : !ptensor.ptensor<4x3xf32, team = 1>
}
func.func @reversed(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1> {
  %0 = ptensor.flip %a [0] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  return %0 : !ptensor.ptensor<10x3xf32, team = 1>
}
func.func @rolled(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1> {
  %0 = ptensor.roll %a shifts [3] axes [0] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<10x3xf32, team = 1>
  return %0 : !ptensor.ptensor<10x3xf32, team = 1>
}
func.func @reblocked(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<5x6xf32, team = 1> {
  %0 = ptensor.reshape %a [5, 6] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<5x6xf32, team = 1>
  return %0 : !ptensor.ptensor<5x6xf32, team = 1>
}
func.func @transposed(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<3x10xf32, team = 1> {
  %0 = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<3x10xf32, team = 1>
  return %0 : !ptensor.ptensor<3x10xf32, team = 1>
}
func.func @row(%a: !ptensor.ptensor<10x3xf32, team = 1>, %v: !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1> {
  %0 = ptensor.elementwise_binary multiply %a, %v : (!ptensor.ptensor<10x3xf32, team = 1>, !ptensor.ptensor<3xf32, team = 1>) -> !ptensor.ptensor<10x3xf32, team = 1>
  return %0 : !ptensor.ptensor<10x3xf32, team = 1>
}

// A first dim that is 1 only at run time is not broadcast across
// processes (docs/Teams.md): every process finds out (the check compares
// global sizes) and the job ends with the message, never waits.
// RUN: %python %S/../Inputs/make_npy.py %t/one.npy float32 1x3
// RUN: not timeout 120 mpirun -np 2 ptensor-runner %s -e dynamic_one --input %t/a.npy --input %t/one.npy 2>&1 | FileCheck %s --check-prefix=ABORT
// ABORT: ptensor-runner: error: ptensor runtime: a team tensor's first dim is 1 at run time where the result has more rows
func.func @dynamic_one(%a: !ptensor.ptensor<?x3xf32, team = 1>, %r: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1> {
  %0 = ptensor.elementwise_binary add %a, %r : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  return %0 : !ptensor.ptensor<?x3xf32, team = 1>
}

// A reduction over dims that are empty on every process fails like one
// process's, on every process (the count is global), not only where a block
// is empty.
// RUN: %python %S/../Inputs/make_npy.py %t/empty.npy float32 4x0
// RUN: not timeout 120 mpirun -np 2 ptensor-runner %s -e empty_max --input %t/empty.npy 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: ptensor-runner: error: ptensor runtime: max of an empty axis
func.func @empty_max(%a: !ptensor.ptensor<4x?xf32, team = 1>) -> !ptensor.ptensor<f32, team = 1> {
  %0 = ptensor.reduce max %a : !ptensor.ptensor<4x?xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  return %0 : !ptensor.ptensor<f32, team = 1>
}

// A slice of the rows past their end, with sizes known at run time: every
// process checks the global sizes before anything moves and fails alike.
// RUN: %python -c "import numpy as np; np.save('%t/six.npy', np.int64(6))"
// Both processes report it (one left waiting would print nothing).
// RUN: not timeout 120 mpirun -np 2 ptensor-runner %s -e past_rows --input %t/a.npy --input %t/six.npy > %t/past.log 2>&1
// RUN: FileCheck %s --check-prefix=PAST < %t/past.log
// PAST-COUNT-2: error: {{.*}}extract_slice of a team tensor of 10 rows: slice of dimension 0 reads elements 5 to 10, outside [0, 10)
func.func @past_rows(%a: !ptensor.ptensor<?x3xf32, team = 1>, %m: index) -> !ptensor.ptensor<?x3xf32, team = 1> {
  %0 = ptensor.extract_slice %a [5, 0] [%m, 3] [1, 1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x3xf32, team = 1>
  return %0 : !ptensor.ptensor<?x3xf32, team = 1>
}

// A reshape whose run-time size does not fit the global element count:
// every process checks the global sizes before anything moves and fails
// alike, naming both.
// RUN: not timeout 120 mpirun -np 2 ptensor-runner %s -e bad_reshape --input %t/a.npy --input %t/six.npy > %t/bad-reshape.log 2>&1
// RUN: FileCheck %s --check-prefix=BAD-RESHAPE < %t/bad-reshape.log
// BAD-RESHAPE-COUNT-2: error: {{.*}}reshape of a team tensor of 10 rows of 3 elements into 6 rows of 4 elements: the element counts differ
func.func @bad_reshape(%a: !ptensor.ptensor<?x3xf32, team = 1>, %m: index) -> !ptensor.ptensor<?x4xf32, team = 1> {
  %0 = ptensor.reshape %a [%m, 4] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?x4xf32, team = 1>
  return %0 : !ptensor.ptensor<?x4xf32, team = 1>
}

// A dot product of split vectors of 10 and 11 elements: on 2 processes
// rank 1's blocks have 5 elements each, yet it fails too (the check
// compares the global sizes), so no process waits in the all-reduce.
// RUN: %python %S/../Inputs/make_npy.py %t/x11.npy float32 11
// RUN: not timeout 120 mpirun -np 2 ptensor-runner %s -e bad_dot --input %t/x.npy --input %t/x11.npy > %t/bad-dot.log 2>&1
// RUN: FileCheck %s --check-prefix=BAD-DOT < %t/bad-dot.log
// BAD-DOT-COUNT-2: error: {{.*}}ptensor.vecdot: the contracted first dims of two team tensors differ
func.func @bad_dot(%x: !ptensor.ptensor<?xf32, team = 1>, %y: !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<f32, team = 1> {
  %0 = ptensor.vecdot %x, %y : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<f32, team = 1>
  return %0 : !ptensor.ptensor<f32, team = 1>
}
