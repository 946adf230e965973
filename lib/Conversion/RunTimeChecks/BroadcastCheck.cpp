//===- BroadcastCheck.cpp - run-time shape checks with real sizes ---------===//

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Semantics/Limits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <algorithm>

using namespace mlir;

/// The runtime function told the sizes of a failed broadcast (MLIR's default
/// calling convention: each memref expanded into its descriptor's fields).
static constexpr llvm::StringLiteral kBroadcastFailed =
    "ptensor_rt_broadcast_failed";

/// The runtime function told the shapes of contracted dims that differ.
static constexpr llvm::StringLiteral kContractionFailed =
    "ptensor_rt_contraction_failed";

/// The runtime function told the shapes of a failed reshape or combine.
static constexpr llvm::StringLiteral kShapesFailed = "ptensor_rt_shapes_failed";

/// The runtime function told a requested shape with a negative size or too
/// many bytes.
static constexpr llvm::StringLiteral kSizeFailed = "ptensor_rt_size_failed";

func::FuncOp mlir::ptensor::getOrDeclareRuntimeFunction(OpBuilder &b,
                                                       ModuleOp module,
                                                       StringRef name,
                                                       TypeRange inputs,
                                                       TypeRange results) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                 b.getFunctionType(inputs, results));
  fn.setPrivate();
  return fn;
}

bool mlir::ptensor::isRunTimeCheck(Operation *op) {
  auto ifOp = dyn_cast<scf::IfOp>(op);
  if (!ifOp || ifOp.getNumResults() != 0 || !ifOp.getElseRegion().empty())
    return false;
  auto isFailure = [](func::CallOp call) {
    return llvm::is_contained({kBroadcastFailed, kContractionFailed,
                               kShapesFailed, kSizeFailed,
                               kCheckFailedFunction},
                              call.getCallee());
  };
  auto onStack = [](Value buffer) {
    return buffer.getDefiningOp<memref::AllocaOp>() != nullptr;
  };
  WalkResult walk = ifOp.getThenRegion().walk([&](Operation *inner) {
    bool allowed = isMemoryEffectFree(inner) ||
                   isa<memref::AllocaOp, scf::YieldOp>(inner) ||
                   (isa<memref::StoreOp>(inner) &&
                    onStack(cast<memref::StoreOp>(inner).getMemRef()));
    if (auto call = dyn_cast<func::CallOp>(inner))
      allowed = isFailure(call);
    return allowed ? WalkResult::advance() : WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// The declaration of runtime function `name` taking two memref<?xi64> and
/// `numI64` i64s.
static func::FuncOp getFailureFunction(OpBuilder &b, Operation *from,
                                       StringRef name, unsigned numI64) {
  auto sizes = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  SmallVector<Type> inputs = {sizes, sizes};
  inputs.append(numI64, b.getI64Type());
  return mlir::ptensor::getOrDeclareRuntimeFunction(
      b, from->getParentOfType<ModuleOp>(), name, inputs, {});
}

Value mlir::ptensor::buildIndexArray(OpBuilder &b, Location loc,
                                     ValueRange sizes) {
  auto type = MemRefType::get({static_cast<int64_t>(sizes.size())},
                              b.getI64Type());
  Value buffer = memref::AllocaOp::create(b, loc, type);
  for (auto [i, size] : llvm::enumerate(sizes)) {
    Value index = arith::ConstantIndexOp::create(b, loc, i);
    Value value = arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
    memref::StoreOp::create(b, loc, value, buffer, index);
  }
  auto dynamic = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  return memref::CastOp::create(b, loc, dynamic, buffer);
}

void mlir::ptensor::buildBroadcastCheck(OpBuilder &b, Location loc,
                                        ValueRange source, ValueRange target) {
  assert(source.size() <= target.size() && "broadcast adds dimensions only");
  size_t lead = target.size() - source.size();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value yes = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  Value ok = yes;
  for (auto [i, size] : llvm::enumerate(source)) {
    Value isOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one);
    Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                       target[lead + i]);
    Value fits = arith::OrIOp::create(b, loc, isOne, same);
    ok = arith::AndIOp::create(b, loc, ok, fits);
  }
  Value failed = arith::XOrIOp::create(b, loc, ok, yes);
  func::FuncOp callee = getFailureFunction(
      b, b.getInsertionBlock()->getParentOp(), kBroadcastFailed, 0);
  scf::IfOp::create(b, loc, failed, [&](OpBuilder &then, Location l) {
    Value from = buildIndexArray(then, l, source);
    Value to = buildIndexArray(then, l, target);
    func::CallOp::create(then, l, callee, ValueRange{from, to});
    scf::YieldOp::create(then, l);
  });
}

void mlir::ptensor::buildContractionCheck(OpBuilder &b, Location loc,
                                          ContractionKind kind, ValueRange lhs,
                                          int64_t lhsDim, ValueRange rhs,
                                          int64_t rhsDim) {
  Value differ = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       lhs[lhsDim], rhs[rhsDim]);
  func::FuncOp callee = getFailureFunction(
      b, b.getInsertionBlock()->getParentOp(), kContractionFailed, 3);
  scf::IfOp::create(b, loc, differ, [&](OpBuilder &then, Location l) {
    Value lhsShape = buildIndexArray(then, l, lhs);
    Value rhsShape = buildIndexArray(then, l, rhs);
    SmallVector<Value> args = {lhsShape, rhsShape};
    for (int64_t v : {lhsDim, rhsDim, static_cast<int64_t>(kind)})
      args.push_back(arith::ConstantIntOp::create(then, l, then.getI64Type(), v));
    func::CallOp::create(then, l, callee, args);
    scf::YieldOp::create(then, l);
  });
}

void mlir::ptensor::buildShapesCheck(OpBuilder &b, Location loc, Value ok,
                                     ShapeCheckKind kind, ValueRange lhs,
                                     ValueRange rhs, int64_t operand,
                                     int64_t dim) {
  Value yes = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  Value failed = arith::XOrIOp::create(b, loc, ok, yes);
  func::FuncOp callee = getFailureFunction(
      b, b.getInsertionBlock()->getParentOp(), kShapesFailed, 3);
  scf::IfOp::create(b, loc, failed, [&](OpBuilder &then, Location l) {
    Value lhsShape = buildIndexArray(then, l, lhs);
    Value rhsShape = buildIndexArray(then, l, rhs);
    SmallVector<Value> args = {lhsShape, rhsShape};
    for (int64_t v : {static_cast<int64_t>(kind), operand, dim})
      args.push_back(arith::ConstantIntOp::create(then, l, then.getI64Type(), v));
    func::CallOp::create(then, l, callee, args);
    scf::YieldOp::create(then, l);
  });
}

/// The largest byte size a requested shape may need (as the runtime's
/// allocators).
static constexpr int64_t kMaxShapeBytes = ::ptensor::semantics::kMaxArrayBytes;

void mlir::ptensor::buildSizesCheck(OpBuilder &b, Location loc,
                                    ::ptensor::semantics::SizedOp op,
                                    ArrayRef<OpFoldResult> shape,
                                    int64_t elementBytes,
                                    int64_t inferredDim) {
  // Nothing to check when every size is known, none negative (attributes
  // never are: static sizes and reshape's -1) and the bytes fit. A constant
  // Value below zero, or a static shape too large, gets the check, which
  // folds to a call that always fails, as the function would at run time.
  bool known = true;
  int64_t knownBytes = elementBytes;
  for (OpFoldResult size : shape) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant || (isa<Value>(size) && *constant < 0) ||
        __builtin_mul_overflow(knownBytes, std::max<int64_t>(*constant, 1),
                               &knownBytes) ||
        knownBytes > kMaxShapeBytes) {
      known = false;
      break;
    }
  }
  if (known)
    return;
  // Invalid: a size below zero, or sizes whose product (0 counted as 1, as
  // strides still span the other dims) times the element size exceeds
  // kMaxShapeBytes. The product is checked before each multiplication, so
  // it never overflows unnoticed.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value limit = arith::ConstantIndexOp::create(b, loc, kMaxShapeBytes);
  Value bytes = arith::ConstantIndexOp::create(b, loc, elementBytes);
  Value invalid;
  // Folded as built: static sizes add no ops.
  for (OpFoldResult size : shape) {
    Value value = getValueOrCreateConstantIndexOp(b, loc, size);
    Value extent = b.createOrFold<arith::MaxSIOp>(loc, value, one);
    Value room = b.createOrFold<arith::DivUIOp>(loc, limit, extent);
    Value either = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ugt, bytes, room);
    // Attributes (static sizes, reshape's -1) are never negative sizes.
    if (isa<Value>(size)) {
      Value negative = b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::slt, value, zero);
      either = b.createOrFold<arith::OrIOp>(loc, negative, either);
    }
    invalid = invalid ? b.createOrFold<arith::OrIOp>(loc, invalid, either)
                      : either;
    bytes = b.createOrFold<arith::MulIOp>(loc, bytes, extent);
  }
  func::FuncOp callee = getOrDeclareRuntimeFunction(
      b, b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>(),
      kSizeFailed,
      {MemRefType::get({ShapedType::kDynamic}, b.getI64Type()), b.getI64Type(),
       b.getI64Type(), b.getI64Type()},
      {});
  scf::IfOp::create(b, loc, invalid, [&](OpBuilder &then, Location l) {
    SmallVector<Value> sizes;
    for (OpFoldResult size : shape)
      sizes.push_back(getValueOrCreateConstantIndexOp(then, l, size));
    Value requested = buildIndexArray(then, l, sizes);
    Value kind = arith::ConstantIntOp::create(then, l, then.getI64Type(),
                                              static_cast<int64_t>(op));
    Value width =
        arith::ConstantIntOp::create(then, l, then.getI64Type(), elementBytes);
    Value inferred =
        arith::ConstantIntOp::create(then, l, then.getI64Type(), inferredDim);
    func::CallOp::create(then, l, callee,
                         ValueRange{requested, kind, width, inferred});
    scf::YieldOp::create(then, l);
  });
}

void mlir::ptensor::buildSizesCheck(OpBuilder &b, Location loc,
                                    ::ptensor::semantics::SizedOp op,
                                    ArrayRef<int64_t> staticShape,
                                    ValueRange dynamicSizes,
                                    int64_t elementBytes) {
  SmallVector<OpFoldResult> shape =
      getMixedValues(staticShape, dynamicSizes, b);
  buildSizesCheck(b, loc, op, shape, elementBytes);
}

int64_t mlir::ptensor::getElementBytes(Type elementType) {
  return (elementType.getIntOrFloatBitWidth() + 7) / 8;
}

std::optional<int64_t> mlir::ptensor::getWidthOrderedCode(IntegerType type,
                                                          int64_t signed8,
                                                          int64_t unsigned8) {
  int64_t first = type.isUnsigned() ? unsigned8 : signed8;
  switch (type.getWidth()) {
  case 8:
    return first;
  case 16:
    return first + 1;
  case 32:
    return first + 2;
  case 64:
    return first + 3;
  default:
    return std::nullopt;
  }
}
