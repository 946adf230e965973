//===- CodeCache.cpp - compiled objects on disk ---------------------------===//

#include "CodeCache.h"

#include "ptensor/Compiler/Compiler.h"
#include "ptensor/JIT/JIT.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>

using namespace ::ptensor;
using namespace ::ptensor::jit;

/// Bumped whenever the generated code for the same IR may change.
static constexpr const char *kPTensorCodeVersion = "ptensor-0.1";

std::string ptensor::jit::resolveCacheDir(const JITOptions &options) {
  if (const char *off = std::getenv("PTENSOR_DISABLE_CACHE");
      off && llvm::StringRef(off) == "1")
    return "";
  if (options.cacheDir)
    return *options.cacheDir;
  if (const char *dir = std::getenv("PTENSOR_CACHE_DIR"))
    return dir;
  llvm::SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME")) {
    path = xdg;
  } else if (llvm::sys::path::home_directory(path)) {
    llvm::sys::path::append(path, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(path, "ptensor");
  return std::string(path);
}

std::string ptensor::jit::getCachePath(llvm::StringRef dir,
                                       llvm::StringRef source,
                                       llvm::StringRef optionsKey) {
  std::string key = (llvm::Twine(kPTensorCodeVersion) + "|" +
                     compiler::getCompilerBuildId() + "|" +
                     llvm::sys::getProcessTriple() +
                     "|" + llvm::sys::getHostCPUName() + "|" + optionsKey +
                     "|" + source)
                        .str();
  uint64_t hash = llvm::xxh3_64bits(key);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, llvm::formatv("{0:x-16}.o", hash).str());
  return std::string(path);
}

llvm::Error ptensor::jit::publishCacheFile(llvm::StringRef tmpPath,
                                           llvm::StringRef path) {
  if (std::error_code ec =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)))
    return llvm::createStringError(ec, "cannot create cache directory for %s",
                                   path.str().c_str());
  if (std::error_code ec = llvm::sys::fs::rename(tmpPath, path)) {
    llvm::sys::fs::remove(tmpPath);
    return llvm::createStringError(ec, "cannot write cache file %s",
                                   path.str().c_str());
  }
  return llvm::Error::success();
}
