// RUN: ptensor-opt %s -split-input-file --ptensor-partition-teams=team-size=2 -verify-diagnostics

// A write into a slice of the split dim: each process holds a copy of
// its rows of the slice, which the write would not carry back.
func.func @write_moved_rows(%a: !ptensor.ptensor<10x3xf32, team = 1>, %b: !ptensor.ptensor<4x3xf32, team = 1>) {
  %s = ptensor.extract_slice %a [1, 0] [4, 3] [2, 1] : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<4x3xf32, team = 1>
  // expected-error @+1 {{into a team tensor that this process holds as a copy (made by ptensor.team_slice_rows: a view that moves or gathers rows, such as a slice of the split dim or a flip of it); write into the tensor itself or into a view that keeps each process's rows}}
  ptensor.write %b into %s : !ptensor.ptensor<4x3xf32, team = 1>
  return
}

// -----

// A view whose rows moved before the write (a flattening reshape
// reblocks them) would not see it.
func.func @write_after_gather(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1> {
  %f = ptensor.reshape %a [-1] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  // expected-error @+1 {{into a team tensor whose rows were copied between processes before the write (by ptensor.team_reblock) for a view used after it, which would not see the write: write before taking that view, or into a new tensor}}
  ptensor.write %b into %a : !ptensor.ptensor<?x3xf32, team = 1>
  return %f : !ptensor.ptensor<?xf32, team = 1>
}

// -----

// A callee that writes a team argument: the caller's copies of it would
// not see the write.
func.func private @adds(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<?x3xf32, team = 1>
  ptensor.write %0 into %a : !ptensor.ptensor<?x3xf32, team = 1>
  return
}
func.func @calls_a_writer(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) {
  // expected-error @+1 {{passes a team tensor to a function that writes it (out=); on a team, write in the function that holds the tensor, or return the new value}}
  func.call @adds(%a, %b) : (!ptensor.ptensor<?x3xf32, team = 1>, !ptensor.ptensor<?x3xf32, team = 1>) -> ()
  return
}

// -----

// expected-error @+1 {{team 2: only team 1 (all processes of the MPI job) is supported yet}}
module {
  func.func @team2(%a: !ptensor.ptensor<?xf32, team = 2>) -> !ptensor.ptensor<?xf32, team = 2> {
    return %a : !ptensor.ptensor<?xf32, team = 2>
  }
}

// -----

// A reshape changing the rows moves elements between processes: a copy,
// which copy = false forbids.
func.func @reshape_no_copy(%a: !ptensor.ptensor<10x3xf32, team = 1>) -> !ptensor.ptensor<5x6xf32, team = 1> {
  // expected-error @+1 {{with copy = false changes the rows of a team tensor: its elements move between processes, which is a copy (copy = false never copies; keep the rows, or allow the copy)}}
  %0 = ptensor.reshape %a [5, 6] {copy = false} : !ptensor.ptensor<10x3xf32, team = 1> -> !ptensor.ptensor<5x6xf32, team = 1>
  return %0 : !ptensor.ptensor<5x6xf32, team = 1>
}
