//===- Overlap.h - memory overlap of written tensors -------------*- C++ -*-===//
//
// TensorIterator's check_mem_overlap: a tensor a call writes (out=,
// in-place, `ptensor.write`) must not name one element by several indices
// (a zero stride) and must not partially overlap another operand; the very
// same view is fine (`a = a + b` in place). The JIT, the C API and Python
// all check calls with this.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_OVERLAP_H
#define PTENSOR_SEMANTICS_OVERLAP_H

#include "ptensor/Semantics/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptensor::semantics {

/// One operand's memory: the address of its element (0, ..., 0), the
/// element size, sizes and strides (in elements, any sign) and its device
/// ("" for the host; views on different devices never overlap).
struct MemoryView {
  std::uintptr_t address = 0;
  unsigned itemSize = 1;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  std::string device;
  /// A non-tensor operand (a scalar): never overlaps.
  bool isScalar = false;
};

/// The bytes [lo, hi) the view can touch; [0, 0) when it has no elements.
std::pair<std::uintptr_t, std::uintptr_t> byteRange(const MemoryView &view);

/// Checks every operand in `written` against the rule above; the message
/// calls operands "`noun` #i" ("argument", "operand"). ErrorKind::Overlap.
std::optional<Error> checkWrittenOverlap(const std::vector<MemoryView> &views,
                                         const std::vector<size_t> &written,
                                         const char *noun = "argument");

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_OVERLAP_H
