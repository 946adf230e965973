//===- SortingOps.cpp - sort, argsort and their in-place lowering op ------===//
//
// The meta step of sort, argsort and nonzero (the rules are the semantics
// library's: ptensor/Semantics/Sorting.h, Searching.h), and
// ptensor.sort_along: its verifier, its memory effects on buffers and its
// bufferization.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Semantics/Searching.h"
#include "ptensor/Semantics/Sorting.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::ptensor;
using namespace mlir::bufferization;
namespace sem = ::ptensor::semantics;

/// The result type of a sort of `kind`: the input's shape, device and team,
/// the kind's dtype.
template <typename Adaptor>
static LogicalResult inferSort(MLIRContext *context, sem::SortKind kind,
                               std::optional<Location> loc, Adaptor adaptor,
                               SmallVectorImpl<Type> &results) {
  auto input = cast<PTensorType>(adaptor.getInput().getType());
  sem::Result<int64_t> dim =
      sem::sortAxis(kind, static_cast<int64_t>(adaptor.getAxis()), input.getRank());
  if (!dim)
    return emitOptionalError(loc, dim.getError().message);
  std::optional<::ptensor::DType> dtype = toDType(input.getElementType());
  if (!dtype)
    return emitOptionalError(loc, sem::sortKindName(kind), ": ",
                             input.getElementType(),
                             " is not a ptensor dtype");
  results.push_back(input.cloneWithShapeAndType(
      input.getShape(),
      toMLIRType(context, sem::sortResultDType(kind, *dtype))));
  return success();
}

LogicalResult SortValuesOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  return inferSort(context, sem::SortKind::Values, loc, adaptor, results);
}

LogicalResult ArgsortOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  return inferSort(context, sem::SortKind::Indices, loc, adaptor, results);
}

/// The checks of a sort's `runs` hint: 1-D i64 on the input's device, and
/// neither on a team (the hint is one process's, from a team's sort).
static LogicalResult verifyRuns(Operation *op, PTensorType input,
                                TypedValue<PTensorType> runs) {
  if (!runs)
    return success();
  PTensorType type = runs.getType();
  if (type.getRank() != 1 || !type.getElementType().isSignlessInteger(64))
    return op->emitOpError("expected runs as a 1-D tensor of i64, but got ")
           << type;
  if (type.getDevice() != input.getDevice())
    return op->emitOpError("expected runs on the input's device, but got ")
           << type << " for " << input;
  if (input.getTeam() || type.getTeam())
    return op->emitOpError("expected no team with runs (the hint is one "
                           "process's lines), but got ")
           << input << " and " << type;
  return success();
}

LogicalResult SortValuesOp::verify() {
  return verifyRuns(*this, getInput().getType(), getRuns());
}

LogicalResult ArgsortOp::verify() {
  return verifyRuns(*this, getInput().getType(), getRuns());
}

LogicalResult NonzeroOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  auto input = cast<PTensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> shape = input.getShape();
  if (std::optional<sem::Error> error =
          sem::checkNonzero(sem::Shape(shape.begin(), shape.end())))
    return emitOptionalError(loc, error->message);
  auto indices = input.cloneWithShapeAndType(SmallVector<int64_t>{ShapedType::kDynamic},
                                             IntegerType::get(context, 64));
  results.append(input.getRank(), indices);
  return success();
}

//===----------------------------------------------------------------------===//
// SortAlongOp
//===----------------------------------------------------------------------===//

SmallVector<Value> SortAlongOp::getOutputs() {
  SmallVector<Value> outputs;
  if (Value values = getValues())
    outputs.push_back(values);
  if (Value indices = getIndices())
    outputs.push_back(indices);
  return outputs;
}

LogicalResult SortAlongOp::verify() {
  auto input = cast<ShapedType>(getInput().getType());
  bool onTensors = isa<RankedTensorType>(input);
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= input.getRank())
    return emitOpError("expected dim in [0, ")
           << input.getRank() << "), but got " << dim;
  SmallVector<Value> outputs = getOutputs();
  if (outputs.empty())
    return emitOpError("expected values, indices or both");
  if (getValues() && getValues() == getIndices())
    return emitOpError("expected values and indices in different buffers");
  if (Value runs = getRuns()) {
    auto type = cast<ShapedType>(runs.getType());
    if (isa<RankedTensorType>(type) != onTensors ||
        type.getRank() != 1 || !type.getElementType().isSignlessInteger(64))
      return emitOpError("expected runs as a 1-D ")
             << (onTensors ? "tensor" : "memref") << " of i64, but got "
             << type;
  }
  for (Value output : outputs) {
    bool isIndices = output == getIndices();
    auto type = cast<ShapedType>(output.getType());
    if (isa<RankedTensorType>(type) != onTensors)
      return emitOpError("expected the input and the outputs all tensors or "
                         "all memrefs");
    Type element = isIndices ? IntegerType::get(getContext(), 64)
                             : input.getElementType();
    if (type.getElementType() != element ||
        failed(verifyCompatibleShape(type.getShape(), input.getShape())))
      return emitOpError("expected ")
             << (isIndices ? "indices" : "values") << " of " << element
             << " with the input's shape " << input.getShape()
             << ", but got " << type;
  }
  // The dtype is the element type with signedness: the same float type,
  // or an integer of the same width.
  Type dtype = getDtype();
  Type element = input.getElementType();
  if (!toDType(dtype))
    return emitOpError("expected a ptensor dtype, but got ") << dtype;
  bool sameKind =
      isa<FloatType>(element)
          ? dtype == element
          : isa<IntegerType>(element) && isa<IntegerType>(dtype) &&
                dtype.getIntOrFloatBitWidth() == element.getIntOrFloatBitWidth();
  if (!sameKind)
    return emitOpError("expected a dtype of the input's kind and width, but "
                       "got ")
           << dtype << " for " << element;
  size_t expected = onTensors ? outputs.size() : 0;
  if (getNumResults() != expected)
    return emitOpError("expected ") << expected << " results, but got "
                                    << getNumResults();
  for (auto [output, result] : llvm::zip(outputs, getResults()))
    if (output.getType() != result.getType())
      return emitOpError("expected each result of its output's type");
  return success();
}

bool SortAlongOp::isReadOnly(OpOperand &operand) {
  return &operand == &getInputMutable() ||
         operand.getOperandNumber() >= 1 + getOutputs().size();
}

void SortAlongOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (isReadOnly(operand))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

bool SortAlongOp::bufferizesToMemoryRead(OpOperand &operand,
                                         const AnalysisState &) {
  // The outputs are only written (every element).
  return isReadOnly(operand);
}

bool SortAlongOp::bufferizesToMemoryWrite(OpOperand &operand,
                                          const AnalysisState &) {
  return !isReadOnly(operand);
}

AliasingValueList SortAlongOp::getAliasingValues(OpOperand &operand,
                                                 const AnalysisState &) {
  if (isReadOnly(operand))
    return {};
  // Results follow the outputs: values (if given), then indices.
  // Operands: input, values (if given), indices (if given).
  bool isValues = getValues() && operand.getOperandNumber() == 1;
  unsigned result = isValues ? 0 : getNumResults() - 1;
  return {{getResult(result), BufferRelation::Equivalent,
           /*isDefinite=*/true}};
}

LogicalResult SortAlongOp::bufferize(RewriterBase &rewriter,
                                     const BufferizationOptions &options,
                                     BufferizationState &state) {
  FailureOr<Value> input = getBuffer(rewriter, getInput(), options, state);
  if (failed(input))
    return failure();
  Value values, indices;
  SmallVector<Value> buffers;
  if (Value output = getValues()) {
    FailureOr<Value> buffer = getBuffer(rewriter, output, options, state);
    if (failed(buffer))
      return failure();
    values = *buffer;
    buffers.push_back(values);
  }
  if (Value output = getIndices()) {
    FailureOr<Value> buffer = getBuffer(rewriter, output, options, state);
    if (failed(buffer))
      return failure();
    indices = *buffer;
    buffers.push_back(indices);
  }
  Value runs;
  if (Value hint = getRuns()) {
    FailureOr<Value> buffer = getBuffer(rewriter, hint, options, state);
    if (failed(buffer))
      return failure();
    runs = *buffer;
  }
  SortAlongOp::create(rewriter, getLoc(), TypeRange{}, *input, values,
                      indices, runs, getDimAttr(), getDtypeAttr(),
                      getDescendingAttr(), getStableAttr());
  replaceOpWithBufferizedValues(rewriter, *this, buffers);
  return success();
}
