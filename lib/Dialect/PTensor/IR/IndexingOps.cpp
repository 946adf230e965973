//===- IndexingOps.cpp - the meta step of take ----------------------------===//
//
// take's result type: placement here, every other rule (ranks, axis,
// dtypes, messages) the semantics library's (ptensor/Semantics/Indexing.h).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"
#include "ptensor/Semantics/Indexing.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

/// take's rule for a source of type `source` and indices of type
/// `indices`: placement, then the semantics library's rule. Errors are
/// emitted at `loc` when given.
static FailureOr<sem::Take> getTake(PTensorType source, PTensorType indices,
                                    std::optional<int64_t> axis,
                                    std::optional<Location> loc) {
  StringAttr device;
  IntegerAttr team;
  std::string error;
  if (failed(getCommonPlacement({source, indices}, device, team, error)))
    return emitOptionalError(loc, error);
  std::optional<sem::TypedShape> sourceOperand = toTypedShape(source);
  std::optional<sem::TypedShape> indicesOperand = toTypedShape(indices);
  assert(sourceOperand && indicesOperand &&
         "a ptensor type's element type is a dtype (PTensorType::verify)");
  sem::Result<sem::Take> rule = sem::take(*sourceOperand, *indicesOperand,
                                          axis);
  if (!rule)
    return emitOptionalError(loc, rule.getError().message);
  return *rule;
}

/// The axis attribute as the rule takes it.
static std::optional<int64_t> axisOf(IntegerAttr axis) {
  if (!axis)
    return std::nullopt;
  return axis.getInt();
}

LogicalResult TakeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  auto source = cast<PTensorType>(adaptor.getSource().getType());
  auto indices = cast<PTensorType>(adaptor.getIndices().getType());
  FailureOr<sem::Take> rule =
      getTake(source, indices, axisOf(adaptor.getAxisAttr()), loc);
  if (failed(rule))
    return failure();
  // The device and team are the common ones (checked): the source's.
  results.push_back(source.cloneWithShapeAndType(
      SmallVector<int64_t>(rule->result.begin(), rule->result.end()),
      source.getElementType()));
  return success();
}

int64_t TakeOp::getTakenAxis() {
  FailureOr<sem::Take> rule =
      getTake(getSource().getType(), getIndices().getType(),
              axisOf(getAxisAttr()), std::nullopt);
  assert(succeeded(rule) && "take ops are verified");
  return rule->axis;
}
