//===- Iteration.cpp - the iteration space of an elementwise call ---------===//

#include "ptensor/Semantics/Iteration.h"

#include <cstdlib>
#include <numeric>
#include <optional>

using namespace ptensor::semantics;

/// The operands' vote on dimensions d0 (outer so far) and d1: 1 when d0 is
/// inner (swap them), -1 when it is outer, 0 for no vote, nullopt when
/// operands disagree.
static std::optional<int>
compareDimensions(const std::vector<std::vector<int64_t>> &strides, size_t d0,
                  size_t d1) {
  int decision = 0;
  for (const std::vector<int64_t> &operand : strides) {
    int64_t s0 = std::llabs(operand[d0]), s1 = std::llabs(operand[d1]);
    if (s0 == 0 || s1 == 0 || s0 == s1)
      continue;
    int vote = s0 < s1 ? 1 : -1;
    if (decision == 0)
      decision = vote;
    else if (decision != vote)
      return std::nullopt;
  }
  return decision;
}

std::vector<size_t> ptensor::semantics::orderDimensions(
    const std::vector<int64_t> &shape,
    const std::vector<std::vector<int64_t>> &strides) {
  std::vector<size_t> order(shape.size());
  std::iota(order.begin(), order.end(), 0);
  // Insertion sort, as TensorIterator: each dimension moves outward past
  // the ones it is outer to.
  for (size_t i = 1; i < order.size(); ++i) {
    size_t d1 = i;
    for (size_t d0 = i; d0-- > 0;) {
      std::optional<int> c = compareDimensions(strides, order[d0], order[d1]);
      if (!c) { // the operands disagree: row-major
        std::iota(order.begin(), order.end(), 0);
        return order;
      }
      if (*c > 0) {
        std::swap(order[d0], order[d1]);
        d1 = d0;
      } else if (*c < 0) {
        break;
      }
    }
  }
  return order;
}

std::vector<std::vector<size_t>> ptensor::semantics::coalesceDimensions(
    const std::vector<int64_t> &shape,
    const std::vector<std::vector<int64_t>> &strides,
    const std::vector<size_t> &order) {
  std::vector<std::vector<size_t>> groups;
  for (size_t d : order) {
    if (shape[d] == 1)
      continue;
    if (!groups.empty()) {
      size_t last = groups.back().back();
      bool contiguous = true;
      for (const std::vector<int64_t> &operand : strides)
        contiguous &= operand[last] == operand[d] * shape[d];
      if (contiguous) {
        groups.back().push_back(d);
        continue;
      }
    }
    groups.push_back({d});
  }
  return groups;
}
