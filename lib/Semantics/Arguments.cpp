//===- Arguments.cpp - does an array fit a compiled function's parameter? -===//

#include "ptensor/Semantics/Arguments.h"

namespace ptensor::semantics {

static bool isDynamic(int64_t size) { return size < 0; }

/// The shape as messages print it, `?` for dynamic sizes.
static std::string formatParameterShape(const Shape &shape) {
  Shape printable = shape;
  for (int64_t &size : printable)
    if (isDynamic(size))
      size = kDynamicSize;
  return formatShape(printable);
}

static bool isOnDevice(const std::string &parameter,
                       const std::string &argument) {
  if (parameter == argument)
    return true;
  return parameter == "cuda" && argument.rfind("cuda:", 0) == 0;
}

std::optional<Error> checkTensorArgument(const TensorParameter &parameter,
                                         const TensorArgument &argument) {
  if (argument.dtype != parameter.dtype)
    return Error{ErrorKind::DType, std::string("expected dtype ") +
                                       dtypeName(parameter.dtype) + ", got " +
                                       dtypeName(argument.dtype)};
  if (argument.sizes.size() != parameter.shape.size())
    return Error{ErrorKind::Broadcast,
                 "expected rank " + std::to_string(parameter.shape.size()) +
                     ", got rank " + std::to_string(argument.sizes.size()) +
                     " with shape " + formatShape(argument.sizes)};
  for (size_t d = 0; d < parameter.shape.size(); ++d)
    if (!isDynamic(parameter.shape[d]) &&
        parameter.shape[d] != argument.sizes[d])
      return Error{ErrorKind::Broadcast,
                   "expected shape " + formatParameterShape(parameter.shape) +
                       ", got " + formatShape(argument.sizes) +
                       " (dimension " + std::to_string(d) + " differs)"};
  if (!isOnDevice(parameter.device, argument.device))
    return Error{ErrorKind::Device,
                 "expected " +
                     (parameter.device.empty() ? "host" : parameter.device) +
                     " memory, got " +
                     (argument.device.empty() ? "host" : argument.device) +
                     " memory"};
  return std::nullopt;
}

} // namespace ptensor::semantics
