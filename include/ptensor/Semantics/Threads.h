//===- Threads.h - how many threads parallel host code uses ------*- C++ -*-===//
//
// Part of the semantics library: the compiler (which splits parallel loop
// nests for this many threads) and the Python package (whose compiled-code
// cache keys include it) ask the same function.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_THREADS_H
#define PTENSOR_SEMANTICS_THREADS_H

namespace ptensor::semantics {

/// The thread count of parallel host code: PTENSOR_NUM_THREADS (an integer
/// in [1, 4096]) if set, else the CPUs this process may run on (its
/// affinity mask, as `nproc` says) shared among the `processes` of a team
/// (docs/Teams.md: an MPI job of that many processes on one machine keeps
/// one thread per CPU). 1 means serial code. The environment is read once
/// per process.
unsigned hostThreadCount(unsigned processes = 1);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_THREADS_H
