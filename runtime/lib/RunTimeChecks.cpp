//===- RunTimeChecks.cpp - failed checks of compiled code -----------------===//
//
// The functions compiled code calls when a run-time check fails, and the
// per-thread traps that turn such a failure, or a failed mgpu* call
// (failCompiledCall), into an error value for the caller (see "Run-time
// checks of compiled code" in Status.h).
//
//===----------------------------------------------------------------------===//

#include "Errors.h"

#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/Contraction.h"
#include "ptensor/Semantics/Manipulation.h"
#include "ptensor/Semantics/Searching.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace ptensor::rt;
namespace sem = ptensor::semantics;

namespace {
thread_local ptensor_rt_trap *innermostTrap = nullptr;

/// The shape of `rank` sizes `stride` apart (compiled code passes shapes as
/// memref<?xi64>).
sem::Shape toShape(const int64_t *sizes, int64_t rank, int64_t stride) {
  sem::Shape shape(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank; ++i)
    shape[i] = sizes[i * stride];
  return shape;
}

/// Pops the calling thread's innermost trap, if any, and jumps to it with
/// the recorded error; returns only when the thread has no trap.
void leaveThroughTrap() {
  if (ptensor_rt_trap *trap = innermostTrap) {
    innermostTrap = trap->previous;
    std::longjmp(trap->env, 1);
  }
}

} // namespace

/// Leaves through the innermost trap, or prints the recorded error and
/// aborts when the thread has none. No object with a destructor may be
/// alive in this frame: the jump skips it.
[[noreturn]] void ptensor::rt::leaveCompiledCode() {
  leaveThroughTrap();
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", lastErrorMessage());
  std::fflush(stderr);
  std::abort();
}

bool ptensor::rt::insideTrap() { return innermostTrap != nullptr; }

/// As leaveCompiledCode, but with no trap the mgpu* entry points' fatal
/// path: exit status 1 for a missing driver, abort otherwise.
[[noreturn]] void ptensor::rt::failCompiledCall() {
  leaveThroughTrap();
  dieWithLastError();
}

/// The message of a failed shapes check: `op` is RunTimeChecks.h's
/// ShapeCheckKind (0 reshape, 1 concat, 2 stack, 3 extract_mask,
/// 4 searchsorted, 5 extract_slice with `right` = offset, size, step).
static std::string shapesMessage(int64_t op, const sem::Shape &left,
                                 const sem::Shape &right, int64_t operand,
                                 int64_t dim) {
  switch (op) {
  case 0:
    return sem::reshapeMismatchMessage(left, right);
  case 1:
  case 2:
    return sem::combineMismatchMessage(op == 1 ? sem::CombineKind::Concat
                                               : sem::CombineKind::Stack,
                                       left, right, operand, dim);
  case 3:
    return sem::extractMaskMismatchMessage(left, right);
  case 4:
    return sem::searchsortedSorterMismatchMessage(left, right);
  case 5:
    if (right.size() == 3)
      return sem::extractSliceBoundsMessage(left, dim, right[0], right[1],
                                            right[2]);
    break;
  default:
    break;
  }
  // Compiled code passes only the cases above; anything else is a
  // mismatch between the compiler and this runtime.
  return "shapes check " + std::to_string(op) + " failed (shapes " +
         sem::formatShape(left) + " and " + sem::formatShape(right) +
         "): unknown to this runtime";
}

extern "C" {
PTENSOR_RT_EXPORT void ptensor_rt_trap_push(ptensor_rt_trap *trap) {
  trap->previous = innermostTrap;
  innermostTrap = trap;
}

PTENSOR_RT_EXPORT void ptensor_rt_trap_pop(ptensor_rt_trap *trap) {
  if (innermostTrap == trap)
    innermostTrap = trap->previous;
}

PTENSOR_RT_EXPORT ptensor_rt_status
ptensor_rt_call_checked(void (*entry)(void **), void **args) {
  ptensor_rt_trap trap;
  ptensor_rt_trap_push(&trap);
  if (setjmp(trap.env) != 0)
    return statusFrom(false);
  entry(args);
  ptensor_rt_trap_pop(&trap);
  return PTENSOR_RT_SUCCESS;
}

PTENSOR_RT_EXPORT void ptensor_rt_check_failed(const char *message) {
  // Messages of compiled checks say "ptensor: ..."; the error's own prefix
  // says it again.
  std::string_view text = message ? message : "a check failed";
  if (text.substr(0, 9) == "ptensor: ")
    text.remove_prefix(9);
  setError(ErrorKind::CheckFailed, std::string(text));
  leaveCompiledCode();
}

PTENSOR_RT_EXPORT void ptensor_rt_broadcast_failed(
    const int64_t *, const int64_t *source, int64_t sourceOffset,
    int64_t sourceRank, int64_t sourceStride, const int64_t *,
    const int64_t *target, int64_t targetOffset, int64_t targetRank,
    int64_t targetStride) {
  source += sourceOffset;
  target += targetOffset;
  {
    // Scoped: the string is gone before the jump.
    std::string message =
        "cannot broadcast shape " +
        sem::formatShape(toShape(source, sourceRank, sourceStride)) +
        " to shape " +
        sem::formatShape(toShape(target, targetRank, targetStride));
    int64_t lead = targetRank - sourceRank;
    for (int64_t i = 0; i < sourceRank; ++i) {
      int64_t from = source[i * sourceStride];
      int64_t to = target[(lead + i) * targetStride];
      if (from != 1 && from != to) {
        message += ": size " + std::to_string(from) + " of source dimension " +
                   std::to_string(i) + " is neither 1 nor " +
                   std::to_string(to);
        break;
      }
    }
    setError(ErrorKind::Broadcast, message);
  }
  leaveCompiledCode();
}

PTENSOR_RT_EXPORT void ptensor_rt_contraction_failed(
    const int64_t *, const int64_t *lhs, int64_t lhsOffset, int64_t lhsRank,
    int64_t lhsStride, const int64_t *, const int64_t *rhs, int64_t rhsOffset,
    int64_t rhsRank, int64_t rhsStride, int64_t lhsDim, int64_t rhsDim,
    int64_t op) {
  {
    // Scoped: the strings are gone before the jump. `op` is RunTimeChecks.h's
    // ContractionKind.
    static const char *const names[] = {"matmul", "vecdot", "tensordot"};
    const char *name = op >= 0 && op < 3 ? names[op] : "contraction";
    setError(ErrorKind::Broadcast,
             sem::contractionMismatchMessage(
                 name, toShape(lhs + lhsOffset, lhsRank, lhsStride), lhsDim,
                 toShape(rhs + rhsOffset, rhsRank, rhsStride), rhsDim));
  }
  leaveCompiledCode();
}

PTENSOR_RT_EXPORT void ptensor_rt_shapes_failed(
    const int64_t *, const int64_t *lhs, int64_t lhsOffset, int64_t lhsRank,
    int64_t lhsStride, const int64_t *, const int64_t *rhs, int64_t rhsOffset,
    int64_t rhsRank, int64_t rhsStride, int64_t op, int64_t operand,
    int64_t dim) {
  {
    // Scoped: the strings are gone before the jump. A slice out of its
    // source's bounds is an invalid argument (as the team slice's), every
    // other kind two shapes that do not fit together.
    setError(op == 5 ? ErrorKind::InvalidArgument : ErrorKind::Broadcast,
             shapesMessage(op, toShape(lhs + lhsOffset, lhsRank, lhsStride),
                           toShape(rhs + rhsOffset, rhsRank, rhsStride),
                           operand, dim));
  }
  leaveCompiledCode();
}

PTENSOR_RT_EXPORT void ptensor_rt_size_failed(const int64_t *,
                                              const int64_t *shape,
                                              int64_t shapeOffset,
                                              int64_t shapeRank,
                                              int64_t shapeStride, int64_t op,
                                              int64_t elementBytes,
                                              int64_t inferredDim) {
  {
    // Scoped: the string is gone before the jump.
    setError(ErrorKind::InvalidArgument,
             sem::invalidSizeMessage(
                 static_cast<sem::SizedOp>(op),
                 toShape(shape + shapeOffset, shapeRank, shapeStride),
                 elementBytes, inferredDim));
  }
  leaveCompiledCode();
}
} // extern "C"
