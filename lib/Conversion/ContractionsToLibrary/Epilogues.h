//===- Epilogues.h - consumers of a matrix product the library applies ----===//
//
// The elementwise consumer of a matrix product's f32 sums that cuBLASLt can
// compute in the product, so that the sums are never written: the rounding
// of f16/bf16 products to their result type, and relu(alpha * sums +
// bias[j]), each part optional (ptensor_rt_gemm_epilogue).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CONVERSION_CONTRACTIONSTOLIBRARY_EPILOGUES_H
#define PTENSOR_LIB_CONVERSION_CONTRACTIONSTOLIBRARY_EPILOGUES_H

#include "GemmMatch.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ptensor::gemm {

/// A consumer of a product's output that the library applies: it writes
/// the consumer's output instead of the sums.
struct Epilogue {
  /// The consumer (its output map is an identity: C's shape).
  linalg::GenericOp op;
  /// The consumer only rounds the f32 sums to the operands' f16/bf16: the
  /// library writes C in that type.
  bool rounding = false;
  /// Otherwise relu(alpha * sums + bias[j]): ptensor_rt_gemm_epilogue flags,
  /// the scale (1 for none) and, with PTENSOR_RT_GEMM_EPILOGUE_BIAS, the
  /// bias buffer: rank 1, or a vector broadcast along the rows (every
  /// stride but the last a static 0).
  int64_t flags = PTENSOR_RT_GEMM_EPILOGUE_NONE;
  double alpha = 1.0;
  Value bias;
  /// Where the consumer reads the sums through a view of the output (a
  /// `memref.reinterpret_cast` of it, as a dynamic broadcast gives): the
  /// view. The library applies the epilogue only when the view addresses
  /// the output as the output does at run time (no broadcast or permutation
  /// of the sums); null when the consumer reads the output itself.
  Value sumsView;
};

/// The epilogue cuBLASLt can apply to the output of `g` (matched as `m`),
/// if any: its only other reader is such a generic later in the block
/// (directly or through one view), and nothing between them writes memory
/// (run-time checks of sizes may stand there). Device functions only.
std::optional<Epilogue> findEpilogue(linalg::GenericOp g, const Gemm &m,
                                     bool device);

} // namespace mlir::ptensor::gemm

#endif // PTENSOR_LIB_CONVERSION_CONTRACTIONSTOLIBRARY_EPILOGUES_H
