//===- Status.h - statuses, errors and failed checks ------*- C -*-===//
///
/// \file
/// The part of libptensor_runtime's C ABI that needs no other header: the
/// export macro, the status codes, the last error, and what compiled code
/// calls when one of its run-time checks fails. Included by PTensorRuntime.h; usable alone
/// (e.g. by a binding that only calls compiled code).
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_STATUS_H
#define PTENSOR_RUNTIME_STATUS_H

#include <setjmp.h>
#include <stdint.h>

/// Marks a symbol exported from libptensor_runtime (built with hidden
/// visibility by default).
#if defined(_WIN32)
#define PTENSOR_RT_EXPORT __declspec(dllexport)
#else
#define PTENSOR_RT_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Result code of the ptensor_rt_* functions.
typedef enum ptensor_rt_status {
  PTENSOR_RT_SUCCESS = 0,
  /// An argument was invalid (null pointer, bad rank, unknown pointer, ...).
  PTENSOR_RT_ERROR_INVALID_ARGUMENT = 1,
  /// The CUDA driver library could not be loaded or initialized, or no
  /// CUDA device is visible.
  PTENSOR_RT_ERROR_NO_DRIVER = 2,
  /// A device allocation failed even after the allocator freed its cache.
  PTENSOR_RT_ERROR_OUT_OF_MEMORY = 3,
  /// A CUDA driver call failed.
  PTENSOR_RT_ERROR_CUDA = 4,
  /// The request is valid but not supported (e.g. a DLPack dtype).
  PTENSOR_RT_ERROR_UNSUPPORTED = 5,
  /// A run-time check of compiled code failed: sizes known only at run time
  /// do not broadcast.
  PTENSOR_RT_ERROR_BROADCAST = 6,
  /// Another run-time check of compiled code failed (see the message).
  PTENSOR_RT_ERROR_CHECK_FAILED = 7,
} ptensor_rt_status;

/// Returns the message of the last error recorded on the calling thread, or
/// "" if none. The string stays valid until the next ptensor runtime call on
/// this thread. Messages start with "ptensor runtime: ".
PTENSOR_RT_EXPORT const char *ptensor_rt_last_error(void);

/// Clears the calling thread's last error.
PTENSOR_RT_EXPORT void ptensor_rt_clear_last_error(void);

//===----------------------------------------------------------------------===//
// Run-time checks of compiled code
//===----------------------------------------------------------------------===//

/// Compiled code checks what its types leave open (dynamic sizes that must
/// broadcast, ...) and calls ptensor_rt_check_failed or
/// ptensor_rt_broadcast_failed when a check fails. Those functions record
/// the error on the calling thread (PTENSOR_RT_ERROR_BROADCAST or
/// PTENSOR_RT_ERROR_CHECK_FAILED, with a message naming the real sizes) and
/// then never return:
///  * if the thread has a trap (ptensor_rt_trap_push), they pop it and
///    `longjmp` to it, so the caller gets the error as a value;
///  * otherwise they print the message to stderr and abort, like `assert`.
///
/// A caller that wants errors as values:
///
///     ptensor_rt_trap trap;
///     ptensor_rt_trap_push(&trap);
///     if (setjmp(trap.env) == 0) {
///       entry(args);              /* the compiled function */
///       ptensor_rt_trap_pop(&trap);
///     } else {
///       /* failed: ptensor_rt_last_error() says why; the trap is popped */
///     }
///
/// The jump skips the frames of compiled code only (which hold no
/// resources but memory allocated before the failing check, which leaks:
/// checks come before the work they guard). Traps nest per thread.
typedef struct ptensor_rt_trap {
  jmp_buf env;
  struct ptensor_rt_trap *previous; /* set by ptensor_rt_trap_push */
} ptensor_rt_trap;

/// Makes `trap` the calling thread's innermost trap.
PTENSOR_RT_EXPORT void ptensor_rt_trap_push(ptensor_rt_trap *trap);

/// Removes `trap`, which must be the calling thread's innermost trap.
PTENSOR_RT_EXPORT void ptensor_rt_trap_pop(ptensor_rt_trap *trap);

/// Calls `entry(args)` (a packed entry point, docs/ABI.md) under a trap.
/// Returns PTENSOR_RT_SUCCESS, or the status of the check that failed
/// (PTENSOR_RT_ERROR_BROADCAST, PTENSOR_RT_ERROR_CHECK_FAILED) with its
/// message in ptensor_rt_last_error().
PTENSOR_RT_EXPORT ptensor_rt_status
ptensor_rt_call_checked(void (*entry)(void **), void **args);

/// Called by compiled code when a check fails; `message` says which.
PTENSOR_RT_EXPORT void ptensor_rt_check_failed(const char *message)
    __attribute__((noreturn));

/// Called by compiled code when the run-time sizes of a broadcast's source
/// (`sourceRank` of them) do not broadcast to its target's. The arguments
/// are those of `ptensor_rt_broadcast_failed(memref<?xi64>, memref<?xi64>)`
/// in MLIR's default calling convention (each memref expanded to allocated
/// and aligned pointers, offset, size and stride).
PTENSOR_RT_EXPORT void ptensor_rt_broadcast_failed(
    const int64_t *sourceAllocated, const int64_t *source, int64_t sourceOffset,
    int64_t sourceRank, int64_t sourceStride, const int64_t *targetAllocated,
    const int64_t *target, int64_t targetOffset, int64_t targetRank,
    int64_t targetStride) __attribute__((noreturn));

/// Called by compiled code when contracted dims of a matmul (`op` 0),
/// vecdot (1) or tensordot (2) differ at run time: dim `lhsDim` of the lhs
/// shape against dim `rhsDim` of the rhs shape. The shapes are passed as
/// `memref<?xi64>` like ptensor_rt_broadcast_failed's.
PTENSOR_RT_EXPORT void ptensor_rt_contraction_failed(
    const int64_t *lhsAllocated, const int64_t *lhs, int64_t lhsOffset,
    int64_t lhsRank, int64_t lhsStride, const int64_t *rhsAllocated,
    const int64_t *rhs, int64_t rhsOffset, int64_t rhsRank, int64_t rhsStride,
    int64_t lhsDim, int64_t rhsDim, int64_t op) __attribute__((noreturn));

/// Called by compiled code when the run-time shapes of a data-movement op
/// do not fit: `op` 0 is a reshape of shape `lhs` into `rhs` (the requested
/// sizes, -1 for the inferred one) whose element counts differ; `op` 1
/// (concat) and 2 (stack) an operand `operand` of shape `rhs` whose dim
/// `dim` differs from operand 0's shape `lhs`; `op` 3 an extract_mask whose
/// mask shape `rhs` is not the first dims of the source shape `lhs`; `op` 4
/// a searchsorted whose sorter shape `rhs` differs from the sorted shape
/// `lhs`. The shapes are passed as
/// `memref<?xi64>` like ptensor_rt_broadcast_failed's.
PTENSOR_RT_EXPORT void ptensor_rt_shapes_failed(
    const int64_t *lhsAllocated, const int64_t *lhs, int64_t lhsOffset,
    int64_t lhsRank, int64_t lhsStride, const int64_t *rhsAllocated,
    const int64_t *rhs, int64_t rhsOffset, int64_t rhsRank, int64_t rhsStride,
    int64_t op, int64_t operand, int64_t dim) __attribute__((noreturn));

/// Called by compiled code when a shape the caller gave at run time has a
/// negative size or needs more than 2^62 bytes: `shape` is the requested
/// shape with its real sizes, `op` the op that asked (semantics::SizedOp:
/// 0 create, 1 eye, 2 broadcast_to, 3 reshape, 4 linspace, 5 arange),
/// `elementBytes` the size of its elements, `inferredDim` the index of a
/// reshape's inferred size (its -1 is not an error) or -1. The error kind
/// is INVALID_ARGUMENT. The shape is passed as `memref<?xi64>` like
/// ptensor_rt_broadcast_failed's.
PTENSOR_RT_EXPORT void ptensor_rt_size_failed(const int64_t *shapeAllocated,
                                              const int64_t *shape,
                                              int64_t shapeOffset,
                                              int64_t shapeRank,
                                              int64_t shapeStride, int64_t op,
                                              int64_t elementBytes,
                                              int64_t inferredDim)
    __attribute__((noreturn));

#ifdef __cplusplus
} // extern "C"
#endif

#endif // PTENSOR_RUNTIME_STATUS_H
