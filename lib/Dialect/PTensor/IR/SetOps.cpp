//===- SetOps.cpp - the result types of ptensor.unique --------------------===//
//
// Which results a kind of unique gives, and in which order, is the
// semantics library's (ptensor/Semantics/Sets.h); this file gives them
// their types.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Semantics/Sets.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

LogicalResult UniqueOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  auto input = cast<PTensorType>(adaptor.getInput().getType());
  std::optional<sem::UniqueKind> kind =
      sem::uniqueKindFromName(stringifyUniqueKind(adaptor.getKind()).str());
  if (!kind)
    return emitOptionalError(loc, "unique: unknown kind ",
                             stringifyUniqueKind(adaptor.getKind()));
  SmallVector<int64_t> dynamic = {ShapedType::kDynamic};
  Type i64 = IntegerType::get(context, 64);
  for (sem::UniqueResult result : sem::uniqueResults(*kind)) {
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
