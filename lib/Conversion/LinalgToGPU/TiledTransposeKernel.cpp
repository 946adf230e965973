//===- TiledTransposeKernel.cpp - shared-memory tiles for transposed reads ===//

#include "TiledTransposeKernel.h"

#include "KernelCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ptensor;

/// Tile edge; a block is kTile x kRowsPerPass threads and each thread
/// handles kTile / kRowsPerPass rows of the tile.
static constexpr int64_t kTile = 32;
static constexpr int64_t kRowsPerPass = 8;

/// True when input `in` is read through a map ending in the two innermost
/// loop dims: its tile can be staged in shared memory.
static bool isStageable(linalg::GenericOp op, OpOperand *in) {
  if (!isa<MemRefType>(in->get().getType()))
    return false;
  AffineMap map = op.getMatchingIndexingMap(in);
  unsigned n = op.getNumLoops(), r = map.getNumResults();
  if (n < 2 || r < 2)
    return false;
  auto dimAt = [&](unsigned i) {
    auto d = dyn_cast<AffineDimExpr>(map.getResult(i));
    return d ? int64_t(d.getPosition()) : int64_t(-1);
  };
  return dimAt(r - 2) == n - 2 && dimAt(r - 1) == n - 1;
}

bool mlir::ptensor::isTiledTransposeCandidate(linalg::GenericOp op) {
  return hasByteElements(op) &&
         llvm::any_of(op.getDpsInputOperands(),
                      [&](OpOperand *in) { return isStageable(op, in); });
}

namespace {
/// Builds the tiled launch's body.
struct TiledBody {
  linalg::GenericOp op;
  ValueRange sizes;
  /// Per input: whether it is staged, and (host i1) whether it is
  /// column-major in the two innermost dims.
  SmallVector<bool> staged;
  SmallVector<Value> columnMajor;

  void build(OpBuilder &b, Location loc, gpu::LaunchOp launch) {
    ThreadCoordinates c = threadCoordinates(b, loc, launch);
    auto i32 = [&](int64_t v) { return i32Constant(b, loc, v); };
    auto toI32 = [&](Value v) -> Value {
      return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), v);
    };
    auto toIndex = [&](Value v) -> Value {
      return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
    };
    auto lt = [&](Value x, Value y) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
    };
    size_t n = sizes.size();
    Value rows = toI32(sizes[n - 2]), cols = toI32(sizes[n - 1]);
    Value tilesC = arith::CeilDivUIOp::create(b, loc, cols, i32(kTile));
    Value tilesR = arith::CeilDivUIOp::create(b, loc, rows, i32(kTile));
    Value tiles = arith::MulIOp::create(b, loc, tilesC, tilesR);
    for (size_t d = 0; d + 2 < n; ++d)
      tiles = arith::MulIOp::create(b, loc, tiles, toI32(sizes[d]));
    Value tx = arith::RemUIOp::create(b, loc, c.thread, i32(kTile));
    Value ty = arith::DivUIOp::create(b, loc, c.thread, i32(kTile));

    auto loop = scf::ForOp::create(b, loc, c.block, tiles, c.gridSize);
    loop.setUnsignedCmp(true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    // Tile coordinates: column tile fastest, then row tile, then batch.
    Value t = loop.getInductionVar();
    Value c0 = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, t, tilesC), i32(kTile));
    t = arith::DivUIOp::create(b, loc, t, tilesC);
    Value r0 = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, t, tilesR), i32(kTile));
    t = arith::DivUIOp::create(b, loc, t, tilesR);
    SmallVector<Value> ids(n);
    for (int64_t d = static_cast<int64_t>(n) - 3; d >= 0; --d) {
      Value s = toI32(sizes[d]);
      ids[d] = toIndex(d == 0 ? t : Value(arith::RemUIOp::create(b, loc, t, s)));
      if (d > 0)
        t = arith::DivUIOp::create(b, loc, t, s);
    }
    auto tileIds = [&](Value localRow, Value localCol) {
      SmallVector<Value> e(ids);
      e[n - 2] = toIndex(arith::AddIOp::create(b, loc, r0, localRow));
      e[n - 1] = toIndex(arith::AddIOp::create(b, loc, c0, localCol));
      return e;
    };
    auto inBounds = [&](Value localRow, Value localCol) -> Value {
      return arith::AndIOp::create(
          b, loc, lt(arith::AddIOp::create(b, loc, r0, localRow), rows),
          lt(arith::AddIOp::create(b, loc, c0, localCol), cols));
    };
    auto pass = [&](int64_t k) -> Value {
      return arith::AddIOp::create(b, loc, ty, i32(k * kRowsPerPass));
    };
    ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();

    // Stage: input i's tile element (row, col) goes to shared[i][row][col];
    // for a column-major input, consecutive threads take consecutive rows.
    for (int64_t k = 0; k < kTile / kRowsPerPass; ++k) {
      Value p = pass(k);
      for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands())) {
        if (!staged[i])
          continue;
        Value row = arith::SelectOp::create(b, loc, columnMajor[i], tx, p);
        Value col = arith::SelectOp::create(b, loc, columnMajor[i], p, tx);
        auto ifIn = scf::IfOp::create(b, loc, inBounds(row, col), false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifIn.thenBlock());
        Value v = loadThroughMap(b, loc, op, in, tileIds(row, col));
        memref::StoreOp::create(b, loc, v, shared[i],
                                ValueRange{toIndex(row), toIndex(col)});
      }
    }
    gpu::BarrierOp::create(b, loc);
    // Compute: thread (tx, pass) makes element (pass, tx) of the tile.
    for (int64_t k = 0; k < kTile / kRowsPerPass; ++k) {
      Value p = pass(k);
      auto ifIn = scf::IfOp::create(b, loc, inBounds(p, tx), false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifIn.thenBlock());
      SmallVector<Value> preloaded(staged.size());
      for (auto [i, s] : llvm::enumerate(staged))
        if (s)
          preloaded[i] = memref::LoadOp::create(
              b, loc, shared[i], ValueRange{toIndex(p), toIndex(tx)});
      SmallVector<Value> e = tileIds(p, tx);
      for (auto [v, out] :
           llvm::zip(emitElement(b, loc, op, e, preloaded), op.getDpsInits()))
        memref::StoreOp::create(b, loc, v, out, e);
    }
    // The next tile overwrites shared memory.
    gpu::BarrierOp::create(b, loc);
  }
};
} // namespace

void mlir::ptensor::emitTiledTransposePath(RewriterBase &b, Location loc,
                                           linalg::GenericOp op,
                                           ValueRange sizes, Value fits32,
                                           const KernelConfig &config) {
  TiledBody body{op, sizes, {}, {}};
  Value any = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  SmallVector<Type> sharedTypes;
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto eq = [&](Value x, int64_t v) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x,
                                 indexConstant(b, loc, v));
  };
  for (OpOperand *in : op.getDpsInputOperands()) {
    bool stage = isStageable(op, in);
    body.staged.push_back(stage);
    // Every input gets a buffer (attributions are positional); unstaged
    // ones get a 1x1 placeholder.
    auto type = dyn_cast<MemRefType>(in->get().getType());
    Type element = type ? type.getElementType() : b.getI8Type();
    int64_t edge = stage ? kTile : 1, pitch = stage ? kTile + 1 : 1;
    // One padding column: column-wise stores hit 32 different banks.
    sharedTypes.push_back(
        MemRefType::get({edge, pitch}, element, AffineMap(), workgroup));
    if (!stage) {
      body.columnMajor.push_back(Value());
      continue;
    }
    auto md = memref::ExtractStridedMetadataOp::create(b, loc, in->get());
    ValueRange strides = md.getStrides();
    Value colMajor = arith::AndIOp::create(
        b, loc, eq(strides[strides.size() - 2], 1),
        arith::XOrIOp::create(b, loc, eq(strides.back(), 1),
                              arith::ConstantOp::create(b, loc, b.getBoolAttr(true))));
    body.columnMajor.push_back(colMajor);
    any = arith::OrIOp::create(b, loc, any, colMajor);
  }
  size_t n = sizes.size();
  Value tiles = arith::MulIOp::create(
      b, loc,
      arith::CeilDivUIOp::create(b, loc, sizes[n - 2], indexConstant(b, loc, kTile)),
      arith::CeilDivUIOp::create(b, loc, sizes[n - 1], indexConstant(b, loc, kTile)));
  for (size_t d = 0; d + 2 < n; ++d)
    tiles = arith::MulIOp::create(b, loc, tiles, sizes[d]);
  Value ok = arith::AndIOp::create(b, loc, fits32, any);
  auto ifTiled = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifTiled.thenBlock());
  {
    OpBuilder::InsertionGuard guard(b);
    // One block per tile, up to the grid limit.
    KernelConfig tileConfig = config;
    tileConfig.blockSize = 1;
    gpu::LaunchOp launch =
        beginLaunch(b, loc, gridFor(b, loc, tiles, tileConfig),
                    indexConstant(b, loc, kTile * kRowsPerPass), sharedTypes);
    body.build(b, loc, launch);
  }
  b.setInsertionPointToStart(ifTiled.elseBlock());
}
