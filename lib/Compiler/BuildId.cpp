//===- BuildId.cpp - the identity of this compiler build ------------------===//
//
// On-disk caches of compiled code are keyed by the compiler that produced
// them: the GNU build-id of the binary that contains this code (the linker
// hashes the linked contents, so any rebuild that changes the compiler
// changes it), ptensor's version and commit, and LLVM's version. The text
// is assembled by ptensor/Cache/BuildId.h, which the Python package uses to
// compute the same identity from the compiler extension's file.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Cache/BuildId.h"
#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Tools/Version.h"

#include "llvm/Config/llvm-config.h"

#include <dlfcn.h>
#include <link.h>

namespace {
/// The build-id of the loaded object based at `base`, as hex.
struct BuildIdSearch {
  uintptr_t base;
  std::string hex;
  bool found = false; ///< an object is based at `base`
};
} // namespace

static int visitObject(dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<BuildIdSearch *>(data);
  if (info->dlpi_addr != search->base)
    return 0;
  search->found = true;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE)
      continue;
    search->hex = ptensor::cache::gnuBuildIdInNotes(
        reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr),
        segment.p_memsz);
    if (!search->hex.empty())
      break;
  }
  return 1;
}

/// The build-id of the binary holding this function, or (a binary linked
/// without one) its path, size and modification time.
static std::string getBinaryIdentity() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&getBinaryIdentity), &info))
    return "unknown-binary";
  BuildIdSearch search{reinterpret_cast<uintptr_t>(info.dli_fbase), ""};
  // The main executable reports base 0 in dl_iterate_phdr when it is not
  // position-independent; dladdr then gives its load address. Only then:
  // base 0 of a non-PIE executable is another object than a library
  // without a build-id (the Python interpreter, for ptensor._compile).
  dl_iterate_phdr(visitObject, &search);
  if (!search.found) {
    search.base = 0;
    dl_iterate_phdr(visitObject, &search);
  }
  if (!search.hex.empty())
    return "build-id:" + search.hex;
  return ptensor::cache::fileStatusIdentity(info.dli_fname ? info.dli_fname
                                                           : "");
}

namespace ptensor::compiler {

const std::string &getCompilerBuildId() {
  static const std::string id = cache::formatCompilerBuildId(
      PTENSOR_VERSION, PTENSOR_GIT_COMMIT, getBinaryIdentity(),
      LLVM_VERSION_STRING);
  return id;
}

} // namespace ptensor::compiler
