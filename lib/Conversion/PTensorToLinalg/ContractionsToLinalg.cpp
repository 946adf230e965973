//===- ContractionsToLinalg.cpp - matmul, vecdot, tensordot to linalg -----===//
//
// The three linear-algebra ops become one reduction generic each, built
// from the semantics library's contraction (Contraction.h): the result
// dims are the parallel loops, the contracted dims the reduction loops, and
// each operand is read through the map its loops give (a stretched static 1
// at index 0; dynamic batch dims were broadcast by ptensor-broadcast). The
// body converts both elements to the accumulator dtype (f32 for f16/bf16),
// multiplies them and adds the product with the sum combiner, marked as
// the reductions' are, so the reduction lowerings (CPU loops, GPU kernels)
// and the BLAS calls (convert-ptensor-contractions-to-blas) take it. A
// final elementwise generic rounds the accumulator to the result dtype.
// Contracted sizes that are dynamic are checked at run time.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/IR/Contractions.h"
#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"
#include "ptensor/Dialect/PTensor/Utils/ScalarConvert.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {

/// The map reading an operand whose dims line up with `loops`.
AffineMap operandMap(MLIRContext *ctx, int64_t numLoops,
                     ArrayRef<int64_t> loops, const std::vector<bool> &stretched) {
  SmallVector<AffineExpr> exprs;
  for (auto [d, loop] : llvm::enumerate(loops))
    exprs.push_back(stretched[d] ? getAffineConstantExpr(0, ctx)
                                 : getAffineDimExpr(loop, ctx));
  return AffineMap::get(numLoops, 0, exprs, ctx);
}

ContractionKind kindOf(Operation *op) {
  if (isa<MatmulOp>(op))
    return ContractionKind::Matmul;
  if (isa<VecdotOp>(op))
    return ContractionKind::Vecdot;
  return ContractionKind::Tensordot;
}

template <typename OpTy>
struct ContractionPattern : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(op.getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    sem::Contraction c = *getContraction(op);
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    Type lhsDType = op.getLhs().getType().getElementType();
    Type rhsDType = op.getRhs().getType().getElementType();
    Type resultDType = op.getType().getElementType();
    Type acc = toMLIRType(ctx, c.accumulator);

    SmallVector<Value> lhsSizes = sizesOf(rewriter, loc, lhs);
    SmallVector<Value> rhsSizes = sizesOf(rewriter, loc, rhs);
    ArrayRef<int64_t> lhsShape = op.getLhs().getType().getShape();
    ArrayRef<int64_t> rhsShape = op.getRhs().getType().getShape();
    for (auto [l, r] : c.contracted)
      if (ShapedType::isDynamic(lhsShape[l]) || ShapedType::isDynamic(rhsShape[r]))
        buildContractionCheck(rewriter, loc, kindOf(op), lhsSizes, l, rhsSizes, r);

    // The dynamic result sizes: from an operand dim on that loop that is
    // not stretched.
    SmallVector<Value> dynamicSizes;
    for (size_t i = 0; i < c.result.size(); ++i) {
      if (!ShapedType::isDynamic(c.result[i]))
        continue;
      auto on = [&](const std::vector<int64_t> &loops,
                    const std::vector<bool> &stretched) -> int64_t {
        for (size_t d = 0; d < loops.size(); ++d)
          if (loops[d] == int64_t(i) && !stretched[d])
            return d;
        return -1;
      };
      int64_t d = on(c.lhsLoops, c.lhsStretched);
      dynamicSizes.push_back(d >= 0 ? lhsSizes[d]
                                    : rhsSizes[on(c.rhsLoops, c.rhsStretched)]);
    }

    AffineMap lhsMap = operandMap(ctx, c.numLoops, c.lhsLoops, c.lhsStretched);
    AffineMap rhsMap = operandMap(ctx, c.numLoops, c.rhsLoops, c.rhsStretched);
    auto product = [&](OpBuilder &b, Location l, Value x, Value y) -> Value {
      Value a = convertScalar(b, l, x, lhsDType, acc);
      Value bv = convertScalar(b, l, y, rhsDType, acc);
      if (isa<FloatType>(a.getType()))
        return arith::MulFOp::create(b, l, a, bv);
      return arith::MulIOp::create(b, l, a, bv);
    };

    Value accumulated;
    Type accStorage = getStorageType(acc);
    if (c.contracted.empty()) {
      // An outer product (tensordot with no axes): nothing to sum.
      SmallVector<ElementwiseInput> inputs = {{lhs, lhsDType, lhsMap},
                                              {rhs, rhsDType, rhsMap}};
      accumulated = buildElementwiseGeneric(
          rewriter, loc, inputs, RankedTensorType::get(c.result, accStorage),
          dynamicSizes, [&](OpBuilder &b, Location l, ValueRange v) {
            return SmallVector<Value>{product(b, l, v[0], v[1])};
          })[0];
    } else {
      Combiner combiner = getCombiner("sum", acc);
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, c.result, accStorage, dynamicSizes);
      Value zero = buildIdentity(rewriter, loc, combiner, accStorage)[0];
      Value init = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
      int64_t rank = c.result.size();
      SmallVector<utils::IteratorType> iterators;
      for (int64_t i = 0; i < c.numLoops; ++i)
        iterators.push_back(i < rank ? utils::IteratorType::parallel
                                     : utils::IteratorType::reduction);
      // The result dims are the first loops.
      AffineMap outMap = AffineMap::get(
          c.numLoops, 0,
          AffineMap::getMultiDimIdentityMap(rank, ctx).getResults(), ctx);
      auto generic = linalg::GenericOp::create(
          rewriter, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs},
          ValueRange{init}, ArrayRef<AffineMap>{lhsMap, rhsMap, outMap},
          iterators, [&](OpBuilder &b, Location l, ValueRange args) {
            Value p = product(b, l, args[0], args[1]);
            SmallVector<Value> sum = buildCombine(b, l, combiner, args[2], p);
            markCombiner(sum.front().getDefiningOp(), combiner);
            linalg::YieldOp::create(b, l, sum);
          });
      accumulated = generic.getResult(0);
      // A matrix product of the libraries' shape (two operands of rank >=
      // 2, each keeping a dim of its own: a tensordot contracting all of
      // one operand's dims is a matrix-vector or dot product, generated)
      // may go to a library: keep producers out of its body. Static size-1
      // result dims do not count: the CPU pipeline drops them
      // (ptensor-fold-unit-dims) before the library pass.
      int64_t foldedRank = llvm::count_if(c.result, [](int64_t size) {
        return size != 1;
      });
      int64_t contracted = c.numLoops - rank;
      if (!isa<VecdotOp>(op) && c.lhsLoops.size() >= 2 &&
          c.rhsLoops.size() >= 2 && int64_t(c.lhsLoops.size()) > contracted &&
          int64_t(c.rhsLoops.size()) > contracted &&
          hasLibraryShape(std::max<int64_t>(foldedRank, 2), contracted))
        generic->setAttr(kLibraryContractionAttrName, rewriter.getUnitAttr());
    }
    if (acc != resultDType) {
      AffineMap identity =
          AffineMap::getMultiDimIdentityMap(c.result.size(), ctx);
      accumulated = buildElementwiseGeneric(
          rewriter, loc, {{accumulated, acc, identity}}, resultType,
          dynamicSizes, [&](OpBuilder &b, Location l, ValueRange v) {
            return SmallVector<Value>{convertScalar(b, l, v[0], acc, resultDType)};
          })[0];
      accumulated.getDefiningOp()->setAttr(kRoundsContractionAttrName,
                                           rewriter.getUnitAttr());
    }
    rewriter.replaceOp(op, accumulated);
    return success();
  }
};

} // namespace

void mlir::ptensor::populateContractionsToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ContractionPattern<MatmulOp>, ContractionPattern<VecdotOp>,
               ContractionPattern<TensordotOp>>(converter, patterns.getContext());
}
