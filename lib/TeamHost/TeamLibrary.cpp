//===- TeamLibrary.cpp - libptensor_team, found and loaded by hosts -------===//

#include "ptensor/TeamHost/TeamLibrary.h"
#include "ptensor/Semantics/Layout.h"
#include "ptensor/Semantics/Teams.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <vector>
#include <type_traits>

namespace fs = std::filesystem;
using namespace ptensor::team;

static constexpr const char kTeamLibraryName[] = "libptensor_team.so";

/// The path of the library of `soname` this process has loaded, or "" when
/// none is.
static fs::path loadedLibraryPath(const char *soname) {
  void *handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
  if (!handle)
    return {};
  fs::path path;
  struct link_map *map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
    path = fs::absolute(map->l_name);
  dlclose(handle);
  return path;
}

std::string ptensor::team::findTeamLibrary() {
  // One copy per process: two would keep two MPI states.
  if (fs::path loaded = loadedLibraryPath(kTeamLibraryName); !loaded.empty())
    return loaded.string();
  if (const char *env = std::getenv("PTENSOR_TEAM_LIBRARY"); env && *env)
    return env;
  std::error_code ec;
  std::vector<fs::path> candidates;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / kTeamLibraryName);
    candidates.push_back(exe.parent_path() / ".." / "lib" / kTeamLibraryName);
  }
  if (fs::path runtime = loadedLibraryPath("libptensor_runtime.so");
      !runtime.empty())
    candidates.push_back(runtime.parent_path() / kTeamLibraryName);
  for (const fs::path &candidate : candidates)
    if (fs::exists(candidate, ec))
      return candidate.lexically_normal().string();
  return "";
}

const TeamLibrary &ptensor::team::teamLibrary() {
  static TeamLibrary library;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string path = findTeamLibrary();
    if (path.empty()) {
      library.error = "this ptensor was built without MPI (no "
                      "libptensor_team); team tensors need it to run on "
                      "more than one process";
      return;
    }
    // Never closed: compiled team code calls it for the process's life.
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
      const char *why = dlerror();
      library.error = "cannot load " + path + ": " + (why ? why : "");
      return;
    }
    auto get = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          dlsym(handle, name));
      if (!fn && library.error.empty())
        library.error = path + " lacks " + name;
    };
    get(library.init, "ptensor_rt_team_init");
    get(library.size, "ptensor_rt_team_size");
    get(library.rank, "ptensor_rt_team_rank");
    get(library.total, "ptensor_rt_team_total");
    get(library.gather, "ptensor_rt_team_gather");
    get(library.lastError, "ptensor_rt_team_last_error");
    get(library.getCounters, "ptensor_rt_team_get_counters");
    get(library.resetCounters, "ptensor_rt_team_reset_counters");
    get(library.abort, "ptensor_rt_team_abort");
    get(library.gpuTransport, "ptensor_rt_team_gpu_transport");
  });
  return library;
}

Membership ptensor::team::joinTeam() {
  Membership team;
  if (findTeamLibrary().empty())
    return team; // one process, whole tensors
  const TeamLibrary &lib = teamLibrary();
  if (!lib.error.empty()) {
    team.error = lib.error;
    return team;
  }
  if (lib.init() != PTENSOR_RT_SUCCESS || (team.size = lib.size()) < 1) {
    team.error = lib.lastError();
    team.size = 1;
    return team;
  }
  team.rank = lib.rank();
  return team;
}

Membership ptensor::team::joinTeamOfSize(int64_t teamSize) {
  Membership team = joinTeam();
  if (!team.error.empty() || team.size == teamSize)
    return team;
  if (findTeamLibrary().empty())
    team.error = teamLibrary().error; // built without MPI
  else
    team.error = "compiled for a team of " + std::to_string(teamSize) +
                 " processes, but this MPI job has " +
                 std::to_string(team.size);
  return team;
}

Agreement ptensor::team::allProcessesOk(const TeamLibrary &lib, bool ok) {
  int64_t failed = lib.total(ok ? 0 : 1); // -1: the all-reduce failed
  if (failed < 0)
    return Agreement::CommunicationFailed;
  return failed == 0 ? Agreement::AllOk : Agreement::NotAll;
}

std::string ptensor::team::gatherWrittenBlocks(
    const TeamLibrary &lib, int64_t process, int64_t processes, void *first,
    size_t itemBytes, const int64_t *sizes, const int64_t *strides,
    size_t rank) {
  constexpr size_t split = semantics::kTeamSplitDim;
  int64_t rowElements = 1;
  for (size_t d = split + 1; d < rank; ++d)
    rowElements *= sizes[d];
  auto item = int64_t(itemBytes);
  semantics::TeamBlock block =
      semantics::teamBlock(sizes[split], process, processes);
  std::vector<int64_t> blockSizes(sizes, sizes + rank);
  blockSizes[split] = block.rows;
  // Every process's array must have the rows this one has: the gather
  // fills `whole` with the sum of the blocks.
  int64_t rows = lib.total(block.rows);
  if (rows < 0)
    return lib.lastError();
  switch (allProcessesOk(lib, rows == sizes[split])) {
  case Agreement::AllOk:
    break;
  case Agreement::NotAll:
    return "the processes passed a written team argument of different "
           "rows (this one " +
           std::to_string(sizes[split]) + ", their blocks sum to " +
           std::to_string(rows) + ")";
  case Agreement::CommunicationFailed:
    return lib.lastError();
  }
  int64_t mineBytes = block.rows * rowElements * item;
  int64_t wholeBytes = sizes[split] * rowElements * item;
  std::unique_ptr<std::byte[]> mine(
      new (std::nothrow) std::byte[std::max<int64_t>(mineBytes, 1)]);
  std::unique_ptr<std::byte[]> whole(
      new (std::nothrow) std::byte[std::max<int64_t>(wholeBytes, 1)]);
  switch (allProcessesOk(lib, mine && whole)) {
  case Agreement::AllOk:
    break;
  case Agreement::NotAll:
    return "a process of the team could not allocate the " +
           std::to_string(wholeBytes) +
           " bytes of scratch to gather a written team argument";
  case Agreement::CommunicationFailed:
    return lib.lastError();
  }
  auto *base = static_cast<std::byte *>(first);
  std::byte *blockFirst = base + block.start * strides[split] * item;
  semantics::packRowMajor(blockFirst, itemBytes, blockSizes.data(), strides,
                          rank, mine.get());
  if (lib.gather(mine.get(), mineBytes, whole.get()) != PTENSOR_RT_SUCCESS)
    return lib.lastError();
  semantics::unpackRowMajor(whole.get(), itemBytes, sizes, strides, rank,
                            first);
  return "";
}
