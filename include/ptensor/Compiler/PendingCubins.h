//===- PendingCubins.h - ptxas beside the host compile ----------*- C++ -*-===//
//
// ptxas takes about a third of a one-op CUDA compile, and the host code's
// lowering, translation, optimization and code generation need nothing
// from it but a symbol to load. So the compile driver serializes the
// kernels to PTX, starts ptxas on them on threads of their own and
// compiles the host code with a placeholder where each cubin goes. The
// JIT puts the cubins in place of the placeholders before its code
// generation (`embed`); the ahead-of-time driver makes the placeholders
// external symbols, generates the host object while ptxas runs, and puts
// the cubins in an object of their own (`referenceExternally`,
// `cubinModule`), linked beside the host object.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_COMPILER_PENDINGCUBINS_H
#define PTENSOR_COMPILER_PENDINGCUBINS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace ptensor::compiler {

/// The cubins of a module's kernels while ptxas assembles them.
class PendingCubins {
public:
  /// Starts ptxas (of the toolkit at `cudaPath`) on the PTX of every
  /// gpu.binary op of `module` (NVVM targets, assembly format; several
  /// objects of the same target are parts of one module's kernels, which
  /// ptxas takes together), with the
  /// arguments gpu-module-to-binary would give it (chip, optimization
  /// level, the target's ptxas options), and leaves in each op a binary
  /// object holding a placeholder: the host half of the pipeline and the
  /// translation embed the placeholder as the global `NAME_binary`, which
  /// `embed` or `referenceExternally` replaces. Fails on a gpu.binary it
  /// cannot assemble.
  static llvm::Expected<std::unique_ptr<PendingCubins>>
  start(mlir::ModuleOp module, llvm::StringRef cudaPath);

  /// The ptxas that gpu-module-to-binary would run: the toolkit's at
  /// `cudaPath`, else the one on PATH; an error naming both otherwise.
  /// (The compile driver asks before lowering, to fail fast.)
  static llvm::Expected<std::string> findPtxas(llvm::StringRef cudaPath);

  /// Waits for ptxas and puts each cubin in place of its placeholder in
  /// `module` (the host code, translated): the global `NAME_binary` and the
  /// size its load constructor passes to mgpuModuleLoad. Fails with
  /// ptxas's messages when it failed, or when the placeholder is not found
  /// as the translation leaves it.
  llvm::Error embed(llvm::Module &module);

  /// Makes each placeholder of `module` (the host code, translated) a
  /// reference to hidden external symbols that `cubinModule` defines: the
  /// global `NAME_binary` holding the cubin and `NAME_binary_size` (i64),
  /// which the load constructor now reads for mgpuModuleLoad's size. Does
  /// not wait for ptxas. Fails like `embed` when a placeholder is not found.
  llvm::Error referenceExternally(llvm::Module &module);

  /// Waits for ptxas and returns a module, for `host`'s target and data
  /// layout, that defines the symbols `referenceExternally` made `host`
  /// refer to (each cubin with its declaration's alignment). Fails with
  /// ptxas's messages when it failed.
  llvm::Expected<std::unique_ptr<llvm::Module>>
  cubinModule(const llvm::Module &host);

  /// Waits for ptxas (nothing is embedded).
  ~PendingCubins();

  PendingCubins(const PendingCubins &) = delete;
  PendingCubins &operator=(const PendingCubins &) = delete;

private:
  /// One gpu.binary's assembly.
  struct Job {
    std::string binaryName;
    std::string placeholder;
    /// The PTX of the binary's parts (KernelParts.cpp): ptxas makes one
    /// cubin of them.
    std::vector<std::string> ptx;
    /// ptxas's arguments, less the output and input files.
    std::vector<std::string> ptxasArgs;
    /// Set by the job's thread.
    std::string cubin;
    std::string error;
  };

  PendingCubins() = default;
  /// Runs ptxas on `job` (on the job's thread).
  static void assemble(const std::string &ptxas, Job &job);
  void join();
  /// Waits for ptxas: the first job's error, if any.
  llvm::Error wait();

  std::string ptxas;
  /// One thread per job; `jobs` does not change size once they run.
  std::vector<std::unique_ptr<Job>> jobs;
  std::vector<std::thread> threads;
};

struct CompileOptions;

/// lowerToLLVMDialect for CUDA, with the kernels assembled by ptxas while
/// the host half of the pipeline runs: the result's `embed` puts the cubins
/// into the translated host code (or `referenceExternally` and
/// `cubinModule` beside it). With a kernel format other than cubins (gpu
/// pipeline option `format`) the whole pipeline runs as in
/// lowerToLLVMDialect, and the result is null.
llvm::Expected<std::unique_ptr<PendingCubins>>
lowerToLLVMDialectAssemblingKernels(mlir::ModuleOp module,
                                    const CompileOptions &options);

} // namespace ptensor::compiler

#endif // PTENSOR_COMPILER_PENDINGCUBINS_H
