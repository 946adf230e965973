//===- TiledTransposeKernel.cpp - shared-memory tiles for transposed reads ===//

#include "TiledTransposeKernel.h"

#include "KernelCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ptensor;

static constexpr int64_t kWarp = 32;
/// Each thread handles kElementsPerThread elements of a tile: more
/// registers than 4 loads in flight need lower occupancy (8 per thread:
/// 124 registers, 0.80 of copy bandwidth on an H100 for a + b.T; 4: 62
/// registers, 0.87; 2: 0.76).
static constexpr int64_t kElementsPerThread = 4;
/// A block is 32 x rowsPerPass(tile) threads; a tile is `tile` x `tile`
/// elements (a multiple of 32), each thread handles (tile / 32) columns of
/// (tile / rowsPerPass) rows: 256 threads for 32 x 32 tiles, 1024 for 64 x 64.
static int64_t rowsPerPass(int64_t tile) {
  return tile * tile / (kWarp * kElementsPerThread);
}
/// Static shared memory a kernel may use without opting in.
static constexpr int64_t kSharedBytes = 48 * 1024;

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
  int64_t tile;
  int64_t group; ///< tile rows per group of the tile order
  /// Per input: whether it is stageable, and (host i1) whether it is
  /// column-major in the two innermost dims (then it is staged).
  SmallVector<bool> stageable;
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
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddIOp::create(b, loc, x, y);
    };
    size_t n = sizes.size();
    Value rows = toI32(sizes[n - 2]), cols = toI32(sizes[n - 1]);
    Value lastRow = arith::SubIOp::create(b, loc, rows, i32(1));
    Value lastCol = arith::SubIOp::create(b, loc, cols, i32(1));
    Value tilesC = arith::CeilDivUIOp::create(b, loc, cols, i32(tile));
    Value tilesR = arith::CeilDivUIOp::create(b, loc, rows, i32(tile));
    Value tiles = arith::MulIOp::create(b, loc, tilesC, tilesR);
    for (size_t d = 0; d + 2 < n; ++d)
      tiles = arith::MulIOp::create(b, loc, tiles, toI32(sizes[d]));
    Value tx = arith::RemUIOp::create(b, loc, c.thread, i32(kWarp));
    Value ty = arith::DivUIOp::create(b, loc, c.thread, i32(kWarp));
    // The thread's positions in the tile: `along` walks the 32 lanes of a
    // warp (consecutive addresses), `across` the warps of the block.
    SmallVector<std::pair<Value, Value>> positions;
    for (int64_t j = 0; j < tile / kWarp; ++j)
      for (int64_t k = 0; k < tile / rowsPerPass(tile); ++k)
        positions.push_back({add(tx, i32(j * kWarp)),
                             add(ty, i32(k * rowsPerPass(tile)))});

    auto loop = scf::ForOp::create(b, loc, c.block, tiles, c.gridSize);
    loop.setUnsignedCmp(true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    // Tile coordinates: batch outermost; within a matrix, tiles go in
    // groups of `group` tile rows, down the group's rows first, then to the
    // next tile column (blocks running at the same time then cover a
    // roughly square region: long contiguous runs in row- and column-major
    // operands alike).
    Value t = loop.getInductionVar();
    Value perMatrix = arith::MulIOp::create(b, loc, tilesR, tilesC);
    Value inMatrix = arith::RemUIOp::create(b, loc, t, perMatrix);
    t = arith::DivUIOp::create(b, loc, t, perMatrix);
    Value perGroup = arith::MulIOp::create(b, loc, i32(group), tilesC);
    Value firstRow = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, inMatrix, perGroup), i32(group));
    Value groupRows = arith::MinUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, tilesR, firstRow), i32(group));
    Value inGroup = arith::RemUIOp::create(b, loc, inMatrix, perGroup);
    Value r0 = arith::MulIOp::create(
        b, loc,
        add(firstRow, arith::RemUIOp::create(b, loc, inGroup, groupRows)),
        i32(tile));
    Value c0 = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, inGroup, groupRows), i32(tile));
    SmallVector<Value> ids = delinearize(b, loc, t, sizes.drop_back(2));
    ids.resize(n);
    // Iteration indices of tile element (row, col), clamped into the
    // tensor: edge tiles read valid (repeated) elements and skip the store.
    auto tileIds = [&](Value row, Value col) {
      SmallVector<Value> e(ids);
      e[n - 2] = toIndex(arith::MinUIOp::create(b, loc, add(r0, row), lastRow));
      e[n - 1] = toIndex(arith::MinUIOp::create(b, loc, add(c0, col), lastCol));
      return e;
    };
    ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();

    // Every global load of the tile is issued before the barrier, so that
    // one memory latency per tile is exposed, not one per phase; indices
    // are clamped, so loads need no bounds test. Element (row, col) of a
    // staged input is read by the thread at (along, across) (consecutive
    // threads read consecutive rows of a column-major input) and element
    // (across, along) is computed by it (consecutive threads store
    // consecutive output elements).
    SmallVector<SmallVector<Value>> elementIds;
    for (auto [along, across] : positions)
      elementIds.push_back(tileIds(across, along));
    auto loadAll = [&](OpOperand *in, ArrayRef<SmallVector<Value>> ids) {
      SmallVector<Value> values;
      for (ArrayRef<Value> e : ids)
        values.push_back(loadThroughMap(b, loc, op, in, e));
      return values;
    };
    // values[i][p]: input i at position p (empty for scalar inputs).
    SmallVector<SmallVector<Value>> values(stageable.size());
    for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands()))
      if (isa<MemRefType>(in->get().getType()) && !stageable[i])
        values[i] = loadAll(in, elementIds);
    // A stageable input: its tile in its own layout when it is column-major
    // (a warp-uniform branch), else its elements where they are computed.
    SmallVector<SmallVector<Value>> stagingIds;
    for (auto [along, across] : positions)
      stagingIds.push_back(tileIds(along, across));
    auto ifColumnMajor = [&](size_t i, auto thenValues, auto elseValues) {
      Type element = getElementTypeOrSelf(
          op.getDpsInputOperand(i)->get().getType());
      auto pick = scf::IfOp::create(
          b, loc, SmallVector<Type>(positions.size(), element),
          columnMajor[i], true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(pick.thenBlock());
      scf::YieldOp::create(b, loc, thenValues());
      b.setInsertionPointToStart(pick.elseBlock());
      scf::YieldOp::create(b, loc, elseValues());
      return SmallVector<Value>(pick.getResults());
    };
    for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands()))
      if (stageable[i])
        values[i] = ifColumnMajor(
            i, [&] { return loadAll(in, stagingIds); },
            [&] { return loadAll(in, elementIds); });
    for (auto [i, staged] : llvm::enumerate(stageable)) {
      if (!staged)
        continue;
      auto ifStaged = scf::IfOp::create(b, loc, columnMajor[i], false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifStaged.thenBlock());
      for (auto [v, pos] : llvm::zip(values[i], positions))
        memref::StoreOp::create(
            b, loc, v, shared[i],
            ValueRange{toIndex(pos.first), toIndex(pos.second)});
    }
    gpu::BarrierOp::create(b, loc);
    for (auto [i, staged] : llvm::enumerate(stageable)) {
      if (!staged)
        continue;
      SmallVector<Value> direct = values[i];
      values[i] = ifColumnMajor(
          i,
          [&] {
            SmallVector<Value> fromShared;
            for (auto [along, across] : positions)
              fromShared.push_back(memref::LoadOp::create(
                  b, loc, shared[i],
                  ValueRange{toIndex(across), toIndex(along)}));
            return fromShared;
          },
          [&] { return direct; });
    }
    // preloaded[p][i]: input i at position p (null for scalar inputs).
    SmallVector<SmallVector<Value>> preloaded(
        positions.size(), SmallVector<Value>(stageable.size()));
    for (auto [i, perPosition] : llvm::enumerate(values))
      for (auto [p, v] : llvm::enumerate(perPosition))
        preloaded[p][i] = v;
    for (auto [p, pos] : llvm::enumerate(positions)) {
      auto [along, across] = pos;
      SmallVector<Value> results =
          emitElement(b, loc, op, elementIds[p], preloaded[p]);
      Value inside = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                add(r0, across), rows),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                add(c0, along), cols));
      auto ifIn = scf::IfOp::create(b, loc, inside, false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifIn.thenBlock());
      for (auto [v, out] : llvm::zip(results, op.getDpsInits()))
        memref::StoreOp::create(b, loc, v, out, elementIds[p]);
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
  // The configured tile, or 32 where the staged tiles would not fit in
  // static shared memory.
  int64_t tile = config.transposeTile, bytes = 0;
  for (OpOperand *in : op.getDpsInputOperands())
    if (isStageable(op, in))
      bytes += tile * (tile + 1) *
               cast<MemRefType>(in->get().getType()).getElementTypeBitWidth() / 8;
  if (bytes > kSharedBytes)
    tile = kWarp;
  TiledBody body{op, sizes, tile, config.transposeGroup, {}, {}};
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
    body.stageable.push_back(stage);
    // Every input gets a buffer (attributions are positional); unstaged
    // ones get a 1x1 placeholder.
    auto type = dyn_cast<MemRefType>(in->get().getType());
    Type element = type ? type.getElementType() : b.getI8Type();
    int64_t edge = stage ? tile : 1, pitch = stage ? tile + 1 : 1;
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
      arith::CeilDivUIOp::create(b, loc, sizes[n - 2], indexConstant(b, loc, tile)),
      arith::CeilDivUIOp::create(b, loc, sizes[n - 1], indexConstant(b, loc, tile)));
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
                    indexConstant(b, loc, kWarp * rowsPerPass(tile)), sharedTypes);
    body.build(b, loc, launch);
  }
  b.setInsertionPointToStart(ifTiled.elseBlock());
}
