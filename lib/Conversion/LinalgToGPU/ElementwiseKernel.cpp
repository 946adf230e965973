//===- ElementwiseKernel.cpp - gpu.launch variants for an elementwise generic //
//
// Each elementwise generic becomes a chain of run-time tests choosing one
// launch:
//   1. flat vector path (FlatVectorKernel.cpp): every operand contiguous;
//   2. tiled transpose path (TiledTransposeKernel.cpp): an input is
//      column-major in the two innermost dims;
//   3. row-vector path: outputs with unit stride along rows and row strides
//      a multiple of the vector width (contiguous, or boxes of a larger
//      buffer: a concat's parts, a roll's shifted part), inputs read along
//      rows with unit stride or broadcast along rows; a thread computes
//      `width` consecutive row elements and stores them with one aligned
//      vector store, and each row's elements before its first aligned one
//      and after its last whole vector go one at a time (rows mostly of
//      those take path 4); a body calling a math function gets at most
//      `math-max-blocks` blocks, whose threads loop over the vectors;
//   4. the general path: a grid-stride loop over the flattened iteration
//      space
//        for (lin = blockIdx.x * blockDim.x + threadIdx.x; lin < N;
//             lin += gridDim.x * blockDim.x)
//      that splits `lin` into loop indices (innermost fastest) and loads
//      each input through its indexing map (any strides), in i32 when
//      N < 2^31 and in i64 otherwise (64-bit division is several times
//      slower on NVIDIA GPUs). Whole chunks of `unroll` x blockDim
//      elements come first: a thread loads its `unroll` elements (each a
//      coalesced access of the block) before it stores any, so that many
//      loads are in flight; the rest goes one element per step.
//
// With the kernel option strided-paths=0 (for callers whose operands are
// contiguous) only two launches are compiled: path 1, or else path 3 where
// path 1 does not apply, and path 4 in i64 alone. LLVM's NVPTX backend and
// ptxas then have half the kernels or fewer to compile.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseKernel.h"

#include "FlatVectorKernel.h"
#include "KernelCommon.h"
#include "TiledTransposeKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::ptensor;

/// Checks that `op` is a generic this lowering handles.
const char *mlir::ptensor::whyNotElementwiseKernel(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics())
    return "expected buffer semantics";
  if (op.getNumReductionLoops() != 0)
    return "expected only parallel loops";
  for (OpOperand &out : op.getDpsInitsMutable()) {
    if (!op.getMatchingIndexingMap(&out).isIdentity())
      return "expected identity output maps";
    if (op.payloadUsesValueFromOperand(&out))
      return "outputs must not be read";
  }
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr e : map.getResults())
      if (!isa<AffineDimExpr, AffineConstantExpr>(e))
        return "expected dims or constants";
  return nullptr;
}

/// Checks that `op` is a generic this lowering handles.
static LogicalResult checkSupported(RewriterBase &rewriter,
                                    linalg::GenericOp op) {
  if (const char *why = whyNotElementwiseKernel(op))
    return rewriter.notifyMatchFailure(op, why);
  return success();
}

namespace {
/// Builds the body of a launch of the general or the row-vector path with
/// index type `it`.
struct IndexedKernelBody {
  linalg::GenericOp op;
  ValueRange sizes; ///< loop sizes (index), captured from the host
  Value count;      ///< iterations: elements, or vectors (index)
  /// Elements per iteration: > 1 for the row-vector path, where a thread
  /// computes `width` consecutive elements of one row and stores them with
  /// one aligned vector store into each output's row view (unit innermost
  /// stride). Each row is split alike: `lead` elements before the first
  /// aligned one, `count` / rows vectors, then the rest; the lead and the
  /// rest (`edgeCount` elements in all rows) go one element per step.
  int64_t width = 1;
  SmallVector<Value> rowOutputs;
  Value lead;       ///< row path: elements before the vectors (index)
  Value rowVectors; ///< row path: vectors per row (index)
  Value rowEdge;    ///< row path: lead and rest per row (index)
  Value edgeCount;  ///< row path: rows x rowEdge (index)
  /// Elements a thread of the general path (width 1) loads before it
  /// stores, per step over whole chunks of `unroll` x blockDim elements.
  /// One element per step kept one load in flight per thread: a roll's
  /// unaligned copy ran at 0.77 of copy bandwidth on the H100.
  int64_t unroll = 1;

  void build(OpBuilder &b, Location loc, gpu::LaunchOp launch, Type it) {
    ThreadCoordinates c = threadCoordinates(b, loc, launch, it);
    Value total = castUnsigned(b, loc, count, it);
    if (width > 1) {
      buildRowVectors(b, loc, c, total);
      buildRowEdges(b, loc, c, castUnsigned(b, loc, edgeCount, it));
      return;
    }
    Value start = c.globalId;
    if (unroll > 1) {
      Value rest = emitUnrolledChunks(
          b, loc, c, total, unroll,
          [&](OpBuilder &b, Location loc, ValueRange items) {
            processElements(b, loc, items);
          });
      start = arith::AddIOp::create(b, loc, rest, start);
    }
    OpBuilder::InsertionGuard guard(b);
    Value lin = beginGridStrideLoop(b, loc, c, start, total);
    // Split the linear index, innermost dimension fastest.
    SmallVector<Value> ids = delinearize(b, loc, lin, sizes);
    storeElement(b, loc, ids, emitElement(b, loc, op, ids));
  }

  /// Starts `for (lin = start; lin < end; lin += threads)` and returns
  /// `lin`, with the insertion point in its body.
  static Value beginGridStrideLoop(OpBuilder &b, Location loc,
                                   const ThreadCoordinates &c, Value start,
                                   Value end) {
    auto loop = scf::ForOp::create(b, loc, start, end, c.threadCount);
    // Unsigned: `lin + step` may pass INT32_MAX (never 2^32) near the end.
    loop.setUnsignedCmp(true);
    b.setInsertionPointToStart(loop.getBody());
    return loop.getInductionVar();
  }

  /// `sizes` with the innermost replaced by `inner`.
  SmallVector<Value> rowSizes(Value inner) const {
    SmallVector<Value> rows(sizes);
    rows.back() = inner;
    return rows;
  }

  /// The row path's vectors: vector k of a row starts at column
  /// lead + k * width.
  void buildRowVectors(OpBuilder &b, Location loc, const ThreadCoordinates &c,
                       Value total) {
    OpBuilder::InsertionGuard guard(b);
    Value lin = beginGridStrideLoop(b, loc, c, c.globalId, total);
    SmallVector<Value> ids = delinearize(b, loc, lin, rowSizes(rowVectors));
    Value column =
        arith::MulIOp::create(b, loc, ids.back(), indexConstant(b, loc, width));
    ids.back() = arith::AddIOp::create(b, loc, lead, column);
    SmallVector<SmallVector<Value>> lanes(rowOutputs.size());
    for (int64_t lane = 0; lane < width; ++lane) {
      SmallVector<Value> laneIds(ids);
      laneIds.back() = arith::AddIOp::create(b, loc, ids.back(),
                                             indexConstant(b, loc, lane));
      for (auto [i, v] : llvm::enumerate(emitElement(b, loc, op, laneIds)))
        lanes[i].push_back(v);
    }
    for (auto [out, values] : llvm::zip(rowOutputs, lanes)) {
      Type element = cast<MemRefType>(out.getType()).getElementType();
      auto type = VectorType::get({width}, element);
      Value vec = vector::FromElementsOp::create(b, loc, type, values);
      vector::StoreOp::create(b, loc, vec, out, ids,
                              /*nontemporal=*/false,
                              llvm::Align(rowAlignment(width, element)));
    }
  }

  /// The row path's other elements, one per step: edge element e of a row
  /// is column e of the lead, or the rest's column e - lead after the
  /// vectors.
  void buildRowEdges(OpBuilder &b, Location loc, const ThreadCoordinates &c,
                     Value total) {
    OpBuilder::InsertionGuard guard(b);
    Value lin = beginGridStrideLoop(b, loc, c, c.globalId, total);
    SmallVector<Value> ids = delinearize(b, loc, lin, rowSizes(rowEdge));
    Value e = ids.back();
    Value inLead =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, e, lead);
    Value vectorElements =
        arith::MulIOp::create(b, loc, rowVectors, indexConstant(b, loc, width));
    Value afterVectors = arith::AddIOp::create(b, loc, e, vectorElements);
    ids.back() = arith::SelectOp::create(b, loc, inLead, e, afterVectors);
    storeElement(b, loc, ids, emitElement(b, loc, op, ids));
  }

  void storeElement(OpBuilder &b, Location loc, ValueRange ids,
                    ValueRange results) {
    for (auto [v, out] : llvm::zip(results, op.getDpsInits()))
      memref::StoreOp::create(b, loc, v, out, ids);
  }

  /// Loads and computes the elements `items` (linear indices), then
  /// stores them all.
  void processElements(OpBuilder &b, Location loc, ValueRange items) {
    SmallVector<SmallVector<Value>> ids, results;
    for (Value lin : items) {
      ids.push_back(delinearize(b, loc, lin, sizes));
      results.push_back(emitElement(b, loc, op, ids.back()));
    }
    for (auto [at, values] : llvm::zip(ids, results))
      storeElement(b, loc, at, values);
  }
};
} // namespace

/// Emits a launch of `kernel` with `blocks` blocks and index type `it`.
static void emitIndexedLaunch(OpBuilder &b, Location loc,
                              IndexedKernelBody &kernel, Value blocks,
                              const KernelConfig &config, Type it) {
  OpBuilder::InsertionGuard guard(b);
  gpu::LaunchOp launch =
      beginLaunch(b, loc, blocks, indexConstant(b, loc, config.blockSize));
  kernel.build(b, loc, launch, it);
}

/// The row-vector path (see the file comment): emits its run-time test and
/// launch, and moves the insertion point into the else-branch.
static void emitRowVectorPath(RewriterBase &b, Location loc,
                              linalg::GenericOp op, ValueRange sizes,
                              Value count, Value fits32,
                              const KernelConfig &config) {
  // One 16-byte store of the smallest output type per thread step.
  int64_t width = 16 / smallestElementBytes(op, /*outputsOnly=*/true);
  Value ok = fits32;
  // Measured on the H100: only inputs walked with unit stride along the
  // row gain (flip +25%); transposed or column-strided reads lose.
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(in->get().getType());
    if (!type || rowAccessOf(op, in) != RowAccess::AlongRow)
      continue;
    auto md = memref::ExtractStridedMetadataOp::create(b, loc, in->get());
    Value stride = md.getStrides().back();
    auto is = [&](int64_t v) -> Value {
      Value expected = indexConstant(b, loc, v);
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, stride,
                                   expected);
    };
    Value forward = is(1);
    Value backward = is(-1);
    Value unit = arith::OrIOp::create(b, loc, forward, backward);
    ok = arith::AndIOp::create(b, loc, ok, unit);
  }
  // Every output's rows start alike: the first output's lead (elements
  // before an aligned one, at most the row) aligns the others too.
  Value rowSize = sizes.back();
  ValueRange outputs = op.getDpsInits();
  auto alignmentOf = [&](Value out) {
    return rowAlignment(width,
                        cast<MemRefType>(out.getType()).getElementType());
  };
  Value lead = arith::MinUIOp::create(
      b, loc,
      elementsBeforeAligned(b, loc, outputs[0], alignmentOf(outputs[0])),
      rowSize);
  IndexedKernelBody rows{op, sizes, Value(), width, {}};
  for (Value out : outputs) {
    GuardedView row = rowViewFromAnyColumn(b, loc, out, width);
    ok = arith::AndIOp::create(b, loc, ok, row.ok);
    ok = arith::AndIOp::create(
        b, loc, ok, isElementAligned(b, loc, out, lead, alignmentOf(out)));
    rows.rowOutputs.push_back(row.view);
  }
  Value widthValue = indexConstant(b, loc, width);
  Value rowCount = arith::DivUIOp::create(b, loc, count, rowSize);
  Value afterLead = arith::SubIOp::create(b, loc, rowSize, lead);
  rows.lead = lead;
  rows.rowVectors = arith::DivUIOp::create(b, loc, afterLead, widthValue);
  rows.count = arith::MulIOp::create(b, loc, rowCount, rows.rowVectors);
  Value vectorElements =
      arith::MulIOp::create(b, loc, rows.rowVectors, widthValue);
  rows.rowEdge = arith::SubIOp::create(b, loc, rowSize, vectorElements);
  rows.edgeCount = arith::MulIOp::create(b, loc, rowCount, rows.rowEdge);
  // Rows mostly of edges (shorter than two vectors, say) go faster through
  // the general path, whose threads keep several loads in flight.
  Value mostlyVectors = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                              vectorElements, rows.rowEdge);
  ok = arith::AndIOp::create(b, loc, ok, mostlyVectors);
  Value work = arith::MaxUIOp::create(b, loc, rows.count, rows.edgeCount);
  auto ifRows = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifRows.thenBlock());
  // A body computing a math function per element is bound by its
  // instructions: fewer blocks, each thread looping over a few vectors
  // (KernelOptions.def, math-max-blocks).
  KernelConfig rowConfig = config;
  if (callsMathFunction(op))
    rowConfig.maxBlocks = std::min(config.maxBlocks, config.mathMaxBlocks);
  emitIndexedLaunch(b, loc, rows, gridFor(b, loc, work, rowConfig), config,
                    b.getI32Type());
  b.setInsertionPointToStart(ifRows.elseBlock());
}

/// True when the row-vector path may apply to `op` (checked at run time).
static bool isRowVectorCandidate(linalg::GenericOp op) {
  if (!hasByteElements(op) || op.getNumLoops() == 0)
    return false;
  return llvm::none_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    return isa<MemRefType>(in->get().getType()) &&
           rowAccessOf(op, in) == RowAccess::Unsupported;
  });
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
  Value count = indexConstant(rewriter, loc, 1);
  for (int64_t d = 0; d < op.getNumLoops(); ++d) {
    sizes.push_back(memref::DimOp::create(rewriter, loc, out, d));
    count = arith::MulIOp::create(rewriter, loc, count, sizes.back());
  }
  // Empty tensors launch nothing (a zero-block grid is a CUDA error).
  Value nonEmpty =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt, count,
                            indexConstant(rewriter, loc, 0));
  Value fits32 = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::ult, count,
      indexConstant(rewriter, loc, int64_t(1) << 31));
  auto ifNonEmpty = scf::IfOp::create(rewriter, loc, nonEmpty, false);
  rewriter.setInsertionPointToStart(ifNonEmpty.thenBlock());
  bool everyPath = config.stridedPaths != 0;
  bool flat = isFlatVectorCandidate(op);
  if (flat)
    emitFlatVectorPath(rewriter, loc, op, count, config);
  if (everyPath && isTiledTransposeCandidate(op))
    emitTiledTransposePath(rewriter, loc, op, sizes, fits32, config);
  if ((everyPath || !flat) && isRowVectorCandidate(op))
    emitRowVectorPath(rewriter, loc, op, sizes, count, fits32, config);
  IndexedKernelBody kernel{op, sizes, count};
  kernel.unroll = config.unroll;
  Value blocks =
      gridForUnrolled(rewriter, loc, count, config.unroll, config);
  // strided-paths=0: one general kernel, with 64-bit indices, for any size.
  if (everyPath) {
    auto ifFits = scf::IfOp::create(rewriter, loc, fits32, true);
    rewriter.setInsertionPointToStart(ifFits.thenBlock());
    emitIndexedLaunch(rewriter, loc, kernel, blocks, config,
                      rewriter.getI32Type());
    rewriter.setInsertionPointToStart(ifFits.elseBlock());
  }
  emitIndexedLaunch(rewriter, loc, kernel, blocks, config,
                    rewriter.getIndexType());
  rewriter.eraseOp(op);
  return success();
}
