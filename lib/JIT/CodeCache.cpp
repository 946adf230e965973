//===- CodeCache.cpp - JIT objects in the disk cache ----------------------===//

#include "CodeCache.h"

#include "ptensor/Cache/CPUFeatures.h"
#include "ptensor/Cache/DiskCache.h"
#include "ptensor/Compiler/Compiler.h"
#include "ptensor/JIT/JIT.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"

using namespace ::ptensor;
using namespace ::ptensor::jit;

std::string ptensor::jit::resolveCacheDir(const JITOptions &options) {
  return cache::resolveCacheDirectory(options.cacheDir);
}

std::string ptensor::jit::getCachePath(llvm::StringRef dir,
                                       llvm::StringRef source,
                                       llvm::StringRef optionsKey) {
  // JIT objects are compiled for this host's CPU: its name and features
  // (two machines with one name may differ, e.g. a VM without AVX-512).
  cache::TargetDescription target{
      "jit-object", "host",
      llvm::sys::getHostCPUName().str() + " " +
          cache::cpuFeaturesLine(cache::hostCPUFeatures()),
      (optionsKey + "|" + llvm::sys::getProcessTriple()).str()};
  return cache::entryPath(dir.str(), cache::computeKey(target, source.str()),
                          "o");
}

bool ptensor::jit::isCachedObjectCurrent(llvm::StringRef path) {
  return cache::isCurrent(path.str(), compiler::getCompilerBuildId());
}

llvm::Error ptensor::jit::publishCacheFile(llvm::StringRef tmpPath,
                                           llvm::StringRef path,
                                           llvm::StringRef source) {
  if (std::error_code ec =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)))
    return llvm::createStringError(ec, "cannot create cache directory for %s",
                                   path.str().c_str());
  if (std::error_code ec = llvm::sys::fs::rename(tmpPath, path)) {
    llvm::sys::fs::remove(tmpPath);
    return llvm::createStringError(ec, "cannot write cache file %s",
                                   path.str().c_str());
  }
  std::string error = cache::writeAtomically(
      cache::companionPath(path.str(), "mlir"), source.str());
  if (error.empty())
    error = cache::recordBuildId(path.str(), compiler::getCompilerBuildId());
  if (!error.empty())
    return llvm::createStringError(error);
  return llvm::Error::success();
}
