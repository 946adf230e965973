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
