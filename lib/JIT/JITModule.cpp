//===- JITModule.cpp - compile once, call many times ----------------------===//

#include "ptensor/JIT/JIT.h"

#include "ArgumentCheck.h"
#include "CodeCache.h"
#include "PackedCall.h"
#include "ptensor/TeamHost/TeamLibrary.h"

#include "ptensor/Cache/DiskCache.h"
#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Compiler/ParserHazards.h"
#include "ptensor/Compiler/PendingCubins.h"
#include "ptensor/Runtime/PTensorRuntime.h"
#include "ptensor/Semantics/Layout.h"
#include "ptensor/Semantics/Teams.h"
#include "ptensor/Support/HostArray.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

using namespace mlir;
using namespace ::ptensor;
using namespace ::ptensor::jit;

struct JITModule::Impl {
  std::vector<FunctionSignature> signatures;
  /// The signatures of the compiled functions: with teams split over
  /// processes, a team tensor's first dim is the block's (dynamic).
  std::vector<FunctionSignature> callSignatures;
  int64_t teamSize = 1;
  Team team; ///< this process's place when teamSize > 1
  bool teamBlocks = false; ///< JITOptions::teamBlocks
  llvm::StringMap<void (*)(void **)> entryPoints;
  std::unique_ptr<ExecutionEngine> engine; ///< when compiled here
  /// Runs the engine's global constructors (for GPU modules: loading the
  /// embedded cubins through libptensor_runtime) before the first call, not
  /// at compile time, so that compiling needs no GPU.
  std::once_flag initialized;
  std::unique_ptr<llvm::orc::LLJIT> lljit; ///< when loaded from the cache
  CodeSource source = CodeSource::Compiled;
};

JITModule::JITModule(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
JITModule::~JITModule() = default;

const FunctionSignature *JITModule::lookup(llvm::StringRef name) const {
  for (const FunctionSignature &s : impl->signatures)
    if (s.name == name)
      return &s;
  return nullptr;
}

llvm::ArrayRef<FunctionSignature> JITModule::functions() const {
  return impl->signatures;
}

CodeSource JITModule::codeSource() const { return impl->source; }

int64_t JITModule::teamSize() const { return impl->teamSize; }

const Team &JITModule::team() const { return impl->team; }

/// `signatures` as the compiled code sees them when team tensors are split:
/// their first dim is the block's.
static std::vector<FunctionSignature>
localSignatures(std::vector<FunctionSignature> signatures) {
  auto localize = [](ValueType &v) {
    if (v.team)
      for (auto [d, size] : llvm::enumerate(v.shape))
        size = ::ptensor::semantics::teamBlockDimSize(d, size);
  };
  for (FunctionSignature &s : signatures) {
    llvm::for_each(s.args, localize);
    llvm::for_each(s.results, localize);
  }
  return signatures;
}

/// libptensor_runtime.so for GPU code: $PTENSOR_RUNTIME_LIBRARY, else this
/// build's copy, else one next to the executable or in its ../lib (a tool
/// copied to another machine, e.g. the static ptensor-runner).
static std::string findRuntimeLibrary() {
  if (const char *env = std::getenv("PTENSOR_RUNTIME_LIBRARY"); env && *env)
    return env;
  if (llvm::sys::fs::exists(PTENSOR_RUNTIME_LIBRARY))
    return PTENSOR_RUNTIME_LIBRARY;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::StringRef name = llvm::sys::path::filename(PTENSOR_RUNTIME_LIBRARY);
  for (const char *dir : {".", "../lib"}) {
    llvm::SmallString<256> candidate(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(candidate, dir, name);
    llvm::sys::path::remove_dots(candidate, /*remove_dot_dot=*/true);
    if (llvm::sys::fs::exists(candidate))
      return std::string(candidate);
  }
  return PTENSOR_RUNTIME_LIBRARY; // reported missing by the ExecutionEngine
}

/// Whether a function of the module takes or returns GPU tensors.
static bool usesGPU(llvm::ArrayRef<FunctionSignature> signatures) {
  return llvm::any_of(signatures, ValueType::anyOnGPU);
}

/// The shared libraries compiled host code may call, those that exist:
/// glibc's libmvec (vectorized loops), libptensor_runtime (host
/// allocations, failed run-time checks, and the OpenMP calls of parallel
/// loops, which it forwards to libomp loaded on the first fork; GPU code
/// needs it, so there it is named even when missing: loading it fails with
/// the path; `runtime` is findRuntimeLibrary's), the OpenMP runtime where
/// parallel code does not fork through the runtime (`forwardOpenMP`) and,
/// for team code, libptensor_team.
static std::vector<std::string>
findHostLibraries(const std::string &runtime, bool parallel,
                  bool forwardOpenMP, bool gpu, bool team) {
  std::vector<std::string> libraries;
  if (parallel && !forwardOpenMP)
    libraries.push_back(compiler::getOpenMPRuntimeLibrary());
  if (std::string vectorMath = compiler::getVectorMathLibrary();
      !vectorMath.empty())
    libraries.push_back(vectorMath);
  if (gpu || llvm::sys::fs::exists(runtime))
    libraries.push_back(runtime);
  if (team)
    if (std::string teamLibrary = ::ptensor::team::findTeamLibrary();
        !teamLibrary.empty())
      libraries.push_back(teamLibrary);
  return libraries;
}

/// Loads a cached object into a fresh LLJIT that resolves libc/libm
/// symbols from the process, and the others from `libraries`
/// (findHostLibraries).
static llvm::Error loadObject(JITModule::Impl &impl, llvm::StringRef path,
                              llvm::ArrayRef<std::string> libraries) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::errorCodeToError(buffer.getError());
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  auto generator =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator)
    return generator.takeError();
  (*jit)->getMainJITDylib().addGenerator(std::move(*generator));
  for (const std::string &library : libraries) {
    auto symbols = llvm::orc::DynamicLibrarySearchGenerator::Load(
        library.c_str(), (*jit)->getDataLayout().getGlobalPrefix());
    if (!symbols)
      return symbols.takeError();
    (*jit)->getMainJITDylib().addGenerator(std::move(*symbols));
  }
  if (llvm::Error e = (*jit)->addObjectFile(std::move(*buffer)))
    return e;
  for (const FunctionSignature &s : impl.signatures) {
    auto sym = (*jit)->lookup("_mlir_" + s.name);
    if (!sym)
      return sym.takeError();
    impl.entryPoints[s.name] = sym->toPtr<void (*)(void **)>();
  }
  impl.lljit = std::move(*jit);
  impl.source = CodeSource::DiskCache;
  return llvm::Error::success();
}

/// Warns on stderr, once per process, that compiled code is not cached.
static void warnCacheUnwritableOnce(llvm::StringRef dir,
                                    const std::string &why) {
  static std::once_flag warned;
  std::call_once(warned, [&] {
    llvm::errs() << "ptensor: warning: cannot write the disk cache " << dir
                 << " (" << why
                 << "); compiled code runs from memory (set "
                    "PTENSOR_CACHE_DIR to a writable directory)\n";
  });
}

/// The free space below which the disk cache is not written: LLVM's object
/// writer (ExecutionEngine::dumpToObjectFile) ends the process with
/// report_fatal_error when a write fails.
static constexpr uint64_t kMinCacheFreeBytes = uint64_t(64) << 20;

/// Whether compiled code can be written to `tmp` in `dir` (created if
/// needed): the file opens for writing and the disk has room. Checked first
/// because LLVM's object writer prints its own error on each failed open
/// and aborts on a failed write.
static llvm::Error checkCacheWritable(const std::string &dir,
                                      const std::string &tmp) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create %s: %s", dir.c_str(),
                                   ec.message().c_str());
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::openFileForWrite(tmp, fd))
    return llvm::createStringError(ec, "cannot write %s: %s", tmp.c_str(),
                                   ec.message().c_str());
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  llvm::ErrorOr<llvm::sys::fs::space_info> space =
      llvm::sys::fs::disk_space(dir);
  if (space && space->available < kMinCacheFreeBytes) {
    llvm::sys::fs::remove(tmp);
    return llvm::createStringError(
        "only %llu bytes free (the cache needs %llu)",
        static_cast<unsigned long long>(space->available),
        static_cast<unsigned long long>(kMinCacheFreeBytes));
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<JITModule>>
JITModule::compile(llvm::StringRef source, llvm::StringRef bufferName,
                   const JITOptions &options) {
  compiler::initializeHostTarget();
  DialectRegistry registry;
  compiler::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  // Diagnostics are collected into the returned error.
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagStream);
  auto fail = [&](llvm::StringRef what) {
    return llvm::createStringError(what + ":\n" + diagnostics);
  };

  OwningOpRef<ModuleOp> module =
      compiler::parseModule(sourceMgr, ParserConfig(&context));
  if (!module)
    return fail("cannot parse " + bufferName.str());
  auto impl = std::make_unique<Impl>();
  auto signatures = readSignatures(*module);
  if (!signatures)
    return signatures.takeError();
  impl->signatures = std::move(*signatures);
  impl->teamBlocks = options.teamBlocks;
  if (options.teamSize) {
    impl->teamSize = *options.teamSize;
  } else if (usesTeams(impl->signatures)) {
    auto team = Team::join();
    if (!team)
      return team.takeError();
    impl->teamSize = team->size;
  }
  if (impl->teamSize < 1)
    return llvm::createStringError("team size must be at least 1, got %lld",
                                   static_cast<long long>(impl->teamSize));
  bool split = impl->teamSize > 1;
  if (split) {
    ::ptensor::team::Membership membership =
        ::ptensor::team::joinTeamOfSize(impl->teamSize);
    if (!membership.error.empty())
      return llvm::createStringError(membership.error);
    impl->team.rank = membership.rank;
    impl->team.size = membership.size;
  }
  impl->callSignatures =
      split ? localSignatures(impl->signatures) : impl->signatures;

  compiler::CompileOptions compileOptions;
  compileOptions.optLevel = options.optLevel;
  compileOptions.maxRecomputeOps = options.maxRecomputeOps;
  compileOptions.parallel = options.parallel;
  compileOptions.teamSize = impl->teamSize;
  bool gpu = usesGPU(impl->signatures);
  compiler::Target target = compiler::resolveTarget(compileOptions, gpu);
  bool parallel = compiler::compilesParallel(compileOptions);
  // Team code is split for its team size (the rank is read at run time):
  // one cached object serves every process of a job of that size.
  std::string optionsKey = llvm::formatv(
      "{0}|O{1}|r{2}|p{3}|t{4}", compiler::getTargetName(target),
      options.optLevel, options.maxRecomputeOps, int(parallel),
      impl->teamSize);
  // GPU code needs libptensor_runtime's symbols registered the way only the
  // ExecutionEngine's shared-library loading does: compile it afresh.
  std::string cacheDir =
      usesGPU(impl->signatures) ? "" : resolveCacheDir(options);
  std::string cachePath =
      cacheDir.empty() ? "" : getCachePath(cacheDir, source, optionsKey);
  // Parallel code forks through the runtime where it is found
  // (forwardOpenMPCallsToRuntime, in the transformer below): libomp then
  // loads on the first fork, not with the code.
  std::string runtime = findRuntimeLibrary();
  bool forwardOpenMP = parallel && llvm::sys::fs::exists(runtime);
  std::vector<std::string> hostLibraries =
      findHostLibraries(runtime, parallel, forwardOpenMP, gpu, split);
  auto loadCached = [&] {
    if (cachePath.empty() || !isCachedObjectCurrent(cachePath))
      return false;
    if (llvm::Error e = loadObject(*impl, cachePath, hostLibraries)) {
      llvm::consumeError(std::move(e)); // unreadable entry: recompile
      impl->entryPoints.clear();
      return false;
    }
    return true;
  };
  if (loadCached())
    return std::unique_ptr<JITModule>(new JITModule(std::move(impl)));
  // Processes compiling the same code at once (the ranks of an mpirun)
  // wait for the first one's entry instead of compiling it again; the
  // lock is held until this compile has written the entry.
  std::optional<cache::EntryLock> entryLock;
  if (!cachePath.empty()) {
    entryLock.emplace(cachePath);
    if (loadCached())
      return std::unique_ptr<JITModule>(new JITModule(std::move(impl)));
  }

  // CUDA kernels are assembled by ptxas while the host code is lowered and
  // translated; the translation embeds them (translateWithCubins below).
  std::shared_ptr<compiler::PendingCubins> cubins;
  if (target == compiler::Target::CUDA) {
    auto pending =
        compiler::lowerToLLVMDialectAssemblingKernels(*module, compileOptions);
    if (!pending)
      return fail(llvm::toString(pending.takeError()) + " on " +
                  bufferName.str());
    cubins = std::move(*pending);
  } else if (llvm::Error e = compiler::lowerToLLVMDialect(*module, target,
                                                          compileOptions)) {
    return fail(llvm::toString(std::move(e)) + " on " + bufferName.str());
  }

  ExecutionEngineOptions engineOptions;
  // `transformer` is a function_ref: the std::function must outlive create().
  auto machine = compiler::createHostTargetMachine(options.optLevel);
  if (!machine)
    return machine.takeError();
  std::shared_ptr<llvm::TargetMachine> optimizer = std::move(*machine);
  unsigned optLevel = options.optLevel;
  std::function<llvm::Error(llvm::Module *)> transformer =
      [optimizer, optLevel, forwardOpenMP](llvm::Module *m) {
        // A module whose calls the runtime does not forward finds libomp
        // among the process's symbols (the engine searches them).
        if (forwardOpenMP && !compiler::forwardOpenMPCallsToRuntime(*m) &&
            m->getFunction("__kmpc_fork_call"))
          llvm::sys::DynamicLibrary::LoadLibraryPermanently(
              compiler::getOpenMPRuntimeLibrary());
        return compiler::optimizeHostModule(*m, *optimizer, optLevel);
      };
  engineOptions.transformer = transformer;
  // The cubins go in as the module is translated: ExecutionEngine cannot
  // fail a transformer (it aborts), but it reports a module not built.
  std::string embedError;
  std::function<std::unique_ptr<llvm::Module>(Operation *, llvm::LLVMContext &)>
      translateWithCubins = [&](Operation *op, llvm::LLVMContext &context) {
        std::unique_ptr<llvm::Module> m = translateModuleToLLVMIR(op, context);
        if (m)
          if (llvm::Error e = cubins->embed(*m)) {
            embedError = llvm::toString(std::move(e));
            return std::unique_ptr<llvm::Module>();
          }
        return m;
      };
  if (cubins)
    engineOptions.llvmModuleBuilder = translateWithCubins;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  engineOptions.enableObjectDump = !cachePath.empty();
  SmallVector<StringRef> sharedLibs(hostLibraries.begin(),
                                    hostLibraries.end());
  engineOptions.sharedLibPaths = sharedLibs;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine) {
    std::string why = llvm::toString(engine.takeError());
    return llvm::createStringError("cannot JIT-compile " + bufferName.str() +
                                   ": " +
                                   (embedError.empty() ? why : embedError));
  }
  for (const FunctionSignature &s : impl->signatures) {
    auto fn = (*engine)->lookupPacked(s.name);
    if (!fn)
      return fn.takeError();
    impl->entryPoints[s.name] = *fn;
  }
  if (!cachePath.empty()) {
    // Best effort: a cache that cannot be written only costs speed (the
    // code runs from memory), said once per process.
    // One name per process and compile: threads may compile one key at once.
    static std::atomic<unsigned> compiles{0};
    std::string tmp = cachePath + ".tmp" +
                      std::to_string(llvm::sys::Process::getProcessId()) +
                      "-" + std::to_string(compiles.fetch_add(1));
    llvm::Error written = llvm::Error::success();
    if (llvm::Error refused = checkCacheWritable(cacheDir, tmp)) {
      written = std::move(refused);
    } else {
      (*engine)->dumpToObjectFile(tmp);
      written = llvm::sys::fs::exists(tmp)
                    ? publishCacheFile(tmp, cachePath, source)
                    : llvm::createStringError("cannot write " + tmp);
    }
    if (written)
      warnCacheUnwritableOnce(cacheDir, llvm::toString(std::move(written)));
  }
  impl->engine = std::move(*engine);
  return std::unique_ptr<JITModule>(new JITModule(std::move(impl)));
}

char RunTimeCheckError::ID = 0;

bool RunTimeCheckError::isBroadcast() const {
  return status == PTENSOR_RT_ERROR_BROADCAST;
}

bool (::ptensor::jit::isRowMajor)(const StridedBuffer &b) {
  return semantics::isRowMajor(b.sizes.data(), b.strides.data(),
                               b.sizes.size());
}

llvm::Expected<HostArray>(::ptensor::jit::copyToHostArray)(
    const StridedBuffer &b) {
  llvm::Expected<HostArray> allocated = HostArray::tryAllocate(b.dtype, b.sizes);
  if (!allocated)
    return allocated.takeError();
  HostArray out = std::move(*allocated);
  size_t es = dtypeByteSize(b.dtype);
  auto *base = static_cast<const std::byte *>(b.data);
  if (isRowMajor(b)) { // one copy
    if (out.numElements())
      std::memcpy(out.data(), base + b.offset * es, out.numElements() * es);
    return out;
  }
  semantics::packRowMajor(base + b.offset * es, es, b.sizes.data(),
                          b.strides.data(), b.sizes.size(), out.data());
  return out;
}

/// Replaces each team result of rank >= 1 (this process's block) by the
/// whole tensor gathered from every process, row-major.
static llvm::Error gatherResults(const FunctionSignature &sig,
                                 const Team &team,
                                 llvm::SmallVectorImpl<Result> &results) {
  for (auto [result, type] : llvm::zip(results, sig.results)) {
    if (!type.team || type.shape.empty())
      continue;
    auto whole = team.gatherBlocks(result.buffer);
    if (!whole)
      return whole.takeError();
    auto owner = std::make_shared<HostArray>(std::move(*whole));
    Result gathered;
    gathered.buffer.data = owner->data();
    gathered.buffer.dtype = owner->dtype();
    gathered.buffer.sizes.assign(owner->shape().begin(), owner->shape().end());
    gathered.buffer.strides.assign(owner->strides().begin(),
                                   owner->strides().end());
    gathered.owner = owner;
    result = std::move(gathered);
  }
  return llvm::Error::success();
}

/// Fails when `sig` passes a GPU team tensor: whole team tensors are split
/// and gathered in host memory here (GPU blocks: JITOptions::teamBlocks, or
/// ptensor-runner, which stages them through the host).
static llvm::Error checkHostTeamTensors(const FunctionSignature &sig) {
  auto onGPU = [](const ValueType &t) { return t.team && t.isOnGPU(); };
  if (llvm::none_of(sig.args, onGPU) && llvm::none_of(sig.results, onGPU))
    return llvm::Error::success();
  return llvm::createStringError(semantics::wholeGPUTeamTensorsRefusal(
      sig.name, "pass this process's blocks instead (JITOptions::teamBlocks) "
                "or run it with ptensor-runner"));
}

llvm::Error JITModule::invoke(llvm::StringRef name,
                              llvm::ArrayRef<Argument> args,
                              llvm::SmallVectorImpl<Result> &results) {
  const FunctionSignature *sig = lookup(name);
  if (!sig) {
    std::string known;
    for (const FunctionSignature &s : impl->signatures)
      known += (known.empty() ? "@" : ", @") + s.name;
    return llvm::createStringError("no public function @" + name.str() +
                                   " in the module (it has " +
                                   (known.empty() ? "none" : known) + ")");
  }
  // The compiled function's view of the signature (team blocks).
  const FunctionSignature &callSig =
      impl->callSignatures[sig - impl->signatures.data()];
  // Team arguments: this process's block of each.
  llvm::SmallVector<Argument> blocks;
  bool wholeTensors = impl->teamSize > 1 && !impl->teamBlocks;
  llvm::ArrayRef<Argument> wholeArgs = args;
  if (wholeTensors) {
    if (llvm::Error e = checkHostTeamTensors(*sig))
      return e;
    if (llvm::Error e = impl->team.blockArguments(*sig, args, blocks))
      return e;
    args = blocks;
  }
  if (llvm::Error e = checkArguments(callSig, args))
    return e;
  if (impl->engine)
    std::call_once(impl->initialized, [&] { impl->engine->initialize(); });
  PackedCall call(callSig, args);
  ptensor_rt_status status = ptensor_rt_call_checked(
      impl->entryPoints.lookup(name), call.pointers());
  if (status != PTENSOR_RT_SUCCESS)
    return llvm::make_error<RunTimeCheckError>(status, ptensor_rt_last_error());
  call.takeResults(callSig, args, results);
  if (!wholeTensors)
    return llvm::Error::success();
  if (llvm::Error e = gatherResults(*sig, impl->team, results))
    return e;
  return impl->team.gatherWrittenArguments(*sig, wholeArgs);
}
