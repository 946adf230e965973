//===- LinalgToGPU.cpp - the convert-ptensor-linalg-to-gpu pass -----------===//

#include "ptensor/Conversion/LinalgToGPU/LinalgToGPU.h"

#include "ConstantInits.h"
#include "ElementwiseKernel.h"
#include "ReductionEpilogue.h"
#include "ReductionKernel.h"
#include "RowGroupKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_CONVERTPTENSORLINALGTOGPU
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// Runs `build` in the async form gpu-to-llvm lowers: on a fresh stream
/// (`gpu.wait async`) that is synchronized right after (`gpu.wait`).
static void onStream(RewriterBase &rewriter, Location loc,
                     function_ref<Value(Value token)> build) {
  Type tokenType = gpu::AsyncTokenType::get(rewriter.getContext());
  Value token =
      gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange()).getAsyncToken();
  Value done = build(token);
  gpu::WaitOp::create(rewriter, loc, Type(), done);
}

/// Whether `buffer` holds host bookkeeping rather than tensor data: every
/// use is a host load or store, its dealloc, or a call of a function defined in
/// the module (the helper that the lowering of `bufferization.dealloc` makes
/// for several conditionally owned buffers: arrays of their pointers and
/// ownership flags, read and written on the host). `written` is set when
/// the host writes it (a store, or the helper's call).
static bool isHostBookkeeping(Value buffer, bool &written) {
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    if (user->getParentOfType<gpu::LaunchOp>())
      return false; // read or written by a kernel
    if (isa<memref::LoadOp, memref::DeallocOp>(user))
      return true;
    if (isa<memref::StoreOp>(user))
      return written = true;
    if (auto cast = dyn_cast<memref::CastOp>(user))
      return isHostBookkeeping(cast.getResult(), written);
    auto call = dyn_cast<func::CallOp>(user);
    if (!call)
      return false;
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    return callee && !callee.isExternal() && (written = true);
  });
}

static bool isHostBookkeeping(memref::AllocOp alloc) {
  bool written = false;
  return isHostBookkeeping(alloc.getResult(), written) && written;
}

/// Whether `buffer` is (a view of) what a call of a host function of the
/// module returned: host memory (a team collective's result, which
/// ptensor-partition-teams moves into a host function of its own), freed
/// on the host.
static bool isHostCallResult(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto md = dyn_cast<memref::ExtractStridedMetadataOp>(def))
      buffer = md.getSource();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      buffer = cast.getSource();
    else if (auto reinterpret = dyn_cast<memref::ReinterpretCastOp>(def))
      buffer = reinterpret.getSource();
    else
      break;
  }
  auto call = buffer.getDefiningOp<func::CallOp>();
  if (!call)
    return false;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  return callee && !callee.isExternal() && !callee->hasAttr(kDeviceAttrName);
}

/// Device memory for every allocation of tensor data in a device function
/// (host bookkeeping stays in host memory, and host memory that a host
/// function returned is freed on the host).
static void convertAllocations(RewriterBase &rewriter, func::FuncOp f) {
  Type tokenType = gpu::AsyncTokenType::get(rewriter.getContext());
  DenseSet<Value> hostBuffers;
  f.walk([&](memref::AllocOp alloc) {
    if (isHostBookkeeping(alloc)) {
      hostBuffers.insert(alloc.getResult());
      return;
    }
    rewriter.setInsertionPoint(alloc);
    Value memref;
    onStream(rewriter, alloc.getLoc(), [&](Value token) {
      auto gpuAlloc = gpu::AllocOp::create(
          rewriter, alloc.getLoc(), alloc.getType(), tokenType, token,
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/false);
      memref = gpuAlloc.getMemref();
      return gpuAlloc.getAsyncToken();
    });
    rewriter.replaceOp(alloc, memref);
  });
  f.walk([&](memref::DeallocOp dealloc) {
    if (hostBuffers.contains(dealloc.getMemref()) ||
        isHostCallResult(dealloc.getMemref()))
      return;
    rewriter.setInsertionPoint(dealloc);
    onStream(rewriter, dealloc.getLoc(), [&](Value token) {
      return gpu::DeallocOp::create(rewriter, dealloc.getLoc(), tokenType,
                                    token, dealloc.getMemref())
          .getAsyncToken();
    });
    rewriter.eraseOp(dealloc);
  });
}

namespace {
struct ConvertPTensorLinalgToGPUPass
    : public ptensor::impl::ConvertPTensorLinalgToGPUBase<
          ConvertPTensorLinalgToGPUPass> {
  ConvertPTensorLinalgToGPUPass() = default;
  /// Fresh options; Pass::clone copies their values.
  ConvertPTensorLinalgToGPUPass(const ConvertPTensorLinalgToGPUPass &other)
      : Base(other) {}

  // The kernel options (KernelOptions.def), each with its default, limits
  // and help; getKernelConfig() and setKernelConfig().
#include "ptensor/Conversion/LinalgToGPU/KernelPassOptions.inc"

  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    KernelConfig config = getKernelConfig();
    auto reject = [&](const char *option, unsigned value,
                      const std::string &expected) {
      module.emitError() << "convert-ptensor-linalg-to-gpu option '"
                         << option << "' is '" << value << "'; expected "
                         << expected;
    };
    if (!config.verify(reject))
      return signalPassFailure();
    bool anyDevice = false;
    WalkResult result = module.walk([&](func::FuncOp f) {
      if (!f->hasAttr(kDeviceAttrName))
        return WalkResult::advance();
      anyDevice = true;
      foldConstantInits(rewriter, f);
      // Row groups first (one kernel each), then every other generic.
      for (const RowGroup &group : findRowGroups(f))
        if (failed(convertRowGroupToKernel(rewriter, group, config))) {
          linalg::GenericOp first = group.members.front();
          first.emitError("cannot turn this row group into a GPU kernel");
          return WalkResult::interrupt();
        }
      SmallVector<linalg::GenericOp> generics;
      f.walk([&](linalg::GenericOp g) { generics.push_back(g); });
      // Elementwise work on a reduction's results, computed by its kernels.
      DenseMap<Operation *, linalg::GenericOp> epilogues;
      DenseSet<Operation *> taken;
      for (linalg::GenericOp g : generics)
        if (g.getNumReductionLoops() != 0 && !whyNotReductionKernel(g))
          if (linalg::GenericOp epilogue = takeReductionEpilogue(g)) {
            epilogues[g] = epilogue;
            taken.insert(epilogue);
          }
      for (linalg::GenericOp g : generics) {
        if (taken.contains(g))
          continue; // erased with its reduction
        LogicalResult converted =
            g.getNumReductionLoops() == 0
                ? convertGenericToKernel(rewriter, g, config)
                : convertReductionToKernel(rewriter, g, config,
                                           epilogues.lookup(g));
        if (failed(converted)) {
          g.emitError("cannot turn this loop nest into a GPU kernel: "
                      "expected an elementwise linalg.generic on memrefs, "
                      "or a reduction whose body marks its combiner");
          return WalkResult::interrupt();
        }
      }
      convertAllocations(rewriter, f);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (anyDevice)
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(&getContext()));
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::ptensor::createConvertPTensorLinalgToGPU(const KernelConfig &config) {
  auto pass = std::make_unique<ConvertPTensorLinalgToGPUPass>();
  pass->setKernelConfig(config);
  return pass;
}
