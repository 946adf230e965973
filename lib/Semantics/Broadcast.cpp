//===- Broadcast.cpp - NumPy broadcasting and device placement ------------===//

#include "ptensor/Semantics/Broadcast.h"

#include <algorithm>

using namespace ptensor::semantics;

std::string ptensor::semantics::formatShape(const Shape &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += shape[i] == kDynamicSize ? "?" : std::to_string(shape[i]);
  }
  return s + "]";
}

Result<Shape>
ptensor::semantics::broadcastShapes(const std::vector<Shape> &shapes) {
  size_t rank = 0;
  for (const Shape &s : shapes)
    rank = std::max(rank, s.size());
  Shape result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // `i` counts from the right; `cur` is the size chosen so far.
    int64_t &cur = result[rank - 1 - i];
    bool seenDynamic = false;
    for (const Shape &s : shapes) {
      if (i >= s.size())
        continue;
      int64_t d = s[s.size() - 1 - i];
      if (d == kDynamicSize) {
        seenDynamic = true;
        continue;
      }
      if (d == 1)
        continue;
      if (cur != 1 && cur != d) {
        std::string message = "cannot broadcast shapes ";
        for (size_t k = 0; k < shapes.size(); ++k)
          message += (k ? " and " : "") + formatShape(shapes[k]);
        message += ": sizes " + std::to_string(cur) + " and " +
                   std::to_string(d) + " of dimension -" +
                   std::to_string(i + 1) +
                   " (right-aligned) differ and neither is 1";
        return Error{ErrorKind::Broadcast, std::move(message)};
      }
      cur = d;
    }
    if (seenDynamic && cur == 1)
      cur = kDynamicSize;
  }
  return result;
}

Result<Placement>
ptensor::semantics::commonPlacement(const std::vector<Placement> &operands) {
  if (operands.empty())
    return Placement{};
  const Placement &first = operands.front();
  for (const Placement &p : operands) {
    if (p.device != first.device) {
      auto name = [](const std::optional<std::string> &d) {
        return d ? "\"" + *d + "\"" : std::string("host");
      };
      return Error{ErrorKind::Device,
                   "operands must be on the same device, but got " +
                       name(first.device) + " and " + name(p.device)};
    }
    if (p.team != first.team) {
      auto name = [](const std::optional<int64_t> &t) {
        return t ? std::to_string(*t) : std::string("none");
      };
      return Error{ErrorKind::Device,
                   "operands must belong to the same team, but got " +
                       name(first.team) + " and " + name(p.team)};
    }
  }
  return first;
}
