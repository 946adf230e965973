//===- PipelineStages.h - stages shared by the CPU and GPU pipelines ------===//

#ifndef PTENSOR_LIB_PIPELINES_PIPELINESTAGES_H
#define PTENSOR_LIB_PIPELINES_PIPELINESTAGES_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>

namespace mlir {
class OpPassManager;
class Pass;
struct GpuModuleToBinaryPassOptions;
namespace NVVM {
class NVVMTargetAttr;
} // namespace NVVM
namespace gpu {
class GPUModuleOp;
class TargetOptions;
} // namespace gpu
namespace ptensor {

/// Empty-tensor elimination (values written into an existing tensor are
/// computed in its buffer), one-shot bufferization with fully dynamic
/// strided layouts at function boundaries (any strides, 0 and negative
/// included), then deallocation of temporaries. Shared by the CPU and GPU
/// pipelines, so out= and in-place writes bufferize alike on both.
void addBufferization(OpPassManager &pm);

/// Host code (scf/memref/arith/math/func/cf, and gpu launches and
/// allocations when `withGPULaunches`) to the LLVM dialect; math functions
/// without an LLVM intrinsic become libm calls.
void addHostToLLVM(OpPassManager &pm, bool withGPULaunches);

/// gpu-module-to-binary with `options`, failing (not only reporting) when
/// serialization reports an error, e.g. a toolkit without libdevice. With
/// `kernelsInParts` (format isa only), a module of several kernels is
/// serialized in parts on the context's threads (serializeKernelsInParts).
std::unique_ptr<Pass>
createCheckedGpuModuleToBinaryPass(const GpuModuleToBinaryPassOptions &options,
                                   bool kernelsInParts = false);

/// Registers that pass as `ptensor-gpu-module-to-binary` (options `toolkit`
/// and `format`, as gpu-module-to-binary's, and `kernels-in-parts`).
void registerCheckedGpuModuleToBinaryPass();

/// Serializes `module`, of one target, in `options`' assembly format (PTX)
/// as up to `maxParts` parts compiled in parallel, each holding some of its
/// kernels (of about equal size) and its other functions, made internal.
/// The module becomes a gpu.binary with one object per part, all of the
/// same target: not a binary MLIR can load, but what ptensor's PendingCubins
/// hands to ptxas as one cubin's PTX files. Returns false, leaving the
/// module, when it has fewer than two kernels, `maxParts` is below two, it
/// defines a global in device memory that is not constant (the parts would
/// not share it), or the format or its targets are other; fails as
/// gpu-module-to-binary does.
FailureOr<bool> serializeKernelsInParts(gpu::GPUModuleOp module,
                                        const gpu::TargetOptions &options,
                                        unsigned maxParts);

/// The PTX of `module` for NVVM target `target` with `options` (format
/// isa), as the target's own serializer makes it, except that libdevice is
/// not loaded when it would be the only library linked and the translated
/// module declares none of its functions (`__nv_*`) (PTXSerializer.cpp);
/// std::nullopt after reporting an error.
std::optional<SmallVector<char, 0>>
serializeToPTX(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target,
               const gpu::TargetOptions &options);

/// Defines `__truncsfbf2` (weak linkage) in a module that uses bf16: LLVM's
/// x86 lowering calls it, and libgcc before GCC 13 lacks it.
std::unique_ptr<Pass> createDefineBF16LibcallsPass();

/// Registers that pass as `ptensor-define-bf16-libcalls`.
void registerDefineBF16LibcallsPass();

} // namespace ptensor
} // namespace mlir

#endif // PTENSOR_LIB_PIPELINES_PIPELINESTAGES_H
