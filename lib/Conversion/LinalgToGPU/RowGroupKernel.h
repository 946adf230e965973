//===- RowGroupKernel.h - one gpu.launch for a row group --------*- C++ -*-===//

#ifndef PTENSOR_LIB_CONVERSION_LINALGTOGPU_ROWGROUPKERNEL_H
#define PTENSOR_LIB_CONVERSION_LINALGTOGPU_ROWGROUPKERNEL_H

#include "RowGroups.h"

#include "ptensor/Conversion/LinalgToGPU/KernelConfig.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::ptensor {

/// Replaces the members of a row group by one kernel with a block per row,
/// where there are rows enough to fill the GPU (tested at run time; else
/// each member's own kernels). Fails, with the IR partly rewritten, only
/// where a member's own lowering does (findRowGroups takes only generics
/// those lowerings take).
LogicalResult convertRowGroupToKernel(RewriterBase &rewriter,
                                      const RowGroup &group,
                                      const KernelConfig &config);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_LINALGTOGPU_ROWGROUPKERNEL_H
