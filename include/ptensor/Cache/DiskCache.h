//===- DiskCache.h - the one on-disk cache of compiled code -----*- C++ -*-===//
//
// Compiled code is cached on disk by every front end (the JIT's objects,
// the Python package's and ptensor-compile's shared libraries) with one
// layout and one key, in plain C++17 (no LLVM: the Python binding uses it
// on machines that only run kernels).
//
// Layout, in the directory resolveCacheDirectory() gives:
//   KEY.EXT    the compiled code (EXT: "o" for JIT objects, "so" for
//              shared libraries)
//   KEY.mlir   the IR it was compiled from (for inspection, and named by
//              the compiler's diagnostics)
//   KEY.id     the build identity of the compiler that made it, the
//              SHA-256 of KEY.EXT ("sha256 <hex>"), the C library and the
//              CPU features the code needs ("glibc 2.36", "cpu avx avx2
//              ..."), written last
//   KEY.EXT.lock  locked (flock) by the process compiling the entry, so
//              that processes compiling the same code at once (the ranks
//              of an mpirun on one node) wait for the first one's entry
//              instead of compiling it again (EntryLock); never removed
//              (a lock file removed while locked would split the waiters)
// KEY is the SHA-256 of the cache format version, the kind of code, the
// target description (target, chip, options) and the IR text. The build id
// is not part of KEY, so that a cache filled by a machine with the compiler
// serves one without it (the GPU host); where a compiler is at hand an
// entry whose KEY.id names another build is not current and is rebuilt.
// Nor are the CPU features the code needs (CPUFeatures.h), for the same
// reason: a machine that lacks one of those KEY.id records rebuilds the
// entry, or names what it lacks where no compiler is.
// Every file is written to a temporary name and renamed, so concurrent
// writers and a compile killed halfway never leave an entry that is used;
// the checksum catches a code file changed afterwards (truncated, corrupted,
// or replaced by a concurrent writer after the .id was written).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CACHE_DISKCACHE_H
#define PTENSOR_CACHE_DISKCACHE_H

#include "ptensor/Cache/CPUFeatures.h"

#include <optional>
#include <string>
#include <vector>

namespace ptensor::cache {

/// Bumped whenever compiled code for the same key may change in a way the
/// IR text does not show (e.g. a new calling convention; 4: the runtime's
/// ptensor_rt_size_failed gained its inferredDim argument; 5:
/// ptensor_rt_team_slice_rows gained the result's rows and the slice's
/// place in them; 6: ptensor_rt_team_reblock gained localRows).
inline constexpr const char *kCacheFormatVersion = "6";

/// The cache directory: "" when PTENSOR_DISABLE_CACHE=1, else `override`
/// if given, else $PTENSOR_CACHE_DIR, else $XDG_CACHE_HOME/ptensor, else
/// ~/.cache/ptensor ("" without a home directory).
std::string
resolveCacheDirectory(const std::optional<std::string> &override = {});

/// What compiled code is cached for: its kind ("jit-object",
/// "shared-library"), target ("cpu", "cuda"), chip ("" for the CPU) and
/// any options that change the code ("O3|r8", ...).
struct TargetDescription {
  std::string kind;
  std::string target;
  std::string chip;
  std::string options;
};

/// The hex SHA-256 key of `source` compiled for `target`.
std::string computeKey(const TargetDescription &target,
                       const std::string &source);

/// `directory`/`key`.`extension`.
std::string entryPath(const std::string &directory, const std::string &key,
                      const std::string &extension);

/// The companion file KEY.`extension` ("mlir", "id") of the entry
/// `codePath` (KEY.EXT).
std::string companionPath(const std::string &codePath,
                          const std::string &extension);

/// Why the entry `codePath` (KEY.EXT) cannot be used, or "" when it can: it
/// exists, its KEY.id records build `buildId` (any build when `buildId` is
/// empty: a cache filled elsewhere, read where no compiler is), the code
/// file still has the SHA-256 recorded there, the C library it was compiled
/// beside is not newer than this process's (canRunOn), and this CPU has
/// every instruction-set feature recorded there (CPUFeatures.h). Without a
/// KEY.id only an empty `buildId` accepts the entry.
std::string whyNotCurrent(const std::string &codePath,
                          const std::string &buildId);

/// whyNotCurrent(codePath, buildId) is "".
bool isCurrent(const std::string &codePath, const std::string &buildId);

/// Writes `bytes` to `path` atomically (a temporary file in the same
/// directory, renamed), creating the directory. Returns "" or an error
/// message naming the path.
std::string writeAtomically(const std::string &path, const std::string &bytes);

/// Records `buildId` as the maker of the entry `codePath`, the code file's
/// SHA-256, this process's C library (hostCLibrary) and the instruction-set
/// features the code needs (a "cpu ..." line: `cpuFeatures`, by default
/// this CPU's, hostCPUFeatures; a compile for another CPU,
/// PTENSOR_HOST_CPU, passes that CPU's) in its KEY.id, atomically; call it
/// after the code and its IR are written, in the process (on the machine)
/// that compiled it.
std::string recordBuildId(const std::string &codePath,
                          const std::string &buildId,
                          const std::vector<std::string> &cpuFeatures =
                              hostCPUFeatures());

/// This process's C library as KEY.id records it ("glibc 2.36"); "" where
/// it is not glibc. The key leaves it out on purpose: a cache filled on one
/// machine serves another (the GPU check carries one), as long as that
/// one's C library is at least as new.
std::string hostCLibrary();

/// Whether code compiled beside the C library `recorded` (a KEY.id line)
/// can run beside `host`: glibc of the same or a newer version. Entries
/// that record none are assumed to run anywhere.
bool canRunOn(const std::string &recorded, const std::string &host);

/// The lock of the entry `codePath` while this process compiles it: taken
/// (waiting for another process that holds it) on construction, released
/// on destruction. A process that gets it checks the entry again before
/// compiling: another may have written it meanwhile. Where the lock file
/// cannot be made (an unwritable cache) it holds nothing and each process
/// compiles, as without it.
class EntryLock {
public:
  explicit EntryLock(const std::string &codePath);
  ~EntryLock();
  EntryLock(const EntryLock &) = delete;
  EntryLock &operator=(const EntryLock &) = delete;
  /// Releases the lock now (the destructor does otherwise).
  void release();

private:
  int fd = -1;
};

/// The SHA-256 of `bytes` as 64 lowercase hex digits.
std::string sha256Hex(const std::string &bytes);

} // namespace ptensor::cache

#endif // PTENSOR_CACHE_DISKCACHE_H
