//===- SearchingOps.cpp - the meta step of searchsorted -------------------===//
//
// searchsorted's result type: placement here, every other rule (ranks,
// sizes, dtypes, messages) the semantics library's
// (ptensor/Semantics/Searching.h).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"
#include "ptensor/Dialect/PTensor/IR/Searching.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

FailureOr<sem::Searchsorted>
mlir::ptensor::getSearchsorted(PTensorType sorted, PTensorType values,
                               PTensorType sorter,
                               std::optional<Location> loc) {
  SmallVector<Type> operands = {sorted, values};
  if (sorter)
    operands.push_back(sorter);
  StringAttr device;
  IntegerAttr team;
  std::string error;
  if (failed(getCommonPlacement(operands, device, team, error)))
    return emitOptionalError(loc, error);
  std::optional<sem::TypedShape> sortedOperand = toTypedShape(sorted);
  std::optional<sem::TypedShape> valuesOperand = toTypedShape(values);
  std::optional<sem::TypedShape> sorterOperand;
  if (sorter)
    sorterOperand = toTypedShape(sorter);
  assert(sortedOperand && valuesOperand && (!sorter || sorterOperand) &&
         "a ptensor type's element type is a dtype (PTensorType::verify)");
  sem::Result<sem::Searchsorted> rule =
      sem::searchsorted(*sortedOperand, *valuesOperand, sorterOperand);
  if (!rule)
    return emitOptionalError(loc, rule.getError().message);
  return *rule;
}

LogicalResult SearchsortedOp::inferReturnTypes(MLIRContext *context,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &results) {
  auto sorted = cast<PTensorType>(adaptor.getSorted().getType());
  auto values = cast<PTensorType>(adaptor.getValues().getType());
  PTensorType sorter;
  if (Value s = adaptor.getSorter())
    sorter = cast<PTensorType>(s.getType());
  FailureOr<sem::Searchsorted> rule =
      getSearchsorted(sorted, values, sorter, loc);
  if (failed(rule))
    return failure();
  // The device and team are the common ones (checked): the values'.
  results.push_back(values.cloneWithShapeAndType(
      SmallVector<int64_t>(rule->result.begin(), rule->result.end()),
      toMLIRType(context, rule->resultDType)));
  return success();
}

Type mlir::ptensor::getCompareDType(SearchsortedOp op) {
  auto sorter = op.getSorter() ? cast<PTensorType>(op.getSorter().getType())
                               : PTensorType();
  FailureOr<sem::Searchsorted> rule =
      getSearchsorted(cast<PTensorType>(op.getSorted().getType()),
                      cast<PTensorType>(op.getValues().getType()),
                      sorter, std::nullopt);
  assert(succeeded(rule) && "searchsorted ops are verified");
  return toMLIRType(op.getContext(), rule->compare);
}
