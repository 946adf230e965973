//===- ReductionsToLinalg.cpp - reductions to linalg.generic --------------===//
//
// ptensor.reduce, ptensor.test and ptensor.find_index become linalg.generic
// ops with reduction iterators over the reduced dims. Each folds the
// elements into accumulators (the dtype of the semantics library's
// reductionAccumulatorDType) with a combiner (ReductionCombiner.h), which
// is recorded on the generic for the GPU lowering; an elementwise generic
// over the kept dims then finishes the result (mean's division, var's
// correction, std's root, the rounding to the result dtype), and
// `keepdims` is a tensor.expand_shape. var/std take two passes: the mean,
// then the squared deviations from it (read through a broadcast map).
// Elementwise producers of the input fuse into the reduction generic
// (ptensor-fuse-elementwise).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/ReductionKinds.h"
#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"
#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {

/// Builds the generics of one reduction of `input` (a builtin tensor whose
/// elements have semantic dtype `dtype`) over `dims`.
struct ReductionBuilder {
  OpBuilder &b;
  Location loc;
  Value input;
  Type dtype;
  ArrayRef<int64_t> dims;

  int64_t rank() const { return cast<RankedTensorType>(input.getType()).getRank(); }
  bool isReduced(int64_t d) const { return llvm::is_contained(dims, d); }

  /// The size of input dim `d` as an index.
  Value size(int64_t d) const {
    return tensor::DimOp::create(b, loc, input, d);
  }

  /// The shape of the kept dims and the sizes of their dynamic ones.
  SmallVector<int64_t> keptShape() const {
    SmallVector<int64_t> shape;
    ArrayRef<int64_t> in = cast<RankedTensorType>(input.getType()).getShape();
    for (int64_t d = 0; d < rank(); ++d)
      if (!isReduced(d))
        shape.push_back(in[d]);
    return shape;
  }
  SmallVector<Value> keptDynamicSizes() const {
    SmallVector<Value> sizes;
    ArrayRef<int64_t> in = cast<RankedTensorType>(input.getType()).getShape();
    for (int64_t d = 0; d < rank(); ++d)
      if (!isReduced(d) && ShapedType::isDynamic(in[d]))
        sizes.push_back(size(d));
    return sizes;
  }

  /// The map from the loop dims (the input's dims) to the kept dims.
  AffineMap keptMap() const {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank(); ++d)
      if (!isReduced(d))
        exprs.push_back(b.getAffineDimExpr(d));
    return AffineMap::get(rank(), 0, exprs, b.getContext());
  }

  /// The number of reduced elements (index).
  Value count() const {
    Value n = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d : dims)
      n = arith::MulIOp::create(b, loc, n, size(d));
    return n;
  }

  /// Fails at run time, with the semantics library's message, when a kind
  /// without identity reduces an empty dynamic axis (a static one is a
  /// verifier error).
  void checkNotEmpty(const sem::ReductionKind &kind) const {
    ArrayRef<int64_t> in = cast<RankedTensorType>(input.getType()).getShape();
    if (kind.empty != sem::EmptyReduction::Error ||
        llvm::none_of(dims, [&](int64_t d) { return ShapedType::isDynamic(in[d]); }))
      return;
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, count(),
                                     zero);
    cf::AssertOp::create(b, loc, ok, sem::emptyReductionMessage(kind));
  }

  /// The element values one input element contributes: receives the
  /// input's element and the elements of `keptInputs` (in order).
  using ElementFn = function_ref<SmallVector<Value>(
      OpBuilder &, Location, Value element, ValueRange kept)>;

  /// One reduction generic over the input (and `keptInputs`, tensors of the
  /// kept shape read through keptMap) into accumulators of storage types
  /// `accTypes` with `combiner`.
  SmallVector<Value> reduce(ValueRange keptInputs, Combiner combiner,
                            TypeRange accTypes, ElementFn element) const {
    if (dims.empty())
      return reduceNothing(keptInputs, combiner, accTypes, element);
    SmallVector<int64_t> shape = keptShape();
    SmallVector<Value> sizes = keptDynamicSizes();
    SmallVector<Value> inits;
    SmallVector<Value> identity = buildIdentity(b, loc, combiner, accTypes);
    for (auto [t, id] : llvm::zip(accTypes, identity)) {
      Value empty = tensor::EmptyOp::create(b, loc, shape, t, sizes);
      inits.push_back(linalg::FillOp::create(b, loc, id, empty).getResult(0));
    }
    SmallVector<Value> ins = {input};
    llvm::append_range(ins, keptInputs);
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank(), b.getContext())};
    maps.append(keptInputs.size(), keptMap());
    maps.append(accTypes.size(), keptMap());
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank(); ++d)
      iterators.push_back(isReduced(d) ? utils::IteratorType::reduction
                                       : utils::IteratorType::parallel);
    SmallVector<Type> resultTypes;
    for (Value init : inits)
      resultTypes.push_back(init.getType());
    unsigned numIns = ins.size();
    auto generic = linalg::GenericOp::create(
        b, loc, resultTypes, ins, inits, maps, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          SmallVector<Value> values =
              element(nb, nloc, args[0], args.slice(1, numIns - 1));
          SmallVector<Value> combined =
              buildCombine(nb, nloc, combiner, args.drop_front(numIns), values);
          markCombiner(combined.front().getDefiningOp(), combiner);
          linalg::YieldOp::create(nb, nloc, combined);
        });
    return SmallVector<Value>(generic->getResults());
  }

  /// A reduction over no dims (`axes []`): each element merged with the
  /// identity, as an elementwise generic that reads no accumulator.
  SmallVector<Value> reduceNothing(ValueRange keptInputs, Combiner combiner,
                                   TypeRange accTypes, ElementFn element) const {
    AffineMap identityMap =
        AffineMap::getMultiDimIdentityMap(rank(), b.getContext());
    SmallVector<ElementwiseInput> inputs = {{input, dtype, identityMap}};
    for (Value v : keptInputs)
      inputs.push_back({v, cast<RankedTensorType>(v.getType()).getElementType(),
                        identityMap});
    SmallVector<Type> types;
    for (Type t : accTypes)
      types.push_back(RankedTensorType::get(keptShape(), t));
    return buildElementwiseGeneric(
        b, loc, inputs, types, keptDynamicSizes(),
        [&](OpBuilder &nb, Location nloc, ValueRange values) {
          SmallVector<Value> first = buildIdentity(nb, nloc, combiner, accTypes);
          return buildCombine(nb, nloc, combiner, first,
                              element(nb, nloc, values[0], values.drop_front()));
        });
  }

  /// An elementwise generic over the kept shape computing a tensor of
  /// storage element type `result` from `operands` (all of the kept shape).
  Value map(ValueRange operands, Type result,
            function_ref<Value(OpBuilder &, Location, ValueRange)> fn) const {
    SmallVector<ElementwiseInput> inputs;
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(keptShape().size(), b.getContext());
    for (Value v : operands)
      inputs.push_back({v, cast<RankedTensorType>(v.getType()).getElementType(),
                        identity});
    auto type = RankedTensorType::get(keptShape(), result);
    return buildElementwiseGeneric(
        b, loc, inputs, type, keptDynamicSizes(),
        [&](OpBuilder &nb, Location nloc, ValueRange values) {
          return SmallVector<Value>{fn(nb, nloc, values)};
        })[0];
  }

  /// `value` (of the kept shape) with size-1 dims where the reduced dims
  /// were (keepdims).
  Value keepDims(Value value, RankedTensorType resultType) const {
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    for (int64_t d = 0; d < rank(); ++d) {
      pending.push_back(d);
      if (!isReduced(d)) {
        groups.push_back(pending);
        pending.clear();
      }
    }
    if (!pending.empty() && !groups.empty())
      llvm::append_range(groups.back(), pending);
    SmallVector<OpFoldResult> outputShape;
    ArrayRef<int64_t> in = cast<RankedTensorType>(input.getType()).getShape();
    for (int64_t d = 0; d < rank(); ++d) {
      if (isReduced(d))
        outputShape.push_back(b.getIndexAttr(1));
      else if (ShapedType::isDynamic(in[d]))
        outputShape.push_back(size(d));
      else
        outputShape.push_back(b.getIndexAttr(in[d]));
    }
    return tensor::ExpandShapeOp::create(b, loc, resultType, value, groups,
                                         outputShape);
  }
};

/// Lowers the three reduction ops.
template <typename OpTy>
struct ReductionPattern : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<PTensorType>(op.getType());
    auto tensorType = dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(resultType));
    if (!tensorType)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    std::optional<ReductionInfo> info = getReductionInfo(op);
    Location loc = op.getLoc();
    Type dtype = op.getInput().getType().getElementType();
    Type resultDType = resultType.getElementType();
    ReductionBuilder rb{rewriter, loc, adaptor.getInput(), dtype, info->dims};
    if (!op->hasAttr(kTeamPartialAttrName))
      rb.checkNotEmpty(info->kind);
    bool onHost = !cast<PTensorType>(op.getInput().getType()).isOnGPU();
    Value result = lower(rb, *info, dtype, resultDType, onHost);
    if (info->keepdims)
      result = rb.keepDims(result, tensorType);
    rewriter.replaceOp(op, result);
    return success();
  }

  /// argmax/argmin on the CPU over every dim, or over dims that keep the
  /// innermost, as two reductions LLVM vectorizes (it vectorizes no
  /// select-based combine of a (value, position) pair, and eight scalar
  /// lanes ran at a tenth of numpy's speed): the extremum
  /// (NaN-propagating max/min), then the least position holding it, or
  /// holding a NaN when the extremum is NaN. The same first occurrence as
  /// the one-pass combine, -0.0 and 0.0 equal; an empty block (a team's
  /// partial) gives the same no-position value, INT64_MAX. Over every dim,
  /// the second is marked kFirstMatchAttrName: on the host it then reads
  /// only the first chunk the extremum is in.
  static Value
  firstPositionOfExtremum(const ReductionBuilder &rb, StringRef kind,
                          Type dtype, Type acc,
                          function_ref<Value(OpBuilder &, Location)> positionOf) {
    Type accStorage = getStorageType(acc);
    Type i64 = rb.b.getI64Type();
    Combiner extremum = getCombiner(kind == "argmax" ? "max" : "min", acc);
    auto toAcc = [&](OpBuilder &nb, Location nloc, Value element,
                     ValueRange) -> SmallVector<Value> {
      return {convertScalar(nb, nloc, element, dtype, acc)};
    };
    Value best = rb.reduce({}, extremum, accStorage, toAcc)[0];
    auto positionIfBest = [&](OpBuilder &nb, Location nloc, Value x,
                              ValueRange kept) -> SmallVector<Value> {
      Value v = convertScalar(nb, nloc, x, dtype, acc);
      Value match = buildMatchesExtremum(nb, nloc, v, kept[0],
                                         kFirstMatchExtremumAttrName);
      Value position = positionOf(nb, nloc);
      Value none = arith::ConstantOp::create(
          nb, nloc, i64, nb.getIntegerAttr(i64, APInt::getSignedMaxValue(64)));
      return {arith::SelectOp::create(nb, nloc, match, position, none)};
    };
    Value first =
        rb.reduce(best, getCombiner("min", i64), i64, positionIfBest)[0];
    if (!rb.dims.empty() && rb.dims.size() == size_t(rb.rank())) {
      auto generic = first.getDefiningOp<linalg::GenericOp>();
      assert(generic && "a reduction over dims is a linalg.generic");
      Operation *combine =
          generic.getBody()->getTerminator()->getOperand(0).getDefiningOp();
      combine->setAttr(kFirstMatchAttrName, rb.b.getUnitAttr());
    }
    return first;
  }

  /// The reduction of `rb`'s input as a tensor of the kept shape and the
  /// result's storage type; `onHost`: for CPU code.
  static Value lower(const ReductionBuilder &rb, const ReductionInfo &info,
                     Type dtype, Type resultDType, bool onHost) {
    OpBuilder &b = rb.b;
    MLIRContext *ctx = b.getContext();
    StringRef kind = info.kind.name;
    Type acc = toMLIRType(ctx, sem::reductionAccumulatorDType(
                               info.kind, *toDType(dtype), *toDType(resultDType)));
    Type accStorage = getStorageType(acc);
    Type resultStorage = getStorageType(resultDType);
    Combiner combiner = getCombiner(kind, acc);
    // A sum or product with a requested dtype casts each element to it
    // first (it may be narrower than the input, or of another kind), then
    // to the accumulator when that is wider (f64 for floats). When the
    // accumulator is the requested dtype, the one conversion is that cast.
    bool castFirst = dtype != resultDType && acc != resultDType &&
                     (kind == "sum" || kind == "prod");
    auto toAcc = [&](OpBuilder &nb, Location nloc, Value element,
                     ValueRange) -> SmallVector<Value> {
      if (castFirst)
        element = convertScalar(nb, nloc, element, dtype, resultDType);
      return {convertScalar(nb, nloc, element, castFirst ? resultDType : dtype,
                            acc)};
    };
    // The accumulator rounded (converted) to the result dtype.
    auto finish = [&](Value accumulated, Type from) {
      if (from == resultDType)
        return accumulated;
      return rb.map(accumulated, resultStorage,
                    [&](OpBuilder &nb, Location nloc, ValueRange v) {
                      return convertScalar(nb, nloc, v[0], from, resultDType);
                    });
    };
    if (kind == "argmax" || kind == "argmin") {
      Type i64 = IntegerType::get(ctx, 64);
      SmallVector<Value> sizes;
      for (int64_t d : rb.dims)
        sizes.push_back(rb.size(d));
      // The row-major position among the reduced dims, as i64.
      auto positionOf = [&](OpBuilder &nb, Location nloc) -> Value {
        Value position = arith::ConstantIndexOp::create(nb, nloc, 0);
        for (auto [d, n] : llvm::zip(rb.dims, sizes)) {
          Value i = linalg::IndexOp::create(nb, nloc, d);
          position = arith::MulIOp::create(nb, nloc, position, n);
          position = arith::AddIOp::create(nb, nloc, position, i);
        }
        return arith::IndexCastOp::create(nb, nloc, i64, position);
      };
      // Over the innermost dim of some kept ones, the host folds (value,
      // position) pairs in blocks (ReductionsToLoops.cpp) in one read.
      bool overRows = rb.dims.size() < size_t(rb.rank()) &&
                      llvm::is_contained(rb.dims, rb.rank() - 1);
      if (onHost && !overRows)
        return firstPositionOfExtremum(rb, kind, dtype, acc, positionOf);
      auto element = [&](OpBuilder &nb, Location nloc, Value x,
                         ValueRange) -> SmallVector<Value> {
        Value value = convertScalar(nb, nloc, x, dtype, acc);
        return {value, positionOf(nb, nloc)};
      };
      return rb.reduce({}, combiner, {accStorage, i64}, element)[1];
    }
    if (kind == "any" || kind == "all")
      return rb.reduce({}, combiner, accStorage, toAcc)[0];
    if (kind == "sum" || kind == "prod" || kind == "max" || kind == "min")
      return finish(rb.reduce({}, combiner, accStorage, toAcc)[0], acc);
    // mean, var, std: in f64.
    Type f64 = b.getF64Type();
    Value count = arith::UIToFPOp::create(
        b, rb.loc, f64,
        arith::IndexCastUIOp::create(b, rb.loc, b.getI64Type(), rb.count()));
    auto divideBy = [&](Value sums, Value divisor) {
      return rb.map(sums, f64, [&](OpBuilder &nb, Location nloc, ValueRange v) {
        return arith::DivFOp::create(nb, nloc, v[0], divisor);
      });
    };
    Value mean = divideBy(rb.reduce({}, combiner, f64, toAcc)[0], count);
    if (kind == "mean")
      return finish(mean, f64);
    auto squaredDeviation = [&](OpBuilder &nb, Location nloc, Value x,
                                ValueRange kept) -> SmallVector<Value> {
      Value d = arith::SubFOp::create(
          nb, nloc, convertScalar(nb, nloc, x, dtype, f64), kept[0]);
      return {arith::MulFOp::create(nb, nloc, d, d)};
    };
    Value squares = rb.reduce(mean, combiner, f64, squaredDeviation)[0];
    Value divisor = buildVarianceDivisor(b, rb.loc, count, info.correction);
    Value variance = divideBy(squares, divisor);
    if (kind == "std")
      variance = rb.map(variance, f64, [&](OpBuilder &nb, Location nloc,
                                           ValueRange v) {
        return math::SqrtOp::create(nb, nloc, v[0]);
      });
    return finish(variance, f64);
  }
};

} // namespace

void mlir::ptensor::populateReductionsToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReductionPattern<ReduceOp>, ReductionPattern<TestOp>,
               ReductionPattern<FindIndexOp>>(converter, patterns.getContext());
}
