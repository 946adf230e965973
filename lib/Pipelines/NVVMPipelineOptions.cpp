//===- NVVMPipelineOptions.cpp - checks of ptensor-to-nvvm-pipeline options ===//
//
// Options that are wrong deep inside the pipeline either abort the process
// (an old PTX version in LLVM's NVPTX backend), produce invalid IR (a zero
// block size) or are only reported by gpu-module-to-binary without failing
// the pass (an unknown format, a missing toolkit), so they are all checked
// here, before the pipeline is built.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Pipelines/Pipelines.h"
#include "NVPTXTargets.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::ptensor;

namespace {
/// Collects the problems of one set of options.
struct OptionChecker {
  function_ref<LogicalResult(const Twine &)> errorHandler;
  bool failed = false;

  /// Reports that `option` is `value` and what was `expected` instead.
  void reject(StringRef option, const Twine &value, const Twine &expected) {
    failed = true;
    (void)errorHandler("ptensor-to-nvvm-pipeline option '" + option +
                       "' is '" + value + "'; expected " + expected);
  }
  /// Reports any other problem, as is.
  void report(const Twine &message) {
    failed = true;
    (void)errorHandler(message);
  }
};
} // namespace

/// The spellings gpu-module-to-binary accepts for the formats the runtime
/// can load with the driver (cubin, PTX, fatbin; not LLVM offloading).
static bool isLoadableFormat(StringRef format) {
  return llvm::StringSwitch<bool>(format)
      .Cases({"bin", "binary", "isa", "assembly", "fatbin", "fatbinary"}, true)
      .Default(false);
}

static void checkTarget(OptionChecker &check,
                        const PTensorToNVVMPipelineOptions &options) {
  std::optional<unsigned> minPTX = getMinPTXVersion(options.chip);
  if (!minPTX)
    check.reject("chip", options.chip,
                 "a chip LLVM's NVPTX backend knows: " + listKnownChips());
  std::optional<unsigned> ptx = parsePTXFeature(options.features);
  if (!ptx) {
    check.reject("features", options.features,
                 "one PTX version feature: " + listKnownPTXFeatures());
    return;
  }
  if (minPTX && *ptx < *minPTX)
    check.reject("features", options.features,
                 "+ptx" + Twine(*minPTX) +
                     " or newer, the oldest PTX version LLVM accepts for " +
                     options.chip);
}

static void checkLaunchSizes(OptionChecker &check,
                             const PTensorToNVVMPipelineOptions &options) {
  auto reject = [&](const char *option, unsigned value,
                    const std::string &expected) {
    check.reject(option, Twine(value), expected);
  };
  options.getKernelConfig().verify(reject);
  if (options.optLevel > 3)
    check.reject("opt-level", Twine(options.optLevel), "0, 1, 2 or 3");
}

/// Every kernel is linked with libdevice (also without __nv_* calls) and,
/// for bin and fatbin, assembled by the toolkit's ptxas.
static void checkToolkit(OptionChecker &check,
                         const PTensorToNVVMPipelineOptions &options) {
  std::string toolkit = resolveCudaPath(options.cudaPath);
  if (!llvm::sys::fs::is_directory(toolkit)) {
    check.report("CUDA path: " + toolkit +
                 " does not exist or is not a directory. The kernels need "
                 "the CUDA toolkit's libdevice (and ptxas for bin/fatbin): "
                 "set the option 'cuda-path' or CUDA_HOME");
    return;
  }
  llvm::SmallString<128> libdevice(toolkit);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  if (!llvm::sys::fs::is_regular_file(libdevice))
    check.report("LibDevice path: " + libdevice +
                 " does not exist or is not a file; the CUDA toolkit at " +
                 toolkit + " is incomplete");
}

LogicalResult mlir::ptensor::verifyPTensorToNVVMPipelineOptions(
    const PTensorToNVVMPipelineOptions &options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  OptionChecker check{errorHandler};
  if (!isLoadableFormat(options.format))
    check.reject("format", options.format,
                 "bin (cubin), isa (PTX text) or fatbin (also spelled binary, "
                 "assembly, fatbinary)");
  checkTarget(check, options);
  checkLaunchSizes(check, options);
  checkToolkit(check, options);
  return failure(check.failed);
}
