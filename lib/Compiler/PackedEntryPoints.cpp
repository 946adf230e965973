//===- PackedEntryPoints.cpp - `_ptensor_packed_NAME(void **args)` --------===//

#include "PackedEntryPoints.h"

#include "ptensor/Compiler/Signature.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace ptensor::compiler {

void addPackedEntryPoints(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::StringRef prefix = "_mlir_ciface_";
  llvm::SmallVector<llvm::Function *> entries;
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && f.getName().starts_with(prefix))
      entries.push_back(&f);
  auto *ptrType = llvm::PointerType::getUnqual(context);
  auto *packedType = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                             {ptrType}, /*isVarArg=*/false);
  for (llvm::Function *entry : entries) {
    std::string name = (jit::kPackedEntryPrefix +
                        entry->getName().drop_front(prefix.size()))
                           .str();
    auto *packed = llvm::Function::Create(
        packedType, llvm::GlobalValue::ExternalLinkage, name, module);
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", packed));
    llvm::Value *args = packed->getArg(0);
    llvm::SmallVector<llvm::Value *> values;
    for (auto [i, param] : llvm::enumerate(entry->args())) {
      llvm::Value *slot = builder.CreateConstGEP1_64(ptrType, args, i);
      llvm::Value *address = builder.CreateLoad(ptrType, slot);
      values.push_back(builder.CreateLoad(param.getType(), address));
    }
    builder.CreateCall(entry, values);
    builder.CreateRetVoid();
  }
}

} // namespace ptensor::compiler
