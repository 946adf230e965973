//===- Limits.h - the largest array ptensor describes or allocates --------===//
//
// One bound, used by the compiler's run-time size checks, the runtime's host
// and device allocators and their messages: no machine has 2^62 bytes, and
// below it element counts, byte sizes and offsets stay clear of int64
// overflow (a negative size computed as unsigned lands above it).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_LIMITS_H
#define PTENSOR_SEMANTICS_LIMITS_H

#include <cstdint>

namespace ptensor::semantics {

/// The most bytes an array may need.
constexpr int64_t kMaxArrayBytes = int64_t(1) << 62;

/// kMaxArrayBytes as messages print it.
constexpr const char *kMaxArrayBytesText = "2^62";

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_LIMITS_H
