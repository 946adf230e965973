//===- RunTimeChecks.h - failed run-time checks as runtime calls -*- C++ -*-===//
//
// Compiled code checks what its types leave open at run time. A failed
// check calls libptensor_runtime (ptensor_rt_check_failed, or
// ptensor_rt_broadcast_failed with the real sizes), which gives the error to
// the caller's trap instead of aborting the process.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CONVERSION_RUNTIMECHECKS_RUNTIMECHECKS_H
#define PTENSOR_CONVERSION_RUNTIMECHECKS_RUNTIMECHECKS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "ptensor/Semantics/Manipulation.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_PTENSORLOWERRUNTIMECHECKS
#define GEN_PASS_DECL_PTENSORUSEHOSTALLOCATOR
#include "ptensor/Conversion/Passes.h.inc"

/// The runtime functions host buffers come from and go back to
/// (ptensor-use-host-allocator; runtime/lib/HostAllocator.cpp).
inline constexpr llvm::StringLiteral kHostAllocFunction =
    "ptensor_rt_host_alloc";
inline constexpr llvm::StringLiteral kHostFreeFunction =
    "ptensor_rt_host_free";

/// The runtime function parallel loop nests take their thread count from
/// (ptensor-parallel-threshold).
inline constexpr llvm::StringLiteral kHostThreadsFunction =
    "ptensor_rt_host_threads";

/// The runtime function a failed host check calls with its message.
inline constexpr llvm::StringLiteral kCheckFailedFunction =
    "ptensor_rt_check_failed";

/// The private declaration of runtime function `name` with `inputs` and
/// `results` in `module`, declared once (every call of libptensor_runtime
/// from compiled code goes through this).
func::FuncOp getOrDeclareRuntimeFunction(OpBuilder &b, ModuleOp module,
                                         StringRef name, TypeRange inputs,
                                         TypeRange results);

/// A stack buffer (memref.alloca) holding the index values `sizes` as i64,
/// cast to memref<?xi64>: how compiled code passes shapes to the runtime.
Value buildIndexArray(OpBuilder &b, Location loc, ValueRange sizes);

/// Builds, at `b`'s insertion point in host code, a check that `source`
/// (run-time sizes) broadcasts to `target` (run-time sizes, at least as
/// many): when it does not, the runtime's
/// `ptensor_rt_broadcast_failed(memref<?xi64>, memref<?xi64>)` is called
/// with both shapes and never returns.
void buildBroadcastCheck(OpBuilder &b, Location loc, ValueRange source,
                         ValueRange target);

/// The contraction op a failed contraction check names; the values are the
/// runtime ABI's (ptensor_rt_contraction_failed's last argument).
enum class ContractionKind : int64_t { Matmul = 0, Vecdot = 1, Tensordot = 2 };

/// Builds, at `b`'s insertion point in host code, a check that dim
/// `lhsDim` of `lhs` (run-time sizes) equals dim `rhsDim` of `rhs`: when
/// they differ, the runtime's `ptensor_rt_contraction_failed` is called
/// with both shapes and never returns.
void buildContractionCheck(OpBuilder &b, Location loc, ContractionKind kind,
                           ValueRange lhs, int64_t lhsDim, ValueRange rhs,
                           int64_t rhsDim);

/// The op a failed shape check of a data-movement op names; the values are
/// the runtime ABI's (ptensor_rt_shapes_failed's `op`).
enum class ShapeCheckKind : int64_t {
  Reshape = 0,
  Concat = 1,
  Stack = 2,
  ExtractMask = 3,
  Searchsorted = 4,
  /// lhs: the source's shape, rhs: (offset, size, step) of dimension `dim`
  ExtractSlice = 5
};

/// Builds, at `b`'s insertion point in host code, a check that `ok` holds:
/// when it does not, the runtime's `ptensor_rt_shapes_failed` is called
/// with shapes `lhs` and `rhs` (run-time sizes), `operand` and `dim`, and
/// never returns.
void buildShapesCheck(OpBuilder &b, Location loc, Value ok,
                      ShapeCheckKind kind, ValueRange lhs, ValueRange rhs,
                      int64_t operand = 0, int64_t dim = 0);

/// Builds, at `b`'s insertion point in host code, a check of the requested
/// result shape `shape` of `op` (static sizes as constants) with elements of
/// `elementBytes` bytes: every size is >= 0 and the shape needs at most
/// semantics::kMaxArrayBytes (sizes of 0 counted as 1; checked without
/// overflow). `inferredDim` is the index of a reshape's static -1 (the
/// inferred size, not checked), or -1. When the check fails, the runtime's
/// `ptensor_rt_size_failed(memref<?xi64>, i64 op, i64 elementBytes, i64
/// inferredDim)` is called with the shape and never returns. Builds nothing
/// when every size is known (an attribute or a constant >= 0) and the bytes
/// fit; a static shape that does not fit fails when the code runs.
void buildSizesCheck(OpBuilder &b, Location loc, ::ptensor::semantics::SizedOp op,
                     ArrayRef<OpFoldResult> shape, int64_t elementBytes,
                     int64_t inferredDim = -1);

/// buildSizesCheck of the shape `staticShape` whose dynamic sizes
/// (ShapedType::kDynamic) are `dynamicSizes`, in order.
void buildSizesCheck(OpBuilder &b, Location loc, ::ptensor::semantics::SizedOp op,
                     ArrayRef<int64_t> staticShape, ValueRange dynamicSizes,
                     int64_t elementBytes);

/// Whether `op` is a run-time check built by the functions above: an
/// `scf.if` without results whose region only fills stack buffers with
/// sizes and calls a runtime function that reports the failure. It reads
/// and writes no other memory, so code that moves buffer accesses may move
/// them across it.
bool isRunTimeCheck(Operation *op);

/// The bytes of one element of `elementType` in memory (i1: one byte).
int64_t getElementBytes(Type elementType);

/// The code of integer `type` in a runtime C enum that lists the 8, 16, 32
/// and 64-bit types of a signedness in that order from `signed8` and
/// `unsigned8` (ptensor_rt_sort_type, ptensor_rt_team_type); nullopt for
/// other widths.
std::optional<int64_t> getWidthOrderedCode(IntegerType type, int64_t signed8,
                                           int64_t unsigned8);

/// Whether the codes of the 8, 16, 32 and 64-bit types of a signedness are
/// in the order getWidthOrderedCode counts in (checked where a runtime enum
/// is used, with static_assert).
constexpr bool areCodesInWidthOrder(int64_t code8, int64_t code16,
                                    int64_t code32, int64_t code64) {
  return code16 == code8 + 1 && code32 == code8 + 2 && code64 == code8 + 3;
}

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_RUNTIMECHECKS_RUNTIMECHECKS_H
