//===- FoldUnitDims.cpp - static size-1 loop dims dropped -----------------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORFOLDUNITDIMS
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;

namespace {

/// Whether a loop of `op` has a static trip count of 0: the op does no work
/// and keeps its dims (see the pass description).
bool hasEmptyLoop(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && llvm::is_contained(linalgOp.getStaticLoopRanges(), 0);
}

struct FoldUnitDims
    : mlir::ptensor::impl::PTensorFoldUnitDimsBase<FoldUnitDims> {
  void runOnOperation() override {
    linalg::ControlDropUnitDims options;
    options.rankReductionStrategy =
        linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
    linalg::ControlDropUnitDims::ControlFnTy dropAll = options.controlFn;
    options.controlFn = [dropAll](Operation *op) -> SmallVector<unsigned> {
      if (hasEmptyLoop(op))
        return {};
      return dropAll(op);
    };
    RewritePatternSet patterns(&getContext());
    linalg::populateFoldUnitExtentDimsPatterns(patterns, options);
    linalg::populateMoveInitOperandsToInputPattern(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
