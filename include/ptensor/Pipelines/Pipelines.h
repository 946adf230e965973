//===- Pipelines.h - named ptensor pass pipelines ----------------*- C++ -*-===//

#ifndef PTENSOR_PIPELINES_PIPELINES_H
#define PTENSOR_PIPELINES_PIPELINES_H

#include "ptensor/Conversion/HostParallel/HostParallel.h"
#include "ptensor/Conversion/LinalgToGPU/KernelConfig.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace ptensor {

/// Options of `ptensor-to-cpu-pipeline`.
struct PTensorToCPUPipelineOptions
    : public PassPipelineOptions<PTensorToCPUPipelineOptions> {
  PassOptions::Option<unsigned> maxRecomputeOps{
      *this, "max-recompute-ops",
      llvm::cl::desc("Largest producer body recomputed by fusion for extra "
                     "users (0 fuses single-use producers only)"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run large loop nests on threads through OpenMP "
                     "(the code then needs the OpenMP runtime, libomp; the "
                     "compile driver turns this on by default)"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("Threads of parallel loop nests (OpenMP num_threads; "
                     "0: asked at run time: PTENSOR_NUM_THREADS, else the "
                     "CPUs available)"),
      llvm::cl::init(0)};
  PassOptions::Option<int32_t> minTaskSize{
      *this, "min-task-size",
      llvm::cl::desc("Fewest iterations per thread: a loop nest with fewer "
                     "than twice as many (the iterations of loops inside "
                     "its body included) runs on the calling thread"),
      llvm::cl::init(kDefaultMinTaskSize)};
  PassOptions::Option<int64_t> innerBlock{
      *this, "inner-block",
      llvm::cl::desc("Innermost positions per parallel block of a loop nest "
                     "whose innermost dim runs serially "
                     "(ptensor-serial-inner-loop)"),
      llvm::cl::init(kDefaultInnerBlock)};
  PassOptions::Option<bool> reorderLoops{
      *this, "reorder-loops",
      llvm::cl::desc("Version loop nests on their run-time loop order and "
                     "give fresh outputs the inputs' order "
                     "(ptensor-coalesce-dims)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> teamSize{
      *this, "team-size",
      llvm::cl::desc("Number of processes of team 1 (ptensor-partition-teams; "
                     "1: team tensors are whole on one process)"),
      llvm::cl::init(1)};
};

/// ptensor ops on host data down to the LLVM dialect: promote-types, layout,
/// broadcast, convert-ptensor-to-linalg, fusion, one-shot bufferization with
/// fully dynamic strided layouts at function boundaries, buffer deallocation,
/// loops, and the conversions to LLVM.
void buildPTensorToCPUPipeline(OpPassManager &pm,
                               const PTensorToCPUPipelineOptions &options);

/// The ptensor-level front of every pipeline (up to fused linalg on tensors).
/// Copies to and from GPUs are errors unless `deviceCopies` (GPU pipeline:
/// they become marked gpu.memcpy ops for ptensor-lower-device-copies).
/// With `hostOnly` (CPU pipeline) functions on GPU tensors are errors.
/// Team tensors are partitioned over `teamSize` processes.
void buildPTensorToFusedLinalgPipeline(OpPassManager &pm,
                                       unsigned maxRecomputeOps,
                                       bool deviceCopies = false,
                                       bool hostOnly = false,
                                       int64_t teamSize = 1);

/// Options of `ptensor-to-nvvm-pipeline`.
struct PTensorToNVVMPipelineOptions
    : public PassPipelineOptions<PTensorToNVVMPipelineOptions> {
  PassOptions::Option<unsigned> maxRecomputeOps{
      *this, "max-recompute-ops",
      llvm::cl::desc("Largest producer body recomputed by fusion"),
      llvm::cl::init(16)};
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture, sm_50 ... sm_121f as known to LLVM"),
      llvm::cl::init(std::string(kDefaultChip))};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX version feature +ptxNN, at least the chip's minimum "
                     "(sm_90: +ptx78, sm_90a: +ptx80, sm_100: +ptx86)"),
      llvm::cl::init(std::string(kDefaultPTXFeatures))};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel format embedded in the host code: bin (cubin, "
                     "needs ptxas), isa (PTX text) or fatbin"),
      llvm::cl::init("bin")};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit (ptxas, libdevice); default $CUDA_HOME or "
                     "/usr/local/cuda"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("NVVM optimization level (0 to 3)"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> teamSize{
      *this, "team-size",
      llvm::cl::desc("Number of processes of team 1 (ptensor-partition-teams; "
                     "1: team tensors are whole on one process). GPU blocks "
                     "are all-reduced and gathered on the GPU (NCCL, or "
                     "host buffers), moved through host copies otherwise"),
      llvm::cl::init(1)};
  // The kernel options (KernelOptions.def), each with its default, limits
  // and help; getKernelConfig() and setKernelConfig().
#include "ptensor/Conversion/LinalgToGPU/KernelPassOptions.inc"
};

/// Checks `options` before anything is built: the kernel format, the chip
/// and its PTX version, the launch sizes and the CUDA toolkit directory.
/// Reports each problem through `errorHandler` as a message naming the
/// option and what was expected, and fails if there was one.
LogicalResult verifyPTensorToNVVMPipelineOptions(
    const PTensorToNVVMPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// ptensor ops down to LLVM host code with embedded CUDA kernels: functions
/// whose ptensors live on "cuda" run every fused elementwise group as a
/// kernel (device memory from libptensor_runtime), host functions run as
/// loops. The kernels go through NVVM to PTX and, with format=bin, to a
/// cubin by the toolkit's ptxas (an error naming the path when missing).
/// It is buildPTensorToNVVMKernelsPipeline followed by
/// buildPTensorToNVVMHostPipeline. Fails, adding nothing to `pm`, when the options are invalid (see
/// verifyPTensorToNVVMPipelineOptions); the messages go to `errorHandler`.
LogicalResult
buildPTensorToNVVMPipeline(OpPassManager &pm,
                           const PTensorToNVVMPipelineOptions &options,
                           function_ref<LogicalResult(const Twine &)> errorHandler);

/// The kernels' half of ptensor-to-nvvm-pipeline: everything up to the
/// gpu.binary ops holding the kernels in `options.format`; host code is not
/// yet in the LLVM dialect. Fails like buildPTensorToNVVMPipeline.
/// `ptxInParts` (format=isa) serializes a module of several kernels in
/// parts on the context's threads: its gpu.binary then holds a PTX object
/// per part, which the host half cannot embed but PendingCubins assembles
/// into one cubin.
LogicalResult buildPTensorToNVVMKernelsPipeline(
    OpPassManager &pm, const PTensorToNVVMPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler,
    bool ptxInParts = false);

/// The host half of ptensor-to-nvvm-pipeline: host code, with the launches
/// of the gpu.binary ops' kernels, to the LLVM dialect. It does not read the
/// binaries' contents, so a driver can put placeholders there and assemble
/// the kernels meanwhile (include/ptensor/Compiler/PendingCubins.h).
void buildPTensorToNVVMHostPipeline(OpPassManager &pm);

/// The CUDA toolkit directory `option` resolves to ($CUDA_HOME, then
/// /usr/local/cuda, when empty).
std::string resolveCudaPath(llvm::StringRef option);

/// Registers `ptensor-to-cpu-pipeline` and `ptensor-to-nvvm-pipeline`.
void registerPTensorPipelines();

} // namespace ptensor
} // namespace mlir

#endif // PTENSOR_PIPELINES_PIPELINES_H
