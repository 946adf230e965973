//===- KernelOccupancy.cpp - kernels keep the occupancy of their grids ----===//
//
// See Passes.td (ptensor-kernel-occupancy).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Conversion/GPUModules/GPUModules.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORKERNELOCCUPANCY
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

namespace {

struct PTensorKernelOccupancyPass
    : public mlir::ptensor::impl::PTensorKernelOccupancyBase<
          PTensorKernelOccupancyPass> {
  void runOnOperation() override {
    for (auto kernel : getOperation().getOps<gpu::GPUFuncOp>()) {
      int64_t blocks = 0;
      kernel.walk([&](Operation *op) {
        auto marker =
            op->getAttrOfType<IntegerAttr>(ptensor::kMinBlocksPerSMAttr);
        if (!marker)
          return;
        blocks = std::max(blocks, marker.getInt());
        op->removeAttr(ptensor::kMinBlocksPerSMAttr);
      });
      if (blocks == 0)
        continue;
      auto i32 = IntegerType::get(&getContext(), 32);
      kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      IntegerAttr::get(i32, blocks));
    }
  }
};

} // namespace
