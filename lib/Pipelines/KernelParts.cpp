//===- KernelParts.cpp - a gpu.module's kernels to PTX on several threads -===//
//
// LLVM's NVPTX backend takes about half of a one-op CUDA compile's
// lowering, and it compiles a module's kernels one after the other. Each
// kernel needs nothing of the others, so the module is copied once per
// part, each copy keeps its part's kernels, and the copies are serialized
// on the context's threads. ptxas takes the parts' PTX files together and
// makes one cubin of them (PendingCubins), whose kernels' code is the one
// a whole-module PTX gives. ptxas aborts ("double free or corruption") when
// two of its input files define a file-local global of the same name
// (libdevice's tables, copied into each part that calls sin or cos), so each
// part's local symbols get a suffix of their own before code generation.
// An NVVM part is serialized as the NVVM target does it, less the load of
// libdevice where the part calls none of its functions (PTXSerializer.cpp).
//
//===----------------------------------------------------------------------===//

#include "PipelineStages.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Threading.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace mlir;

/// Whether `func` is a kernel with a body.
static bool isKernelDefinition(LLVM::LLVMFuncOp func) {
  return !func.isExternal() &&
         func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName());
}

/// The kernels of `module` in at most `maxParts` groups of about equal
/// size (operations in their bodies): the largest kernel first, each into
/// the lightest group. Fewer than two groups when there is nothing to
/// split.
static SmallVector<SmallVector<StringAttr>>
groupKernels(gpu::GPUModuleOp module, unsigned maxParts) {
  SmallVector<std::pair<size_t, StringAttr>> kernels;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!isKernelDefinition(func))
      continue;
    size_t size = 0;
    func.walk([&](Operation *) { ++size; });
    kernels.push_back({size, func.getSymNameAttr()});
  }
  size_t parts = std::min<size_t>(maxParts, kernels.size());
  if (parts < 2)
    return {};
  llvm::stable_sort(
      kernels, [](const auto &a, const auto &b) { return a.first > b.first; });
  SmallVector<SmallVector<StringAttr>> groups(parts);
  SmallVector<size_t> load(parts, 0);
  for (const auto &[size, name] : kernels) {
    size_t lightest = std::min_element(load.begin(), load.end()) - load.begin();
    groups[lightest].push_back(name);
    load[lightest] += size;
  }
  return groups;
}

/// Whether `global` has a value here (an initializer attribute or region),
/// not only a declaration of one defined elsewhere.
static bool isDefinition(LLVM::GlobalOp global) {
  return global.getValueOrNull() || global.getInitializerBlock();
}

/// Whether `module` defines a global its kernels may write and read across
/// launches (device memory, not constant): each part would have a copy of
/// its own. (Shared memory is per block in any case.)
static bool hasSharedState(gpu::GPUModuleOp module) {
  constexpr unsigned kSharedMemory = 3;
  return llvm::any_of(module.getOps<LLVM::GlobalOp>(), [](LLVM::GlobalOp g) {
    return isDefinition(g) && !g.getConstant() &&
           g.getAddrSpace() != kSharedMemory;
  });
}

/// A detached copy of `module` with only the kernels named in `kept`. Its
/// other definitions of external linkage become internal: each part has its
/// own copy of a helper, and ptxas, which takes the parts together, would
/// otherwise see it defined twice. (Copies only what it keeps: each part is
/// made on its own thread, and a module may have many kernels.)
static OwningOpRef<gpu::GPUModuleOp> partOf(gpu::GPUModuleOp module,
                                            ArrayRef<StringAttr> kept) {
  OwningOpRef<gpu::GPUModuleOp> part(
      cast<gpu::GPUModuleOp>(module->cloneWithoutRegions()));
  auto *body = new Block;
  part->getBodyRegion().push_back(body);
  OpBuilder builder = OpBuilder::atBlockEnd(body);
  for (Operation &op : *module.getBody()) {
    if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op)) {
      if (isKernelDefinition(func)) {
        if (llvm::is_contained(kept, func.getSymNameAttr()))
          builder.clone(op);
        continue;
      }
      auto copy = cast<LLVM::LLVMFuncOp>(builder.clone(op));
      if (!copy.isExternal() && copy.getLinkage() == LLVM::Linkage::External)
        copy.setLinkage(LLVM::Linkage::Internal);
      continue;
    }
    Operation *copy = builder.clone(op);
    if (auto global = dyn_cast<LLVM::GlobalOp>(copy)) {
      if (isDefinition(global) &&
          global.getLinkage() == LLVM::Linkage::External)
        global.setLinkage(LLVM::Linkage::Internal);
    }
  }
  return part;
}

/// Gives the local symbols that `module` (part `part`, optimized, about to
/// be generated) defines names no other part's have: ptxas takes the parts'
/// PTX together. Unnamed ones, which NVPTX would call `__unnamed_N` in
/// every part, are named too.
static void suffixLocalSymbols(llvm::Module &module, size_t part) {
  std::string suffix = "_ptensor_part" + std::to_string(part);
  for (llvm::GlobalValue &value : module.global_values())
    if (value.hasLocalLinkage() && !value.isDeclaration())
      value.setName((value.hasName() ? value.getName() : "unnamed") + suffix);
}

FailureOr<bool>
mlir::ptensor::serializeKernelsInParts(gpu::GPUModuleOp module,
                                       const gpu::TargetOptions &options,
                                       unsigned maxParts) {
  ArrayAttr targets = module.getTargetsAttr();
  auto target = targets && targets.size() == 1
                    ? dyn_cast<gpu::TargetAttrInterface>(targets[0])
                    : gpu::TargetAttrInterface();
  if (!target ||
      options.getCompilationTarget() != gpu::CompilationTarget::Assembly ||
      hasSharedState(module))
    return false;
  SmallVector<SmallVector<StringAttr>> groups = groupKernels(module, maxParts);
  if (groups.empty())
    return false;
  // NVVM parts skip libdevice where they call none of it (PTXSerializer.cpp).
  auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(targets[0]);

  SmallVector<OwningOpRef<gpu::GPUModuleOp>> parts(groups.size());
  SmallVector<std::optional<SmallVector<char, 0>>> texts(parts.size());
  // Each part is copied from the module (only read meanwhile) and
  // translated into an LLVM context of its own; MLIR's attribute and type
  // storage is safe to share between threads.
  if (failed(failableParallelForEachN(
          module.getContext(), 0, parts.size(), [&](size_t i) {
            parts[i] = partOf(module, groups[i]);
            auto optimized = [&](llvm::Module &module) {
              if (auto given = options.getOptimizedLlvmIRCallback())
                given(module);
              suffixLocalSymbols(module, i);
            };
            gpu::TargetOptions partOptions(
                options.getToolkitPath(), options.getLibrariesToLink(),
                options.getCmdOptions(), options.getELFSection(),
                options.getCompilationTarget(), /*getSymbolTableCallback=*/{},
                options.getInitialLlvmIRCallback(),
                options.getLinkedLlvmIRCallback(), optimized,
                options.getISACallback());
            texts[i] = nvvm ? serializeToPTX(*parts[i], nvvm, partOptions)
                            : target.serializeToObject(*parts[i], partOptions);
            return success(texts[i].has_value());
          }))) {
    module.emitError("An error happened while serializing the module.");
    return failure();
  }

  SmallVector<Attribute> objects;
  for (auto [part, text] : llvm::zip_equal(parts, texts)) {
    Attribute object = target.createObject(*part, *text, options);
    if (!object) {
      module.emitError("An error happened while creating the object.");
      return failure();
    }
    objects.push_back(object);
  }
  OpBuilder builder(module);
  builder.setInsertionPointAfter(module);
  gpu::BinaryOp::create(builder, module.getLoc(), module.getName(),
                        module.getOffloadingHandlerAttr(),
                        builder.getArrayAttr(objects));
  module->erase();
  return true;
}
