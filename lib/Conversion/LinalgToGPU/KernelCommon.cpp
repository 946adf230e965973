//===- KernelCommon.cpp - pieces shared by the elementwise kernel paths ---===//

#include "KernelCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ptensor;

Value mlir::ptensor::indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value mlir::ptensor::i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

SmallVector<Value> mlir::ptensor::delinearize(OpBuilder &b, Location loc,
                                             Value lin, ValueRange sizes) {
  Type it = lin.getType();
  auto cast = [&](Type to, Value v) -> Value {
    return v.getType() == to ? v : arith::IndexCastUIOp::create(b, loc, to, v);
  };
  SmallVector<Value> ids(sizes.size());
  Value rem = lin;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    Value s = cast(it, sizes[d]);
    ids[d] = cast(b.getIndexType(),
                  d == 0 ? rem : Value(arith::RemUIOp::create(b, loc, rem, s)));
    if (d > 0)
      rem = arith::DivUIOp::create(b, loc, rem, s);
  }
  return ids;
}

/// The address (index) of `memref`'s element at `offset` elements from its
/// aligned pointer (its first element when `offset` is the memref's own).
static Value elementAddress(OpBuilder &b, Location loc, Value memref,
                            Value offset) {
  auto type = cast<MemRefType>(memref.getType());
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value bytes = indexConstant(b, loc, type.getElementTypeBitWidth() / 8);
  Value offsetBytes = arith::MulIOp::create(b, loc, offset, bytes);
  return arith::AddIOp::create(b, loc, base, offsetBytes);
}

/// Whether the first element of `memref` (its aligned pointer plus `offset`
/// elements) is aligned to `align` bytes.
static Value isFirstElementAligned(OpBuilder &b, Location loc, Value memref,
                                   Value offset, int64_t align) {
  Value address = elementAddress(b, loc, memref, offset);
  Value alignment = indexConstant(b, loc, align);
  Value misalignment = arith::RemUIOp::create(b, loc, address, alignment);
  Value zero = indexConstant(b, loc, 0);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misalignment,
                               zero);
}

GuardedView mlir::ptensor::flatView(OpBuilder &b, Location loc, Value memref,
                                    Value count, int64_t align) {
  auto type = cast<MemRefType>(memref.getType());
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  Value ok = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  Value expected = indexConstant(b, loc, 1);
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    // Size-1 dimensions may have any stride.
    Value one = indexConstant(b, loc, 1);
    Value sizeOne = cmp(arith::CmpIPredicate::eq, md.getSizes()[d], one);
    Value strideOk = cmp(arith::CmpIPredicate::eq, md.getStrides()[d], expected);
    ok = arith::AndIOp::create(b, loc, ok,
                               arith::OrIOp::create(b, loc, sizeOne, strideOk));
    expected = arith::MulIOp::create(b, loc, expected, md.getSizes()[d]);
  }
  Value aligned = isFirstElementAligned(b, loc, memref, md.getOffset(), align);
  ok = arith::AndIOp::create(b, loc, ok, aligned);
  auto flatType = MemRefType::get(
      {ShapedType::kDynamic}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}));
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, flatType, md.getBaseBuffer(), OpFoldResult(md.getOffset()),
      ArrayRef<OpFoldResult>{count}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return {ok, flat};
}

/// rowView and rowViewFromAnyColumn: `alignedStart` adds the test of the
/// first element's alignment.
static GuardedView buildRowView(OpBuilder &b, Location loc, Value memref,
                                int64_t width, int64_t align,
                                bool alignedStart) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value zero = indexConstant(b, loc, 0);
  Value one = indexConstant(b, loc, 1);
  Value widthValue = indexConstant(b, loc, width);
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                   md.getStrides()[rank - 1], one);
  for (int64_t d = 0; d + 1 < rank; ++d) {
    Value rest = arith::RemSIOp::create(b, loc, md.getStrides()[d], widthValue);
    Value whole =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rest, zero);
    ok = arith::AndIOp::create(b, loc, ok, whole);
  }
  if (alignedStart) {
    Value aligned =
        isFirstElementAligned(b, loc, memref, md.getOffset(), align);
    ok = arith::AndIOp::create(b, loc, ok, aligned);
  }
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  strides.back() = 1;
  auto rowType = MemRefType::get(
      type.getShape(), type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides));
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(type.isDynamicDim(d)
                        ? OpFoldResult(md.getSizes()[d])
                        : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
  SmallVector<OpFoldResult> viewStrides = getAsOpFoldResult(md.getStrides());
  viewStrides.back() = b.getIndexAttr(1);
  Value view = memref::ReinterpretCastOp::create(
      b, loc, rowType, md.getBaseBuffer(), OpFoldResult(md.getOffset()), sizes,
      viewStrides);
  return {ok, view};
}

GuardedView mlir::ptensor::rowView(OpBuilder &b, Location loc, Value memref,
                                   int64_t width, int64_t align) {
  return buildRowView(b, loc, memref, width, align, /*alignedStart=*/true);
}

GuardedView mlir::ptensor::rowViewFromAnyColumn(OpBuilder &b, Location loc,
                                                Value memref, int64_t width) {
  return buildRowView(b, loc, memref, width, /*align=*/1,
                      /*alignedStart=*/false);
}

Value mlir::ptensor::elementsBeforeAligned(OpBuilder &b, Location loc,
                                           Value memref, int64_t align) {
  auto type = cast<MemRefType>(memref.getType());
  Value alignment = indexConstant(b, loc, align);
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value misalignment = arith::RemUIOp::create(
      b, loc, elementAddress(b, loc, memref, md.getOffset()), alignment);
  Value gap = arith::SubIOp::create(b, loc, alignment, misalignment);
  Value gapBytes = arith::RemUIOp::create(b, loc, gap, alignment);
  Value bytes = indexConstant(b, loc, type.getElementTypeBitWidth() / 8);
  return arith::DivUIOp::create(b, loc, gapBytes, bytes);
}

Value mlir::ptensor::isElementAligned(OpBuilder &b, Location loc, Value memref,
                                      Value element, int64_t align) {
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value offset = arith::AddIOp::create(b, loc, md.getOffset(), element);
  Value address = elementAddress(b, loc, memref, offset);
  Value misalignment =
      arith::RemUIOp::create(b, loc, address, indexConstant(b, loc, align));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misalignment,
                               indexConstant(b, loc, 0));
}

bool mlir::ptensor::isNeutralBetweenKernels(Operation &op) {
  if (isa<memref::AllocOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
          memref::CastOp, memref::DimOp>(op))
    return true;
  return op.getNumRegions() == 0 && isMemoryEffectFree(&op);
}

RowAccess mlir::ptensor::rowAccessOf(linalg::GenericOp op, OpOperand *in) {
  unsigned innermost = op.getNumLoops() - 1;
  AffineMap map = op.getMatchingIndexingMap(in);
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || dim.getPosition() != innermost)
      continue;
    return i + 1 == map.getNumResults() ? RowAccess::AlongRow
                                        : RowAccess::Unsupported;
  }
  return RowAccess::Broadcast;
}

int64_t mlir::ptensor::rowAlignment(int64_t width, Type element) {
  return std::min<int64_t>(16, width * element.getIntOrFloatBitWidth() / 8);
}

int64_t mlir::ptensor::smallestElementBytes(linalg::GenericOp op,
                                            bool outputsOnly) {
  int64_t smallest = 16;
  for (OpOperand &operand : op->getOpOperands()) {
    if (outputsOnly && !op.isDpsInit(&operand))
      continue;
    if (auto type = dyn_cast<MemRefType>(operand.get().getType()))
      smallest = std::min<int64_t>(
          smallest, std::max<int64_t>(1, type.getElementTypeBitWidth() / 8));
  }
  return smallest;
}

bool mlir::ptensor::hasByteElements(linalg::GenericOp op) {
  for (Value v : op->getOperands())
    if (auto type = dyn_cast<MemRefType>(v.getType());
        type && type.getElementTypeBitWidth() < 8)
      return false;
  return true;
}

bool mlir::ptensor::callsMathFunction(linalg::GenericOp op) {
  WalkResult found = op.getBody()->walk([](Operation *inner) {
    // A few instructions each: not what makes a kernel compute-bound.
    bool cheap =
        isa<math::AbsFOp, math::AbsIOp, math::CopySignOp, math::CeilOp,
            math::FloorOp, math::TruncOp, math::RoundOp, math::RoundEvenOp,
            math::FmaOp, math::IsNaNOp, math::IsInfOp, math::IsFiniteOp,
            math::IsNormalOp, math::CountLeadingZerosOp,
            math::CountTrailingZerosOp, math::CtPopOp>(inner);
    return isa<math::MathDialect>(inner->getDialect()) && !cheap
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return found.wasInterrupted();
}

Value mlir::ptensor::castUnsigned(OpBuilder &b, Location loc, Value v,
                                  Type to) {
  return v.getType() == to ? v : arith::IndexCastUIOp::create(b, loc, to, v);
}

ThreadCoordinates mlir::ptensor::threadCoordinates(OpBuilder &b, Location loc,
                                                   gpu::LaunchOp launch,
                                                   Type type) {
  if (!type)
    type = b.getI32Type();
  auto cast = [&](Value v) { return castUnsigned(b, loc, v, type); };
  ThreadCoordinates c;
  c.thread = cast(launch.getThreadIds().x);
  c.block = cast(launch.getBlockIds().x);
  c.blockSize = cast(launch.getBlockSize().x);
  c.gridSize = cast(launch.getGridSize().x);
  Value blockStart = arith::MulIOp::create(b, loc, c.block, c.blockSize);
  c.globalId = arith::AddIOp::create(b, loc, blockStart, c.thread);
  c.threadCount = arith::MulIOp::create(b, loc, c.gridSize, c.blockSize);
  return c;
}

Value mlir::ptensor::emitUnrolledChunks(
    OpBuilder &b, Location loc, const ThreadCoordinates &c, Value total,
    int64_t unroll,
    llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  Type type = total.getType();
  Value unrollValue =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, unroll));
  Value chunk = arith::MulIOp::create(b, loc, c.blockSize, unrollValue);
  Value chunks = arith::DivUIOp::create(b, loc, total, chunk);
  auto loop = scf::ForOp::create(b, loc, c.block, chunks, c.gridSize);
  // `j + gridSize` may pass the signed maximum (never the unsigned one).
  loop.setUnsignedCmp(true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value first = arith::MulIOp::create(b, loc, loop.getInductionVar(), chunk);
    SmallVector<Value> items{arith::AddIOp::create(b, loc, first, c.thread)};
    for (int64_t k = 1; k < unroll; ++k)
      items.push_back(arith::AddIOp::create(b, loc, items.back(), c.blockSize));
    body(b, loc, items);
  }
  return arith::MulIOp::create(b, loc, chunks, chunk);
}

Value mlir::ptensor::gridForUnrolled(OpBuilder &b, Location loc, Value work,
                                     int64_t unroll,
                                     const KernelConfig &config) {
  Value perThread = indexConstant(b, loc, unroll);
  Value threadsNeeded = arith::CeilDivUIOp::create(b, loc, work, perThread);
  return gridFor(b, loc, threadsNeeded, config);
}

gpu::LaunchOp mlir::ptensor::beginLaunch(OpBuilder &b, Location loc,
                                         Value blocks, Value blockSize,
                                         TypeRange workgroup,
                                         Value dynamicSharedBytes) {
  Value one = indexConstant(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, blocks, one, one, blockSize, one,
                                      one, dynamicSharedBytes,
                                      /*asyncTokenType=*/nullptr,
                                      /*asyncDependencies=*/{}, workgroup);
  b.setInsertionPointToStart(&launch.getBody().front());
  auto terminator = gpu::TerminatorOp::create(b, loc);
  b.setInsertionPoint(terminator);
  return launch;
}

Value mlir::ptensor::gridFor(OpBuilder &b, Location loc, Value work,
                             const KernelConfig &config) {
  Value blockSize = indexConstant(b, loc, config.blockSize);
  Value maxBlocks = indexConstant(b, loc, config.maxBlocks);
  Value blocks = arith::MinUIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, work, blockSize), maxBlocks);
  return arith::MaxUIOp::create(b, loc, blocks, indexConstant(b, loc, 1));
}
