//===- ManipulationOps.cpp - type inference of the data-movement ops ------===//
//
// The meta step of reshape, combine, roll, extract_triangle, create_like,
// meshgrid and the attribute ops: the semantics library
// (ptensor/Semantics/Manipulation.h) owns the rules and messages; this file
// converts between it and MLIR types.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"
#include "ptensor/Semantics/Manipulation.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

static sem::Shape toShape(ArrayRef<int64_t> shape) {
  return sem::Shape(shape.begin(), shape.end());
}

/// Infers `src` reshaped to the semantics library's `shape` (or fails with
/// its error at `loc`), with `src`'s dtype, device and team.
static LogicalResult inferShape(std::optional<Location> loc, PTensorType src,
                                const sem::Result<sem::Shape> &shape,
                                SmallVectorImpl<Type> &results) {
  if (!shape)
    return emitOptionalError(loc, shape.getError().message);
  results.push_back(src.cloneWithShapeAndType(
      SmallVector<int64_t>(shape->begin(), shape->end()),
      src.getElementType()));
  return success();
}

/// Emits a semantics-library error at `loc`.
static LogicalResult emitRuleError(std::optional<Location> loc,
                                   const sem::Error &error) {
  return emitOptionalError(loc, error.message);
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  ArrayRef<int64_t> sizes = adaptor.getStaticSizes();
  if (failed(verifyDynamicSizeCount(loc, "reshape", sizes,
                                    adaptor.getSizes().size())))
    return failure();
  return inferShape(
      loc, src, sem::reshapeResultShape(toShape(src.getShape()), toShape(sizes)),
      results);
}

LogicalResult CombineOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  TypeRange types = adaptor.getInputs().getTypes();
  StringAttr device;
  IntegerAttr team;
  std::string error;
  if (failed(getCommonPlacement(types, device, team, error)))
    return emitOptionalError(loc, error);
  std::vector<sem::Shape> shapes;
  std::vector<::ptensor::DType> dtypes;
  for (Type t : types) {
    auto type = cast<PTensorType>(t);
    shapes.push_back(toShape(type.getShape()));
    dtypes.push_back(*toDType(type.getElementType()));
  }
  auto kind = static_cast<sem::CombineKind>(adaptor.getKind());
  sem::Result<sem::Combination> c = sem::combineResult(
      kind, shapes, dtypes, adaptor.getAxisAttr().getInt());
  if (!c)
    return emitRuleError(loc, c.getError());
  auto first = cast<PTensorType>(types.front());
  results.push_back(first.cloneWithShapeAndType(
      SmallVector<int64_t>(c->result.begin(), c->result.end()),
      toMLIRType(context, c->dtype)));
  return success();
}

LogicalResult RollOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  ArrayRef<int64_t> shifts = adaptor.getShifts(), axes = adaptor.getAxes();
  sem::Result<std::vector<int64_t>> perDim =
      sem::rollShifts(src.getRank(), toShape(shifts), toShape(axes));
  if (!perDim)
    return emitRuleError(loc, perDim.getError());
  results.push_back(src);
  return success();
}

LogicalResult ExtractMaskOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  auto mask = cast<PTensorType>(adaptor.getMask().getType());
  StringAttr device;
  IntegerAttr team;
  std::string error;
  if (failed(getCommonPlacement(TypeRange{src, mask}, device, team, error)))
    return emitOptionalError(loc, error);
  return inferShape(loc, src,
                    sem::extractMaskResultShape(toShape(src.getShape()),
                                                toShape(mask.getShape()),
                                                *toDType(mask.getElementType())),
                    results);
}

LogicalResult ExtractTriangleOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  if (std::optional<sem::Error> error =
          sem::checkTriangle(toShape(src.getShape())))
    return emitRuleError(loc, *error);
  results.push_back(src);
  return success();
}

LogicalResult CreateLikeOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  Type dtype = src.getElementType();
  if (TypeAttr requested = adaptor.getDtypeAttr()) {
    dtype = requested.getValue();
    if (!toDType(dtype))
      return emitOptionalError(loc, "create_like: ", dtype,
                               " is not a ptensor dtype");
  }
  results.push_back(src.cloneWithShapeAndType(src.getShape(), dtype));
  return success();
}

LogicalResult MeshgridOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  TypeRange types = adaptor.getInputs().getTypes();
  if (types.empty())
    return emitOptionalError(loc, "meshgrid needs at least one operand");
  StringAttr device;
  IntegerAttr team;
  std::string error;
  if (failed(getCommonPlacement(types, device, team, error)))
    return emitOptionalError(loc, error);
  auto first = cast<PTensorType>(types.front());
  SmallVector<int64_t> shape;
  for (auto [k, t] : llvm::enumerate(types)) {
    auto type = cast<PTensorType>(t);
    if (type.getRank() != 1)
      return emitOptionalError(loc, "meshgrid needs 1-D operands, but operand ",
                               k, " has shape ",
                               formatShape(type.getShape()));
    if (type.getElementType() != first.getElementType())
      return emitOptionalError(loc, "meshgrid needs operands of one dtype, but "
                               "operand ", k, " is ", type.getElementType(),
                               " and operand 0 ", first.getElementType());
    shape.push_back(type.getDimSize(0));
  }
  if (adaptor.getIndexing() == MeshgridIndexing::xy && shape.size() >= 2)
    std::swap(shape[0], shape[1]);
  for (size_t k = 0; k < types.size(); ++k)
    results.push_back(first.cloneWithShapeAndType(shape, first.getElementType()));
  return success();
}

LogicalResult ShapeOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  // Also called by the parser, before the operand's type is verified.
  Type type = adaptor.getSource().getType();
  auto src = dyn_cast<PTensorType>(type);
  if (!src)
    return emitOptionalError(loc, "expected a ptensor operand, but got ", type);
  results.append(src.getRank(), IndexType::get(context));
  return success();
}

LogicalResult ShapeOp::fold(FoldAdaptor,
                            SmallVectorImpl<OpFoldResult> &results) {
  PTensorType type = getSource().getType();
  if (!type.hasStaticShape())
    return failure();
  for (int64_t size : type.getShape())
    results.push_back(IntegerAttr::get(IndexType::get(getContext()), size));
  return success();
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  int64_t n = sem::numElements(toShape(getSource().getType().getShape()));
  if (n == sem::kDynamicSize)
    return {};
  return IntegerAttr::get(IndexType::get(getContext()), n);
}

OpFoldResult RankOp::fold(FoldAdaptor) {
  return IntegerAttr::get(IndexType::get(getContext()),
                          getSource().getType().getRank());
}
