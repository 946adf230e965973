// RUN: ptensor-opt %s -split-input-file --ptensor-partition-teams=team-size=2 -verify-diagnostics

func.func @mean(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<3xf32, team = 1> {
  // expected-error @+1 {{on a team: mean over the split first dim is not supported yet (sum, prod, max and min are)}}
  %0 = ptensor.reduce mean %a axes [0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3xf32, team = 1>
  return %0 : !ptensor.ptensor<3xf32, team = 1>
}

// -----

func.func @unsupported(%a: !ptensor.ptensor<?x3xf32, team = 1>) -> !ptensor.ptensor<3x?xf32, team = 1> {
  // expected-error @+1 {{on team tensors is not supported yet (docs/Teams.md lists the ops that are)}}
  %0 = ptensor.permute_dims %a [1, 0] : !ptensor.ptensor<?x3xf32, team = 1> -> !ptensor.ptensor<3x?xf32, team = 1>
  return %0 : !ptensor.ptensor<3x?xf32, team = 1>
}

// -----

// expected-error @+1 {{team 2: only team 1 (all processes of the MPI job) is supported yet}}
module {
  func.func @team2(%a: !ptensor.ptensor<?xf32, team = 2>) -> !ptensor.ptensor<?xf32, team = 2> {
    return %a : !ptensor.ptensor<?xf32, team = 2>
  }
}
