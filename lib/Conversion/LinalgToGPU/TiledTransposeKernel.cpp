//===- TiledTransposeKernel.cpp - shared-memory tiles for transposed reads ===//

#include "TiledTransposeKernel.h"

#include "KernelCommon.h"
#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::ptensor;

static constexpr int64_t kWarp = 32;
/// Threads of a block: 32 x kRowsPerPass. Each handles tile^2 / 256
/// elements of a tile: 4 of a 32 x 32 tile, 16 of a 64 x 64 one (its
/// loads all issued before the barrier). A 32 x 32 tile with 8 elements
/// per thread (124 registers) ran at 0.80 of copy bandwidth on an H100 for
/// a + b.T, with 4 (62 registers) 0.87, with 2 0.76; 64 x 64 tiles of
/// 1024 threads lost to 32 x 32 ones (0.83).
static constexpr int64_t kThreads = 256;
static constexpr int64_t kRowsPerPass = kThreads / kWarp;
/// Elements per vector access of the vector variant (16 bytes of f32).
static constexpr int64_t kVector = 4;
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
/// The edge tiles of a matrix of `rows` x `cols` in tiles of `tile` (one
/// integer type throughout): the last tile row where the rows do not fill
/// it, then the last tile column, less its corner when the row took it.
struct EdgeTiles {
  Value inLastRow, perMatrix;

  /// Tile (row, column) of edge tile `k` (below perMatrix).
  std::pair<Value, Value> tileAt(OpBuilder &b, Location loc, Value k,
                                 Value tilesR, Value tilesC, Value one) const {
    Value lastRow = arith::SubIOp::create(b, loc, tilesR, one);
    Value lastColumn = arith::SubIOp::create(b, loc, tilesC, one);
    Value inRow =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k, inLastRow);
    Value down = arith::SubIOp::create(b, loc, k, inLastRow);
    Value row = arith::SelectOp::create(b, loc, inRow, lastRow, down);
    Value column = arith::SelectOp::create(b, loc, inRow, k, lastColumn);
    return {row, column};
  }
};

/// The edge tiles of a `rows` x `cols` matrix (sizes and `tile` of one
/// integer type; `tilesR` and `tilesC` its tile rows and columns).
EdgeTiles edgeTiles(OpBuilder &b, Location loc, Value rows, Value cols,
                    Value tilesR, Value tilesC, Value tile) {
  auto ragged = [&](Value size) -> Value {
    Value rest = arith::RemUIOp::create(b, loc, size, tile);
    Value zero =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(size.getType(), 0));
    Value one =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(size.getType(), 1));
    Value isRagged =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rest, zero);
    return arith::SelectOp::create(b, loc, isRagged, one, zero);
  };
  Value raggedRows = ragged(rows);
  Value raggedColumns = ragged(cols);
  Value inLastRow = arith::MulIOp::create(b, loc, tilesC, raggedRows);
  Value columnTiles = arith::SubIOp::create(b, loc, tilesR, raggedRows);
  Value inLastColumn =
      arith::MulIOp::create(b, loc, columnTiles, raggedColumns);
  Value perMatrix = arith::AddIOp::create(b, loc, inLastRow, inLastColumn);
  return {inLastRow, perMatrix};
}

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
  /// The vector variant of interior tiles (null when the generic has
  /// inputs that are not staged or elements wider than 4 bytes): host i1
  /// that every operand allows kVector-element accesses, and per memref
  /// input its views with unit last stride in its row-major and
  /// column-major (last two dims swapped) forms, per output its row view.
  Value vectorOk;
  SmallVector<Value> rowViews, columnViews, outputViews;

  /// Where a thread's vectors of one vector-variant tile lie: a pass
  /// covers `lines` tile rows of `tile / kVector` vectors; in pass p the
  /// thread takes the kVector elements from (lines[p], lane) on.
  struct VectorTile {
    Value r0, c0;           ///< the tile's first row and column (i32)
    ArrayRef<Value> ids;    ///< batch indices (index)
    Value lane;             ///< the thread's first tile column (i32)
    SmallVector<Value> lines; ///< the thread's tile row per pass (i32)
    /// Per pass: iteration indices of the thread's first element.
    SmallVector<SmallVector<Value>> rowIds;

    /// Iteration indices of tile element (first + a, second + b).
    SmallVector<Value> at(OpBuilder &b, Location loc, Value first, Value a,
                          Value second, Value bOffset) const {
      size_t n = ids.size();
      SmallVector<Value> e(ids.begin(), ids.end());
      Value row = arith::AddIOp::create(b, loc, first, a);
      e[n - 2] = castUnsigned(b, loc, row, b.getIndexType());
      Value column = arith::AddIOp::create(b, loc, second, bOffset);
      e[n - 1] = castUnsigned(b, loc, column, b.getIndexType());
      return e;
    }
  };

  /// The vector type and alignment of a kVector-element access to `memref`.
  static std::pair<VectorType, llvm::Align> vectorAccess(Value memref) {
    Type element = cast<MemRefType>(memref.getType()).getElementType();
    return {VectorType::get({kVector}, element),
            llvm::Align(kVector * element.getIntOrFloatBitWidth() / 8)};
  }

  VectorTile vectorTile(OpBuilder &b, Location loc, Value thread, Value r0,
                        Value c0, ArrayRef<Value> ids) const {
    VectorTile v{r0, c0, ids, {}, {}, {}};
    int64_t lanes = tile / kVector;
    int64_t lines = kThreads / lanes;
    int64_t passes = tile / lines;
    Value lanesValue = i32Constant(b, loc, lanes);
    Value firstLine = arith::DivUIOp::create(b, loc, thread, lanesValue);
    Value laneIndex = arith::RemUIOp::create(b, loc, thread, lanesValue);
    Value vectorWidth = i32Constant(b, loc, kVector);
    v.lane = arith::MulIOp::create(b, loc, laneIndex, vectorWidth);
    for (int64_t p = 0; p < passes; ++p) {
      Value offset = i32Constant(b, loc, p * lines);
      v.lines.push_back(arith::AddIOp::create(b, loc, firstLine, offset));
    }
    for (Value line : v.lines)
      v.rowIds.push_back(v.at(b, loc, r0, line, c0, v.lane));
    return v;
  }

  /// result[p][i]: kVector elements of memref input i in pass p (null for
  /// scalars), loaded along the input's contiguous dim (a column-major
  /// input: kVector rows of one column). Every pass's loads come before
  /// the barrier.
  SmallVector<SmallVector<Value>> loadVectors(OpBuilder &b, Location loc,
                                              const VectorTile &v) {
    SmallVector<SmallVector<Value>> vectors(
        v.lines.size(), SmallVector<Value>(stageable.size()));
    for (auto [p, line] : llvm::enumerate(v.lines)) {
      for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands())) {
        if (!isa<MemRefType>(in->get().getType()))
          continue;
        auto [type, align] = vectorAccess(in->get());
        auto pick = scf::IfOp::create(b, loc, TypeRange{type},
                                      columnMajor[i], true);
        OpBuilder::InsertionGuard g(b);
        // The input's own indices (its map may drop or fix leading dims);
        // the swapped view takes the last two the other way round.
        b.setInsertionPointToStart(pick.thenBlock());
        SmallVector<Value> tileIds = v.at(b, loc, v.r0, v.lane, v.c0, line);
        SmallVector<Value> columnIds =
            indicesThroughMap(b, loc, op, in, tileIds);
        std::swap(columnIds[columnIds.size() - 1],
                  columnIds[columnIds.size() - 2]);
        Value column = vector::LoadOp::create(b, loc, type, columnViews[i],
                                              columnIds, false, align);
        scf::YieldOp::create(b, loc, column);
        b.setInsertionPointToStart(pick.elseBlock());
        SmallVector<Value> inputIds =
            indicesThroughMap(b, loc, op, in, v.rowIds[p]);
        Value row = vector::LoadOp::create(b, loc, type, rowViews[i],
                                           inputIds, false, align);
        scf::YieldOp::create(b, loc, row);
        vectors[p][i] = pick.getResult(0);
      }
    }
    return vectors;
  }

  /// Shared-memory position (row, column) of element k of the thread's
  /// vector in the pass at `line`: (lane + k, line) when `transposed`.
  static std::pair<Value, Value> sharedPosition(OpBuilder &b, Location loc,
                                                const VectorTile &v,
                                                Value line, int64_t k,
                                                bool transposed) {
    Type index = b.getIndexType();
    Value kValue = i32Constant(b, loc, k);
    if (!transposed) {
      Value row = castUnsigned(b, loc, line, index);
      Value laneK = arith::AddIOp::create(b, loc, v.lane, kValue);
      return {row, castUnsigned(b, loc, laneK, index)};
    }
    Value laneK = arith::AddIOp::create(b, loc, v.lane, kValue);
    Value row = castUnsigned(b, loc, laneK, index);
    return {row, castUnsigned(b, loc, line, index)};
  }

  /// A column-major input's elements (lane + k, line) go to
  /// shared[lane + k][line].
  void stageVectors(OpBuilder &b, Location loc, const VectorTile &v,
                    ArrayRef<SmallVector<Value>> vectors,
                    ArrayRef<BlockArgument> shared) const {
    for (auto [p, line] : llvm::enumerate(v.lines)) {
      for (auto [i, vec] : llvm::enumerate(vectors[p])) {
        if (!vec)
          continue;
        auto ifStaged = scf::IfOp::create(b, loc, columnMajor[i], false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifStaged.thenBlock());
        for (int64_t k = 0; k < kVector; ++k) {
          Value element = vector::ExtractOp::create(b, loc, vec, k);
          auto [row, column] = sharedPosition(b, loc, v, line, k, true);
          memref::StoreOp::create(b, loc, element, shared[i],
                                  ValueRange{row, column});
        }
      }
    }
  }

  /// After the barrier: a column-major input's vector becomes the elements
  /// (line, lane + k) the thread computes, read back from shared memory.
  void readStagedVectors(OpBuilder &b, Location loc, const VectorTile &v,
                         MutableArrayRef<SmallVector<Value>> vectors,
                         ArrayRef<BlockArgument> shared) const {
    for (auto [p, line] : llvm::enumerate(v.lines)) {
      for (auto [i, vec] : llvm::enumerate(vectors[p])) {
        if (!vec)
          continue;
        auto pick = scf::IfOp::create(b, loc, TypeRange{vec.getType()},
                                      columnMajor[i], true);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(pick.thenBlock());
        SmallVector<Value> elements;
        for (int64_t k = 0; k < kVector; ++k) {
          auto [row, column] = sharedPosition(b, loc, v, line, k, false);
          elements.push_back(memref::LoadOp::create(b, loc, shared[i],
                                                    ValueRange{row, column}));
        }
        Value fromShared = vector::FromElementsOp::create(
            b, loc, cast<VectorType>(vec.getType()), elements);
        scf::YieldOp::create(b, loc, fromShared);
        b.setInsertionPointToStart(pick.elseBlock());
        scf::YieldOp::create(b, loc, vec);
        vec = pick.getResult(0);
      }
    }
  }

  /// Computes kVector consecutive elements of a row per pass and stores
  /// them with one vector store into each output.
  void computeAndStoreVectors(OpBuilder &b, Location loc, const VectorTile &v,
                              ArrayRef<SmallVector<Value>> vectors) {
    for (auto [p, line] : llvm::enumerate(v.lines)) {
      SmallVector<SmallVector<Value>> results(op.getNumDpsInits());
      for (int64_t k = 0; k < kVector; ++k) {
        SmallVector<Value> preloaded;
        for (Value vec : vectors[p])
          preloaded.push_back(
              vec ? Value(vector::ExtractOp::create(b, loc, vec, k))
                  : Value());
        Value kValue = i32Constant(b, loc, k);
        Value laneK = arith::AddIOp::create(b, loc, v.lane, kValue);
        SmallVector<Value> elementIds = v.at(b, loc, v.r0, line, v.c0, laneK);
        for (auto [o, r] :
             llvm::enumerate(emitElement(b, loc, op, elementIds, preloaded)))
          results[o].push_back(r);
      }
      for (auto [view, values] : llvm::zip(outputViews, results)) {
        auto [type, align] = vectorAccess(view);
        Value vec = vector::FromElementsOp::create(b, loc, type, values);
        vector::StoreOp::create(b, loc, vec, view, v.rowIds[p], false, align);
      }
    }
  }

  /// One tile of `tile` x `tile` elements at (r0, c0) of matrix `ids` (the
  /// batch indices), inside the tensor, with vector accesses (see
  /// VectorTile): loads, staging of column-major inputs, barrier, read
  /// back, compute and store.
  void buildVectorTile(OpBuilder &b, Location loc, Value thread, Value r0,
                       Value c0, ArrayRef<Value> ids,
                       ArrayRef<BlockArgument> shared) {
    VectorTile v = vectorTile(b, loc, thread, r0, c0, ids);
    SmallVector<SmallVector<Value>> vectors = loadVectors(b, loc, v);
    stageVectors(b, loc, v, vectors, shared);
    gpu::BarrierOp::create(b, loc);
    readStagedVectors(b, loc, v, vectors, shared);
    computeAndStoreVectors(b, loc, v, vectors);
  }

  /// Which tiles a launch of the body computes: with the vector variant
  /// the interior tiles (where vectorOk), with the scalar code the others.
  enum class Tiles { Vector, Scalar };

  /// The body of `launch`. Its blocks walk every tile, but where
  /// `edgesOnly` (i1, null: false) holds, only the edge tiles (the scalar
  /// launch beside the vector one; edgeTiles).
  void build(OpBuilder &b, Location loc, gpu::LaunchOp launch, Tiles which,
             Value edgesOnly = Value()) {
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
    Value perMatrix = arith::MulIOp::create(b, loc, tilesR, tilesC);
    Value matrices = i32(1);
    for (size_t d = 0; d + 2 < n; ++d)
      matrices = arith::MulIOp::create(b, loc, matrices, toI32(sizes[d]));
    Value tiles = arith::MulIOp::create(b, loc, perMatrix, matrices);
    EdgeTiles edges;
    if (edgesOnly) {
      edges = edgeTiles(b, loc, rows, cols, tilesR, tilesC, i32(tile));
      Value edgeCount =
          arith::MulIOp::create(b, loc, edges.perMatrix, matrices);
      tiles = arith::SelectOp::create(b, loc, edgesOnly, edgeCount, tiles);
      // (At least 1: the division below is on every path.)
      Value someEdges = arith::MaxUIOp::create(b, loc, edges.perMatrix, i32(1));
      perMatrix =
          arith::SelectOp::create(b, loc, edgesOnly, someEdges, perMatrix);
    }
    Value tx = arith::RemUIOp::create(b, loc, c.thread, i32(kWarp));
    Value ty = arith::DivUIOp::create(b, loc, c.thread, i32(kWarp));
    // The thread's positions in the tile: `along` walks the 32 lanes of a
    // warp (consecutive addresses), `across` the warps of the block.
    SmallVector<std::pair<Value, Value>> positions;
    for (int64_t j = 0; j < tile / kWarp; ++j)
      for (int64_t k = 0; k < tile / kRowsPerPass; ++k)
        positions.push_back(
            {add(tx, i32(j * kWarp)), add(ty, i32(k * kRowsPerPass))});

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
    Value inMatrix = arith::RemUIOp::create(b, loc, t, perMatrix);
    t = arith::DivUIOp::create(b, loc, t, perMatrix);
    Value perGroup = arith::MulIOp::create(b, loc, i32(group), tilesC);
    Value groupIndex = arith::DivUIOp::create(b, loc, inMatrix, perGroup);
    Value groupValue = i32(group);
    Value firstRow = arith::MulIOp::create(b, loc, groupIndex, groupValue);
    Value rowsLeft = arith::SubIOp::create(b, loc, tilesR, firstRow);
    Value groupRows = arith::MinUIOp::create(b, loc, rowsLeft, groupValue);
    Value inGroup = arith::RemUIOp::create(b, loc, inMatrix, perGroup);
    Value rowInGroup = arith::RemUIOp::create(b, loc, inGroup, groupRows);
    Value tileRow = add(firstRow, rowInGroup);
    Value tileValue = i32(tile);
    Value tileColumn = arith::DivUIOp::create(b, loc, inGroup, groupRows);
    if (edgesOnly) {
      // The last tile row's tiles first, then the last tile column's.
      auto [edgeRow, edgeColumn] =
          edges.tileAt(b, loc, inMatrix, tilesR, tilesC, i32(1));
      tileRow = arith::SelectOp::create(b, loc, edgesOnly, edgeRow, tileRow);
      tileColumn =
          arith::SelectOp::create(b, loc, edgesOnly, edgeColumn, tileColumn);
    }
    Value r0 = arith::MulIOp::create(b, loc, tileRow, tileValue);
    Value c0 = arith::MulIOp::create(b, loc, tileColumn, tileValue);
    SmallVector<Value> ids = delinearize(b, loc, t, sizes.drop_back(2));
    ids.resize(n);
    ArrayRef<BlockArgument> shared = launch.getWorkgroupAttributions();
    // Interior tiles of a generic whose operands allow it take the vector
    // variant, the others the scalar code below, each in a launch of its
    // own (a block-uniform test: the barriers inside are reached by all).
    // One kernel holding both took 98 registers for a transposed copy of
    // f32 (the scalar code's sixteen loads and their 64-bit indices), so
    // 2 blocks per SM: 0.84 of copy bandwidth on the H200 (stop 85), where
    // bench/micro/transpose.cu's kernel of 32 registers took 0.97 (stop
    // 66); the vector kernel alone takes 40: 0.96-0.98 on the H100 against
    // 0.95 with the one kernel (stop 91).
    if (vectorOk) {
      auto fits = [&](Value start, Value size) -> Value {
        Value tileValue = i32(tile);
        Value end = add(start, tileValue);
        return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end,
                                     size);
      };
      Value rowsFit = fits(r0, rows);
      Value colsFit = fits(c0, cols);
      Value tileFits = arith::AndIOp::create(b, loc, rowsFit, colsFit);
      // The vector kernel is launched only where vectorOk holds: its tiles
      // are the interior ones; the scalar kernel takes the others.
      Value takes = tileFits;
      if (which == Tiles::Scalar) {
        Value interior = arith::AndIOp::create(b, loc, vectorOk, tileFits);
        takes = IndexMath(b, loc).notI(interior);
      }
      auto ifTakes = scf::IfOp::create(b, loc, takes, false);
      b.setInsertionPointToStart(ifTakes.thenBlock());
      if (which == Tiles::Vector) {
        buildVectorTile(b, loc, c.thread, r0, c0, ids, shared);
        // The next tile overwrites shared memory.
        gpu::BarrierOp::create(b, loc);
        return;
      }
    }
    // Iteration indices of tile element (row, col), clamped into the
    // tensor: edge tiles read valid (repeated) elements and skip the store.
    auto tileIds = [&](Value row, Value col) {
      SmallVector<Value> e(ids);
      e[n - 2] = toIndex(arith::MinUIOp::create(b, loc, add(r0, row), lastRow));
      e[n - 1] = toIndex(arith::MinUIOp::create(b, loc, add(c0, col), lastCol));
      return e;
    };

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
    for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands())) {
      OpOperand *input = in; // (structured bindings are not captured)
      if (stageable[i])
        values[i] = ifColumnMajor(
            i, [&] { return loadAll(input, stagingIds); },
            [&] { return loadAll(input, elementIds); });
    }
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
      Value tileBuffer = shared[i];
      values[i] = ifColumnMajor(
          i,
          [&] {
            SmallVector<Value> fromShared;
            for (auto [along, across] : positions)
              fromShared.push_back(memref::LoadOp::create(
                  b, loc, tileBuffer,
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
      Value row = add(r0, across);
      Value rowInside =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
      Value column = add(c0, along);
      Value columnInside = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, column, cols);
      Value inside = arith::AndIOp::create(b, loc, rowInside, columnInside);
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

/// A view of `memref` with a static unit stride in its last dim (the last
/// two dims swapped when `swapLast`), valid where that dim's run-time
/// stride is 1.
static Value unitStrideView(OpBuilder &b, Location loc, Value memref,
                            bool swapLast) {
  auto type = cast<MemRefType>(memref.getType());
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  SmallVector<OpFoldResult> sizes = getAsOpFoldResult(md.getSizes());
  SmallVector<OpFoldResult> strides = getAsOpFoldResult(md.getStrides());
  size_t n = sizes.size();
  if (swapLast) {
    std::swap(sizes[n - 1], sizes[n - 2]);
    std::swap(strides[n - 1], strides[n - 2]);
  }
  strides.back() = b.getIndexAttr(1);
  SmallVector<int64_t> layoutStrides(n, ShapedType::kDynamic);
  layoutStrides.back() = 1;
  auto viewType = MemRefType::get(
      SmallVector<int64_t>(n, ShapedType::kDynamic), type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                             layoutStrides),
      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(b, loc, viewType, memref,
                                           getAsOpFoldResult(md.getOffset()),
                                           sizes, strides);
}

/// Host i1: the first element of `memref` is aligned to a kVector-element
/// vector and `stride` (the dim across the vectors) is a multiple of
/// kVector, so every vector of an interior tile is aligned.
static Value vectorAligned(OpBuilder &b, Location loc, Value memref,
                           Value stride) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value elementBytes = indexConstant(b, loc, bytes);
  Value offsetBytes =
      arith::MulIOp::create(b, loc, md.getOffset(), elementBytes);
  Value first = arith::AddIOp::create(b, loc, pointer, offsetBytes);
  auto isZero = [&](Value v) -> Value {
    Value zero = indexConstant(b, loc, 0);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v, zero);
  };
  Value vectorBytes = indexConstant(b, loc, kVector * bytes);
  Value misalignment = arith::RemUIOp::create(b, loc, first, vectorBytes);
  Value firstAligned = isZero(misalignment);
  Value vectorWidth = indexConstant(b, loc, kVector);
  Value strideRest = arith::RemSIOp::create(b, loc, stride, vectorWidth);
  Value strideAligned = isZero(strideRest);
  return arith::AndIOp::create(b, loc, firstAligned, strideAligned);
}

/// Sets up `body`'s vector variant where the generic allows it: every
/// memref input staged when column-major, elements of at most 4 bytes.
static void addVectorVariant(OpBuilder &b, Location loc, linalg::GenericOp op,
                             TiledBody &body) {
  auto small = [](Value v) {
    auto type = dyn_cast<MemRefType>(v.getType());
    return !type || type.getElementTypeBitWidth() <= 32;
  };
  for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands()))
    if (!small(in->get()) ||
        (isa<MemRefType>(in->get().getType()) && !body.stageable[i]))
      return;
  if (!llvm::all_of(op.getDpsInits(), small))
    return;
  auto strideAt = [&](Value memref, int64_t fromEnd) -> Value {
    auto md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    return md.getStrides()[md.getStrides().size() - fromEnd];
  };
  auto isOne = [&](Value v) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v,
                                 indexConstant(b, loc, 1));
  };
  Value ok = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  body.rowViews.assign(body.stageable.size(), Value());
  body.columnViews.assign(body.stageable.size(), Value());
  for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands())) {
    Value m = in->get();
    if (!isa<MemRefType>(m.getType()))
      continue;
    body.rowViews[i] = unitStrideView(b, loc, m, /*swapLast=*/false);
    body.columnViews[i] = unitStrideView(b, loc, m, /*swapLast=*/true);
    // Column-major (stride[-2] == 1): vectors along rows; row-major:
    // along columns.
    Value columnOk = vectorAligned(b, loc, m, strideAt(m, 1));
    Value unitRows = isOne(strideAt(m, 1));
    Value rowsAligned = vectorAligned(b, loc, m, strideAt(m, 2));
    Value rowOk = arith::AndIOp::create(b, loc, unitRows, rowsAligned);
    Value inputOk =
        arith::SelectOp::create(b, loc, body.columnMajor[i], columnOk, rowOk);
    ok = arith::AndIOp::create(b, loc, ok, inputOk);
  }
  for (Value out : op.getDpsInits()) {
    body.outputViews.push_back(unitStrideView(b, loc, out, /*swapLast=*/false));
    Value unitRows = isOne(strideAt(out, 1));
    Value rowsAligned = vectorAligned(b, loc, out, strideAt(out, 2));
    Value outputOk = arith::AndIOp::create(b, loc, unitRows, rowsAligned);
    ok = arith::AndIOp::create(b, loc, ok, outputOk);
  }
  body.vectorOk = ok;
}

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
  TiledBody body{op, sizes, tile, config.transposeGroup};
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
    Value unitColumns = eq(strides[strides.size() - 2], 1);
    Value unitRows = eq(strides.back(), 1);
    Value notUnitRows = IndexMath(b, loc).notI(unitRows);
    Value colMajor = arith::AndIOp::create(b, loc, unitColumns, notUnitRows);
    body.columnMajor.push_back(colMajor);
    any = arith::OrIOp::create(b, loc, any, colMajor);
  }
  addVectorVariant(b, loc, op, body);
  size_t n = sizes.size();
  Value tileValue = indexConstant(b, loc, tile);
  Value tileRows = arith::CeilDivUIOp::create(b, loc, sizes[n - 2], tileValue);
  Value tileColumns =
      arith::CeilDivUIOp::create(b, loc, sizes[n - 1], tileValue);
  Value tiles = arith::MulIOp::create(b, loc, tileRows, tileColumns);
  for (size_t d = 0; d + 2 < n; ++d)
    tiles = arith::MulIOp::create(b, loc, tiles, sizes[d]);
  Value ok = arith::AndIOp::create(b, loc, fits32, any);
  auto ifTiled = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifTiled.thenBlock());
  {
    OpBuilder::InsertionGuard guard(b);
    // One block per tile, up to the tiled path's grid limit.
    KernelConfig tileConfig = config;
    tileConfig.blockSize = 1;
    tileConfig.maxBlocks = std::min(config.maxBlocks, config.transposeMaxBlocks);
    Value grid = gridFor(b, loc, tiles, tileConfig);
    auto launchFor = [&](Value blocks, TiledBody::Tiles which,
                         Value edgesOnly = Value()) {
      OpBuilder::InsertionGuard launchGuard(b);
      gpu::LaunchOp launch = beginLaunch(
          b, loc, blocks, indexConstant(b, loc, kThreads), sharedTypes);
      body.build(b, loc, launch, which, edgesOnly);
    };
    if (!body.vectorOk) {
      launchFor(grid, TiledBody::Tiles::Scalar);
    } else {
      // The vector kernel where the operands allow it, then the scalar one
      // where some tiles are left: all of them without the vector variant,
      // else the edge tiles of rows or columns that are not a multiple of
      // the tile, on a grid of those alone.
      auto ifVector = scf::IfOp::create(b, loc, body.vectorOk, false);
      b.setInsertionPointToStart(ifVector.thenBlock());
      launchFor(grid, TiledBody::Tiles::Vector);
      b.setInsertionPointAfter(ifVector);
      EdgeTiles edges = edgeTiles(b, loc, sizes[n - 2], sizes[n - 1], tileRows,
                                  tileColumns, tileValue);
      Value edgeCount = edges.perMatrix;
      for (size_t d = 0; d + 2 < n; ++d)
        edgeCount = arith::MulIOp::create(b, loc, edgeCount, sizes[d]);
      Value zero = indexConstant(b, loc, 0);
      Value someEdges = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                              edges.perMatrix, zero);
      Value noVector = IndexMath(b, loc).notI(body.vectorOk);
      Value scalarLeft = arith::OrIOp::create(b, loc, noVector, someEdges);
      auto ifScalar = scf::IfOp::create(b, loc, scalarLeft, false);
      b.setInsertionPointToStart(ifScalar.thenBlock());
      Value edgeGrid = gridFor(b, loc, edgeCount, tileConfig);
      Value scalarGrid =
          arith::SelectOp::create(b, loc, body.vectorOk, edgeGrid, grid);
      launchFor(scalarGrid, TiledBody::Tiles::Scalar, body.vectorOk);
    }
  }
  b.setInsertionPointToStart(ifTiled.elseBlock());
}
