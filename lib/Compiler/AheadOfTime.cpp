//===- AheadOfTime.cpp - ptensor IR to an object with the module ABI ------===//

#include "PackedEntryPoints.h"
#include "ptensor/Compiler/ParserHazards.h"
#include "ptensor/Compiler/PendingCubins.h"

#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Compiler/Signature.h"
#include "ptensor/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace ptensor::compiler {

/// Records in `compiled` which shared libraries the external functions that
/// `module` calls come from: the OpenMP runtime (`__kmpc_*`) and
/// libptensor_runtime (`mgpu*` for GPU launches, memory and streams,
/// `ptensor_rt_*` for failed run-time checks).
static void findRuntimeLibraries(ModuleOp module, CompiledObject &compiled) {
  // OpenMP's runtime calls appear only in the translation to LLVM IR.
  module.walk([&](Operation *op) {
    if (isa<omp::OpenMPDialect>(op->getDialect()))
      compiled.usesOpenMPRuntime = true;
  });
  for (LLVM::LLVMFuncOp f : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!f.isExternal())
      continue;
    llvm::StringRef name = f.getName();
    compiled.usesOpenMPRuntime |=
        name.starts_with("__kmpc_") || name.starts_with("omp_");
    compiled.usesRuntime |=
        name.starts_with("mgpu") || name.starts_with("ptensor_rt_");
    compiled.usesTeamRuntime |= name.starts_with("ptensor_rt_team_");
  }
}

/// Emits `llvmModule` as object code into `object`.
static llvm::Error emitObject(llvm::Module &llvmModule,
                              llvm::TargetMachine &tm, std::string &object) {
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the target cannot emit object files");
  pm.run(llvmModule);
  object.assign(buffer.begin(), buffer.end());
  return llvm::Error::success();
}

llvm::Expected<CompiledObject>
compileToObject(ModuleOp module, const CompileOptions &options,
                const StageCallback &onStage) {
  auto done = [&](llvm::StringRef stage) {
    if (onStage)
      onStage(stage);
  };
  MLIRContext *context = module.getContext();
  auto signatures = jit::readSignatures(module);
  if (!signatures)
    return signatures.takeError();
  for (auto f : module.getOps<func::FuncOp>())
    if (f.isPublic() && !f.isExternal())
      f->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                 UnitAttr::get(context));

  CompiledObject compiled;
  compiled.target = resolveTarget(
      options, llvm::any_of(*signatures, jit::ValueType::anyOnGPU));
  // CUDA kernels are assembled by ptxas while the host code compiles.
  std::unique_ptr<PendingCubins> cubins;
  if (compiled.target == Target::CUDA) {
    auto pending = lowerToLLVMDialectAssemblingKernels(module, options);
    if (!pending)
      return pending.takeError();
    cubins = std::move(*pending);
  } else if (llvm::Error e =
                 lowerToLLVMDialect(module, compiled.target, options)) {
    return std::move(e);
  }
  done(cubins ? "lower (kernels to PTX)" : "lower");
  findRuntimeLibraries(module, compiled);

  llvm::LLVMContext llvmContext;
  auto llvmModule = translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed");
  // Parallel code forks through the runtime, which loads libomp on the
  // first fork; the runtime is linked anyway (host allocations).
  if (compiled.usesOpenMPRuntime &&
      forwardOpenMPCallsToRuntime(*llvmModule)) {
    compiled.usesOpenMPRuntime = false;
    compiled.usesRuntime = true;
  }
  auto tm = createHostTargetMachine(options.optLevel, options.hostCPU);
  if (!tm)
    return tm.takeError();
  ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(), tm->get());
  if (llvm::Error e =
          optimizeHostModule(*llvmModule, **tm, options.optLevel))
    return std::move(e);
  addPackedEntryPoints(*llvmModule);
  std::string json =
      jit::writeSignatureJson(*signatures, getTargetName(compiled.target),
                              options.teamSize);
  auto *text = llvm::ConstantDataArray::getString(llvmContext, json);
  new llvm::GlobalVariable(*llvmModule, text->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, text,
                           jit::kSignatureSymbol);
  done("LLVM IR + optimize");
  if (cubins)
    if (llvm::Error e = cubins->referenceExternally(*llvmModule))
      return std::move(e);
  if (llvm::Error e = emitObject(*llvmModule, **tm, compiled.object))
    return std::move(e);
  done("codegen");
  if (cubins) {
    auto cubinModule = cubins->cubinModule(*llvmModule);
    if (!cubinModule)
      return cubinModule.takeError();
    if (llvm::Error e = emitObject(**cubinModule, **tm, compiled.cubins))
      return std::move(e);
    done("ptxas (the wait for it)");
  }
  return compiled;
}

llvm::Expected<CompiledObject>
compileSourceToObject(llvm::StringRef source, llvm::StringRef bufferName,
                      const CompileOptions &options,
                      const StageCallback &onStage) {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  auto withDiagnostics = [&](llvm::Error e) {
    std::string message = llvm::toString(std::move(e));
    if (!diagnostics.empty())
      message += ":\n" + diagnostics;
    return llvm::createStringError(message);
  };
  OwningOpRef<ModuleOp> module =
      compiler::parseModule(sourceMgr, ParserConfig(&context));
  if (!module)
    return withDiagnostics(
        llvm::createStringError("cannot parse " + bufferName.str()));
  if (onStage)
    onStage("parse");
  auto compiled = compileToObject(*module, options, onStage);
  if (!compiled)
    return withDiagnostics(compiled.takeError());
  return compiled;
}

} // namespace ptensor::compiler
