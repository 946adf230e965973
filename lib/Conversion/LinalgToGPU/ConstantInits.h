//===- ConstantInits.h - reductions started from constants ------*- C++ -*-===//
//
// A reduction generic merges into its outputs' current values (linalg's
// semantics), so the lowering from ptensor fills each output with the
// combiner's identity just before: on the GPU a kernel of its own, and the
// reduction's last step loads what it wrote. Where every output of a
// reduction is filled with a constant right before it (nothing but ops
// without memory effects, or allocations, in between), the fills go and
// the reduction merges into those constants in registers: one launch and
// one load per output fewer, the same results (the merge is the same).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_CONSTANTINITS_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_CONSTANTINITS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::ptensor {

/// The attribute (an array of one typed constant per output) through which
/// foldConstantInits tells the reduction kernels what each output holds.
inline constexpr llvm::StringLiteral kConstantInitsAttrName =
    "ptensor.constant_inits";

/// Erases the fills of every reduction of `f` whose outputs are all filled
/// with constants just before it, and marks the reduction with them.
void foldConstantInits(RewriterBase &rewriter, func::FuncOp f);

/// The constants `op`'s outputs start as (foldConstantInits), if marked.
std::optional<SmallVector<TypedAttr>> constantInitsOf(linalg::GenericOp op);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_CONSTANTINITS_H
