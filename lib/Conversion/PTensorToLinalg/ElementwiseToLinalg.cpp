//===- ElementwiseToLinalg.cpp - elementwise ptensor ops to generics ------===//
//
// One pattern per op class; each builds a single linalg.generic whose body
// converts elements to the computation dtype, applies the kind (ScalarOps)
// and converts to the result dtype.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"
#include "ScalarOps.h"

#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ptensor;

namespace {

/// Lowers one elementwise op whose body is given by `emit`, which receives
/// the operands already converted to `computeType`.
template <typename OpTy>
struct ElementwisePattern : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpTy::Adaptor;

  /// The dtype the op computes in.
  virtual Type getComputeType(OpTy op) const = 0;
  /// The scalar result of one element, in the compute type (or i1).
  virtual Value emit(OpBuilder &b, Location loc, OpTy op, ValueRange args,
                     Type computeType) const = 0;
  /// The dtype operand `index` is converted to before `emit`.
  virtual Type getOperandComputeType(OpTy op, unsigned index,
                                     Type computeType) const {
    return computeType;
  }
  /// The dtype of `emit`'s result (the compute type unless a predicate).
  virtual Type getEmittedType(OpTy op, Type computeType) const {
    return computeType;
  }

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<PTensorType>(op.getType());
    Type tensorType = this->getTypeConverter()->convertType(resultType);
    if (!tensorType)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    SmallVector<ElementwiseInput> inputs;
    SmallVector<Value> dynamicSizes;
    if (failed(collectElementwiseInputs(rewriter, op, adaptor.getOperands(),
                                        resultType.getShape(), inputs,
                                        dynamicSizes)))
      return failure();
    Type computeType = getComputeType(op);
    Type emitted = getEmittedType(op, computeType);
    SmallVector<Value> results = buildElementwiseGeneric(
        rewriter, op.getLoc(), inputs, tensorType, dynamicSizes,
        [&](OpBuilder &b, Location loc, ValueRange values) {
          SmallVector<Value> args;
          for (auto [i, in, v] : llvm::enumerate(inputs, values))
            args.push_back(convertScalar(
                b, loc, v, in.dtype, getOperandComputeType(op, i, computeType)));
          Value r = emit(b, loc, op, args, computeType);
          return SmallVector<Value>{
              convertScalar(b, loc, r, emitted, resultType.getElementType())};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The promoted common dtype of an op's operands (before its method).
static Type getCommonDType(Operation *op, ValueRange operands) {
  FailureOr<PTensorType> t = inferElementwiseType(
      op->getContext(), std::nullopt, operands.getTypes(),
      PromotionMethod::DEFAULT);
  assert(succeeded(t) && "verified ops promote");
  return t->getElementType();
}

struct UnaryPattern : ElementwisePattern<ElementwiseUnaryOp> {
  using ElementwisePattern::ElementwisePattern;
  Type getComputeType(ElementwiseUnaryOp op) const override {
    return ptensor::getComputeType(op.getType().getElementType());
  }
  Value emit(OpBuilder &b, Location loc, ElementwiseUnaryOp op, ValueRange args,
             Type t) const override {
    return emitUnary(b, loc, op.getKind(), args[0], t);
  }
};

struct UnaryTestPattern : ElementwisePattern<ElementwiseUnaryTestOp> {
  using ElementwisePattern::ElementwisePattern;
  /// Predicates look at the value as stored (no opmath): widening f16 NaNs
  /// may drop their sign on some targets, and signbit must see it.
  Type getComputeType(ElementwiseUnaryTestOp op) const override {
    return getDType(op.getInput().getType());
  }
  Type getEmittedType(ElementwiseUnaryTestOp op, Type) const override {
    return IntegerType::get(op.getContext(), 1);
  }
  Value emit(OpBuilder &b, Location loc, ElementwiseUnaryTestOp op,
             ValueRange args, Type t) const override {
    return emitUnaryTest(b, loc, op.getKind(), args[0], t);
  }
};

struct BinaryPattern : ElementwisePattern<ElementwiseBinaryOp> {
  using ElementwisePattern::ElementwisePattern;
  Type getComputeType(ElementwiseBinaryOp op) const override {
    return ptensor::getComputeType(op.getType().getElementType());
  }
  Value emit(OpBuilder &b, Location loc, ElementwiseBinaryOp op,
             ValueRange args, Type t) const override {
    return emitBinary(b, loc, op.getKind(), args[0], args[1], t);
  }
};

struct BinaryTestPattern : ElementwisePattern<ElementwiseBinaryTestOp> {
  using ElementwisePattern::ElementwisePattern;
  Type getComputeType(ElementwiseBinaryTestOp op) const override {
    return ptensor::getComputeType(getCommonDType(op, op->getOperands()));
  }
  Type getEmittedType(ElementwiseBinaryTestOp op, Type) const override {
    return IntegerType::get(op.getContext(), 1);
  }
  Value emit(OpBuilder &b, Location loc, ElementwiseBinaryTestOp op,
             ValueRange args, Type t) const override {
    return emitBinaryTest(b, loc, op.getKind(), args[0], args[1], t);
  }
};

/// `where` selects in the result dtype (NO_OPMATH); the condition stays i1.
struct WherePattern : ElementwisePattern<WhereOp> {
  using ElementwisePattern::ElementwisePattern;
  Type getComputeType(WhereOp op) const override {
    return op.getType().getElementType();
  }
  Type getOperandComputeType(WhereOp op, unsigned index,
                             Type computeType) const override {
    return index == 0 ? IntegerType::get(op.getContext(), 1) : computeType;
  }
  Value emit(OpBuilder &b, Location loc, WhereOp op, ValueRange args,
             Type) const override {
    return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
  }
};

/// A cast is a conversion from the source dtype straight to the target's.
struct CastPattern : ElementwisePattern<CastOp> {
  using ElementwisePattern::ElementwisePattern;
  Type getComputeType(CastOp op) const override {
    return op.getType().getElementType();
  }
  Value emit(OpBuilder &, Location, CastOp, ValueRange args,
             Type) const override {
    return args[0];
  }
};

/// Emits one op of a pointwise body into a generic's body: the scalar ops
/// (ptensor.scalar_*) as the elementwise kinds' own scalar code, anything
/// else (arith, math) as a clone.
static void emitBodyOp(OpBuilder &b, Operation &op, IRMapping &mapping) {
  Location loc = op.getLoc();
  auto operand = [&](unsigned i) {
    return mapping.lookupOrDefault(op.getOperand(i));
  };
  Value result;
  if (auto unary = dyn_cast<ScalarUnaryOp>(op)) {
    result = emitUnary(b, loc, unary.getKind(), operand(0),
                       unary.getOperandDType());
  } else if (auto test = dyn_cast<ScalarUnaryTestOp>(op)) {
    result = emitUnaryTest(b, loc, test.getKind(), operand(0),
                           test.getOperandDType());
  } else if (auto binary = dyn_cast<ScalarBinaryOp>(op)) {
    Value lhs = operand(0), rhs = operand(1);
    result = emitBinary(b, loc, binary.getKind(), lhs, rhs,
                        binary.getOperandDType());
  } else if (auto compare = dyn_cast<ScalarBinaryTestOp>(op)) {
    Value lhs = operand(0), rhs = operand(1);
    result = emitBinaryTest(b, loc, compare.getKind(), lhs, rhs,
                            compare.getOperandDType());
  } else if (auto cast = dyn_cast<ScalarCastOp>(op)) {
    result = convertScalar(b, loc, operand(0), cast.getOperandDType(),
                           cast.getTo());
  } else {
    b.clone(op, mapping);
    return;
  }
  mapping.map(op.getResult(0), result);
}

/// Inlines the scalar body of `ptensor.pointwise` into one generic.
struct PointwisePattern : public OpConversionPattern<PointwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PointwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // No outputs: nothing to compute (the body is pure).
    if (op.getNumResults() == 0) {
      rewriter.eraseOp(op);
      return success();
    }
    SmallVector<Type> tensorTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                tensorTypes)))
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    auto shape = cast<PTensorType>(op.getResult(0).getType()).getShape();
    SmallVector<ElementwiseInput> inputs;
    SmallVector<Value> dynamicSizes;
    if (failed(collectElementwiseInputs(rewriter, op, adaptor.getInputs(),
                                        shape, inputs, dynamicSizes)))
      return failure();
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    SmallVector<Value> results = buildElementwiseGeneric(
        rewriter, op.getLoc(), inputs, tensorTypes, dynamicSizes,
        [&](OpBuilder &b, Location loc, ValueRange values) {
          IRMapping mapping;
          for (auto [arg, in, v] : llvm::zip(body.getArguments(), inputs, values))
            mapping.map(arg, convertScalar(b, loc, v, in.dtype, arg.getType()));
          for (Operation &nested : body.without_terminator())
            emitBodyOp(b, nested, mapping);
          SmallVector<Value> stored;
          for (auto [v, t] : llvm::zip(yield.getValues(), op.getResultTypes()))
            stored.push_back(convertScalar(b, loc, mapping.lookupOrDefault(v),
                                           v.getType(), getDType(t)));
          return stored;
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::ptensor::populateElementwiseToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<UnaryPattern, UnaryTestPattern, BinaryPattern,
               BinaryTestPattern, WherePattern, CastPattern, PointwisePattern>(
      converter, patterns.getContext());
}
