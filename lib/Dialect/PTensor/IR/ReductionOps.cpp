//===- ReductionOps.cpp - type inference of the reductions ----------------===//
//
// The meta step of ptensor.reduce, ptensor.test and ptensor.find_index: the
// semantics library decides the reduced dims, the result shape and dtype
// and every message; this file converts between it and MLIR types.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/ReductionKinds.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

//===----------------------------------------------------------------------===//
// The table's rows
//===----------------------------------------------------------------------===//

static FailureOr<sem::ReductionKind> lookup(std::optional<Location> loc,
                                            sem::ReductionOp op,
                                            StringRef name) {
  sem::Result<sem::ReductionKind> row = sem::lookupReductionKind(op, name);
  if (row)
    return *row;
  (void)emitOptionalError(loc, "kind '", name, "' of ptensor.",
                          sem::reductionOpName(op),
                          " has no row in Reductions.def");
  return failure();
}

FailureOr<sem::ReductionKind>
mlir::ptensor::getReductionKindRow(std::optional<Location> loc,
                                   ReduceKind kind) {
  return lookup(loc, sem::ReductionOp::Reduce, stringifyReduceKind(kind));
}

FailureOr<sem::ReductionKind>
mlir::ptensor::getReductionKindRow(std::optional<Location> loc, TestKind kind) {
  return lookup(loc, sem::ReductionOp::Test, stringifyTestKind(kind));
}

FailureOr<sem::ReductionKind>
mlir::ptensor::getReductionKindRow(std::optional<Location> loc,
                                   FindIndexKind kind) {
  return lookup(loc, sem::ReductionOp::FindIndex, stringifyFindIndexKind(kind));
}

//===----------------------------------------------------------------------===//
// Type inference
//===----------------------------------------------------------------------===//

/// The attributes a reduction's result type depends on.
struct ReductionAttrs {
  std::optional<std::vector<int64_t>> axes;
  bool keepdims = false;
  std::optional<Type> dtype;
  double correction = 0.0;
};

/// Infers the result of the reduction `row` of `input`: correction, axes,
/// result dtype and shape, each checked by the semantics library.
static FailureOr<PTensorType> inferReduction(std::optional<Location> loc,
                                             FailureOr<sem::ReductionKind> row,
                                             PTensorType input,
                                             const ReductionAttrs &attrs,
                                             std::vector<int64_t> *dims) {
  if (failed(row))
    return failure();
  auto fail = [&](const sem::Error &error) -> FailureOr<PTensorType> {
    (void)emitOptionalError(loc, error.message);
    return failure();
  };
  if (std::optional<sem::Error> error =
          sem::checkCorrection(*row, attrs.correction))
    return fail(*error);
  if (row->op == sem::ReductionOp::FindIndex)
    if (std::optional<sem::Error> error = sem::checkFindIndexAxes(attrs.axes))
      return fail(*error);
  sem::Result<std::vector<int64_t>> normalized =
      sem::normalizeReductionAxes(attrs.axes, input.getRank());
  if (!normalized)
    return fail(normalized.getError());
  std::optional<::ptensor::DType> requested;
  if (attrs.dtype) {
    requested = toDType(*attrs.dtype);
    if (!requested) {
      (void)emitOptionalError(loc, "expected a ptensor dtype as the result "
                                   "dtype (i1, i8 ... i64, ui8 ... ui64, "
                                   "f16, bf16, f32, f64), but got ",
                              *attrs.dtype);
      return failure();
    }
  }
  sem::Result<::ptensor::DType> dtype = sem::reductionResultDType(
      *row, *toDType(input.getElementType()), requested);
  if (!dtype)
    return fail(dtype.getError());
  ArrayRef<int64_t> shape = input.getShape();
  sem::Result<sem::Shape> resultShape = sem::reductionResultShape(
      *row, sem::Shape(shape.begin(), shape.end()), *normalized,
      attrs.keepdims);
  if (!resultShape)
    return fail(resultShape.getError());
  if (dims)
    *dims = *normalized;
  return input.cloneWithShapeAndType(
      SmallVector<int64_t>(resultShape->begin(), resultShape->end()),
      toMLIRType(input.getContext(), *dtype));
}

static std::optional<std::vector<int64_t>>
toAxes(std::optional<ArrayRef<int64_t>> axes) {
  if (!axes)
    return std::nullopt;
  return std::vector<int64_t>(axes->begin(), axes->end());
}

/// Pushes the inferred type of the reduction `row` of `input` onto
/// `results`.
static LogicalResult inferInto(std::optional<Location> loc,
                               FailureOr<sem::ReductionKind> row, Value input,
                               const ReductionAttrs &attrs,
                               SmallVectorImpl<Type> &results) {
  FailureOr<PTensorType> type = inferReduction(
      loc, row, cast<PTensorType>(input.getType()), attrs, nullptr);
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  ReductionAttrs attrs{toAxes(adaptor.getAxes()), adaptor.getKeepdims(),
                       adaptor.getDtype(),
                       adaptor.getCorrection().convertToDouble()};
  return inferInto(loc, getReductionKindRow(loc, adaptor.getKind()),
                   adaptor.getInput(), attrs, results);
}

LogicalResult TestOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  ReductionAttrs attrs{toAxes(adaptor.getAxes()), adaptor.getKeepdims(),
                       std::nullopt, 0.0};
  return inferInto(loc, getReductionKindRow(loc, adaptor.getKind()),
                   adaptor.getInput(), attrs, results);
}

/// The axis of a find_index as the axes of a reduction.
static std::optional<std::vector<int64_t>> axisAsAxes(IntegerAttr axis) {
  if (!axis)
    return std::nullopt;
  return std::vector<int64_t>{axis.getInt()};
}

LogicalResult FindIndexOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  ReductionAttrs attrs{axisAsAxes(adaptor.getAxisAttr()), adaptor.getKeepdims(),
                       std::nullopt, 0.0};
  return inferInto(loc, getReductionKindRow(loc, adaptor.getKind()),
                   adaptor.getInput(), attrs, results);
}

//===----------------------------------------------------------------------===//
// ReductionInfo
//===----------------------------------------------------------------------===//

/// The info of a verified reduction of `input` with `attrs`.
static ReductionInfo makeInfo(FailureOr<sem::ReductionKind> row,
                              Value input, const ReductionAttrs &attrs) {
  std::vector<int64_t> dims;
  FailureOr<PTensorType> type = inferReduction(
      std::nullopt, row, cast<PTensorType>(input.getType()), attrs, &dims);
  assert(succeeded(type) && "reductions are verified");
  (void)type;
  return ReductionInfo{*row, SmallVector<int64_t>(dims.begin(), dims.end()),
                       attrs.keepdims, attrs.correction};
}

std::optional<ReductionInfo> mlir::ptensor::getReductionInfo(Operation *op) {
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return makeInfo(getReductionKindRow(std::nullopt, reduce.getKind()),
                    reduce.getInput(),
                    {toAxes(reduce.getAxes()), reduce.getKeepdims(),
                     reduce.getDtype(),
                     reduce.getCorrection().convertToDouble()});
  if (auto test = dyn_cast<TestOp>(op))
    return makeInfo(getReductionKindRow(std::nullopt, test.getKind()),
                    test.getInput(),
                    {toAxes(test.getAxes()), test.getKeepdims(), std::nullopt,
                     0.0});
  if (auto find = dyn_cast<FindIndexOp>(op))
    return makeInfo(getReductionKindRow(std::nullopt, find.getKind()),
                    find.getInput(),
                    {axisAsAxes(find.getAxisAttr()), find.getKeepdims(), std::nullopt,
                     0.0});
  return std::nullopt;
}
