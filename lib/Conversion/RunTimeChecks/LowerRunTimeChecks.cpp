//===- LowerRunTimeChecks.cpp - host cf.assert as a runtime call ----------===//

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"

#include "mlir/Conversion/LLVMCommon/PrintCallHelper.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORLOWERRUNTIMECHECKS
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

namespace {
struct LowerRunTimeChecks
    : mlir::ptensor::impl::PTensorLowerRunTimeChecksBase<LowerRunTimeChecks> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    module.walk([&](cf::AssertOp op) {
      if (!op->getParentOfType<gpu::GPUModuleOp>())
        asserts.push_back(op);
    });
    if (asserts.empty())
      return;
    LLVMTypeConverter converter(&getContext());
    SymbolTableCollection symbolTables;
    for (cf::AssertOp op : asserts) {
      Location loc = op.getLoc();
      Block *check = op->getBlock();
      Block *rest = check->splitBlock(std::next(op->getIterator()));
      Block *failure = new Block();
      check->getParent()->getBlocks().insertAfter(check->getIterator(),
                                                  failure);
      OpBuilder b = OpBuilder::atBlockEnd(failure);
      if (failed(LLVM::createPrintStrCall(b, loc, module, "ptensor_check",
                                          op.getMsg(), converter,
                                          /*addNewline=*/false,
                                          kCheckFailedFunction.str(),
                                          &symbolTables))) {
        op.emitOpError("cannot call ") << kCheckFailedFunction;
        return signalPassFailure();
      }
      LLVM::UnreachableOp::create(b, loc);
      b.setInsertionPoint(op);
      cf::CondBranchOp::create(b, loc, op.getArg(), rest, ValueRange(),
                               failure, ValueRange());
      op.erase();
    }
  }
};
} // namespace
