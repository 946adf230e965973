//===- BoolBytes.cpp - bools in memory as bytes for the vectorizer --------===//

#include "BoolBytes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <vector>

using namespace llvm;

/// Whether `type` is a scalar bool (a vector of i1 is bit packed in memory).
static bool isBool(Type *type) { return type->isIntegerTy(1); }

void ptensor::compiler::widenBoolMemoryAccesses(Module &module) {
  std::vector<Instruction *> accesses;
  for (Function &function : module)
    for (Instruction &inst : instructions(function)) {
      if (auto *load = dyn_cast<LoadInst>(&inst)) {
        if (load->isSimple() && isBool(load->getType()))
          accesses.push_back(load);
      } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
        if (store->isSimple() && isBool(store->getValueOperand()->getType()))
          accesses.push_back(store);
      }
    }
  for (Instruction *inst : accesses) {
    IRBuilder<> b(inst);
    Type *byte = b.getInt8Ty();
    if (auto *load = dyn_cast<LoadInst>(inst)) {
      LoadInst *wide =
          b.CreateAlignedLoad(byte, load->getPointerOperand(), load->getAlign());
      wide->copyMetadata(*load);
      wide->setMetadata(LLVMContext::MD_range, nullptr); // an i1's range
      Value *nonzero = b.CreateICmpNE(wide, ConstantInt::get(byte, 0));
      load->replaceAllUsesWith(nonzero);
      load->eraseFromParent();
      continue;
    }
    auto *store = cast<StoreInst>(inst);
    Value *value = b.CreateZExt(store->getValueOperand(), byte);
    StoreInst *wide = b.CreateAlignedStore(value, store->getPointerOperand(),
                                           store->getAlign());
    wide->copyMetadata(*store);
    store->eraseFromParent();
  }
}
