//===- MgpuModule.cpp - mgpu* module loading and kernel launches ----------===//
///
/// \file
/// The module and launch entry points of MLIR 22's GPU-to-LLVM host
/// lowering. Generated code has no error path: each entry point is a thin
/// wrapper around an internal function that returns false with the error
/// recorded, and the wrapper then fails the call (failCompiledCall in
/// Errors.h: through the caller's trap when there is one, else the process
/// exits or aborts). A module load outside any trap (compiled code's global
/// constructor) is kept for the module's first use instead
/// (FailedLoad).
///
//===----------------------------------------------------------------------===//

#include "DeviceContext.h"
#include "Errors.h"
#include "FaultInjection.h"
#include "ModuleCache.h"

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

using namespace ptensor::rt;

namespace {

/// Shared memory a kernel may use without opting in.
constexpr int32_t kDefaultSharedMemoryLimit = 48 * 1024;

/// Per-device CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN; 0 until
/// queried.
std::atomic<int> maxOptInSharedMemory[kMaxDevices];

/// "grid 1x2x3, block 128x1x1, dynamic smem 0 bytes" for messages.
std::string shapeText(const intptr_t grid[3], const intptr_t block[3],
                      int32_t smem) {
  char buffer[256];
  std::snprintf(buffer, sizeof(buffer),
                "grid %ldx%ldx%ld, block %ldx%ldx%ld, dynamic smem %d bytes",
                long(grid[0]), long(grid[1]), long(grid[2]), long(block[0]),
                long(block[1]), long(block[2]), int(smem));
  return buffer;
}

/// Checks that every launch dimension fits the driver's unsigned int.
bool checkDimensions(CUfunction function, const char *what,
                     const intptr_t dims[3], unsigned out[3]) {
  static const char *const axes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (dims[i] < 1 || uintmax_t(dims[i]) > UINT_MAX)
      return setErrorf(ErrorKind::InvalidArgument,
                       "launch of kernel '%s': %s dimension %s = %ld is out "
                       "of range (expected 1 to %u)",
                       kernelName(function).c_str(), what, axes[i],
                       long(dims[i]), UINT_MAX);
    out[i] = unsigned(dims[i]);
  }
  return true;
}

/// Validates `smem` and opts the kernel in to more than 48 KiB if needed.
bool prepareSharedMemory(const ScopedContext &scope, int device,
                         CUfunction function, int32_t smem) {
  if (smem < 0)
    return setErrorf(ErrorKind::InvalidArgument,
                     "launch of kernel '%s': negative dynamic shared memory "
                     "size %d",
                     kernelName(function).c_str(), int(smem));
  if (smem <= kDefaultSharedMemoryLimit)
    return true;
  int limit = maxOptInSharedMemory[device].load(std::memory_order_relaxed);
  if (limit == 0) {
    CUdevice handle = 0;
    if (!checkCuda(scope.api().DeviceGet(&handle, device), "cuDeviceGet") ||
        !checkCuda(scope.api().DeviceGetAttribute(
                       &limit,
                       CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                       handle),
                   "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)"))
      return false;
    maxOptInSharedMemory[device].store(limit, std::memory_order_relaxed);
  }
  if (smem > limit)
    return setErrorf(ErrorKind::InvalidArgument,
                     "launch of kernel '%s': %d bytes of dynamic shared "
                     "memory requested, but cuda:%d allows at most %d",
                     kernelName(function).c_str(), int(smem), device, limit);
  return checkCuda(scope.api().FuncSetAttribute(
                       function,
                       CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
                   "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) for "
                   "kernel '" + kernelName(function) + "'");
}

// The work of the entry points below, which may hold RAII objects (see
// require in Errors.h).

/// Module loads that failed outside any trap, kept for the first use of
/// each module. Compiled code loads its kernels when it is itself loaded (a
/// global constructor of the JIT module or the shared library), where no
/// caller can receive an error: such a load returns a handle of its own (the
/// address of its FailedLoad, never given to the driver), and
/// mgpuModuleGetFunction, which runs inside the compiled call and its trap,
/// reports that load's error; mgpuModuleUnload forgets it.
struct FailedLoad {
  ErrorKind kind;
  std::string message;
};

struct FailedLoads {
  std::mutex mutex;
  std::unordered_map<CUmodule, std::unique_ptr<FailedLoad>> byHandle;
  /// Whether byHandle was ever filled: launches skip the lock otherwise.
  std::atomic<bool> any{false};
};

FailedLoads &failedLoads() {
  static FailedLoads *loads = new FailedLoads(); // used by static destructors
  return *loads;
}

/// The error of the failed load `module` (null when it is none).
std::optional<FailedLoad> failedLoadOf(CUmodule module) {
  FailedLoads &loads = failedLoads();
  if (!loads.any.load(std::memory_order_acquire))
    return std::nullopt;
  std::lock_guard<std::mutex> lock(loads.mutex);
  auto it = loads.byHandle.find(module);
  if (it == loads.byHandle.end())
    return std::nullopt;
  return *it->second;
}

/// `loaded`, or, for a failed load outside any trap, true with the handle
/// of a FailedLoad that keeps the error.
bool deferOutsideTrap(bool loaded, CUmodule *module) {
  if (loaded || insideTrap())
    return loaded;
  auto failed = std::make_unique<FailedLoad>(
      FailedLoad{lastErrorKind(), lastErrorMessage()});
  *module = reinterpret_cast<CUmodule>(failed.get());
  FailedLoads &loads = failedLoads();
  {
    std::lock_guard<std::mutex> lock(loads.mutex);
    loads.byHandle.emplace(*module, std::move(failed));
  }
  loads.any.store(true, std::memory_order_release);
  clearError();
  return true;
}

/// Forgets the failed load `module`; false when it is none.
bool forgetFailedLoad(CUmodule module) {
  FailedLoads &loads = failedLoads();
  if (!loads.any.load(std::memory_order_acquire))
    return false;
  std::lock_guard<std::mutex> lock(loads.mutex);
  return loads.byHandle.erase(module) != 0;
}

bool moduleLoad(void *data, size_t size, CUmodule *module) {
  ModuleImage image;
  image.data = data;
  image.size = size;
  return deferOutsideTrap(loadModule(defaultDevice(), image, module), module);
}

bool moduleLoadJIT(void *data, int optLevel, CUmodule *module) {
  *module = nullptr;
  if (optLevel < 0 || optLevel > 4)
    return setErrorf(ErrorKind::InvalidArgument,
                     "mgpuModuleLoadJIT: optimization level %d is out of "
                     "range (expected 0 to 4)",
                     optLevel);
  ModuleImage image;
  image.data = data;
  image.size = data ? std::strlen(static_cast<const char *>(data)) + 1 : 0;
  image.isPtx = true;
  image.optLevel = optLevel;
  return deferOutsideTrap(loadModule(defaultDevice(), image, module), module);
}

/// getFunction, or the error of a module whose load failed outside a trap.
bool moduleFunction(CUmodule module, const char *name, CUfunction *function) {
  *function = nullptr;
  if (std::optional<FailedLoad> failed = failedLoadOf(module)) {
    std::string cause = failed->message;
    if (cause.rfind(kMessagePrefix, 0) == 0)
      cause.erase(0, std::strlen(kMessagePrefix));
    return setError(failed->kind, "the GPU kernels of this code were not "
                                  "loaded when it was loaded: " +
                                      cause);
  }
  if (!module)
    return setErrorf(ErrorKind::InvalidArgument,
                     "mgpuModuleGetFunction('%s'): the module is null",
                     name ? name : "(null)");
  return getFunction(module, name, function);
}

/// A launch's grid (and cluster) and block shapes.
struct LaunchShape {
  intptr_t grid[3];
  intptr_t block[3];
};

bool launchKernel(CUfunction f, const LaunchShape &shape, int32_t smem,
                  void *stream, void **params, void **extra) {
  if (injectFault(FaultSite::Launch, "kernel launch"))
    return false;
  int device = defaultDevice();
  ScopedContext scope(device);
  if (!scope.ok())
    return false;
  unsigned g[3], b[3];
  if (!checkDimensions(f, "grid", shape.grid, g) ||
      !checkDimensions(f, "block", shape.block, b) ||
      !prepareSharedMemory(scope, device, f, smem))
    return false;
  noteLaunch(f);
  CUresult result =
      scope.api().LaunchKernel(f, g[0], g[1], g[2], b[0], b[1], b[2],
                               unsigned(smem), static_cast<CUstream>(stream),
                               params, extra);
  if (result == CUDA_SUCCESS) // Build the message only on failure.
    return true;
  return checkCuda(result, "cuLaunchKernel(kernel '" + kernelName(f) + "', " +
                               shapeText(shape.grid, shape.block, smem) + ")");
}

bool launchClusterKernel(CUfunction f, const intptr_t cluster[3],
                         const LaunchShape &shape, int32_t smem, void *stream,
                         void **params, void **extra) {
  int device = defaultDevice();
  ScopedContext scope(device);
  if (!scope.ok())
    return false;
  if (!scope.api().LaunchKernelEx)
    return setError(ErrorKind::Unsupported,
                    "launch of kernel '" + kernelName(f) +
                        "' with clusters needs cuLaunchKernelEx, which the "
                        "CUDA driver does not export (driver too old)");
  unsigned c[3], g[3], b[3];
  if (!checkDimensions(f, "cluster", cluster, c) ||
      !checkDimensions(f, "grid", shape.grid, g) ||
      !checkDimensions(f, "block", shape.block, b) ||
      !prepareSharedMemory(scope, device, f, smem))
    return false;
  // Clusters of more than 8 blocks are "non-portable" and must be enabled.
  if (uint64_t(c[0]) * c[1] * c[2] > 8 &&
      !checkCuda(scope.api().FuncSetAttribute(
                     f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
                 "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED) "
                 "for kernel '" + kernelName(f) + "'"))
    return false;

  CUlaunchAttribute attribute;
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = c[0];
  attribute.value.clusterDim.y = c[1];
  attribute.value.clusterDim.z = c[2];
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = g[0];
  config.gridDimY = g[1];
  config.gridDimZ = g[2];
  config.blockDimX = b[0];
  config.blockDimY = b[1];
  config.blockDimZ = b[2];
  config.sharedMemBytes = unsigned(smem);
  config.hStream = static_cast<CUstream>(stream);
  config.attrs = &attribute;
  config.numAttrs = 1;
  noteLaunch(f);
  CUresult result = scope.api().LaunchKernelEx(&config, f, params, extra);
  if (result == CUDA_SUCCESS)
    return true;
  return checkCuda(result, "cuLaunchKernelEx(kernel '" + kernelName(f) +
                               "', cluster " + std::to_string(c[0]) + "x" +
                               std::to_string(c[1]) + "x" +
                               std::to_string(c[2]) + ", " +
                               shapeText(shape.grid, shape.block, smem) + ")");
}

} // namespace

// Only trivially destructible objects in these frames: require may jump.
extern "C" {

PTENSOR_RT_EXPORT void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  return resultOrFail<CUmodule>(moduleLoad, data, gpuBlobSize);
}

PTENSOR_RT_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return resultOrFail<CUmodule>(moduleLoadJIT, data, optLevel);
}

PTENSOR_RT_EXPORT void mgpuModuleUnload(void *module) {
  if (!forgetFailedLoad(static_cast<CUmodule>(module)))
    require(unloadModule(static_cast<CUmodule>(module)));
}

PTENSOR_RT_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  return resultOrFail<CUfunction>(moduleFunction,
                                  static_cast<CUmodule>(module), name);
}

PTENSOR_RT_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                        intptr_t gridY, intptr_t gridZ,
                                        intptr_t blockX, intptr_t blockY,
                                        intptr_t blockZ, int32_t smem,
                                        void *stream, void **params,
                                        void **extra,
                                        size_t /*paramsCount*/) {
  const LaunchShape shape = {{gridX, gridY, gridZ}, {blockX, blockY, blockZ}};
  require(launchKernel(static_cast<CUfunction>(function), shape, smem, stream,
                       params, extra));
}

PTENSOR_RT_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra, size_t /*paramsCount*/) {
  const intptr_t cluster[3] = {clusterX, clusterY, clusterZ};
  const LaunchShape shape = {{gridX, gridY, gridZ}, {blockX, blockY, blockZ}};
  require(launchClusterKernel(static_cast<CUfunction>(function), cluster,
                              shape, smem, stream, params, extra));
}

} // extern "C"
