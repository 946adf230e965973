//===- SetOps.cpp - the result types of ptensor.unique --------------------===//
//
// Which results a kind of unique gives, in which order and of which shape
// and dtype, is the semantics library's (ptensor/Semantics/Sets.h); this
// file turns them into types.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/IR/SetKinds.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

sem::UniqueKind mlir::ptensor::getSemanticUniqueKind(UniqueKind kind) {
  switch (kind) {
  case UniqueKind::all:
    return sem::UniqueKind::All;
  case UniqueKind::counts:
    return sem::UniqueKind::Counts;
  case UniqueKind::inverse:
    return sem::UniqueKind::Inverse;
  case UniqueKind::values:
    return sem::UniqueKind::Values;
  }
  llvm_unreachable("unknown unique kind");
}

LogicalResult UniqueOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  auto input = cast<PTensorType>(adaptor.getInput().getType());
  std::optional<::ptensor::DType> dtype = toDType(input.getElementType());
  if (!dtype)
    return emitOptionalError(loc, "unique of an unsupported element type ",
                             input.getElementType());
  sem::UniqueKind kind = getSemanticUniqueKind(adaptor.getKind());
  sem::Shape shape(input.getShape().begin(), input.getShape().end());
  for (sem::UniqueResult result : sem::uniqueResults(kind)) {
    auto [resultShape, resultDType] =
        sem::uniqueResultType(result, shape, *dtype);
    // The input's own element type where the dtype is the input's.
    Type element = resultDType == *dtype ? input.getElementType()
                                         : toMLIRType(context, resultDType);
    results.push_back(input.cloneWithShapeAndType(resultShape, element));
  }
  return success();
}
