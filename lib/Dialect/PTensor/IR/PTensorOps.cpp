//===- PTensorOps.cpp - ptensor op type inference and verifiers -----------===//
//
// The *meta* step: every elementwise and view op infers its result type from
// its operands (docs/Semantics.md); verifiers name what was expected and what
// was found.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/IR/PTensorOpKinds.h"
#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"
#include "ptensor/Semantics/Axes.h"
#include "ptensor/Semantics/Manipulation.h"
#include "ptensor/Semantics/OpKinds.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::ptensor;

//===----------------------------------------------------------------------===//
// Custom directive: promotion list `[DEFAULT, INT_TO_FLOAT]`
//===----------------------------------------------------------------------===//

static ParseResult parsePromotionList(OpAsmParser &parser,
                                      DenseI32ArrayAttr &promotions) {
  SmallVector<int32_t> values;
  auto parseOne = [&]() -> ParseResult {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return failure();
    // The semantics library's parse (its message), with the IR's spelling.
    ::ptensor::semantics::Result<::ptensor::semantics::PromotionMethod>
        method = ::ptensor::semantics::parsePromotionMethodName(keyword);
    if (!method)
      return parser.emitError(loc) << method.getError().message;
    values.push_back(static_cast<int32_t>(*method));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  promotions = DenseI32ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printPromotionList(OpAsmPrinter &printer, Operation *,
                               DenseI32ArrayAttr promotions) {
  printer << "[";
  llvm::interleaveComma(promotions.asArrayRef(), printer, [&](int32_t v) {
    printer << stringifyPromotionMethod(static_cast<PromotionMethod>(v));
  });
  printer << "]";
}

#define GET_OP_CLASSES
#include "ptensor/Dialect/PTensor/IR/PTensorOps.cpp.inc"
#include "ptensor/Dialect/PTensor/IR/PTensorEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

/// Shared inference: placement, broadcast shape, promoted dtype.
static LogicalResult inferElementwise(MLIRContext *context,
                                      std::optional<Location> loc,
                                      TypeRange operands,
                                      PromotionMethod method,
                                      SmallVectorImpl<Type> &results) {
  FailureOr<PTensorType> type =
      inferElementwiseType(context, loc, operands, method);
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

/// Infers an elementwise op of the kind `row` of the op-kind table: the
/// kind's operand rule on the operand dtypes (scalars included), then
/// placement, broadcasting and promotion with the kind's method.
static LogicalResult
inferElementwiseKind(MLIRContext *context, std::optional<Location> loc,
                     FailureOr<::ptensor::semantics::OpKind> row,
                     TypeRange operands, SmallVectorImpl<Type> &results) {
  if (failed(row))
    return failure();
  std::vector<::ptensor::DType> dtypes;
  for (Type t : operands) {
    if (auto pt = dyn_cast<PTensorType>(t))
      dtypes.push_back(*toDType(pt.getElementType()));
    else
      dtypes.push_back(weakScalarDType(t));
  }
  if (std::optional<::ptensor::semantics::Error> error =
          ::ptensor::semantics::checkOperandDTypes(*row, dtypes))
    return emitOptionalError(loc, error->message);
  return inferElementwise(context, loc, operands, getPromotionMethod(*row),
                          results);
}

LogicalResult ElementwiseUnaryOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  return inferElementwiseKind(context, loc, getOpKindRow(loc, adaptor.getKind()),
                              adaptor.getInput().getType(), results);
}

LogicalResult ElementwiseUnaryTestOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  return inferElementwiseKind(context, loc, getOpKindRow(loc, adaptor.getKind()),
                              adaptor.getInput().getType(), results);
}

/// At least one operand of a binary op must be a ptensor.
static LogicalResult verifyHasPTensor(std::optional<Location> loc,
                                      TypeRange types) {
  if (llvm::any_of(types, [](Type t) { return isa<PTensorType>(t); }))
    return success();
  return emitOptionalError(loc, "expected at least one ptensor operand, but "
                                "all operands are builtin scalars");
}

LogicalResult ElementwiseBinaryOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  Type lhs = adaptor.getLhs().getType(), rhs = adaptor.getRhs().getType();
  if (failed(verifyHasPTensor(loc, {lhs, rhs})))
    return failure();
  return inferElementwiseKind(context, loc, getOpKindRow(loc, adaptor.getKind()),
                              {lhs, rhs}, results);
}

LogicalResult ElementwiseBinaryTestOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  Type lhs = adaptor.getLhs().getType(), rhs = adaptor.getRhs().getType();
  if (failed(verifyHasPTensor(loc, {lhs, rhs})))
    return failure();
  return inferElementwiseKind(context, loc, getOpKindRow(loc, adaptor.getKind()),
                              {lhs, rhs}, results);
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  auto cond = cast<PTensorType>(adaptor.getCondition().getType());
  if (std::optional<::ptensor::semantics::Error> error =
          ::ptensor::semantics::checkWhereCondition(
              {*toDType(cond.getElementType()), /*isWeak=*/false}))
    return emitOptionalError(loc, error->message);
  // The i1 condition is the weakest strong dtype, so it leaves the promotion
  // of `x` and `y` unchanged (see inferWhereDType).
  SmallVector<Type, 3> operands = {cond, adaptor.getX().getType(),
                                   adaptor.getY().getType()};
  return inferElementwise(context, loc, operands, PromotionMethod::NO_OPMATH,
                          results);
}

//===----------------------------------------------------------------------===//
// PointwiseOp
//===----------------------------------------------------------------------===//

LogicalResult PointwiseOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  TypeRange inputs = adaptor.getInputs().getTypes();
  if (failed(verifyHasPTensor(loc, inputs)))
    return failure();
  for (int32_t method : adaptor.getPromotions()) {
    if (!symbolizePromotionMethod(method))
      return emitOptionalError(loc, "unknown promotion method ", method,
                               " (expected 0 to 4, DEFAULT to BOOL_TO_LONG)");
    if (failed(inferElementwise(context, loc, inputs,
                                static_cast<PromotionMethod>(method), results)))
      return failure();
  }
  return success();
}

/// Scalar types a pointwise body may compute with.
static bool isScalarBodyType(Type t) {
  return isa<IntegerType, IndexType, FloatType>(t);
}

LogicalResult PointwiseOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError(
               "body must take one scalar argument per input: expected ")
           << getInputs().size() << " arguments, got "
           << body.getNumArguments();
  for (BlockArgument arg : body.getArguments())
    if (!isScalarBodyType(arg.getType()))
      return emitOpError("body argument #")
             << arg.getArgNumber()
             << " must be a scalar (integer, index or float), got "
             << arg.getType();
  // Checked here: the terminator trait is verified after this verifier.
  auto yield = dyn_cast_or_null<YieldOp>(
      body.empty() ? nullptr : &body.back());
  if (!yield)
    return emitOpError("body must end with ptensor.yield");
  if (yield.getValues().size() != getResults().size())
    return emitOpError("body must yield one scalar per output: expected ")
           << getResults().size() << " values, got "
           << yield.getValues().size();
  for (auto [i, v] : llvm::enumerate(yield.getValues()))
    if (!isScalarBodyType(v.getType()))
      return emitOpError("yielded value #")
             << i << " must be a scalar (integer, index or float), got "
             << v.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Scalar ops of pointwise bodies
//===----------------------------------------------------------------------===//

/// The semantic dtype of a scalar op's operands (`as` type or the operand
/// type), checked against the operand's storage type.
static FailureOr<::ptensor::DType>
getScalarOperandDType(std::optional<Location> loc, Type operand,
                      std::optional<Type> as) {
  Type dtype = as ? *as : operand;
  std::optional<::ptensor::DType> d = toDType(dtype);
  if (!d)
    return emitOptionalError(loc, "expected a ptensor dtype (i1, i8 ... i64, "
                                  "ui8 ... ui64, f16, bf16, f32, f64), but got ",
                             dtype);
  if (getStorageType(dtype) != operand)
    return emitOptionalError(loc, "expected an operand of type ",
                             getStorageType(dtype), " (the storage of ", dtype,
                             "), but got ", operand);
  return *d;
}

/// Result of a scalar kind: the operand's type, or i1 for the tests. The
/// operands must already be in the dtype the kind computes in (the
/// elementwise op's result dtype on them), so that the body's code is the
/// elementwise op's code.
static LogicalResult
inferScalarKind(MLIRContext *context, std::optional<Location> loc,
                FailureOr<::ptensor::semantics::OpKind> row,
                ValueRange operands, std::optional<Type> as,
                SmallVectorImpl<Type> &results) {
  if (failed(row))
    return failure();
  Type operand = operands[0].getType();
  FailureOr<::ptensor::DType> dtype = getScalarOperandDType(loc, operand, as);
  if (failed(dtype))
    return failure();
  std::vector<::ptensor::DType> dtypes(operands.size(), *dtype);
  if (std::optional<::ptensor::semantics::Error> error =
          ::ptensor::semantics::checkOperandDTypes(*row, dtypes))
    return emitOptionalError(loc, error->message);
  if (getPromotionMethod(*row) == PromotionMethod::ALWAYS_BOOL) {
    results.push_back(IntegerType::get(context, 1));
    return success();
  }
  std::vector<::ptensor::semantics::PromotionOperand> promoted;
  for (::ptensor::DType d : dtypes)
    promoted.push_back({d, /*isWeak=*/false});
  ::ptensor::semantics::Result<::ptensor::DType> computed =
      ::ptensor::semantics::inferElementwiseDType(*row, promoted);
  if (!computed)
    return emitOptionalError(loc, computed.getError().message);
  if (*computed != *dtype)
    return emitOptionalError(
        loc, "expected operands in the dtype '", row->name, "' computes in (",
        ::ptensor::dtypeName(*computed), "), but got ",
        ::ptensor::dtypeName(*dtype), "; convert them first with "
        "ptensor.scalar_cast");
  results.push_back(operand);
  return success();
}

/// inferScalarKind for any of the four kind ops. Also called by the
/// parser, before the op is verified: the kind may be missing (a kind
/// written as "" parses to none).
template <typename AdaptorT>
static LogicalResult inferScalarOp(MLIRContext *context,
                                   std::optional<Location> loc,
                                   AdaptorT adaptor,
                                   SmallVectorImpl<Type> &results) {
  if (!adaptor.getKindAttr())
    return emitOptionalError(loc, "expected a kind, but got none");
  return inferScalarKind(context, loc, getOpKindRow(loc, adaptor.getKind()),
                         adaptor.getOperands(), adaptor.getDtype(), results);
}

#define PTENSOR_INFER_SCALAR_OP(OpTy)                                          \
  LogicalResult OpTy::inferReturnTypes(MLIRContext *context,                   \
                                       std::optional<Location> loc,            \
                                       Adaptor adaptor,                        \
                                       SmallVectorImpl<Type> &results) {       \
    return inferScalarOp(context, loc, adaptor, results);                      \
  }
PTENSOR_INFER_SCALAR_OP(ScalarUnaryOp)
PTENSOR_INFER_SCALAR_OP(ScalarUnaryTestOp)
PTENSOR_INFER_SCALAR_OP(ScalarBinaryOp)
PTENSOR_INFER_SCALAR_OP(ScalarBinaryTestOp)
#undef PTENSOR_INFER_SCALAR_OP

LogicalResult ScalarCastOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  if (failed(getScalarOperandDType(loc, adaptor.getInput().getType(),
                                   adaptor.getDtype())))
    return failure();
  Type to = adaptor.getTo();
  if (!toDType(to))
    return emitOptionalError(loc, "expected a ptensor dtype to cast to (i1, "
                                  "i8 ... i64, ui8 ... ui64, f16, bf16, f32, "
                                  "f64), but got ",
                             to);
  results.push_back(getStorageType(to));
  return success();
}

//===----------------------------------------------------------------------===//
// Creation and movement
//===----------------------------------------------------------------------===//

/// Checks that there is one index operand per dynamic dim of `type`.
static LogicalResult verifyDynamicSizes(Operation *op, PTensorType type,
                                        ValueRange sizes) {
  int64_t expected = type.getNumDynamicDims();
  if (static_cast<int64_t>(sizes.size()) != expected)
    return op->emitOpError("expected ")
           << expected << " dynamic size operand(s) for result type " << type
           << ", got " << sizes.size();
  return success();
}

LogicalResult CreateOp::verify() {
  return verifyDynamicSizes(*this, getResult().getType(), getDynamicSizes());
}

LogicalResult EyeOp::verify() {
  PTensorType type = getResult().getType();
  if (std::optional<::ptensor::semantics::Error> error =
          ::ptensor::semantics::checkEye(
              {type.getShape().begin(), type.getShape().end()}))
    return emitOpError(error->message);
  return verifyDynamicSizes(*this, type, getDynamicSizes());
}

/// Creation ops that produce a 1-D ptensor.
static LogicalResult verifyRank1(Operation *op, PTensorType type) {
  if (type.getRank() != 1)
    return op->emitOpError("result must be a 1-D ptensor, got rank ")
           << type.getRank();
  return success();
}

LogicalResult ArangeOp::verify() {
  return verifyRank1(*this, getResult().getType());
}

LogicalResult LinspaceOp::verify() {
  return verifyRank1(*this, getResult().getType());
}

/// Checks that a builtin tensor/memref and a ptensor describe the same data:
/// compatible shapes and the same dtype (signless integers stand for their
/// unsigned ptensor counterparts of equal width).
static LogicalResult verifyRankedMatches(Operation *op, ShapedType ranked,
                                         PTensorType ptensor) {
  if (failed(verifyCompatibleShape(ranked.getShape(), ptensor.getShape())))
    return op->emitOpError("shape ")
           << formatShape(ranked.getShape()) << " of " << ranked
           << " does not match shape " << formatShape(ptensor.getShape())
           << " of " << ptensor;
  Type a = ranked.getElementType(), b = ptensor.getElementType();
  bool sameWidthInteger =
      a.isSignlessInteger() && b.isUnsignedInteger() &&
      a.getIntOrFloatBitWidth() == b.getIntOrFloatBitWidth();
  if (a != b && !sameWidthInteger)
    return op->emitOpError("element type ")
           << a << " does not match ptensor dtype " << b;
  return success();
}

LogicalResult FromRankedOp::verify() {
  return verifyRankedMatches(*this, cast<ShapedType>(getSource().getType()),
                             getResult().getType());
}

LogicalResult ToRankedOp::verify() {
  return verifyRankedMatches(*this, cast<ShapedType>(getResult().getType()),
                             getSource().getType());
}

LogicalResult CopyOp::verify() {
  PTensorType src = getSource().getType(), dst = getResult().getType();
  if (src.getShape() != dst.getShape() ||
      src.getElementType() != dst.getElementType())
    return emitOpError("copy keeps shape and dtype (use ptensor.cast to change "
                       "the dtype), but got ")
           << src << " -> " << dst;
  return success();
}

LogicalResult CastOp::verify() {
  PTensorType src = getSource().getType(), dst = getResult().getType();
  if (src.getShape() != dst.getShape())
    return emitOpError("cast keeps the shape, but got ")
           << formatShape(src.getShape()) << " -> "
           << formatShape(dst.getShape());
  if (src.getDevice() != dst.getDevice() || src.getTeam() != dst.getTeam())
    return emitOpError("cast keeps device and team (use ptensor.copy to move "
                       "data), but got ")
           << src << " -> " << dst;
  return success();
}

LogicalResult BroadcastOp::verify() {
  PTensorType src = getSource().getType(), dst = getResult().getType();
  if (src.getElementType() != dst.getElementType() ||
      src.getDevice() != dst.getDevice() || src.getTeam() != dst.getTeam())
    return emitOpError("broadcast keeps dtype, device and team, but got ")
           << src << " -> " << dst;
  if (failed(verifyDynamicSizes(*this, dst, getDynamicSizes())))
    return failure();
  ArrayRef<int64_t> from = src.getShape(), to = dst.getShape();
  auto fail = [&]() {
    return emitOpError("cannot broadcast shape ")
           << formatShape(from) << " to shape " << formatShape(to);
  };
  if (from.size() > to.size())
    return fail();
  size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    int64_t f = from[i], t = to[lead + i];
    if (f == 1 || ShapedType::isDynamic(f) || ShapedType::isDynamic(t))
      continue;
    if (f != t)
      return fail();
  }
  return success();
}

LogicalResult DimOp::verify() {
  // I64Attr's getter is unsigned: read the attribute as signed.
  int64_t rank = getSource().getType().getRank(), dim = getDimAttr().getInt();
  if (dim < 0 || dim >= rank)
    return emitOpError("dimension ")
           << dim << " is out of range for a tensor of rank " << rank
           << " (expected 0 <= dimension < " << rank << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// Normalizes a possibly negative axis into [0, bound), where `bound` is the
/// number of positions an axis may name (the rank, or rank + 1 for an
/// insertion); fails with a message naming the source rank and the range.
static FailureOr<int64_t> normalizeAxis(std::optional<Location> loc,
                                        int64_t axis, int64_t bound,
                                        int64_t rank) {
  ::ptensor::semantics::Result<int64_t> normalized =
      ::ptensor::semantics::normalizeAxis(axis, bound, rank);
  if (!normalized)
    return emitOptionalError(loc, normalized.getError().message);
  return *normalized;
}

/// Normalizes a list of axes that must name distinct dimensions.
static FailureOr<SmallVector<int64_t>>
normalizeAxes(std::optional<Location> loc, ArrayRef<int64_t> axes,
              int64_t rank) {
  ::ptensor::semantics::Result<std::vector<int64_t>> normalized =
      ::ptensor::semantics::normalizeAxes(
          std::vector<int64_t>(axes.begin(), axes.end()), rank);
  if (!normalized)
    return emitOptionalError(loc, normalized.getError().message);
  return SmallVector<int64_t>(normalized->begin(), normalized->end());
}

LogicalResult PermuteDimsOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  if (static_cast<int64_t>(axes.size()) != src.getRank())
    return emitOptionalError(loc, "permute_dims needs a permutation of all ",
                             src.getRank(), " dimensions, but got ",
                             axes.size(), " axes ", formatShape(axes));
  FailureOr<SmallVector<int64_t>> norm =
      normalizeAxes(loc, axes, src.getRank());
  if (failed(norm))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t a : *norm)
    shape.push_back(src.getDimSize(a));
  results.push_back(src.cloneWithShapeAndType(shape, src.getElementType()));
  return success();
}

LogicalResult FlipOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  if (failed(normalizeAxes(loc, adaptor.getAxes(), src.getRank())))
    return failure();
  results.push_back(src);
  return success();
}

LogicalResult ExtractSliceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  ArrayRef<int64_t> offsets = adaptor.getOffsets(), sizes = adaptor.getSizes(),
                    steps = adaptor.getSteps();
  int64_t rank = src.getRank();
  if (static_cast<int64_t>(offsets.size()) != rank ||
      static_cast<int64_t>(sizes.size()) != rank ||
      static_cast<int64_t>(steps.size()) != rank)
    return emitOptionalError(loc, "extract_slice needs ", rank,
                             " offsets, sizes and steps (one per dimension), "
                             "got ",
                             offsets.size(), ", ", sizes.size(), " and ",
                             steps.size());
  if (failed(verifyDynamicSizeCount(loc, "extract_slice", sizes,
                                    adaptor.getDynamicSizes().size())))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    if (steps[d] == 0)
      return emitOptionalError(loc, "step of dimension ", d,
                               " must be non-zero");
    if (ShapedType::isDynamic(sizes[d])) {
      // The rest is checked at run time (ViewsToMemRef).
      if (offsets[d] < 0)
        return emitOptionalError(loc, "offset of dimension ", d,
                                 " must be >= 0 where its size is given at "
                                 "run time, got ",
                                 offsets[d]);
      continue;
    }
    int64_t dim = src.isDynamicDim(d) ? -1 : src.getDimSize(d);
    if (std::optional<std::string> error =
            ::ptensor::semantics::sliceBoundsError(d, dim, offsets[d],
                                                   sizes[d], steps[d]))
      return emitOptionalError(loc, *error);
  }
  results.push_back(src.cloneWithShapeAndType(sizes, src.getElementType()));
  return success();
}

LogicalResult ExpandDimsOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  FailureOr<int64_t> axis =
      normalizeAxis(loc, adaptor.getAxisAttr().getInt(), src.getRank() + 1,
                    src.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(src.getShape());
  shape.insert(shape.begin() + *axis, 1);
  results.push_back(src.cloneWithShapeAndType(shape, src.getElementType()));
  return success();
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  auto src = cast<PTensorType>(adaptor.getSource().getType());
  FailureOr<SmallVector<int64_t>> axes =
      normalizeAxes(loc, adaptor.getAxes(), src.getRank());
  if (failed(axes))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < src.getRank(); ++d) {
    if (!llvm::is_contained(*axes, d)) {
      shape.push_back(src.getDimSize(d));
      continue;
    }
    if (src.getDimSize(d) != 1)
      return emitOptionalError(
          loc, "cannot squeeze dimension ", d, " of size ",
          ShapedType::isDynamic(src.getDimSize(d))
              ? std::string("?")
              : std::to_string(src.getDimSize(d)),
          ": only static size-1 dimensions can be removed");
  }
  results.push_back(src.cloneWithShapeAndType(shape, src.getElementType()));
  return success();
}
