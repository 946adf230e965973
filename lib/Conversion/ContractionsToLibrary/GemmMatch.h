//===- GemmMatch.h - a matrix-product generic as a library call sees it ---===//
//
// What convert-ptensor-contractions-to-library reads off a matched generic
// (ContractionsToLibrary.cpp matches it; Epilogues.cpp looks at its
// consumer): the loops of each role and the element types, in
// libptensor_runtime's codes.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_CONTRACTIONSTOLIBRARY_GEMMMATCH_H
#define PTENSOR_LIB_CONVERSION_CONTRACTIONSTOLIBRARY_GEMMMATCH_H

#include "ptensor/Runtime/Gemm.h"

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::ptensor::gemm {

/// ptensor_rt_gemm_type (ptensor/Runtime/Gemm.h owns the codes).
enum class GemmType : int64_t {
  F32 = PTENSOR_RT_GEMM_F32,
  F64 = PTENSOR_RT_GEMM_F64,
  F16 = PTENSOR_RT_GEMM_F16,
  BF16 = PTENSOR_RT_GEMM_BF16,
};

inline std::optional<GemmType> gemmType(Type t) {
  if (t.isF32())
    return GemmType::F32;
  if (t.isF64())
    return GemmType::F64;
  if (t.isF16())
    return GemmType::F16;
  if (t.isBF16())
    return GemmType::BF16;
  return std::nullopt;
}

/// A matched matrix-product generic: the loops of each role and the types.
/// Several contracted loops (a tensordot over pairs of axes) are `k`, in
/// the order the lhs indexes them: the call sees one loop of their product
/// where both operands' strides allow it, which is checked at run time.
struct Gemm {
  std::optional<unsigned> batch;
  unsigned i, j;
  SmallVector<unsigned, 2> k;
  GemmType abType, cType;
};

} // namespace mlir::ptensor::gemm

#endif // PTENSOR_LIB_CONVERSION_CONTRACTIONSTOLIBRARY_GEMMMATCH_H
