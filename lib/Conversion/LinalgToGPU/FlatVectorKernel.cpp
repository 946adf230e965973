//===- FlatVectorKernel.cpp - the contiguous fast path ---------------------===//

#include "FlatVectorKernel.h"

#include "KernelCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::ptensor;

/// Bytes per vector access.
static constexpr int64_t kVectorBytes = 16;

bool mlir::ptensor::isFlatVectorCandidate(linalg::GenericOp op) {
  if (!op.getBody()->getOps<linalg::IndexOp>().empty())
    return false;
  for (OpOperand *in : op.getDpsInputOperands())
    if (isa<MemRefType>(in->get().getType()) &&
        !op.getMatchingIndexingMap(in).isIdentity())
      return false;
  return hasByteElements(op);
}

namespace {
/// Builds the body of the flat vector launch.
struct FlatVectorBody {
  linalg::GenericOp op;
  int64_t width;                  ///< elements per vector
  SmallVector<Value> flatInputs;  ///< flat views, or scalars (not memrefs)
  SmallVector<Value> flatOutputs; ///< flat views
  Value count;                    ///< elements (index)
  Value vectorCount;              ///< count / width (index, < 2^31)

  /// The vector type and alignment of `memref`'s accesses.
  std::pair<VectorType, llvm::Align> accessOf(Value memref) const {
    Type element = cast<MemRefType>(memref.getType()).getElementType();
    int64_t bytes = width * element.getIntOrFloatBitWidth() / 8;
    return {VectorType::get({width}, element),
            llvm::Align(std::min(bytes, kVectorBytes))};
  }

  /// Element index (index type) of vector `v` (i32).
  Value firstElement(OpBuilder &b, Location loc, Value v) const {
    Value wide = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
    return arith::MulIOp::create(b, loc, wide, indexConstant(b, loc, width));
  }

  /// Loads, computes and stores the vectors `vectors` (i32 indices); every
  /// load is issued before the first store.
  void processVectors(OpBuilder &b, Location loc, ValueRange vectors) const {
    SmallVector<Value> firsts;
    SmallVector<SmallVector<Value>> loaded(vectors.size());
    for (auto [k, v] : llvm::enumerate(vectors)) {
      firsts.push_back(firstElement(b, loc, v));
      for (Value in : flatInputs) {
        if (!isa<MemRefType>(in.getType())) {
          loaded[k].push_back(in);
          continue;
        }
        auto [type, align] = accessOf(in);
        loaded[k].push_back(vector::LoadOp::create(
            b, loc, type, in, firsts.back(), /*nontemporal=*/false, align));
      }
    }
    for (auto [k, first] : llvm::enumerate(firsts)) {
      SmallVector<SmallVector<Value>> lanes(flatOutputs.size());
      for (int64_t lane = 0; lane < width; ++lane) {
        SmallVector<Value> scalars;
        for (Value v : loaded[k])
          scalars.push_back(isa<VectorType>(v.getType())
                                ? Value(vector::ExtractOp::create(b, loc, v, lane))
                                : v);
        for (auto [i, r] : llvm::enumerate(inlineBody(b, op, scalars, {})))
          lanes[i].push_back(r);
      }
      for (auto [out, values] : llvm::zip(flatOutputs, lanes)) {
        auto [type, align] = accessOf(out);
        Value vec = vector::FromElementsOp::create(b, loc, type, values);
        vector::StoreOp::create(b, loc, vec, out, first, /*nontemporal=*/false,
                                align);
      }
    }
  }

  /// One element `e` (index) with scalar accesses.
  void processElement(OpBuilder &b, Location loc, Value e) const {
    SmallVector<Value> scalars;
    for (Value in : flatInputs)
      scalars.push_back(isa<MemRefType>(in.getType())
                            ? Value(memref::LoadOp::create(b, loc, in, e))
                            : in);
    for (auto [out, r] : llvm::zip(flatOutputs, inlineBody(b, op, scalars, {})))
      memref::StoreOp::create(b, loc, r, out, e);
  }

  void build(OpBuilder &b, Location loc, gpu::LaunchOp launch,
             int64_t unroll) const {
    ThreadCoordinates c = threadCoordinates(b, loc, launch);
    Value vectors = arith::IndexCastUIOp::create(b, loc, b.getI32Type(),
                                                 vectorCount);
    Value rest = i32Constant(b, loc, 0);
    if (unroll > 1)
      rest = emitUnrolledChunks(
          b, loc, c, vectors, unroll,
          [&](OpBuilder &b, Location loc, ValueRange mine) {
            processVectors(b, loc, mine);
          });
    // Vectors after the last full chunk, one per thread; `v + threadCount`
    // may pass INT32_MAX (never 2^32): unsigned compare.
    auto loop = scf::ForOp::create(
        b, loc, arith::AddIOp::create(b, loc, rest, c.globalId), vectors,
        c.threadCount);
    loop.setUnsignedCmp(true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      processVectors(b, loc, loop.getInductionVar());
    }
    // The scalar tail: count % width elements after the last vector.
    Value tailStart = firstElement(b, loc, vectors);
    Value tail = arith::SubIOp::create(b, loc, count, tailStart);
    Value id = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), c.globalId);
    auto inTail = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, id, tail),
        /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(inTail.thenBlock());
    processElement(b, loc, arith::AddIOp::create(b, loc, tailStart, id));
  }
};
} // namespace

void mlir::ptensor::emitFlatVectorPath(RewriterBase &b, Location loc,
                                       linalg::GenericOp op, Value count,
                                       const KernelConfig &config) {
  int64_t width = kVectorBytes / smallestElementBytes(op);
  FlatVectorBody body{op, width, {}, {}, count, Value()};
  body.vectorCount =
      arith::DivUIOp::create(b, loc, count, indexConstant(b, loc, width));
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                   body.vectorCount,
                                   indexConstant(b, loc, int64_t(1) << 31));
  auto flatten = [&](Value v) -> Value {
    if (!isa<MemRefType>(v.getType()))
      return v;
    int64_t align = body.accessOf(v).second.value();
    GuardedView flat = flatView(b, loc, v, count, align);
    ok = arith::AndIOp::create(b, loc, ok, flat.ok);
    return flat.view;
  };
  for (OpOperand *in : op.getDpsInputOperands())
    body.flatInputs.push_back(flatten(in->get()));
  for (Value out : op.getDpsInits())
    body.flatOutputs.push_back(flatten(out));
  Value blocks =
      gridForUnrolled(b, loc, body.vectorCount, config.unroll, config);
  auto ifVector = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifVector.thenBlock());
  {
    OpBuilder::InsertionGuard guard(b);
    gpu::LaunchOp launch =
        beginLaunch(b, loc, blocks, indexConstant(b, loc, config.blockSize));
    body.build(b, loc, launch, config.unroll);
  }
  b.setInsertionPointToStart(ifVector.elseBlock());
}
