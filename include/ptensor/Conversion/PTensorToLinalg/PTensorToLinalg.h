//===- PTensorToLinalg.h - ptensor to linalg conversion ----------*- C++ -*-===//

#ifndef PTENSOR_CONVERSION_PTENSORTOLINALG_PTENSORTOLINALG_H
#define PTENSOR_CONVERSION_PTENSORTOLINALG_PTENSORTOLINALG_H

#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_CONVERTPTENSORTOLINALG
#include "ptensor/Conversion/Passes.h.inc"

/// Converts `!ptensor.ptensor` to builtin ranked tensors with signless
/// element types; other types are kept.
class PTensorToTensorTypeConverter : public TypeConverter {
public:
  PTensorToTensorTypeConverter();
};

/// Adds the patterns lowering every ptensor op to linalg/tensor/memref ops.
void populatePTensorToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_PTENSORTOLINALG_PTENSORTOLINALG_H
