//===- Link.cpp - shared libraries with LLD, in process -------------------===//
//
// ptensor links its shared libraries itself: no C compiler or linker has
// to be installed where ptensor compiles (Python compiles in process).
// LLD's ELF driver is not reentrant, so links are serialized; it resets
// every llvm::cl option of the process to its default when it returns, so
// a tool reads its options before it links.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"

#include "LibraryOfSymbol.h"

#include "lld/Common/Driver.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <unwind.h>
#include <dlfcn.h>
#include <mutex>

LLD_HAS_DRIVER(elf)

namespace ptensor::compiler {

/// The path of the C math library this process uses (found through one of
/// its functions), so that the library records it as needed without a
/// library search path; empty when it cannot be told.
static std::string getMathLibraryPath() {
  double (*cosine)(double) = &::cos;
  return getLibraryOfSymbol(reinterpret_cast<void *>(cosine), "libm");
}

/// The path of the compiler support library this process uses (libgcc_s,
/// found through one of its functions): LLVM lowers conversions the target
/// has no instruction for (f64 -> f16 on x86: __truncdfhf2) to its calls,
/// so the library records it as needed instead of relying on the process
/// to have loaded it (Python may not have); empty when it cannot be told.
static std::string getSupportLibraryPath() {
  auto unwind = &::_Unwind_GetIP;
  return getLibraryOfSymbol(reinterpret_cast<void *>(unwind), "libgcc_s");
}

namespace {
/// A file that is removed unless kept.
struct TemporaryFile {
  std::string path;
  bool keep = false;
  ~TemporaryFile() {
    if (!keep && !path.empty())
      llvm::sys::fs::remove(path);
  }
};
} // namespace

/// A new file beside `path` (named after it, ending in `suffix`).
static llvm::Expected<std::string>
createTemporaryBeside(llvm::StringRef path, llvm::StringRef suffix) {
  llvm::SmallString<128> result;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".%%%%%%%%.tmp." + suffix, result))
    return llvm::createStringError("cannot write " + path.str() + ": " +
                                   ec.message());
  return std::string(result);
}

/// Writes `bytes` to `file`, a temporary file beside `path`.
static llvm::Error writeTemporaryBeside(llvm::StringRef path,
                                       llvm::StringRef suffix,
                                       llvm::StringRef bytes,
                                       TemporaryFile &file) {
  auto created = createTemporaryBeside(path, suffix);
  if (!created)
    return created.takeError();
  file.path = *created;
  std::error_code ec;
  llvm::raw_fd_ostream os(file.path, ec);
  if (!ec)
    os << bytes;
  if (ec || os.has_error())
    return llvm::createStringError("cannot write " + file.path + ": " +
                                   (ec ? ec : os.error()).message());
  return llvm::Error::success();
}

/// Runs LLD's ELF driver on `args` (serialized: it is not reentrant); its
/// messages on failure. On one thread: a compiled module's objects are
/// small, and LLD's pool of a thread per core cost 2 of a one-op library's
/// 4 ms link on the 2-core build machine (more where there are more cores).
static llvm::Error runLinker(const std::vector<std::string> &args,
                             llvm::StringRef outputPath) {
  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());
  argv.insert(argv.begin() + 1, "--threads=1");
  std::string messages;
  llvm::raw_string_ostream errors(messages);
  lld::Result result;
  {
    static std::mutex linkerMutex;
    std::lock_guard<std::mutex> lock(linkerMutex);
    result = lld::lldMain(argv, llvm::nulls(), errors,
                          {{lld::Gnu, &lld::elf::link}});
  }
  if (result.retCode != 0)
    return llvm::createStringError("linking %s failed: %s",
                                   outputPath.str().c_str(),
                                   messages.c_str());
  return llvm::Error::success();
}

namespace {
/// The object files of a CompiledObject, written beside the linker's
/// output (`writeObjects`), as arguments for the linker.
struct ObjectFiles {
  TemporaryFile object, cubins;
  std::vector<std::string> paths() const {
    std::vector<std::string> result = {object.path};
    if (!cubins.path.empty())
      result.push_back(cubins.path);
    return result;
  }
};
} // namespace

static llvm::Error writeObjects(const CompiledObject &compiled,
                                llvm::StringRef outputPath,
                                ObjectFiles &files) {
  if (llvm::Error e = writeTemporaryBeside(outputPath, "o", compiled.object,
                                           files.object))
    return e;
  if (compiled.cubins.empty())
    return llvm::Error::success();
  return writeTemporaryBeside(outputPath, "cubins.o", compiled.cubins,
                              files.cubins);
}

llvm::Expected<std::string> mergeObjects(const CompiledObject &compiled) {
  if (compiled.cubins.empty())
    return compiled.object;
  llvm::SmallString<128> mergedPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "ptensor-merged", "o", mergedPath))
    return llvm::createStringError(
        "cannot create a temporary file to merge objects in: " +
        ec.message());
  TemporaryFile merged{mergedPath.str().str()};
  ObjectFiles files;
  if (llvm::Error e = writeObjects(compiled, merged.path, files))
    return e;
  std::vector<std::string> args = {"ld.lld", "-r", "-o", merged.path};
  for (const std::string &path : files.paths())
    args.push_back(path);
  if (llvm::Error e = runLinker(args, merged.path))
    return e;
  auto bytes = llvm::MemoryBuffer::getFile(merged.path, /*IsText=*/false);
  if (!bytes)
    return llvm::createStringError("cannot read back " + merged.path + ": " +
                                   bytes.getError().message());
  return (*bytes)->getBuffer().str();
}

llvm::Error linkSharedLibrary(const CompiledObject &compiled,
                              llvm::StringRef outputPath,
                              llvm::StringRef runtimeDir) {
  ObjectFiles objects;
  if (llvm::Error e = writeObjects(compiled, outputPath, objects))
    return e;
  auto libraryPath = createTemporaryBeside(outputPath, "so");
  if (!libraryPath)
    return libraryPath.takeError();
  TemporaryFile library{*libraryPath};

  std::vector<std::string> args = {"ld.lld", "--shared", "--eh-frame-hdr",
                                   "-o", library.path};
  for (const std::string &path : objects.paths())
    args.push_back(path);
  if (compiled.target == Target::CUDA || compiled.usesRuntime) {
    std::string runtime = (runtimeDir + "/libptensor_runtime.so").str();
    if (!llvm::sys::fs::exists(runtime))
      return llvm::createStringError(
          "the compiled code calls libptensor_runtime.so (host buffers, GPU "
          "kernels or run-time checks), and %s is missing",
          runtime.c_str());
    args.insert(args.end(), {runtime, "-rpath", runtimeDir.str(), "-rpath",
                             "$ORIGIN"});
  }
  if (compiled.usesTeamRuntime) {
    std::string team = (runtimeDir + "/libptensor_team.so").str();
    if (!llvm::sys::fs::exists(team))
      return llvm::createStringError(
          "the compiled code splits team tensors over processes and calls "
          "libptensor_team.so (MPI), and %s is missing (ptensor built "
          "without MPI?)",
          team.c_str());
    args.push_back(team);
  }
  if (compiled.usesOpenMPRuntime) {
    llvm::StringRef openmp = getOpenMPRuntimeLibrary();
    if (!llvm::sys::fs::exists(openmp))
      return llvm::createStringError(
          "parallel code needs the OpenMP runtime, and '%s' is missing",
          openmp.str().c_str());
    args.insert(args.end(), {openmp.str(), "-rpath",
                             llvm::sys::path::parent_path(openmp).str()});
  }
  if (std::string libm = getMathLibraryPath(); !libm.empty())
    args.push_back(libm);
  // Vectorized loops call libmvec's variants of libm's functions.
  if (std::string libmvec = getVectorMathLibrary(); !libmvec.empty())
    args.insert(args.end(), {"--as-needed", libmvec, "--no-as-needed"});
  if (std::string support = getSupportLibraryPath(); !support.empty())
    args.push_back(support);

  if (llvm::Error e = runLinker(args, outputPath))
    return e;
  if (std::error_code ec = llvm::sys::fs::rename(library.path, outputPath))
    return llvm::createStringError("cannot write " + outputPath.str() + ": " +
                                   ec.message());
  library.keep = true;
  return llvm::Error::success();
}

} // namespace ptensor::compiler
