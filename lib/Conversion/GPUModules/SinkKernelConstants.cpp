//===- SinkKernelConstants.cpp - kernels see their constants --------------===//
//
// See Passes.td (ptensor-sink-kernel-constants).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Conversion/GPUModules/GPUModules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORSINKKERNELCONSTANTS
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

namespace {

/// Ops worth recomputing in a kernel rather than passing their results (the
/// choice of upstream gpu-launch-sink-index-computations).
bool isSinkable(Operation *op) {
  return matchPattern(op, m_Constant()) ||
         isa<memref::DimOp, arith::SelectOp, arith::CmpIOp>(op);
}

struct PTensorSinkKernelConstantsPass
    : public mlir::ptensor::impl::PTensorSinkKernelConstantsBase<
          PTensorSinkKernelConstantsPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([](gpu::LaunchOp launch) {
      if (launch->hasAttr(ptensor::kKeepKernelParametersAttr))
        return WalkResult::advance();
      if (failed(sinkOperationsIntoLaunchOp(launch, isSinkable)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
