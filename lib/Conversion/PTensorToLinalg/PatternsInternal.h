//===- PatternsInternal.h - pattern groups of convert-ptensor-to-linalg ---===//

#ifndef PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_PATTERNSINTERNAL_H
#define PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_PATTERNSINTERNAL_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ptensor {

/// Elementwise ops, cast and pointwise to linalg.generic.
void populateElementwiseToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);

/// create, arange, linspace, from_ranked, to_ranked, copy, dim.
void populateCreationToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);

/// broadcast and the views, as indexing maps or strided memref views.
void populateViewsToMemRefPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_PTENSORTOLINALG_PATTERNSINTERNAL_H
