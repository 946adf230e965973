//===- DiskCache.cpp - the one on-disk cache of compiled code -------------===//

#include "ptensor/Cache/DiskCache.h"
#include "ptensor/Cache/CPUFeatures.h"

#include "FileIO.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace ptensor;

// The paths of a lookup are joined as strings: a process's first
// std::filesystem::path costs 15-20 µs of its first kernel call (its code
// is paged in), for what a concatenation does.

/// `directory`/`name` as std::filesystem::path's operator/ joins a relative
/// `name`: no separator after an empty `directory` or one ending in '/'.
static std::string joinPath(const std::string &directory,
                            const std::string &name) {
  if (directory.empty() || directory.back() == '/')
    return directory + name;
  return directory + '/' + name;
}

std::string
cache::resolveCacheDirectory(const std::optional<std::string> &override) {
  if (const char *off = std::getenv("PTENSOR_DISABLE_CACHE");
      off && std::strcmp(off, "1") == 0)
    return "";
  if (override)
    return *override;
  if (const char *dir = std::getenv("PTENSOR_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return joinPath(xdg, "ptensor");
  if (const char *home = std::getenv("HOME"); home && *home)
    return joinPath(home, ".cache/ptensor");
  return "";
}

std::string cache::computeKey(const TargetDescription &target,
                              const std::string &source) {
  // NUL-separated: no field can run into the next.
  std::string text = std::string("ptensor-cache") + '\0' +
                     kCacheFormatVersion + '\0' + target.kind + '\0' +
                     target.target + '\0' + target.chip + '\0' +
                     target.options + '\0' + source;
  return sha256Hex(text);
}

std::string cache::entryPath(const std::string &directory,
                             const std::string &key,
                             const std::string &extension) {
  return joinPath(directory, key + "." + extension);
}

std::string cache::companionPath(const std::string &codePath,
                                 const std::string &extension) {
  // std::filesystem::path::replace_extension's rule: the extension starts
  // at the file name's last '.', unless that is its first character.
  size_t nameStart = codePath.rfind('/');
  nameStart = nameStart == std::string::npos ? 0 : nameStart + 1;
  size_t dot = codePath.rfind('.');
  bool hasExtension = dot != std::string::npos && dot > nameStart &&
                      codePath.compare(nameStart, std::string::npos, "..") != 0;
  return codePath.substr(0, hasExtension ? dot : codePath.size()) + "." +
         extension;
}

/// Reads the file `path` into `bytes` with one read per chunk (a cache
/// entry is checked on every process's first use of it: no stream
/// iterators).
static bool readWholeFile(const std::string &path, std::string &bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  struct stat status;
  ssize_t n = -1;
  if (::fstat(fd, &status) == 0) {
    bytes.resize(static_cast<size_t>(status.st_size));
    n = cache::detail::readFully(fd, bytes.data(), bytes.size(), 0);
    if (n >= 0)
      bytes.resize(static_cast<size_t>(n)); // shorter than a moment ago
  }
  ::close(fd);
  return n >= 0;
}

/// The SHA-256 of the file `path` as KEY.id records it ("sha256 <hex>"),
/// or "" when it cannot be read.
static std::string checksumLine(const std::string &path) {
  std::string bytes;
  if (!readWholeFile(path, bytes))
    return "";
  return "sha256 " + cache::sha256Hex(bytes);
}

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

std::string cache::hostCLibrary() {
#ifdef __GLIBC__
  return std::string("glibc ") + gnu_get_libc_version();
#else
  return "";
#endif
}

/// "MAJOR.MINOR" as a pair; {0, 0} when it does not read so.
static std::pair<int, int> parseVersion(const std::string &text) {
  int major = 0, minor = 0;
  if (std::sscanf(text.c_str(), "%d.%d", &major, &minor) != 2)
    return {0, 0};
  return {major, minor};
}

bool cache::canRunOn(const std::string &recorded, const std::string &host) {
  const std::string glibc = "glibc ";
  if (recorded.rfind(glibc, 0) != 0)
    return true; // not recorded (older entries, or not glibc): assumed fine
  if (host.rfind(glibc, 0) != 0)
    return false;
  return parseVersion(host.substr(glibc.size())) >=
         parseVersion(recorded.substr(glibc.size()));
}

/// The lines of `text` one after another, as std::getline gives them.
class Lines {
public:
  explicit Lines(const std::string &text) : text_(text) {}
  bool next(std::string &line) {
    if (position_ >= text_.size())
      return false;
    size_t end = text_.find('\n', position_);
    if (end == std::string::npos)
      end = text_.size();
    line = text_.substr(position_, end - position_);
    position_ = end + 1;
    return true;
  }

private:
  const std::string &text_;
  size_t position_ = 0;
};

std::string cache::whyNotCurrent(const std::string &codePath,
                                 const std::string &buildId) {
  // Plain system calls, no streams or std::filesystem: every process runs
  // this on its first call, where a first std::ifstream alone costs 70-90
  // microseconds (its locale) against 8 for open and read.
  struct stat status;
  if (::stat(codePath.c_str(), &status) != 0 || !S_ISREG(status.st_mode))
    return "there is no " + codePath;
  std::string idText;
  Lines in(idText);
  std::string recorded, checksum;
  if (!readWholeFile(companionPath(codePath, "id"), idText) ||
      !in.next(recorded))
    // A cache filled elsewhere, used where no compiler is (entries of older
    // ptensors).
    return buildId.empty() ? "" : codePath + " records no build";
  if (!buildId.empty() && recorded != buildId)
    return codePath + " was made by another build of the compiler";
  // A truncated or corrupted code file no longer has the recorded checksum.
  if (!in.next(checksum))
    return buildId.empty() ? "" : codePath + " records no checksum";
  if (checksum != checksumLine(codePath))
    return codePath + " no longer has its recorded checksum (changed or "
                      "truncated)";
  // The lines that follow say what the code needs of the machine.
  const std::string cLibrary = hostCLibrary();
  for (std::string line; in.next(line);) {
    // Code linked against a newer C library than this process's may call
    // what it lacks (libmvec's vector math is glibc >= 2.35).
    if (!canRunOn(line, cLibrary))
      return codePath + " was compiled beside " + line + ", newer than " +
             (cLibrary.empty() ? "this C library" : cLibrary);
    // Code compiled for a CPU with instructions this one lacks.
    std::vector<std::string> missing =
        missingCPUFeatures(line, hostCPUFeatures());
    if (!missing.empty()) {
      std::string names;
      for (const std::string &f : missing)
        names += (names.empty() ? "" : ", ") + f;
      return codePath + " was compiled for a CPU with " + names +
             ", which this CPU lacks";
    }
  }
  return "";
}

bool cache::isCurrent(const std::string &codePath, const std::string &buildId) {
  return whyNotCurrent(codePath, buildId).empty();
}

std::string cache::writeAtomically(const std::string &path,
                                   const std::string &bytes) {
  fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path())
    fs::create_directories(target.parent_path(), ec);
  if (ec)
    return "cannot create the cache directory " +
           target.parent_path().string() + ": " + ec.message();
  std::string pattern =
      (target.parent_path() / ("." + target.filename().string() + ".XXXXXX"))
          .string();
  int fd = mkstemp(pattern.data());
  if (fd < 0)
    return "cannot write " + path + ": " + std::strerror(errno);
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      std::string message = "cannot write " + path + ": " + std::strerror(errno);
      ::close(fd);
      ::unlink(pattern.c_str());
      return message;
    }
    written += static_cast<size_t>(n);
  }
  if (::close(fd) != 0 || ::rename(pattern.c_str(), path.c_str()) != 0) {
    std::string message = "cannot write " + path + ": " + std::strerror(errno);
    ::unlink(pattern.c_str());
    return message;
  }
  return "";
}

std::string cache::recordBuildId(const std::string &codePath,
                                 const std::string &buildId,
                                 const std::vector<std::string> &cpuFeatures) {
  std::string checksum = checksumLine(codePath);
  if (checksum.empty())
    return "cannot read " + codePath + " to record its checksum";
  std::string cLibrary = hostCLibrary();
  return writeAtomically(companionPath(codePath, "id"),
                         buildId + "\n" + checksum + "\n" +
                             (cLibrary.empty() ? "" : cLibrary + "\n") +
                             cpuFeaturesLine(cpuFeatures) + "\n");
}

cache::EntryLock::EntryLock(const std::string &codePath) {
  std::error_code ec;
  fs::create_directories(fs::path(codePath).parent_path(), ec);
  fd = ::open((codePath + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  int locked;
  do
    locked = ::flock(fd, LOCK_EX);
  while (locked != 0 && errno == EINTR);
  if (locked != 0) {
    ::close(fd);
    fd = -1;
  }
}

void cache::EntryLock::release() {
  if (fd >= 0)
    ::close(fd); // releases the flock
  fd = -1;
}

cache::EntryLock::~EntryLock() { release(); }
