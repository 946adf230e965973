//===- Team.h - libptensor_team, loaded for modules with teams -*- C++ -*-===//
//
// The JIT loads libptensor_team (MPI) only for modules with team tensors,
// so that processes without teams never touch MPI.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_JIT_TEAM_H
#define PTENSOR_LIB_JIT_TEAM_H

#include "llvm/Support/Error.h"

#include <string>

namespace ptensor::jit::detail {

/// The path of libptensor_team ($PTENSOR_TEAM_LIBRARY, this build's copy,
/// or one next to the executable), or "" when there is none.
std::string findTeamLibrary();

/// Loads libptensor_team for good (its symbols and MPI's become visible
/// to JIT-compiled code) and initializes MPI; fails with MPI's message.
llvm::Error loadTeamLibrary();

} // namespace ptensor::jit::detail

#endif // PTENSOR_LIB_JIT_TEAM_H
