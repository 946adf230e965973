//===- BF16Libcalls.cpp - a definition of __truncsfbf2 in bf16 modules ----===//
//
// LLVM legalizes some bf16 operations on x86 without AVX512-BF16 (a select
// of bf16 values, ceil/floor of an fpext that InstCombine narrowed back to
// bf16, ...) by widening them to f32 and calling `__truncsfbf2` to round
// back. libgcc has that symbol only from GCC 13 (Debian 12 ships 12), so
// JIT-compiled code fails with "Symbols not found: __truncsfbf2" and
// ahead-of-time libraries fail to load. This pass gives every module that
// mentions bf16 its own weak definition (rounding to nearest even on the
// bits, NaN kept quiet); where the system has one, either may be used.
//
//===----------------------------------------------------------------------===//

#include "PipelineStages.h"

#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

/// The compiler-rt/libgcc name of the f32 -> bf16 conversion.
static constexpr llvm::StringLiteral kTruncSFBF2 = "__truncsfbf2";

/// True when any op of `module` has an operand, result or block argument
/// whose type contains bf16.
static bool mentionsBF16(ModuleOp module) {
  auto hasBF16 = [](Type t) {
    bool found = false;
    t.walk([&](Type nested) { found |= nested.isBF16(); });
    return found;
  };
  WalkResult r = module.walk([&](Operation *op) {
    for (Type t : op->getOperandTypes())
      if (hasBF16(t))
        return WalkResult::interrupt();
    for (Type t : op->getResultTypes())
      if (hasBF16(t))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type t : block.getArgumentTypes())
          if (hasBF16(t))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

namespace {
struct DefineBF16Libcalls
    : public PassWrapper<DefineBF16Libcalls, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DefineBF16Libcalls)

  StringRef getArgument() const override {
    return "ptensor-define-bf16-libcalls";
  }
  StringRef getDescription() const override {
    return "Defines __truncsfbf2 (weak) in modules that use bf16, for "
           "targets whose libgcc lacks it";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module.lookupSymbol(kTruncSFBF2) || !mentionsBF16(module))
      return;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Location loc = module.getLoc();
    auto fn = func::FuncOp::create(
        b, loc, kTruncSFBF2,
        b.getFunctionType({b.getF32Type()}, {b.getBF16Type()}));
    fn->setAttr("llvm.linkage",
                LLVM::LinkageAttr::get(&getContext(), LLVM::Linkage::Weak));
    b.setInsertionPointToStart(fn.addEntryBlock());
    func::ReturnOp::create(
        b, loc, mlir::ptensor::truncF32ToBF16(b, loc, fn.getArgument(0)));
  }
};
} // namespace

std::unique_ptr<Pass> mlir::ptensor::createDefineBF16LibcallsPass() {
  return std::make_unique<DefineBF16Libcalls>();
}

void mlir::ptensor::registerDefineBF16LibcallsPass() {
  PassRegistration<DefineBF16Libcalls>();
}
