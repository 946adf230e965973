//===- Contractions.h - matmul, vecdot, tensordot as contractions -*- C++ -*-===//
//
// The semantics library's description (ptensor/Semantics/Contraction.h) of
// a verified ptensor.matmul, ptensor.vecdot or ptensor.tensordot: the one
// loop nest their lowering builds.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_IR_CONTRACTIONS_H
#define PTENSOR_DIALECT_PTENSOR_IR_CONTRACTIONS_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Semantics/Contraction.h"

namespace mlir::ptensor {

/// The contraction of a matmul, vecdot or tensordot op (which must
/// verify), or std::nullopt for other ops.
std::optional<::ptensor::semantics::Contraction> getContraction(Operation *op);

/// The name the semantics library uses for the op ("matmul", ...).
StringRef getContractionName(Operation *op);

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_IR_CONTRACTIONS_H
