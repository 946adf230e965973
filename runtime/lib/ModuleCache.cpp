//===- ModuleCache.cpp - Loaded GPU modules and kernel names --------------===//

#include "ModuleCache.h"

#include "DeviceContext.h"
#include "Errors.h"
#include "FaultInjection.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ptensor::rt {
namespace {

struct LoadedModule {
  int device = 0;
  const void *data = nullptr;
  size_t size = 0;
  uint64_t hash = 0;
  int references = 0;
  std::vector<CUfunction> functions;
};

/// All state behind one mutex; leaked so global destructors of generated
/// code can still unload modules at exit.
struct Cache {
  std::mutex mutex;
  std::unordered_map<CUmodule, LoadedModule> modules;
  /// (blob address, device) -> module, for the load-once fast path.
  std::map<std::pair<const void *, int>, CUmodule> byBlob;
  std::unordered_map<CUfunction, std::string> kernelNames;
};

Cache &cache() {
  static Cache *instance = new Cache();
  return *instance;
}

thread_local CUfunction lastLaunched = nullptr;

/// Bumped whenever a module is unloaded: invalidates every thread's
/// function cache (a new module may reuse the handle, a new library the
/// address of a kernel name).
std::atomic<uint64_t> unloadGeneration{0};

/// MLIR's host code looks the kernel up before every launch
/// (mgpuModuleGetFunction); a small per-thread cache answers repeated
/// lookups without a lock or a driver call. Keyed on the module and the
/// name's address, and the name's text is compared too.
struct FunctionCacheEntry {
  CUmodule module;
  const char *namePointer;
  uint64_t generation;
  CUfunction function;
  char name[96];
};
constexpr unsigned kFunctionCacheSlots = 16;
thread_local FunctionCacheEntry functionCache[kFunctionCacheSlots];

FunctionCacheEntry &functionCacheSlot(CUmodule module, const char *name) {
  uintptr_t key = (reinterpret_cast<uintptr_t>(module) >> 4) ^
                  (reinterpret_cast<uintptr_t>(name) >> 3);
  return functionCache[(key ^ (key >> 7)) % kFunctionCacheSlots];
}

/// FNV-1a: detects a different blob that reuses a freed blob's address.
uint64_t hashBytes(const void *data, size_t size) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  uint64_t hash = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}

bool loadUncached(const ScopedContext &scope, int device,
                  const ModuleImage &image, CUmodule *module) {
  const DriverApi &api = scope.api();
  std::string what = "cuModuleLoadData (" + std::to_string(image.size) +
                     "-byte GPU binary on cuda:" + std::to_string(device) + ")";
  if (!image.isPtx)
    return checkCuda(api.ModuleLoadData(module, image.data), what);

  char errorLog[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {errorLog,
                    reinterpret_cast<void *>(uintptr_t(sizeof(errorLog))),
                    reinterpret_cast<void *>(uintptr_t(image.optLevel))};
  CUresult result =
      api.ModuleLoadDataEx(module, image.data, 3, options, values);
  what = "cuModuleLoadDataEx (JIT of " + std::to_string(image.size) +
         "-byte PTX at -O" + std::to_string(image.optLevel) + " on cuda:" +
         std::to_string(device) + ")";
  if (result != CUDA_SUCCESS)
    return setError(result == CUDA_ERROR_OUT_OF_MEMORY ? ErrorKind::OutOfMemory
                                                       : ErrorKind::Cuda,
                    what + " failed: " + cudaErrorText(result) +
                        "\nPTX JIT error log:\n" +
                        (errorLog[0] ? errorLog : "(empty)"));
  return true;
}

} // namespace

bool loadModule(int device, const ModuleImage &image, CUmodule *module) {
  *module = nullptr;
  if (injectFault(FaultSite::ModuleLoad, "module load"))
    return false;
  if (!image.data || image.size == 0)
    return setError(ErrorKind::InvalidArgument,
                    "mgpuModuleLoad: the GPU binary is null or empty "
                    "(expected the address and size of a cubin/fatbin/PTX)");
  ScopedContext scope(device);
  if (!scope.ok())
    return false;
  uint64_t hash = hashBytes(image.data, image.size);

  Cache &c = cache();
  // Held across the driver load so concurrent loads of one blob load once.
  std::lock_guard<std::mutex> lock(c.mutex);
  auto key = std::make_pair(image.data, device);
  auto cached = c.byBlob.find(key);
  if (cached != c.byBlob.end()) {
    LoadedModule &entry = c.modules[cached->second];
    if (entry.size == image.size && entry.hash == hash) {
      ++entry.references;
      *module = cached->second;
      return true;
    }
    // Different contents at a reused address: the old module keeps its own
    // references, but it is no longer found by address.
    c.byBlob.erase(cached);
  }
  if (!loadUncached(scope, device, image, module))
    return false;
  LoadedModule entry;
  entry.device = device;
  entry.data = image.data;
  entry.size = image.size;
  entry.hash = hash;
  entry.references = 1;
  c.modules.emplace(*module, std::move(entry));
  c.byBlob[key] = *module;
  return true;
}

bool unloadModule(CUmodule module) {
  if (!module)
    return true;
  Cache &c = cache();
  int device = 0;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.modules.find(module);
    if (it == c.modules.end())
      return setErrorf(ErrorKind::InvalidArgument,
                       "mgpuModuleUnload: %p is not a module loaded by the "
                       "ptensor runtime (or it was already unloaded)",
                       static_cast<void *>(module));
    if (--it->second.references > 0)
      return true;
    device = it->second.device;
    unloadGeneration.fetch_add(1, std::memory_order_acq_rel);
    for (CUfunction function : it->second.functions)
      c.kernelNames.erase(function);
    auto blob = c.byBlob.find({it->second.data, device});
    if (blob != c.byBlob.end() && blob->second == module)
      c.byBlob.erase(blob);
    c.modules.erase(it);
  }
  // The driver requires the module's context to be current; at process exit
  // it may already be shut down, which is fine.
  ScopedContext scope(device);
  if (!scope.ok())
    return scope.result() == CUDA_ERROR_DEINITIALIZED;
  return checkCudaRelease(scope.api().ModuleUnload(module), "cuModuleUnload");
}

bool getFunction(CUmodule module, const char *name, CUfunction *function) {
  *function = nullptr;
  if (!name)
    return setError(ErrorKind::InvalidArgument,
                    "mgpuModuleGetFunction: the kernel name is null");
  FunctionCacheEntry &slot = functionCacheSlot(module, name);
  uint64_t generation = unloadGeneration.load(std::memory_order_acquire);
  if (slot.module == module && slot.namePointer == name &&
      slot.generation == generation && module &&
      std::strcmp(slot.name, name) == 0) {
    *function = slot.function;
    return true;
  }
  Cache &c = cache();
  int device = defaultDevice();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.modules.find(module);
    if (it == c.modules.end())
      return setErrorf(ErrorKind::InvalidArgument,
                       "mgpuModuleGetFunction('%s'): %p is not a loaded module",
                       name, static_cast<void *>(module));
    device = it->second.device;
  }
  ScopedContext scope(device);
  if (!scope.ok())
    return false;
  if (!checkCuda(scope.api().ModuleGetFunction(function, module, name),
                 std::string("cuModuleGetFunction(kernel '") + name + "')"))
    return false;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.modules.find(module);
    if (!c.kernelNames.count(*function)) {
      c.kernelNames.emplace(*function, name);
      if (it != c.modules.end())
        it->second.functions.push_back(*function);
    }
  }
  size_t length = std::strlen(name);
  if (length < sizeof(slot.name)) {
    slot.module = module;
    slot.namePointer = name;
    slot.generation = generation;
    slot.function = *function;
    std::memcpy(slot.name, name, length + 1);
  }
  return true;
}

std::string kernelName(CUfunction function) {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.kernelNames.find(function);
  return it == c.kernelNames.end() ? "<unknown kernel>" : it->second;
}

void noteLaunch(CUfunction function) { lastLaunched = function; }

std::string lastLaunchHint() {
  if (!lastLaunched)
    return "";
  return "; the last kernel launched from this thread was '" +
         kernelName(lastLaunched) +
         "' (kernel faults are reported by the next synchronizing call)";
}

} // namespace ptensor::rt
