//===- BuildId.cpp - the identity of a compiler build ---------------------===//

#include "ptensor/Cache/BuildId.h"

#include "FileIO.h"
#include "Hex.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <vector>

using namespace ptensor;

std::string cache::gnuBuildIdInNotes(const char *notes, size_t size) {
  auto align4 = [](size_t n) { return (n + 3) & ~size_t(3); };
  // Offsets, each part checked against what is left: a truncated or odd
  // note area ends the walk, never a read past it.
  size_t offset = 0;
  while (size - offset >= sizeof(Elf64_Nhdr)) {
    Elf64_Nhdr header;
    std::memcpy(&header, notes + offset, sizeof(header));
    offset += sizeof(header);
    size_t nameSize = align4(header.n_namesz), descSize = align4(header.n_descsz);
    if (nameSize > size - offset || descSize > size - offset - nameSize)
      return "";
    const char *name = notes + offset, *desc = name + nameSize;
    if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
        std::memcmp(name, "GNU", 4) == 0) {
      std::string hex;
      for (unsigned b = 0; b < header.n_descsz; ++b)
        detail::appendHexByte(hex, static_cast<unsigned char>(desc[b]));
      return hex;
    }
    offset += nameSize + descSize;
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

/// Reads exactly `size` bytes at `offset` of `fd`.
static bool readAt(int fd, void *buffer, size_t size, off_t offset) {
  return cache::detail::readFully(fd, buffer, size, offset) ==
         static_cast<ssize_t>(size);
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
