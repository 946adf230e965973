//===- ElementwiseKernel.cpp - one gpu.launch for an elementwise generic --===//
//
// The kernel walks the flattened iteration space with a grid-stride loop:
//   for (lin = blockIdx.x * blockDim.x + threadIdx.x; lin < N;
//        lin += gridDim.x * blockDim.x)
// splits `lin` into loop indices (innermost fastest), loads each input
// through its indexing map, runs the generic's body and stores the results.
// The loop and the index splitting use i32 when N < 2^31 (a run-time
// choice between two launches), since 64-bit division is several times
// slower on NVIDIA GPUs.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ptensor;

/// Checks that `op` is a generic this lowering handles.
static LogicalResult checkSupported(RewriterBase &rewriter,
                                    linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics())
    return rewriter.notifyMatchFailure(op, "expected buffer semantics");
  if (op.getNumReductionLoops() != 0)
    return rewriter.notifyMatchFailure(op, "expected only parallel loops");
  for (OpOperand &out : op.getDpsInitsMutable()) {
    if (!op.getMatchingIndexingMap(&out).isIdentity())
      return rewriter.notifyMatchFailure(op, "expected identity output maps");
    if (op.payloadUsesValueFromOperand(&out))
      return rewriter.notifyMatchFailure(op, "outputs must not be read");
  }
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr e : map.getResults())
      if (!isa<AffineDimExpr, AffineConstantExpr>(e))
        return rewriter.notifyMatchFailure(op, "expected dims or constants");
  return success();
}

namespace {
/// Builds the body of one launch variant with index type `it`.
struct KernelBodyBuilder {
  linalg::GenericOp op;
  ValueRange sizes; ///< loop sizes (index), captured from the host
  Value count;      ///< element count (index), captured from the host

  void build(OpBuilder &b, Location loc, gpu::LaunchOp launch, Type it) {
    auto toIt = [&](Value v) -> Value {
      return v.getType() == it ? v
                               : arith::IndexCastUIOp::create(b, loc, it, v);
    };
    auto toIndex = [&](Value v) -> Value {
      return v.getType().isIndex()
                 ? v
                 : arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
    };
    Value tid = toIt(launch.getThreadIds().x);
    Value bid = toIt(launch.getBlockIds().x);
    Value bdim = toIt(launch.getBlockSize().x);
    Value gdim = toIt(launch.getGridSize().x);
    Value start = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, bid, bdim), tid);
    Value step = arith::MulIOp::create(b, loc, gdim, bdim);
    auto loop = scf::ForOp::create(b, loc, start, toIt(count), step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    // Split the linear index, innermost dimension fastest.
    SmallVector<Value> ids(sizes.size());
    Value rem = loop.getInductionVar();
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      Value s = toIt(sizes[d]);
      ids[d] = toIndex(d == 0 ? rem : Value(arith::RemUIOp::create(b, loc, rem, s)));
      if (d > 0)
        rem = arith::DivUIOp::create(b, loc, rem, s);
    }
    IRMapping mapping;
    Block *body = op.getBody();
    for (OpOperand *in : op.getDpsInputOperands()) {
      SmallVector<Value> indices;
      for (AffineExpr e : op.getMatchingIndexingMap(in).getResults()) {
        if (auto dim = dyn_cast<AffineDimExpr>(e))
          indices.push_back(ids[dim.getPosition()]);
        else
          indices.push_back(arith::ConstantIndexOp::create(
              b, loc, llvm::cast<AffineConstantExpr>(e).getValue()));
      }
      Value v = in->get();
      if (isa<MemRefType>(v.getType()))
        v = memref::LoadOp::create(b, loc, v, indices);
      mapping.map(op.getMatchingBlockArgument(in), v);
    }
    for (Operation &nested : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
        mapping.map(index.getResult(), ids[index.getDim()]);
        continue;
      }
      b.clone(nested, mapping);
    }
    auto yield = llvm::cast<linalg::YieldOp>(body->getTerminator());
    for (auto [v, out] : llvm::zip(yield.getValues(), op.getDpsInits()))
      memref::StoreOp::create(b, loc, mapping.lookupOrDefault(v), out, ids);
  }
};
} // namespace

/// Emits `gpu.launch` with `blocks` x `blockSize` threads whose body is
/// built for index type `it`.
static void emitLaunch(OpBuilder &b, Location loc, KernelBodyBuilder &kernel,
                       Value blocks, Value blockSize, Type it) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, blocks, one, one, blockSize, one,
                                      one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  kernel.build(b, loc, launch, it);
  gpu::TerminatorOp::create(b, loc);
}

LogicalResult mlir::ptensor::convertGenericToKernel(RewriterBase &rewriter,
                                                    linalg::GenericOp op,
                                                    const KernelConfig &config) {
  if (failed(checkSupported(rewriter, op)))
    return failure();
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  // Loop sizes come from the first output (identity map).
  Value out = op.getDpsInits()[0];
  SmallVector<Value> sizes;
  Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (int64_t d = 0; d < op.getNumLoops(); ++d) {
    sizes.push_back(memref::DimOp::create(rewriter, loc, out, d));
    count = arith::MulIOp::create(rewriter, loc, count, sizes.back());
  }
  // blocks = min(ceil(count / blockSize), maxBlocks); empty tensors launch
  // nothing (a zero-block grid is a CUDA error).
  Value blockSize = arith::ConstantIndexOp::create(rewriter, loc, config.blockSize);
  Value blocks = arith::MinUIOp::create(
      rewriter, loc, arith::CeilDivUIOp::create(rewriter, loc, count, blockSize),
      arith::ConstantIndexOp::create(rewriter, loc, config.maxBlocks));
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value nonEmpty = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt,
                                         count, zero);
  Value fits32 = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ult, count,
      arith::ConstantIndexOp::create(rewriter, loc, int64_t(1) << 31));
  KernelBodyBuilder kernel{op, sizes, count};
  auto ifNonEmpty = scf::IfOp::create(rewriter, loc, nonEmpty, false);
  rewriter.setInsertionPointToStart(ifNonEmpty.thenBlock());
  auto ifFits = scf::IfOp::create(rewriter, loc, fits32, true);
  rewriter.setInsertionPointToStart(ifFits.thenBlock());
  emitLaunch(rewriter, loc, kernel, blocks, blockSize, rewriter.getI32Type());
  rewriter.setInsertionPointToStart(ifFits.elseBlock());
  emitLaunch(rewriter, loc, kernel, blocks, blockSize, rewriter.getIndexType());
  rewriter.eraseOp(op);
  return success();
}
