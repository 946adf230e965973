//===- BuildId.cpp - the identity of this compiler build ------------------===//
//
// On-disk caches of compiled code are keyed by the compiler that produced
// them: the GNU build-id of the binary that contains this code (the linker
// hashes the linked contents, so any rebuild that changes the compiler
// changes it), ptensor's version and commit, and LLVM's version.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Tools/Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstring>

namespace {
/// The NT_GNU_BUILD_ID note of the loaded object based at `base`, as hex.
struct BuildIdSearch {
  uintptr_t base;
  std::string hex;
};
} // namespace

static int visitObject(dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<BuildIdSearch *>(data);
  if (info->dlpi_addr != search->base)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE)
      continue;
    const char *note =
        reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr);
    const char *end = note + segment.p_memsz;
    while (note + sizeof(ElfW(Nhdr)) <= end) {
      const auto *header = reinterpret_cast<const ElfW(Nhdr) *>(note);
      const char *name = note + sizeof(ElfW(Nhdr));
      const char *desc = name + ((header->n_namesz + 3) & ~3u);
      if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        for (unsigned b = 0; b < header->n_descsz; ++b)
          search->hex +=
              llvm::formatv("{0:x-2}", static_cast<unsigned char>(desc[b]))
                  .str();
        return 1;
      }
      note = desc + ((header->n_descsz + 3) & ~3u);
    }
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
  // position-independent; dladdr then gives its load address.
  dl_iterate_phdr(visitObject, &search);
  if (search.hex.empty()) {
    search.base = 0;
    dl_iterate_phdr(visitObject, &search);
  }
  if (!search.hex.empty())
    return "build-id:" + search.hex;
  llvm::sys::fs::file_status status;
  if (!info.dli_fname || llvm::sys::fs::status(info.dli_fname, status))
    return "unknown-binary";
  return llvm::formatv("{0}:{1}:{2}", info.dli_fname, status.getSize(),
                       status.getLastModificationTime()
                           .time_since_epoch()
                           .count())
      .str();
}

namespace ptensor::compiler {

const std::string &getCompilerBuildId() {
  static const std::string id =
      "ptensor " PTENSOR_VERSION " (" PTENSOR_GIT_COMMIT ") " +
      getBinaryIdentity() + " LLVM " LLVM_VERSION_STRING;
  return id;
}

} // namespace ptensor::compiler
