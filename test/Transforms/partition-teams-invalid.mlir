// RUN: ptensor-opt %s -split-input-file --ptensor-partition-teams=team-size=2 -verify-diagnostics

func.func @write(%a: !ptensor.ptensor<?x3xf32, team = 1>, %b: !ptensor.ptensor<?x3xf32, team = 1>) {
  // expected-error @+1 {{on team tensors is not supported yet (docs/Teams.md lists the ops that are)}}
  ptensor.write %b into %a : !ptensor.ptensor<?x3xf32, team = 1>
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
