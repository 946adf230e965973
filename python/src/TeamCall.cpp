//===- TeamCall.cpp - calls of functions split over a team of processes ---===//

#include "TeamCall.h"

#include "Errors.h"

#include "ptensor/Semantics/Layout.h"
#include "ptensor/Semantics/Teams.h"
#include "ptensor/TeamHost/TeamLibrary.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace ptensor::python {

namespace sem = ptensor::semantics;

namespace {

int64_t product(const std::vector<int64_t> &sizes, size_t from = 0) {
  int64_t n = 1;
  for (size_t d = from; d < sizes.size(); ++d)
    n *= sizes[d];
  return n;
}

} // namespace

TeamCall::TeamCall(int64_t teamSize, void *(*hostAlloc)(size_t))
    : hostAlloc_(hostAlloc) {
  team::Membership membership = team::joinTeamOfSize(teamSize);
  if (!membership.error.empty())
    raisePackageError("RuntimeUnavailableError",
                      "a library split over " + std::to_string(teamSize) +
                          " processes: " + membership.error);
  rank_ = membership.rank;
  size_ = membership.size;
  if (!hostAlloc_)
    raisePackageError("RuntimeUnavailableError",
                      "a library split over processes needs "
                      "libptensor_runtime.so loaded (its results' allocator)");
}

CallOperand TeamCall::block(const CallOperand &whole, size_t itemBytes,
                            std::vector<int64_t> &shape) const {
  constexpr size_t split = semantics::kTeamSplitDim;
  semantics::TeamBlock rows =
      semantics::teamBlock(whole.shape[split], rank_, size_);
  shape.assign(whole.shape, whole.shape + whole.rank);
  shape[split] = rows.rows;
  CallOperand b = whole;
  b.shape = shape.data();
  b.data += rows.start * whole.strides[split] * int64_t(itemBytes);
  return b;
}


/// Frees the owned memory of `results` and `blocks`, each block once.
static void releaseAll(std::vector<ResultBuffer> &results,
                       std::vector<void *> blocks) {
  for (ResultBuffer &r : results)
    if (r.owns && r.allocated) {
      blocks.push_back(r.allocated);
      r.owns = false;
    }
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  for (void *block : blocks)
    freeHostResult(block);
}

void TeamCall::gatherWritten(const ArrayView &whole,
                             std::vector<ResultBuffer> &results) const {
  std::string error = team::gatherWrittenBlocks(
      team::teamLibrary(), rank_, size_, whole.data, dtypeByteSize(whole.dtype),
      whole.shape.data(), whole.strides.data(), whole.shape.size());
  if (error.empty())
    return;
  releaseAll(results, {});
  raisePackageError("ExecutionError", error);
}

void TeamCall::gather(std::vector<ResultBuffer> &results,
                      const std::vector<bool> &gathered) const {
  const team::TeamLibrary &lib = team::teamLibrary();
  std::vector<void *> blocks; // owned, freed after every gather
  for (size_t r = 0; r < results.size(); ++r) {
    ResultBuffer &b = results[r];
    if (!gathered[r] || b.shape.empty())
      continue;
    size_t item = dtypeByteSize(b.dtype);
    int64_t localBytes = product(b.shape) * int64_t(item);
    int64_t rows = lib.total(b.shape.front());
    if (rows < 0) { // MPI failed: on every process
      std::string message = lib.lastError();
      releaseAll(results, blocks);
      raisePackageError("ExecutionError", message);
    }
    int64_t wholeBytes = rows * product(b.shape, 1) * int64_t(item);
    void *whole = hostAlloc_(std::max<int64_t>(wholeBytes, 1));
    const char *local = b.data;
    std::vector<char> packed;
    bool packs = !sem::isRowMajor(b.shape.data(), b.strides.data(),
                                  b.shape.size());
    if (whole && packs) {
      try {
        packed.resize(std::max<int64_t>(localBytes, 1));
      } catch (const std::bad_alloc &) {
        freeHostResult(whole);
        whole = nullptr;
      }
    }
    // Every process learns whether one could not allocate, so that all
    // raise instead of the others waiting in the gather.
    team::Agreement agreement = team::allProcessesOk(lib, whole != nullptr);
    if (agreement != team::Agreement::AllOk) {
      if (whole)
        freeHostResult(whole);
      releaseAll(results, blocks);
      if (agreement == team::Agreement::CommunicationFailed)
        raisePackageError("ExecutionError", lib.lastError());
      raisePackageError("OutOfMemoryError",
                        "cannot allocate the " + std::to_string(wholeBytes) +
                            " bytes of a gathered team result (or its "
                            "packed block) on a process of the team");
    }
    if (packs) {
      sem::packRowMajor(b.data, item, b.shape.data(), b.strides.data(),
                        b.shape.size(), packed.data());
      local = packed.data();
    }
    if (lib.gather(local, localBytes, whole) != PTENSOR_RT_SUCCESS) {
      std::string message = lib.lastError();
      freeHostResult(whole);
      releaseAll(results, blocks);
      raisePackageError("ExecutionError", message);
    }
    if (b.owns)
      blocks.push_back(b.allocated);
    b.allocated = whole;
    b.data = static_cast<char *>(whole);
    b.shape.front() = rows;
    int64_t stride = 1;
    for (size_t d = b.shape.size(); d-- > 0;) {
      b.strides[d] = stride;
      stride *= b.shape[d];
    }
    b.owns = true;
    b.viewOf = nb::object();
  }
  for (void *block : blocks) {
    // A result left as it is (not gathered) that views the block owns it.
    auto viewer = std::find_if(results.begin(), results.end(),
                               [&](const ResultBuffer &r) {
                                 return r.allocated == block && !r.owns;
                               });
    if (viewer != results.end())
      viewer->owns = true;
    else
      freeHostResult(block);
  }
}

void TeamCall::abortJob(const std::string &message) const {
  std::fprintf(stderr,
               "ptensor: rank %lld of %lld: %s\nptensor: ending the MPI job "
               "(the other processes would wait for this one)\n",
               static_cast<long long>(rank_), static_cast<long long>(size_),
               message.c_str());
  std::fflush(stderr);
  team::teamLibrary().abort(1);
  std::abort(); // not reached: MPI_Abort ends the process
}

} // namespace ptensor::python
