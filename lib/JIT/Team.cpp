//===- Team.cpp - the team of processes of a JIT-compiled module ----------===//

#include "ptensor/JIT/JIT.h"
#include "ptensor/Runtime/Team.h"
#include "ptensor/Semantics/Teams.h"
#include "ptensor/TeamHost/TeamLibrary.h"

#include <cstring>

using namespace ::ptensor;
using namespace ::ptensor::jit;

using team::teamLibrary;

static llvm::Error teamError(const team::TeamLibrary &lib) {
  return llvm::createStringError(lib.lastError());
}

llvm::Expected<Team> Team::join() {
  team::Membership membership = team::joinTeam();
  if (!membership.error.empty())
    return llvm::createStringError(membership.error);
  Team team;
  team.rank = membership.rank;
  team.size = membership.size;
  return team;
}

std::pair<int64_t, int64_t> Team::blockOf(int64_t rows) const {
  semantics::TeamBlock block = semantics::teamBlock(rows, rank, size);
  return {block.start, block.rows};
}

llvm::Expected<int64_t> Team::total(int64_t value) const {
  if (size == 1)
    return value;
  const team::TeamLibrary &lib = teamLibrary();
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
  const team::TeamLibrary &lib = teamLibrary();
  if (lib.gather(local, localBytes, whole) != PTENSOR_RT_SUCCESS)
    return teamError(lib);
  return llvm::Error::success();
}

Team::Traffic Team::traffic() const {
  const team::TeamLibrary &lib = teamLibrary();
  if (!lib.error.empty())
    return {};
  ptensor_rt_team_counters counters;
  lib.getCounters(&counters);
  return {counters.collectives, counters.bytes, counters.seconds,
          lib.gpuTransport()};
}

void Team::resetTraffic() const {
  const team::TeamLibrary &lib = teamLibrary();
  if (lib.error.empty())
    lib.resetCounters();
}

void Team::abortJob(int code) const {
  const team::TeamLibrary &lib = teamLibrary();
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
  auto rows = total(block.sizes.front());
  if (!rows)
    return rows.takeError();
  // A row-major block is sent from where it is; others are packed first.
  // A block of no rows may have no storage (a null pointer, any offset).
  const std::byte *local =
      block.data ? static_cast<const std::byte *>(block.data) +
                       block.offset * dtypeByteSize(block.dtype)
                 : nullptr;
  HostArray packed, whole;
  std::string failure; // why this process cannot take part
  if (!isRowMajor(block)) {
    if (llvm::Expected<HostArray> copy = copyToHostArray(block)) {
      packed = std::move(*copy);
      local = packed.data();
    } else {
      failure = llvm::toString(copy.takeError());
    }
  }
  llvm::SmallVector<int64_t, 4> shape(block.sizes.begin(), block.sizes.end());
  shape.front() = *rows;
  if (failure.empty()) {
    if (llvm::Expected<HostArray> all = HostArray::tryAllocate(block.dtype, shape))
      whole = std::move(*all);
    else
      failure = llvm::toString(all.takeError());
  }
  // Every process learns whether one could not allocate, so that all
  // return an error instead of the others waiting in the gather.
  const team::TeamLibrary &lib = teamLibrary();
  team::Agreement agreement = team::allProcessesOk(lib, failure.empty());
  if (agreement == team::Agreement::CommunicationFailed)
    return llvm::createStringError(
        std::string(lib.lastError()) +
        (failure.empty() ? "" : " (and this process: " + failure + ")"));
  if (agreement == team::Agreement::NotAll) {
    if (failure.empty())
      failure = "another process of the team could not allocate its part "
                "of a gathered team result of " +
                std::to_string(*rows) + " rows";
    return llvm::createStringError(failure);
  }
  int64_t elements = 1;
  for (int64_t s : block.sizes)
    elements *= s;
  if (llvm::Error e = gather(local, elements * dtypeByteSize(block.dtype),
                             whole.data()))
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

llvm::Error Team::gatherWrittenArguments(const FunctionSignature &sig,
                                         llvm::ArrayRef<Argument> args) const {
  if (size == 1)
    return llvm::Error::success();
  for (auto [i, type] : llvm::enumerate(sig.args)) {
    if (!type.isWritten || !type.team || type.shape.empty() ||
        i >= args.size() || !args[i].buffer)
      continue;
    const StridedBuffer &b = *args[i].buffer;
    size_t item = dtypeByteSize(b.dtype);
    void *first = static_cast<std::byte *>(b.data) + b.offset * int64_t(item);
    std::string error = team::gatherWrittenBlocks(
        teamLibrary(), rank, size, first, item, b.sizes.data(),
        b.strides.data(), b.sizes.size());
    if (!error.empty())
      return llvm::createStringError("@%s: argument #%zu (%s): %s",
                                     sig.name.c_str(), i, type.str().c_str(),
                                     error.c_str());
  }
  return llvm::Error::success();
}
