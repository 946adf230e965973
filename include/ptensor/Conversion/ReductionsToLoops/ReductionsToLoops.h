//===- ReductionsToLoops.h - CPU loops for reduction generics ---*- C++ -*-===//

#ifndef PTENSOR_CONVERSION_REDUCTIONSTOLOOPS_REDUCTIONSTOLOOPS_H
#define PTENSOR_CONVERSION_REDUCTIONSTOLOOPS_REDUCTIONSTOLOOPS_H

#include "mlir/Pass/Pass.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_CONVERTPTENSORREDUCTIONSTOLOOPS
#include "ptensor/Conversion/Passes.h.inc"

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_REDUCTIONSTOLOOPS_REDUCTIONSTOLOOPS_H
