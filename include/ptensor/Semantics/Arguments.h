//===- Arguments.h - does an array fit a compiled function's parameter? -*- C++ -*-===//
//
// The rule every caller of compiled code applies to a tensor argument
// before the call (the C++ JIT, the C API and Python): its dtype, rank,
// static sizes and memory space must be the parameter's.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SEMANTICS_ARGUMENTS_H
#define PTENSOR_SEMANTICS_ARGUMENTS_H

#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/DType.h"
#include "ptensor/Semantics/Error.h"

#include <optional>
#include <string>

namespace ptensor::semantics {

/// A tensor parameter of a compiled function (docs/ABI.md's signature).
struct TensorParameter {
  DType dtype = DType::F32;
  /// Static sizes; kDynamicSize (or -1) where dynamic.
  Shape shape;
  /// "" for host memory, "cuda" (any GPU) or "cuda:N".
  std::string device;
};

/// A tensor argument: what an array offers.
struct TensorArgument {
  DType dtype = DType::F32;
  Shape sizes;
  /// "" for host memory, "cuda:N" for GPU memory.
  std::string device;
};

/// Whether `argument` fits `parameter`: a DType, Broadcast (rank or a
/// static size) or Device error otherwise, e.g. "expected shape [4, ?],
/// got [3, 5] (dimension 0 differs)". Callers prefix the function and the
/// argument's position.
std::optional<Error> checkTensorArgument(const TensorParameter &parameter,
                                         const TensorArgument &argument);

} // namespace ptensor::semantics

#endif // PTENSOR_SEMANTICS_ARGUMENTS_H
