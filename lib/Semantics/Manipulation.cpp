//===- Manipulation.cpp - reshape, combine, roll, triangles, eye ----------===//

#include "ptensor/Semantics/Manipulation.h"
#include "ptensor/Semantics/Limits.h"

#include "ptensor/Semantics/Axes.h"
#include "ptensor/Semantics/Promotion.h"

#include <algorithm>

using namespace ptensor;
using namespace ptensor::semantics;

int64_t ptensor::semantics::numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t s : shape) {
    if (s == kDynamicSize || __builtin_mul_overflow(n, s, &n))
      return kDynamicSize;
  }
  return n;
}

/// `shape` as the caller wrote it: -1 stays -1, run-time sizes are `?`.
static std::string formatRequested(const Shape &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    text += i ? ", " : "";
    text += shape[i] == kDynamicSize ? "?" : std::to_string(shape[i]);
  }
  return text + "]";
}

static std::string elements(const Shape &shape) {
  int64_t n = numElements(shape);
  if (n == kDynamicSize || std::count(shape.begin(), shape.end(), -1))
    return "";
  return " (" + std::to_string(n) + " element" + (n == 1 ? "" : "s") + ")";
}

std::string ptensor::semantics::reshapeMismatchMessage(const Shape &source,
                                                       const Shape &requested) {
  return "reshape: cannot reshape shape " + formatShape(source) +
         elements(source) + " into shape " + formatRequested(requested) +
         elements(requested);
}

std::optional<std::string>
ptensor::semantics::sliceBoundsError(int64_t dim, int64_t dimSize,
                                     int64_t offset, int64_t size,
                                     int64_t step) {
  std::string d = std::to_string(dim);
  if (size < 0)
    return "size of dimension " + d + " must be >= 0, got " +
           std::to_string(size);
  if (size == 0)
    return std::nullopt; // reads nothing
  int64_t span = 0, last = 0;
  if (__builtin_mul_overflow(size - 1, step, &span) ||
      __builtin_add_overflow(offset, span, &last))
    return "slice of dimension " + d + ": offset " + std::to_string(offset) +
           " + (size " + std::to_string(size) + " - 1) * step " +
           std::to_string(step) + " overflows int64";
  bool known = dimSize >= 0;
  if (offset < 0 || last < 0 ||
      (known && (offset >= dimSize || last >= dimSize)))
    return "slice of dimension " + d + " reads elements " +
           std::to_string(offset) + " to " + std::to_string(last) +
           ", outside [0, " + (known ? std::to_string(dimSize) : "?") + ")";
  return std::nullopt;
}

std::string ptensor::semantics::extractSliceBoundsMessage(
    const Shape &source, int64_t dim, int64_t offset, int64_t size,
    int64_t step) {
  int64_t dimSize =
      dim >= 0 && dim < static_cast<int64_t>(source.size()) ? source[dim] : -1;
  std::optional<std::string> why =
      sliceBoundsError(dim, dimSize, offset, size, step);
  return "extract_slice of shape " + formatShape(source) + ": " +
         why.value_or("slice of dimension " + std::to_string(dim) +
                      " is out of bounds");
}

Result<Shape> ptensor::semantics::reshapeResultShape(const Shape &source,
                                                     const Shape &requested) {
  int64_t inferred = -1, known = 1;
  bool knownStatic = true;
  for (size_t i = 0; i < requested.size(); ++i) {
    int64_t s = requested[i];
    if (s == -1) {
      if (inferred >= 0)
        return Error{ErrorKind::Value,
                     "reshape: only one dimension can be -1, but shape " +
                         formatRequested(requested) + " has more"};
      inferred = static_cast<int64_t>(i);
    } else if (s == kDynamicSize) {
      knownStatic = false;
    } else if (s < 0) {
      return Error{ErrorKind::Value, "reshape: invalid size " +
                                         std::to_string(s) + " in shape " +
                                         formatRequested(requested) +
                                         " (expected >= 0, or -1 once)"};
    } else if (__builtin_mul_overflow(known, s, &known)) {
      return Error{ErrorKind::Value,
                   "reshape: shape " + formatRequested(requested) +
                       " has more elements than int64 can count"};
    }
  }
  Shape result = requested;
  int64_t total = numElements(source);
  if (inferred < 0) {
    if (total != kDynamicSize && knownStatic && total != known)
      return Error{ErrorKind::Broadcast,
                   reshapeMismatchMessage(source, requested)};
    return result;
  }
  if (knownStatic && known == 0)
    return Error{ErrorKind::Value,
                 "reshape: cannot infer the -1 in shape " +
                     formatRequested(requested) +
                     " beside a dimension of size 0"};
  if (total == kDynamicSize || !knownStatic) {
    result[inferred] = kDynamicSize;
    return result;
  }
  if (total % known != 0)
    return Error{ErrorKind::Broadcast,
                 reshapeMismatchMessage(source, requested)};
  result[inferred] = total / known;
  return result;
}

const char *ptensor::semantics::combineKindName(CombineKind kind) {
  return kind == CombineKind::Concat ? "concat" : "stack";
}

std::string ptensor::semantics::combineMismatchMessage(CombineKind kind,
                                                       const Shape &first,
                                                       const Shape &other,
                                                       int64_t operand,
                                                       int64_t dim) {
  return std::string(combineKindName(kind)) + ": operand " +
         std::to_string(operand) + " has shape " + formatShape(other) +
         ", which differs from operand 0's shape " + formatShape(first) +
         " in dimension " + std::to_string(dim) +
         (kind == CombineKind::Concat ? " (only the concatenated one may differ)"
                                      : " (stacked operands have one shape)");
}

Result<Combination>
ptensor::semantics::combineResult(CombineKind kind,
                                  const std::vector<Shape> &shapes,
                                  const std::vector<DType> &dtypes,
                                  int64_t axis) {
  const char *name = combineKindName(kind);
  if (shapes.empty())
    return Error{ErrorKind::Value,
                 std::string(name) + " needs at least one operand"};
  const Shape &first = shapes.front();
  auto rank = static_cast<int64_t>(first.size());
  if (kind == CombineKind::Concat && rank == 0)
    return Error{ErrorKind::Value,
                 "concat needs operands of rank >= 1, but got a 0-d one"};
  for (size_t k = 1; k < shapes.size(); ++k)
    if (static_cast<int64_t>(shapes[k].size()) != rank)
      return Error{ErrorKind::Broadcast,
                   std::string(name) + ": operands must have one rank, but "
                   "operand " + std::to_string(k) + " has shape " +
                       formatShape(shapes[k]) + " and operand 0 " +
                       formatShape(first)};
  bool isConcat = kind == CombineKind::Concat;
  Result<int64_t> normalized =
      normalizeAxis(axis, isConcat ? rank : rank + 1, rank);
  if (!normalized)
    return Error{ErrorKind::Value, std::string(name) + ": " +
                                       normalized.getError().message};
  Combination c;
  c.axis = *normalized;
  // Every dim but a concat's axis: one size, the static one if any.
  Shape common = first;
  for (size_t k = 1; k < shapes.size(); ++k)
    for (int64_t d = 0; d < rank; ++d) {
      if (isConcat && d == c.axis)
        continue;
      int64_t s = shapes[k][d];
      if (s == kDynamicSize)
        continue;
      if (common[d] != kDynamicSize && common[d] != s) {
        return Error{ErrorKind::Broadcast,
                     combineMismatchMessage(kind, first, shapes[k],
                                            static_cast<int64_t>(k), d)};
      }
      common[d] = s;
    }
  c.result = common;
  if (isConcat) {
    int64_t sum = 0;
    for (const Shape &s : shapes) {
      if (s[c.axis] == kDynamicSize) {
        sum = kDynamicSize;
        break;
      }
      if (__builtin_add_overflow(sum, s[c.axis], &sum))
        return Error{ErrorKind::Value,
                     std::string(name) + ": the sizes along axis " +
                         std::to_string(c.axis) +
                         " add up to more than an int64 holds"};
    }
    c.result[c.axis] = sum;
  } else {
    c.result.insert(c.result.begin() + c.axis,
                    static_cast<int64_t>(shapes.size()));
  }
  std::vector<PromotionOperand> operands;
  for (DType d : dtypes)
    operands.push_back({d, false});
  Result<DType> dtype = promoteDTypes(operands);
  if (!dtype)
    return Error{dtype.getError().kind,
                 std::string(name) + ": " + dtype.getError().message};
  c.dtype = *dtype;
  return c;
}

Result<std::vector<int64_t>>
ptensor::semantics::rollShifts(int64_t rank, const std::vector<int64_t> &shifts,
                               const std::vector<int64_t> &axes) {
  if (axes.empty())
    return Error{ErrorKind::Value,
                 "roll needs at least one axis (roll the 1-D reshape to "
                 "roll the flattened tensor)"};
  if (shifts.size() != 1 && shifts.size() != axes.size())
    return Error{ErrorKind::Value,
                 "roll needs one shift, or one per axis, but got " +
                     std::to_string(shifts.size()) + " shifts for " +
                     std::to_string(axes.size()) + " axes"};
  std::vector<int64_t> perDim(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    Result<int64_t> d = normalizeAxis(axes[i], rank, rank);
    if (!d)
      return Error{ErrorKind::Value, "roll: " + d.getError().message};
    int64_t shift = shifts.size() == 1 ? shifts[0] : shifts[i];
    if (__builtin_add_overflow(perDim[*d], shift, &perDim[*d]))
      return Error{ErrorKind::Value,
                   "roll: the shifts of axis " + std::to_string(*d) +
                       " add up to more than an int64 holds"};
  }
  return perDim;
}

std::string ptensor::semantics::extractMaskMismatchMessage(const Shape &source,
                                                           const Shape &mask) {
  return "extract_mask: the mask's shape " + formatShape(mask) +
         " does not match the first " + std::to_string(mask.size()) +
         " dimensions of shape " + formatShape(source);
}

Result<Shape> ptensor::semantics::extractMaskResultShape(const Shape &source,
                                                         const Shape &mask,
                                                         DType maskDType) {
  if (maskDType != DType::Bool)
    return Error{ErrorKind::DType, std::string("extract_mask needs a bool "
                                               "mask, but got ") +
                                       dtypeName(maskDType)};
  if (mask.empty() || mask.size() > source.size())
    return Error{ErrorKind::Value,
                 "extract_mask needs a mask of rank 1 to " +
                     std::to_string(source.size()) + " (the source's), but "
                     "got shape " + formatShape(mask)};
  for (size_t d = 0; d < mask.size(); ++d)
    if (mask[d] != kDynamicSize && source[d] != kDynamicSize &&
        mask[d] != source[d])
      return Error{ErrorKind::Broadcast,
                   extractMaskMismatchMessage(source, mask)};
  Shape result = {kDynamicSize};
  result.insert(result.end(), source.begin() + mask.size(), source.end());
  return result;
}

std::optional<Error> ptensor::semantics::checkTriangle(const Shape &shape) {
  if (shape.size() < 2)
    return Error{ErrorKind::Value,
                 "extract_triangle needs at least 2 dimensions (the last two "
                 "hold the matrices), but got shape " +
                     formatShape(shape)};
  return std::nullopt;
}

const char *ptensor::semantics::sizedOpName(SizedOp op) {
  switch (op) {
  case SizedOp::Create:
    return "create";
  case SizedOp::Eye:
    return "eye";
  case SizedOp::BroadcastTo:
    return "broadcast_to";
  case SizedOp::Reshape:
    return "reshape";
  case SizedOp::Linspace:
    return "linspace";
  case SizedOp::Arange:
    return "arange";
  }
  return nullptr;
}

std::string ptensor::semantics::invalidSizeMessage(SizedOp op,
                                                   const Shape &shape,
                                                   int64_t elementBytes,
                                                   int64_t inferredDim) {
  std::string name = sizedOpName(op) ? sizedOpName(op) : "a creation";
  auto invalid = shape.end();
  for (auto it = shape.begin(); it != shape.end() && invalid == shape.end(); ++it)
    if (*it < 0 && !(*it == -1 && it - shape.begin() == inferredDim))
      invalid = it;
  if (invalid != shape.end())
    return name + ": invalid size " + std::to_string(*invalid) +
           " at dimension " + std::to_string(invalid - shape.begin()) +
           " of shape " + formatRequested(shape) + " (expected >= 0)";
  // Sizes of 0 count as 1 in the bound: strides still span the other dims.
  bool hasZero = std::find(shape.begin(), shape.end(), 0) != shape.end();
  return name + ": shape " + formatRequested(shape) + " of " +
         std::to_string(elementBytes) + "-byte elements needs more than " +
         kMaxArrayBytesText + " bytes" +
         (hasZero ? " (sizes of 0 counted as 1: the strides of the other "
                    "dimensions span that much)"
                  : "");
}

std::optional<Error> ptensor::semantics::checkEye(const Shape &shape) {
  if (shape.size() != 2)
    return Error{ErrorKind::Value,
                 "eye makes a 2-D result, but the result shape is " +
                     formatShape(shape)};
  return std::nullopt;
}
