//===- SetOps.cpp - the result types of ptensor.unique --------------------===//
//
// Which results a kind of unique gives, and in which order, is the
// semantics library's (ptensor/Semantics/Sets.h); this file gives them
// their types.
//
//===----------------------------------------------------------------------===//

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
  sem::UniqueKind kind = getSemanticUniqueKind(adaptor.getKind());
  SmallVector<int64_t> dynamic = {ShapedType::kDynamic};
  Type i64 = IntegerType::get(context, 64);
  for (sem::UniqueResult result : sem::uniqueResults(kind)) {
    switch (result) {
    case sem::UniqueResult::Values:
      results.push_back(
          input.cloneWithShapeAndType(dynamic, input.getElementType()));
      break;
    case sem::UniqueResult::InverseIndices:
      results.push_back(input.cloneWithShapeAndType(input.getShape(), i64));
      break;
    case sem::UniqueResult::Indices:
    case sem::UniqueResult::Counts:
      results.push_back(input.cloneWithShapeAndType(dynamic, i64));
      break;
    }
  }
  return success();
}
