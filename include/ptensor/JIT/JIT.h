//===- JIT.h - compile ptensor modules and call their functions --*- C++ -*-===//
//
// Compile a module once with ptensor-to-cpu-pipeline, then invoke its
// functions with strided buffers. Compiled code is cached in memory (one
// JITModule) and on disk (key: IR text, target triple, pipeline options,
// ptensor version), so a second process skips compilation.
//
// Thread-safety: a JITModule may be invoked from several threads at once;
// compiling is not thread-safe with respect to the same cache entry being
// written by two processes except that writes are atomic (rename).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_JIT_JIT_H
#define PTENSOR_JIT_JIT_H

#include "ptensor/Compiler/Signature.h"
#include "ptensor/Support/HostArray.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace ptensor::jit {

/// A strided tensor in host memory, DLPack-compatible: `data` is the base
/// pointer, element (i0, i1, ...) is at data + (offset + sum(i_k *
/// strides[k])) * elementSize. Strides are in elements and may be 0 or
/// negative.
struct StridedBuffer {
  void *data = nullptr;
  DType dtype = DType::F32;
  int64_t offset = 0;
  llvm::SmallVector<int64_t, 4> sizes;
  llvm::SmallVector<int64_t, 4> strides;
};

/// Whether `b`'s elements are packed in row-major order (size-1 dims'
/// strides ignored).
bool isRowMajor(const StridedBuffer &b);

/// A row-major copy of `b` (any strides); an error for sizes that no array
/// can have (a negative size, a byte size past int64).
llvm::Expected<HostArray> copyToHostArray(const StridedBuffer &b);

/// One argument of a call: a strided buffer or a scalar (held as double or
/// int64 and converted to the parameter's type).
struct Argument {
  std::optional<StridedBuffer> buffer;
  double floatValue = 0;
  int64_t intValue = 0;
  bool isFloat = false;

  static Argument tensor(StridedBuffer b) {
    Argument a;
    a.buffer = std::move(b);
    return a;
  }
  static Argument scalar(double v) {
    Argument a;
    a.floatValue = v;
    a.isFloat = true;
    return a;
  }
  static Argument scalar(int64_t v) {
    Argument a;
    a.intValue = v;
    return a;
  }
};

/// A result buffer. `owner` frees the memory the compiled code allocated
/// (null when the result is a view of an argument).
struct Result {
  StridedBuffer buffer;
  std::shared_ptr<void> owner;
};

/// The team of processes this process belongs to (docs/Teams.md): team
/// tensors of rank >= 1 are split along their first dim, rank r holding
/// rows [blockOf(n).first, + blockOf(n).second) of n. One process (size 1)
/// without MPI.
struct Team {
  int64_t rank = 0;
  int64_t size = 1;

  /// Joins the MPI job this process runs in (initializing MPI through
  /// libptensor_team); one process when ptensor was built without MPI.
  static llvm::Expected<Team> join();
  /// Offset and number of this process's rows of `rows`.
  std::pair<int64_t, int64_t> blockOf(int64_t rows) const;
  /// The sum of `value` over the team.
  llvm::Expected<int64_t> total(int64_t value) const;
  /// Concatenates every process's `localBytes` at `local` in rank order
  /// into `whole` (which holds the total) on every process.
  llvm::Error gather(const void *local, int64_t localBytes, void *whole) const;
  /// This process's block of `whole` (a view of its rows; rank 0 as is).
  StridedBuffer block(StridedBuffer whole) const;
  /// `args` of a call of `sig` with each team tensor replaced by this
  /// process's block (a view); checks the whole tensor's static first dim
  /// (checkArguments checks the rest against the block).
  llvm::Error blockArguments(const FunctionSignature &sig,
                             llvm::ArrayRef<Argument> args,
                             llvm::SmallVectorImpl<Argument> &blocks) const;
  /// After a call with blockArguments' blocks of `args` (the whole
  /// tensors): each written (out=) team argument gets every process's
  /// block, on every process (team::gatherWrittenBlocks). A collective.
  llvm::Error gatherWrittenArguments(const FunctionSignature &sig,
                                     llvm::ArrayRef<Argument> args) const;
  /// The whole tensor, row-major, from every process's `block` (of rank
  /// >= 1) in rank order, on every process.
  llvm::Expected<HostArray> gatherBlocks(const StridedBuffer &block) const;

  /// What this process's compiled code communicated since the last reset.
  struct Traffic {
    int64_t collectives = 0; ///< all-reduces, all-gathers, sums
    int64_t bytes = 0;       ///< bytes this process contributed
    double seconds = 0;      ///< time spent in them
    /// How GPU collectives move data: "nccl", "host" (host buffers), or
    /// "" (none yet, or no GPU team code).
    std::string gpuTransport;
  };
  /// This process's traffic since the last resetTraffic() (zero without
  /// libptensor_team).
  Traffic traffic() const;
  /// Sets the traffic counters to zero (before a call to be measured).
  void resetTraffic() const;
  /// Ends every process of the job with exit status `code` when there is
  /// more than one (MPI_Abort): a failed process must not leave the others
  /// waiting in a collective.
  void abortJob(int code) const;
};

/// Options of compilation.
struct JITOptions {
  /// LLVM optimization level of the generated code.
  unsigned optLevel = 3;
  /// Fusion's recomputation limit (see ptensor-fuse-elementwise).
  unsigned maxRecomputeOps = 16;
  /// Runs loop nests of large tensors on several threads (the OpenMP
  /// runtime, libomp): PTENSOR_NUM_THREADS of them where the code runs,
  /// else the CPUs available (ptensor_rt_host_threads; 1: serial).
  bool parallel = true;
  /// Directory of the one disk cache (ptensor/Cache/DiskCache.h): the
  /// value of PTENSOR_CACHE_DIR, else $XDG_CACHE_HOME/ptensor or
  /// ~/.cache/ptensor. Empty string, or
  /// PTENSOR_DISABLE_CACHE=1, disables the disk cache.
  std::optional<std::string> cacheDir;
  /// Processes that team tensors are split over; by default, for a module
  /// with team tensors, the size of the MPI job (Team::join()).
  std::optional<int64_t> teamSize;
  /// With teams split over processes, invoke() passes team arguments and
  /// returns team results as they are: this process's blocks (Team::block,
  /// Team::gatherBlocks), for hosts that chain team functions or time them
  /// without the gather. By default they are whole tensors on every process.
  bool teamBlocks = false;
};

/// Where a JITModule's code came from (for tests and latency reports).
enum class CodeSource { Compiled, DiskCache };

/// A compiled module.
class JITModule {
public:
  /// Parses, verifies and compiles `source`. Errors carry the located
  /// diagnostics of the parser, verifier or pipeline.
  static llvm::Expected<std::unique_ptr<JITModule>>
  compile(llvm::StringRef source, llvm::StringRef bufferName,
          const JITOptions &options = {});

  ~JITModule();

  /// The signature of public function `name`, or null.
  const FunctionSignature *lookup(llvm::StringRef name) const;
  /// All public functions.
  llvm::ArrayRef<FunctionSignature> functions() const;

  /// Calls `name`. Checks the number of arguments, dtypes, ranks, static
  /// sizes and that no written argument partially overlaps another one; a
  /// failed run-time check of the compiled code is a RunTimeCheckError.
  /// With teams split over processes (teamSize() > 1) every process passes
  /// the whole team tensors and gets whole results: the call passes this
  /// process's block of each team argument (a view) and gathers team
  /// results from every process's block (docs/Teams.md); with
  /// JITOptions::teamBlocks, blocks in and blocks out. An error on one
  /// process of a split call (a failed run-time check in its block) leaves
  /// the others in the gather's collectives: the host ends the job then
  /// (team().abortJob, as ptensor-runner and the Python package do).
  llvm::Error invoke(llvm::StringRef name, llvm::ArrayRef<Argument> args,
                     llvm::SmallVectorImpl<Result> &results);

  CodeSource codeSource() const;

  /// The number of processes team tensors are split over (1: whole).
  int64_t teamSize() const;
  /// This process's place in the team (rank 0 of 1 when not split).
  const Team &team() const;

  struct Impl;

private:
  explicit JITModule(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// A run-time check of the compiled code failed: sizes known only at run
/// time that do not broadcast (isBroadcast()), or another check. Returned
/// by JITModule::invoke; the process goes on.
class RunTimeCheckError : public llvm::ErrorInfo<RunTimeCheckError> {
public:
  static char ID;
  /// `status` is the runtime's (a ptensor_rt_status of
  /// ptensor/Runtime/Status.h: BROADCAST, CHECK_FAILED, OUT_OF_MEMORY,
  /// INVALID_ARGUMENT, CUDA, ...).
  RunTimeCheckError(int status, std::string message)
      : status(status), message(std::move(message)) {}
  int getStatus() const { return status; }
  /// Whether run-time sizes did not broadcast.
  bool isBroadcast() const;
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  int status;
  std::string message;
};

/// The cache directory `options` resolve to ("" when disabled).
std::string resolveCacheDir(const JITOptions &options);

} // namespace ptensor::jit

#endif // PTENSOR_JIT_JIT_H
