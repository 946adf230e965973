//===- Team.cpp - the team of processes of a JIT-compiled module ----------===//

#include "Team.h"

#include "ptensor/JIT/JIT.h"
#include "ptensor/Runtime/Team.h"
#include "ptensor/Semantics/Teams.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace ::ptensor;
using namespace ::ptensor::jit;

namespace {
/// The entry points of libptensor_team the host side calls.
struct TeamLibrary {
  decltype(&ptensor_rt_team_init) init = nullptr;
  decltype(&ptensor_rt_team_size) size = nullptr;
  decltype(&ptensor_rt_team_rank) rank = nullptr;
  decltype(&ptensor_rt_team_total) total = nullptr;
  decltype(&ptensor_rt_team_gather) gather = nullptr;
  decltype(&ptensor_rt_team_last_error) lastError = nullptr;
  decltype(&ptensor_rt_team_get_counters) getCounters = nullptr;
  decltype(&ptensor_rt_team_reset_counters) resetCounters = nullptr;
  decltype(&ptensor_rt_team_abort) abort = nullptr;
  std::string error; ///< why it could not be loaded
};

const TeamLibrary &teamLibrary() {
  static TeamLibrary library;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string path = detail::findTeamLibrary();
    if (path.empty()) {
      library.error = "this ptensor was built without MPI (no "
                      "libptensor_team); team tensors need it to run on "
                      "more than one process";
      return;
    }
    std::string message;
    auto lib =
        llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &message);
    if (!lib.isValid()) {
      library.error = "cannot load " + path + ": " + message;
      return;
    }
    auto get = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          lib.getAddressOfSymbol(name));
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
    if (!library.init || !library.size || !library.rank || !library.total ||
        !library.gather || !library.lastError || !library.getCounters ||
        !library.resetCounters || !library.abort)
      library.error = path + " lacks the ptensor_rt_team_* functions";
  });
  return library;
}

llvm::Error teamError(const TeamLibrary &lib) {
  return llvm::createStringError(lib.lastError());
}
} // namespace

std::string detail::findTeamLibrary() {
  if (const char *env = std::getenv("PTENSOR_TEAM_LIBRARY"); env && *env)
    return env;
#ifdef PTENSOR_TEAM_LIBRARY
  if (llvm::sys::fs::exists(PTENSOR_TEAM_LIBRARY))
    return PTENSOR_TEAM_LIBRARY;
#endif
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  for (const char *dir : {".", "../lib"}) {
    llvm::SmallString<256> candidate(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(candidate, dir, "libptensor_team.so");
    llvm::sys::path::remove_dots(candidate, /*remove_dot_dot=*/true);
    if (llvm::sys::fs::exists(candidate))
      return std::string(candidate);
  }
  return "";
}

llvm::Error detail::loadTeamLibrary() {
  const TeamLibrary &lib = teamLibrary();
  if (!lib.error.empty())
    return llvm::createStringError(lib.error);
  if (lib.init() != PTENSOR_RT_SUCCESS)
    return teamError(lib);
  return llvm::Error::success();
}

llvm::Expected<Team> Team::join() {
  if (detail::findTeamLibrary().empty())
    return Team{}; // one process, whole tensors
  if (llvm::Error e = detail::loadTeamLibrary())
    return std::move(e);
  const TeamLibrary &lib = teamLibrary();
  Team team;
  team.size = lib.size();
  if (team.size < 1)
    return teamError(lib);
  team.rank = lib.rank();
  return team;
}

std::pair<int64_t, int64_t> Team::blockOf(int64_t rows) const {
  semantics::TeamBlock block = semantics::teamBlock(rows, rank, size);
  return {block.start, block.rows};
}

llvm::Expected<int64_t> Team::total(int64_t value) const {
  if (size == 1)
    return value;
  const TeamLibrary &lib = teamLibrary();
  int64_t sum = lib.total(value);
  if (sum < 0)
    return teamError(lib);
  return sum;
}

llvm::Error Team::gather(const void *local, int64_t localBytes,
                         void *whole) const {
  if (size == 1) {
    std::memcpy(whole, local, localBytes);
    return llvm::Error::success();
  }
  const TeamLibrary &lib = teamLibrary();
  if (lib.gather(local, localBytes, whole) != PTENSOR_RT_SUCCESS)
    return teamError(lib);
  return llvm::Error::success();
}

Team::Traffic Team::traffic() const {
  const TeamLibrary &lib = teamLibrary();
  if (!lib.error.empty())
    return {};
  ptensor_rt_team_counters counters;
  lib.getCounters(&counters);
  return {counters.collectives, counters.bytes, counters.seconds};
}

void Team::resetTraffic() const {
  const TeamLibrary &lib = teamLibrary();
  if (lib.error.empty())
    lib.resetCounters();
}

void Team::abortJob(int code) const {
  const TeamLibrary &lib = teamLibrary();
  if (size > 1 && lib.error.empty())
    lib.abort(code);
}

StridedBuffer Team::block(StridedBuffer whole) const {
  if (whole.sizes.empty() || size == 1)
    return whole;
  auto [start, rows] = blockOf(whole.sizes.front());
  whole.offset += start * whole.strides.front();
  whole.sizes.front() = rows;
  return whole;
}

llvm::Expected<HostArray> Team::gatherBlocks(const StridedBuffer &block) const {
  if (block.sizes.empty() || size == 1)
    return copyToHostArray(block);
  // A row-major block is sent from where it is; others are packed first.
  HostArray packed;
  const std::byte *local = static_cast<const std::byte *>(block.data) +
                           block.offset * dtypeByteSize(block.dtype);
  if (!isRowMajor(block)) {
    llvm::Expected<HostArray> copy = copyToHostArray(block);
    if (!copy)
      return copy.takeError();
    packed = std::move(*copy);
    local = packed.data();
  }
  int64_t elements = 1;
  for (int64_t s : block.sizes)
    elements *= s;
  auto rows = total(block.sizes.front());
  if (!rows)
    return rows.takeError();
  llvm::SmallVector<int64_t, 4> shape(block.sizes.begin(), block.sizes.end());
  shape.front() = *rows;
  llvm::Expected<HostArray> whole = HostArray::tryAllocate(block.dtype, shape);
  if (!whole)
    return whole.takeError();
  if (llvm::Error e = gather(local, elements * dtypeByteSize(block.dtype),
                             whole->data()))
    return std::move(e);
  return whole;
}

/// `args` with each team tensor replaced by this process's block of it (a
/// view); the whole tensor's static first dim is checked here, the block's
/// by checkArguments.
llvm::Error Team::blockArguments(const FunctionSignature &sig,
                                 llvm::ArrayRef<Argument> args,
                                 llvm::SmallVectorImpl<Argument> &blocks) const {
  blocks.assign(args.begin(), args.end());
  for (auto [i, type] : llvm::enumerate(sig.args)) {
    if (!type.team || type.shape.empty() || i >= blocks.size() ||
        !blocks[i].buffer)
      continue;
    if (type.isWritten)
      return llvm::createStringError(
          "@%s: argument #%zu (%s) is written (out=); writing into a team "
          "tensor is not supported yet on more than one process",
          sig.name.c_str(), i, type.str().c_str());
    StridedBuffer &b = *blocks[i].buffer;
    if (b.sizes.size() != type.shape.size())
      continue; // checkArguments names the rank
    constexpr int64_t split = semantics::kTeamSplitDim;
    if (!mlir::ShapedType::isDynamic(type.shape[split]) &&
        b.sizes[split] != type.shape[split])
      return llvm::createStringError(
          "@%s: argument #%zu (%s): expected %lld rows, got %lld",
          sig.name.c_str(), i, type.str().c_str(),
          static_cast<long long>(type.shape[split]),
          static_cast<long long>(b.sizes[split]));
    b = block(b);
  }
  return llvm::Error::success();
}

