//===- SortToLibrary.h - sorts as runtime calls -------------------*- C++ -*-===//
//
// ptensor.sort_along on buffers (the lowering of ptensor.sort/argsort)
// becomes a call of libptensor_runtime's sort (ptensor/Runtime/Sort.h).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CONVERSION_SORTTOLIBRARY_SORTTOLIBRARY_H
#define PTENSOR_CONVERSION_SORTTOLIBRARY_SORTTOLIBRARY_H

#include "mlir/Pass/Pass.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_CONVERTPTENSORSORTTOLIBRARY
#include "ptensor/Conversion/Passes.h.inc"

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_SORTTOLIBRARY_SORTTOLIBRARY_H
