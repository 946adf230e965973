//===- Compiler.h - the one compile driver of ptensor modules ----*- C++ -*-===//
//
// Everything that turns ptensor IR into machine code goes through here: the
// JIT (JITModule, ptensor-runner, the C API) and ahead-of-time compilation
// (ptensor-compile) share the registration of dialects and translations,
// the choice of target, the option checks and the pipeline that lowers a
// module to the LLVM dialect, and the host target machine.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_COMPILER_COMPILER_H
#define PTENSOR_COMPILER_COMPILER_H

#include "ptensor/Conversion/LinalgToGPU/KernelConfig.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ptensor::compiler {

/// Registers what a compile needs: upstream's dialects and extensions,
/// ptensor's dialect and the dialects its passes produce, and every
/// translation to LLVM IR (gpu.binary ops become globals holding cubins).
void registerCompilerDialects(mlir::DialectRegistry &registry);

/// The code a module is compiled to.
enum class Target {
  /// CUDA when a public function takes or returns GPU tensors, else CPU.
  Auto,
  /// Host code (ptensor-to-cpu-pipeline): refuses GPU tensors.
  CPU,
  /// Host code with embedded CUDA kernels (ptensor-to-nvvm-pipeline).
  CUDA,
};

/// "cpu", "cuda" or "auto".
const char *getTargetName(Target target);

/// What to compile for, and how.
struct CompileOptions {
  Target target = Target::Auto;
  /// GPU chip and PTX version feature (CUDA).
  std::string chip = mlir::ptensor::kDefaultChip;
  std::string features = mlir::ptensor::kDefaultPTXFeatures;
  /// Launch configuration of the generated kernels (CUDA).
  mlir::ptensor::KernelConfig kernels;
  /// Fusion's recomputation limit (ptensor-fuse-elementwise).
  unsigned maxRecomputeOps = 16;
  /// Large loop nests run on several threads through the OpenMP runtime
  /// (CPU).
  bool parallel = true;
  /// Threads of parallel loop nests; 0: asked where the code runs
  /// (ptensor_rt_host_threads: PTENSOR_NUM_THREADS, else the CPUs
  /// available; one thread runs the serial copies).
  unsigned numThreads = 0;
  /// Number of processes of team 1 (CPU; docs/Teams.md): team tensors are
  /// split over them. 1: one process holds every team tensor whole.
  int64_t teamSize = 1;
  /// LLVM optimization level of the host code (0 to 3).
  unsigned optLevel = 3;
  /// The CPU host code is compiled for (an LLVM CPU name of this machine's
  /// architecture, e.g. "x86-64-v3" or "znver4"); "" for this machine's
  /// CPU and all of its features. Code for a named CPU uses only that CPU's
  /// features, so it runs on any machine that has them. Ahead-of-time
  /// compiles only (compileToObject): the JIT runs its code in its own
  /// process and compiles for that process's CPU.
  std::string hostCPU;
  /// More options of ptensor-to-cpu-pipeline and ptensor-to-nvvm-pipeline
  /// in ptensor-opt's syntax ("reorder-loops=false", "format=isa"), applied
  /// after the fields above; those of the target not compiled for are
  /// ignored.
  std::string cpuPipelineOptions;
  std::string gpuPipelineOptions;
};

/// Whether `options` compile parallel host code: asked for, and the OpenMP
/// runtime the code would call exists.
bool compilesParallel(const CompileOptions &options);

/// `options.target` with Auto resolved for a module that does (or does not)
/// take or return GPU tensors.
Target resolveTarget(const CompileOptions &options, bool usesGPU);

/// Lowers `module` (ptensor IR) to the LLVM dialect for `target` (CPU or
/// CUDA, already resolved). Invalid options fail before anything runs, with
/// a message naming the option; pipeline failures carry the diagnostics the
/// context's handler printed or collected.
llvm::Error lowerToLLVMDialect(mlir::ModuleOp module, Target target,
                               const CompileOptions &options);

/// Initializes LLVM's native target and its assembly printer (once per
/// process; thread-safe).
void initializeHostTarget();

/// A target machine for host code at `optLevel`, position-independent (for
/// shared libraries and the JIT alike): for this machine's CPU and
/// features, or for the CPU named `hostCPU` (CompileOptions::hostCPU; an
/// error naming it when LLVM does not know it).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(unsigned optLevel, llvm::StringRef hostCPU = "");

/// The instruction-set features (cache::knownCPUFeatures' names) that host
/// code compiled for `hostCPU` may use: this CPU's (cache::hostCPUFeatures)
/// for "", else those of the named CPU (an error when LLVM does not know
/// it). A cache entry records them (cache::recordBuildId).
llvm::Expected<std::vector<std::string>>
getHostCodeCPUFeatures(llvm::StringRef hostCPU);

/// Optimizes host code (`module`, with `machine`'s triple and data layout)
/// at `optLevel` (0 to 3): LLVM's default pipeline with loop and SLP
/// vectorization, and the vector forms of libm's functions from glibc's
/// libmvec (HostOptimizer.cpp) where `machine`'s CPU can run them. The
/// code generation of `module`'s context then skips Loop Strength Reduction
/// (ptensor/Pipelines/CodegenPassGate.h).
llvm::Error optimizeHostModule(llvm::Module &module,
                               llvm::TargetMachine &machine,
                               unsigned optLevel);

/// The path of glibc's vector math library (libmvec), which optimized host
/// code calls: the JIT loads it, ptensor-compile links it; empty where the
/// system has none (the code then calls the scalar functions).
std::string getVectorMathLibrary();

/// LLVM's OpenMP runtime (libomp, found when ptensor was built), which
/// parallel CPU code calls: through libptensor_runtime, which loads it on
/// the first fork (forwardOpenMPCallsToRuntime), or linked by the code
/// itself. Empty when the build found none (host code is then serial).
const char *getOpenMPRuntimeLibrary();

/// Renames `module`'s calls of the OpenMP runtime (`__kmpc_X`, as the
/// translation of the omp dialect emits them) to libptensor_runtime's
/// forwarders (`ptensor_rt_omp_X`, runtime/lib/HostOpenMP.cpp), which load
/// libomp on the first fork: code compiled so (ahead of time or by the JIT)
/// needs the runtime and not libomp, and loading it does not load libomp.
/// All or nothing: when the module calls an OpenMP function the runtime
/// does not forward, or forks a region with more arguments than it
/// forwards, nothing is renamed and false is returned (the code then needs
/// libomp itself). True when the module calls OpenMP and every call was
/// renamed (OpenMPCalls.cpp).
bool forwardOpenMPCallsToRuntime(llvm::Module &module);

/// A module compiled ahead of time: host object code with the entry points
/// and the signature JSON of docs/ABI.md.
struct CompiledObject {
  /// The relocatable object (ELF), in memory.
  std::string object;
  /// CUDA: a second relocatable object holding the kernels' cubins, which
  /// `object` refers to (generated after ptxas, while `object` was
  /// generated beside it: PendingCubins.h); linked beside `object`, or
  /// merged with it by mergeObjects. Empty when there are none.
  std::string cubins;
  /// The target it was compiled for (never Auto).
  Target target = Target::CPU;
  /// The code calls the OpenMP runtime (parallel CPU loop nests).
  bool usesOpenMPRuntime = false;
  /// The code calls libptensor_runtime (GPU launches and memory, or a
  /// run-time check's failure report).
  bool usesRuntime = false;
  /// The code calls libptensor_team (team tensors split over processes).
  bool usesTeamRuntime = false;
};

/// Called at the end of each stage of a compile with its name ("lower",
/// "codegen", ...), for progress reports.
using StageCallback = std::function<void(llvm::StringRef stage)>;

/// Compiles every public function of `module` (ptensor IR, verified) to
/// host object code: lowers it for `options.target` (Auto resolved by the
/// module's tensors), translates and optimizes the LLVM IR, and adds the
/// ABI's symbols (`_mlir_ciface_NAME`, `_ptensor_packed_NAME`,
/// `ptensor_module_signature`). CUDA needs the toolkit's ptxas; its absence
/// is an error naming the path looked at.
llvm::Expected<CompiledObject>
compileToObject(mlir::ModuleOp module, const CompileOptions &options,
                const StageCallback &onStage = {});

/// Parses `source` (named `bufferName` in messages) and compiles it like
/// compileToObject; parse, verifier and pipeline diagnostics are part of
/// the error's message.
llvm::Expected<CompiledObject>
compileSourceToObject(llvm::StringRef source, llvm::StringRef bufferName,
                      const CompileOptions &options,
                      const StageCallback &onStage = {});

/// Links `compiled` into the shared library `outputPath` with the linker
/// built into ptensor (LLD, in process: no C compiler or linker on PATH).
/// The library needs libc, libm and libmvec, libptensor_runtime.so from
/// `runtimeDir` (found through an rpath to it and to the library's own
/// directory), and the OpenMP runtime when the code is parallel. The file
/// appears atomically: on failure nothing is left behind.
llvm::Error linkSharedLibrary(const CompiledObject &compiled,
                              llvm::StringRef outputPath,
                              llvm::StringRef runtimeDir);

/// `compiled`'s objects as one relocatable object (LLD's `-r`, in process):
/// `object` itself when it has no cubins beside it.
llvm::Expected<std::string> mergeObjects(const CompiledObject &compiled);

/// Identifies this compiler: ptensor's version and commit, and LLVM's
/// version. Part of every on-disk cache key.
const std::string &getCompilerBuildId();

} // namespace ptensor::compiler

#endif // PTENSOR_COMPILER_COMPILER_H
