//===- UseHostAllocator.cpp - host buffers from the caching allocator -----===//

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORUSEHOSTALLOCATOR
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

namespace {
struct UseHostAllocator
    : mlir::ptensor::impl::PTensorUseHostAllocatorBase<UseHostAllocator> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto [from, to] : {std::pair{StringRef("malloc"), kHostAllocFunction},
                            std::pair{StringRef("free"), kHostFreeFunction}}) {
      auto declaration = symbols.lookup<LLVM::LLVMFuncOp>(from);
      if (!declaration || !declaration.isExternal())
        continue;
      if (symbols.lookup(to)) {
        // Declared already (a second run): calls of `from` move to it.
        if (failed(SymbolTable::replaceAllSymbolUses(
                declaration, StringAttr::get(&getContext(), to), module)))
          return signalPassFailure();
        symbols.erase(declaration);
        continue;
      }
      if (failed(symbols.rename(declaration, to)))
        return signalPassFailure();
    }
  }
};
} // namespace
