//===- PTXSerializer.cpp - a gpu.module part to PTX, libdevice on demand --===//
//
// MLIR's NVVM serializer reads libdevice (a 480 KB bitcode file) for every
// module it serializes, also for kernels that call none of its functions:
// 1-2 ms of each part's critical path in a one-op CUDA compile (a lazy load
// of the file, then a link that brings nothing). This serializer is the
// NVVM target's for PTX, less that: libdevice is loaded only when the
// translated module declares a function of it (`__nv_*`).
//
//===----------------------------------------------------------------------===//

#include "PipelineStages.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/IR/Module.h"

using namespace mlir;

namespace {
class PTXSerializer : public NVVM::SerializeGPUModuleBase {
public:
  PTXSerializer(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target,
                const gpu::TargetOptions &options)
      : SerializeGPUModuleBase(*module, target, options),
        othersToLink(!options.getLibrariesToLink().empty() ||
                     target.getLink()) {}

  /// The libraries to link (libdevice and any the target or the options
  /// name), or none when libdevice is the only one and the module declares
  /// none of its functions.
  std::optional<SmallVector<std::unique_ptr<llvm::Module>>>
  loadBitcodeFiles(llvm::Module &module) override {
    bool callsLibdevice = llvm::any_of(module.functions(), [](auto &f) {
      return f.isDeclaration() && f.getName().starts_with("__nv_");
    });
    if (!callsLibdevice && !othersToLink)
      return SmallVector<std::unique_ptr<llvm::Module>>();
    return SerializeGPUModuleBase::loadBitcodeFiles(module);
  }

  /// The module's PTX text, as the NVVM target's serializer makes it.
  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &module) override {
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine))
      return getOperation().emitError()
             << "no LLVM target machine for " << triple;
    FailureOr<SmallString<0>> ptx = translateModuleToISA(
        module, **machine, [&] { return getOperation().emitError(); });
    if (failed(ptx))
      return failure();
    if (isaCallback)
      isaCallback(*ptx);
    return SmallVector<char, 0>(ptx->begin(), ptx->end());
  }

private:
  /// Whether libraries other than libdevice are to be linked.
  bool othersToLink;
};
} // namespace

std::optional<SmallVector<char, 0>>
mlir::ptensor::serializeToPTX(gpu::GPUModuleOp module,
                              NVVM::NVVMTargetAttr target,
                              const gpu::TargetOptions &options) {
  assert(options.getCompilationTarget() == gpu::CompilationTarget::Assembly &&
         "serializeToPTX makes PTX only");
  PTXSerializer serializer(module, target, options);
  PTXSerializer::init();
  return serializer.run();
}
