//===- BuildId.cpp - the identity of a compiler build ---------------------===//

#include "ptensor/Cache/BuildId.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace ptensor;

std::string cache::gnuBuildIdInNotes(const char *notes, size_t size) {
  const char *note = notes, *end = notes + size;
  auto align4 = [](size_t n) { return (n + 3) & ~size_t(3); };
  while (static_cast<size_t>(end - note) >= sizeof(Elf64_Nhdr)) {
    Elf64_Nhdr header;
    std::memcpy(&header, note, sizeof(header));
    const char *name = note + sizeof(header);
    const char *desc = name + align4(header.n_namesz);
    if (desc > end || static_cast<size_t>(end - desc) < header.n_descsz)
      return "";
    if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
        std::memcmp(name, "GNU", 4) == 0) {
      std::string hex;
      char digits[3];
      for (unsigned b = 0; b < header.n_descsz; ++b) {
        std::snprintf(digits, sizeof(digits), "%02x",
                      static_cast<unsigned char>(desc[b]));
        hex += digits;
      }
      return hex;
    }
    note = desc + align4(header.n_descsz);
  }
  return "";
}

std::string cache::fileStatusIdentity(const std::string &path) {
  struct stat status;
  if (path.empty() || ::stat(path.c_str(), &status) != 0)
    return "unknown-binary";
  long long mtime = static_cast<long long>(status.st_mtim.tv_sec) * 1000000000LL +
                    status.st_mtim.tv_nsec;
  return path + ":" + std::to_string(status.st_size) + ":" +
         std::to_string(mtime);
}

/// Reads `size` bytes at `offset` of `fd`; false when fewer were read.
static bool readAt(int fd, void *buffer, size_t size, off_t offset) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd, static_cast<char *>(buffer) + done, size - done,
                        offset + static_cast<off_t>(done));
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

/// The build-id hex of the 64-bit ELF file open as `fd`, or "".
static std::string buildIdOfElf(int fd) {
  Elf64_Ehdr header;
  if (!readAt(fd, &header, sizeof(header), 0) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0)
    return "";
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  if (!readAt(fd, segments.data(), segments.size() * sizeof(Elf64_Phdr),
              static_cast<off_t>(header.e_phoff)))
    return "";
  for (const Elf64_Phdr &segment : segments) {
    // A note area is small (a few hundred bytes); anything larger is not one.
    if (segment.p_type != PT_NOTE || segment.p_filesz > (1u << 16))
      continue;
    std::vector<char> notes(segment.p_filesz);
    if (!readAt(fd, notes.data(), notes.size(),
                static_cast<off_t>(segment.p_offset)))
      return "";
    std::string hex = cache::gnuBuildIdInNotes(notes.data(), notes.size());
    if (!hex.empty())
      return hex;
  }
  return "";
}

std::string cache::binaryIdentityOfFile(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fileStatusIdentity(path);
  std::string hex = buildIdOfElf(fd);
  ::close(fd);
  return hex.empty() ? fileStatusIdentity(path) : "build-id:" + hex;
}

std::string cache::formatCompilerBuildId(const std::string &version,
                                         const std::string &commit,
                                         const std::string &binaryIdentity,
                                         const std::string &llvmVersion) {
  return "ptensor " + version + " (" + commit + ") " + binaryIdentity +
         " LLVM " + llvmVersion;
}
