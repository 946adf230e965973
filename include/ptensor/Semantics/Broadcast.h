//===- Broadcast.h - NumPy broadcasting and device placement ---*- C++ -*-===//
//
// docs/Semantics.md "Broadcasting" and the placement rule (all operands of
// one op share device and team), on plain shapes: a dimension is a size or
// kDynamicSize (MLIR's `?`, equal to mlir::ShapedType::kDynamic).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_BROADCAST_H
#define PTENSOR_SEMANTICS_BROADCAST_H

#include "ptensor/Semantics/Error.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptensor::semantics {

/// The size of a dimension unknown until run time.
inline constexpr int64_t kDynamicSize = std::numeric_limits<int64_t>::min();

/// A shape: one size (or kDynamicSize) per dimension.
using Shape = std::vector<int64_t>;

/// Formats a shape as `[4, ?, 3]`.
std::string formatShape(const Shape &shape);

/// Broadcasts shapes right-aligned by NumPy's rules. A dynamic dim against N
/// gives N (checked at run time), dynamic against dynamic gives dynamic.
/// Fails with a Broadcast error naming every shape and the clashing sizes
/// when two static sizes differ and neither is 1.
Result<Shape> broadcastShapes(const std::vector<Shape> &shapes);

/// Where an operand lives: a device name ("cuda:0"; none = host) and a team
/// (none = not distributed).
struct Placement {
  std::optional<std::string> device;
  std::optional<int64_t> team;
};

/// Whether a device name ("" or none for the host, "cuda", "cuda:N") names
/// GPU memory.
inline bool isGPUDevice(std::string_view device) {
  return device.substr(0, 4) == "cuda";
}

/// Returns the common placement of `operands` (the first one's), or a Device
/// error naming the two that differ. An empty list gives the host.
Result<Placement> commonPlacement(const std::vector<Placement> &operands);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_BROADCAST_H
