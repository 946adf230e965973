//===- Overlap.cpp - memory overlap of written tensors --------------------===//

#include "ptensor/Semantics/Overlap.h"

using namespace ptensor::semantics;

std::pair<std::uintptr_t, std::uintptr_t>
ptensor::semantics::byteRange(const MemoryView &view) {
  int64_t lo = 0, hi = 0;
  for (size_t d = 0; d < view.sizes.size(); ++d) {
    if (view.sizes[d] == 0)
      return {0, 0};
    int64_t span = (view.sizes[d] - 1) * view.strides[d];
    (span < 0 ? lo : hi) += span;
  }
  auto item = static_cast<int64_t>(view.itemSize);
  return {view.address + lo * item, view.address + (hi + 1) * item};
}

/// Whether two distinct indices of `view` name the same element.
static bool hasInternalOverlap(const MemoryView &view) {
  for (size_t d = 0; d < view.sizes.size(); ++d)
    if (view.sizes[d] > 1 && view.strides[d] == 0)
      return true;
  return false;
}

static bool isSameView(const MemoryView &a, const MemoryView &b) {
  return a.address == b.address && a.itemSize == b.itemSize &&
         a.sizes == b.sizes && a.strides == b.strides && a.device == b.device;
}

std::optional<Error>
ptensor::semantics::checkWrittenOverlap(const std::vector<MemoryView> &views,
                                        const std::vector<size_t> &written,
                                        const char *noun) {
  for (size_t i : written) {
    const MemoryView &out = views[i];
    std::string name = std::string(noun) + " #" + std::to_string(i);
    if (hasInternalOverlap(out))
      return Error{ErrorKind::Overlap,
                   name + " is written but has zero strides (several indices "
                          "share one element); pass a tensor with its own "
                          "memory"};
    auto [lo, hi] = byteRange(out);
    for (size_t j = 0; j < views.size(); ++j) {
      const MemoryView &other = views[j];
      if (j == i || other.isScalar || other.device != out.device)
        continue;
      auto [otherLo, otherHi] = byteRange(other);
      if (lo < otherHi && otherLo < hi && !isSameView(out, other))
        return Error{ErrorKind::Overlap,
                     "written " + name + " partially overlaps " + noun + " #" +
                         std::to_string(j) +
                         "; in-place is allowed only on the very same view"};
    }
  }
  return std::nullopt;
}
