//===- TeamsToRuntime.cpp - team communication steps to MPI calls --------===//
//
// Lowers the ptensor.team_* steps that ptensor-partition-teams made to
// slices (a process's block is a view) and calls of libptensor_team
// (ptensor/Runtime/Team.h), each one MPI collective on MPI_COMM_WORLD.
// Buffers cross the call as memref<?xi8> byte buffers (memref.view gives
// them their element type), so the calls' reads and writes are visible to
// bufferization and deallocation; a block's first row and size are calls
// of ptensor_rt_team_block_start/rows (the one rule,
// ptensor::semantics::teamBlock). The type and op codes below are
// ptensor/Runtime/Team.h's.
//
// Why not upstream's convert-shard-to-mpi (MLIR 22): its mpi ops have no
// memory effects (the deallocation pipeline refuses them), each all-reduce
// splits a communicator that is never freed, and with the OpenMPI ABI it
// names reduction ops and communicators wrongly (docs/Teams.md).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "PatternsInternal.h"

#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/Utils/IndexMath.h"
#include "ptensor/Runtime/Team.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ptensor;

namespace {

static_assert(areCodesInWidthOrder(PTENSOR_RT_TEAM_I8, PTENSOR_RT_TEAM_I16, PTENSOR_RT_TEAM_I32, PTENSOR_RT_TEAM_I64) &&
                  areCodesInWidthOrder(PTENSOR_RT_TEAM_U8, PTENSOR_RT_TEAM_U16, PTENSOR_RT_TEAM_U32, PTENSOR_RT_TEAM_U64),
              "getWidthOrderedCode: team codes of 8 to 64 bits in order");

/// The ptensor_rt_team_type of `dtype` for all-reduce (ptensor/Runtime/
/// Team.h), or nullopt (f16, bf16).
std::optional<int64_t> teamTypeCode(Type dtype) {
  if (dtype.isInteger(1))
    return PTENSOR_RT_TEAM_U8;
  if (auto i = dyn_cast<IntegerType>(dtype))
    return getWidthOrderedCode(i, PTENSOR_RT_TEAM_I8, PTENSOR_RT_TEAM_U8);
  if (dtype.isF32())
    return PTENSOR_RT_TEAM_F32;
  if (dtype.isF64())
    return PTENSOR_RT_TEAM_F64;
  return std::nullopt;
}

/// The ptensor_rt_team_op of `kind`.
int64_t teamOpCode(TeamReduceKind kind) {
  switch (kind) {
  case TeamReduceKind::sum:
    return PTENSOR_RT_TEAM_SUM;
  case TeamReduceKind::prod:
    return PTENSOR_RT_TEAM_PROD;
  case TeamReduceKind::max:
    return PTENSOR_RT_TEAM_MAX;
  case TeamReduceKind::min:
    return PTENSOR_RT_TEAM_MIN;
  }
  llvm_unreachable("unknown team reduction");
}

/// A fresh row-major buffer of `type`'s shape (sizes of `like`'s dims, or
/// `rows` for the first one) as bytes, and the typed view of them.
struct ByteBuffer {
  Value bytes; ///< memref<?xi8>
  Value typed; ///< memref<...xT>, identity layout
  Value count; ///< number of elements (index)
};

/// The bytes of an element of `type` in a byte buffer (a bool is one).
int64_t elementBytes(RankedTensorType type) {
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  return std::max<unsigned>(bits / 8, 1);
}

ByteBuffer allocateBytes(OpBuilder &b, Location loc, RankedTensorType type,
                         ArrayRef<Value> sizes) {
  IndexMath m(b, loc);
  OpFoldResult count = m.product(getAsOpFoldResult(sizes));
  Value byteCount = m.value(m.mul(count, m.index(elementBytes(type))));
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  Value bytes = memref::AllocOp::create(b, loc, bytesType, ValueRange{byteCount});
  SmallVector<Value> dynamicSizes;
  for (auto [d, s] : llvm::enumerate(sizes))
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(s);
  auto typedType = MemRefType::get(type.getShape(), type.getElementType());
  Value zero = m.value(m.index(0));
  Value typed =
      memref::ViewOp::create(b, loc, typedType, bytes, zero, dynamicSizes);
  return {bytes, typed, m.value(count)};
}

/// Copies tensor `t` into a fresh row-major byte buffer. GPU data
/// (`onGPU`) is copied by a linalg.copy, which the GPU pipeline makes a
/// kernel, into a buffer it allocates in device memory (a memref.copy would
/// be a host loop).
ByteBuffer copyToBytes(OpBuilder &b, Location loc, Value t,
                       bool onGPU = false) {
  auto type = cast<RankedTensorType>(t.getType());
  ByteBuffer buffer = allocateBytes(b, loc, type, sizesOf(b, loc, t));
  Value source = bufferization::ToBufferOp::create(
      b, loc, getDynamicStridedMemRefType(type.getShape(), type.getElementType()),
      t, /*readOnly=*/true);
  if (onGPU)
    linalg::CopyOp::create(b, loc, source, buffer.typed);
  else
    memref::CopyOp::create(b, loc, source, buffer.typed);
  return buffer;
}

/// Whether `v` (a ptensor operand of a collective) is GPU data: the runtime
/// entry is then the `_device` one, which takes device buffers (Team.h).
bool isGPUData(Value v) { return cast<PTensorType>(v.getType()).isOnGPU(); }

/// The runtime entry `name`, or its `_device` variant for GPU data.
std::string entryFor(StringRef name, bool onGPU) {
  return onGPU ? (name + "_device").str() : name.str();
}

Value toTensor(OpBuilder &b, Location loc, RankedTensorType type, Value typed) {
  return bufferization::ToTensorOp::create(b, loc, type, typed,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

/// The arguments of a runtime call: byte buffers `buffers`, then `sizes`
/// (index values) as i64.
SmallVector<Value> runtimeArguments(OpBuilder &b, Location loc,
                                    ValueRange buffers, ValueRange sizes) {
  SmallVector<Value> arguments(buffers);
  for (Value size : sizes) {
    Value value = arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
    arguments.push_back(value);
  }
  return arguments;
}

/// The runtime's i64 answer, as an index, of function `name` called with
/// `buffers` and then `sizes` (runtimeArguments).
Value callIndexFunction(OpBuilder &b, Location loc, ModuleOp module,
                        StringRef name, ValueRange buffers, ValueRange sizes) {
  SmallVector<Value> arguments = runtimeArguments(b, loc, buffers, sizes);
  func::FuncOp callee = getOrDeclareRuntimeFunction(
      b, module, name, ValueRange(arguments).getTypes(), b.getI64Type());
  Value result = func::CallOp::create(b, loc, callee, arguments).getResult(0);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), result);
}

/// The runtime's answer for `rows` (index) of the i64 -> i64 function
/// `name`.
Value callIndexFunction(OpBuilder &b, Location loc, ModuleOp module,
                        StringRef name, Value rows) {
  return callIndexFunction(b, loc, module, name, ValueRange(), rows);
}

/// Calls the runtime's void function `name` with byte buffers `buffers`
/// and then `sizes` (runtimeArguments).
void callWithSizes(OpBuilder &b, Location loc, ModuleOp module,
                   StringRef name, ValueRange buffers, ValueRange sizes) {
  SmallVector<Value> arguments = runtimeArguments(b, loc, buffers, sizes);
  func::FuncOp callee = getOrDeclareRuntimeFunction(
      b, module, name, ValueRange(arguments).getTypes(), {});
  func::CallOp::create(b, loc, callee, arguments);
}

/// The bytes of a row of a row-major buffer of `type` whose dims are
/// `sizes` (the product of all but the first, by the element's bytes).
Value rowBytesOf(IndexMath &m, RankedTensorType type, ArrayRef<Value> sizes) {
  OpFoldResult rowElements = m.product(getAsOpFoldResult(sizes.drop_front()));
  return m.value(m.mul(rowElements, m.index(elementBytes(type))));
}

/// First row and size of this process's block of `rows` rows: the
/// runtime applies the one rule (ptensor::semantics::teamBlock).
std::pair<Value, Value> blockOf(OpBuilder &b, Location loc, ModuleOp module,
                                Value rows) {
  Value start =
      callIndexFunction(b, loc, module, "ptensor_rt_team_block_start", rows);
  Value size =
      callIndexFunction(b, loc, module, "ptensor_rt_team_block_rows", rows);
  return {start, size};
}

/// `rows` clamped to [0, `upper`].
Value clampRows(OpBuilder &b, Location loc, Value rows, Value upper) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value atLeastZero = arith::MaxSIOp::create(b, loc, rows, zero);
  return arith::MinSIOp::create(b, loc, atLeastZero, upper);
}

/// This process's block rows of `rows` clamped to [0, `upper`]: what an
/// exchange whose sizes the runtime checks allocates before the check, so
/// that a bad size is that error, not a huge or negative allocation.
Value clampedBlockRows(OpBuilder &b, Location loc, ModuleOp module,
                       Value rows, Value upper) {
  Value clamped = clampRows(b, loc, rows, upper);
  return callIndexFunction(b, loc, module, "ptensor_rt_team_block_rows",
                           clamped);
}

/// Where the lowering of an exchange between processes starts: the module
/// (for the runtime's declarations), `block` copied row-major and the
/// result's tensor type.
struct ExchangeStart {
  ModuleOp module;
  ByteBuffer local;
  RankedTensorType resultType;
};

ExchangeStart startExchange(OpBuilder &b, Operation *op, Value block,
                            const TypeConverter &converter,
                            bool onGPU = false) {
  auto resultType =
      cast<RankedTensorType>(converter.convertType(op->getResult(0).getType()));
  ByteBuffer local = copyToBytes(b, op->getLoc(), block, onGPU);
  return {op->getParentOfType<ModuleOp>(), local, resultType};
}

struct TeamAllReducePattern : public OpConversionPattern<TeamAllReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TeamAllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> type =
        teamTypeCode(op.getPartial().getType().getElementType());
    if (!type)
      return op.emitOpError("cannot combine ")
             << op.getPartial().getType().getElementType()
             << " values over a team (f16 and bf16 are not supported yet)";
    Location loc = op.getLoc();
    bool onGPU = isGPUData(op.getPartial());
    ByteBuffer buffer =
        copyToBytes(rewriter, loc, adaptor.getPartial(), onGPU);
    auto i64 = rewriter.getI64Type();
    func::FuncOp callee = getOrDeclareRuntimeFunction(
        rewriter, op->getParentOfType<ModuleOp>(),
        entryFor("ptensor_rt_team_allreduce", onGPU),
        {buffer.bytes.getType(), i64, i64, i64}, {});
    Value count = arith::IndexCastOp::create(rewriter, loc, i64, buffer.count);
    Value typeCode = arith::ConstantIntOp::create(rewriter, loc, *type, 64);
    Value opCode =
        arith::ConstantIntOp::create(rewriter, loc, teamOpCode(op.getKind()), 64);
    func::CallOp::create(rewriter, loc, callee,
                         ValueRange{buffer.bytes, count, typeCode, opCode});
    auto resultType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    rewriter.replaceOp(op, toTensor(rewriter, loc, resultType, buffer.typed));
    return success();
  }
};

struct TeamGatherPattern : public OpConversionPattern<TeamGatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TeamGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool onGPU = isGPUData(op.getBlock());
    auto [module, local, resultType] = startExchange(
        rewriter, op, adaptor.getBlock(), *getTypeConverter(), onGPU);
    SmallVector<Value> sizes = sizesOf(rewriter, loc, adaptor.getBlock());
    sizes.front() = adaptor.getRows();
    ByteBuffer whole = allocateBytes(rewriter, loc, resultType, sizes);
    callWithSizes(rewriter, loc, module,
                  entryFor("ptensor_rt_team_allgather", onGPU),
                  {local.bytes, whole.bytes}, {});
    rewriter.replaceOp(op, toTensor(rewriter, loc, resultType, whole.typed));
    return success();
  }
};

/// This process's rows of a slice of `block` (row i of the slice's `rows`
/// rows is row `offset + i * step` of a team tensor of `sourceRows` rows),
/// packed in slice order into a fresh byte buffer: the runtime says which
/// rows of the block they are (the one rule, semantics::teamSliceRowsHeld),
/// a strided view of the block selects them (a negative stride for a
/// negative step) and one copy packs them (a kernel for GPU data), so that
/// every range the runtime sends is one run of bytes, for any step.
Value packHeldRows(OpBuilder &b, Location loc, ModuleOp module, Value block,
                   Value sourceRows, Value offset, Value step, Value rows,
                   bool onGPU) {
  SmallVector<Value, 4> slice = {sourceRows, offset, step, rows};
  Value heldRow = callIndexFunction(b, loc, module,
                                    "ptensor_rt_team_slice_held_row",
                                    ValueRange(), slice);
  Value heldRows = callIndexFunction(b, loc, module,
                                     "ptensor_rt_team_slice_held_rows",
                                     ValueRange(), slice);
  IndexMath m(b, loc);
  StridedView view = getStridedView(b, loc, block);
  OpFoldResult rowStride = view.strides.front();
  view.offset = m.add(view.offset, m.mul(heldRow, rowStride));
  view.sizes.front() = heldRows;
  view.strides.front() = m.mul(rowStride, step);
  auto blockType = cast<RankedTensorType>(block.getType());
  SmallVector<int64_t> shape(blockType.getShape());
  shape.front() = ShapedType::kDynamic;
  auto heldType = RankedTensorType::get(shape, blockType.getElementType());
  Value held = buildView(m, block, view, heldType);
  return copyToBytes(b, loc, held, onGPU).bytes;
}

/// team_slice_rows: a fresh row-major buffer of this process's rows of the
/// joined slices; each slice's rows held here, packed (packHeldRows), go
/// to the runtime's all-to-all (the `_device` one for GPU blocks) with the
/// slice's global sizes and its place in the result.
struct TeamSliceRowsPattern : public OpConversionPattern<TeamSliceRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TeamSliceRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto resultType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    ValueRange blocks = adaptor.getBlocks();
    IndexMath m(rewriter, loc);
    // The result's rows are the slices'; a slice in bounds has no more
    // rows than its source (each call checks its slice before anything
    // moves). Clamped to the sources' rows, for the allocation and for
    // every call alike: a later slice out of bounds must not make an
    // earlier one's rows land past the buffer before its error.
    OpFoldResult rows = m.index(0), upper = m.index(0);
    for (unsigned k = 0; k < op.getNumSlices(); ++k) {
      rows = m.add(rows, adaptor.getRows()[k]);
      upper = m.add(upper, adaptor.getSourceRows()[k]);
    }
    Value requested = m.value(rows);
    Value sourceRows = m.value(upper);
    Value totalRows = clampRows(rewriter, loc, requested, sourceRows);
    SmallVector<Value> sizes = sizesOf(rewriter, loc, blocks.front());
    checkOtherDims(m, op, adaptor, sizes);
    sizes.front() = callIndexFunction(rewriter, loc, module,
                                      "ptensor_rt_team_block_rows", totalRows);
    ByteBuffer mine = allocateBytes(rewriter, loc, resultType, sizes);
    Value rowBytes = rowBytesOf(m, resultType, sizes);
    bool onGPU = isGPUData(op.getResult());
    std::string entry = entryFor("ptensor_rt_team_slice_rows", onGPU);
    OpFoldResult at = m.index(0);
    for (unsigned k = 0; k < op.getNumSlices(); ++k) {
      Value sourceRowsK = adaptor.getSourceRows()[k];
      Value offset = adaptor.getOffsets()[k], step = adaptor.getSteps()[k];
      Value sliceRows = adaptor.getRows()[k];
      Value held =
          packHeldRows(rewriter, loc, module, blocks[k], sourceRowsK, offset,
                       step, sliceRows, onGPU);
      Value sliceAt = m.value(at);
      callWithSizes(rewriter, loc, module, entry, {held, mine.bytes},
                    {rowBytes, sourceRowsK, offset, step, sliceRows,
                     totalRows, sliceAt});
      at = m.add(at, sliceRows);
    }
    rewriter.replaceOp(op, toTensor(rewriter, loc, resultType, mine.typed));
    return success();
  }

  /// Checks at run time that the dims past the first of every other
  /// block are block 0's (`sizes`) where the result type does not say so; a
  /// mismatch is the concat's error, naming both global shapes (the
  /// blocks' sizes with their tensors' rows).
  static void checkOtherDims(IndexMath &m, TeamSliceRowsOp op,
                             OpAdaptor adaptor, ArrayRef<Value> sizes) {
    ValueRange blocks = adaptor.getBlocks();
    SmallVector<Value> first(sizes);
    first.front() = adaptor.getSourceRows().front();
    for (unsigned k = 1; k < op.getNumSlices(); ++k) {
      if (blocks[k] == blocks.front())
        continue;
      SmallVector<Value> other = sizesOf(m.b, m.loc, blocks[k]);
      other.front() = adaptor.getSourceRows()[k];
      for (size_t d = 1; d < sizes.size(); ++d) {
        if (!op.getType().isDynamicDim(d))
          continue; // every block's size (verified)
        Value same = m.eq(sizes[d], other[d]);
        if (matchPattern(same, m_One()))
          continue;
        buildShapesCheck(m.b, m.loc, same, ShapeCheckKind::Concat, first,
                         other, k, d);
      }
    }
  }
};

/// team_resplit: the part, copied row-major, goes to the runtime's
/// MPI_Alltoallw seen as [rows][mid][split axis][inner bytes]; the result
/// is a fresh row-major buffer of this process's rows with every element
/// of the split axis. GPU parts go to the `_device` entry with a second
/// device buffer of the result's size, where NCCL lands the columns from
/// each process before the runtime places them.
struct TeamResplitPattern : public OpConversionPattern<TeamResplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TeamResplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool onGPU = isGPUData(op.getPart());
    auto [module, local, resultType] = startExchange(
        rewriter, op, adaptor.getPart(), *getTypeConverter(), onGPU);
    auto axis = static_cast<size_t>(op.getAxis());
    SmallVector<Value> sizes = sizesOf(rewriter, loc, adaptor.getPart());
    Value rows = sizes.front();
    sizes[axis] = adaptor.getSplitSize();
    sizes.front() = callIndexFunction(rewriter, loc, module,
                                      "ptensor_rt_team_block_rows", rows);
    ByteBuffer mine = allocateBytes(rewriter, loc, resultType, sizes);
    IndexMath m(rewriter, loc);
    ArrayRef<Value> dims(sizes);
    OpFoldResult mid = m.product(getAsOpFoldResult(dims.slice(1, axis - 1)));
    OpFoldResult innerElements =
        m.product(getAsOpFoldResult(dims.drop_front(axis + 1)));
    OpFoldResult bytesPerElement = m.index(elementBytes(resultType));
    OpFoldResult inner = m.mul(innerElements, bytesPerElement);
    Value midValue = m.value(mid), innerValue = m.value(inner);
    SmallVector<Value> buffers{local.bytes};
    if (onGPU) {
      ByteBuffer packed = allocateBytes(rewriter, loc, resultType, sizes);
      buffers.push_back(packed.bytes);
    }
    buffers.push_back(mine.bytes);
    callWithSizes(rewriter, loc, module,
                  entryFor("ptensor_rt_team_resplit", onGPU), buffers,
                  {rows, midValue, adaptor.getSplitSize(), innerValue});
    rewriter.replaceOp(op, toTensor(rewriter, loc, resultType, mine.typed));
    return success();
  }
};

/// team_reblock: the block (or uneven part), copied row-major, goes to the
/// runtime's all-to-all of byte ranges (the `_device` one for GPU blocks);
/// the result is a fresh flat buffer of this process's block of the new
/// rows.
struct TeamReblockPattern : public OpConversionPattern<TeamReblockOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TeamReblockOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool onGPU = isGPUData(op.getBlock());
    auto [module, local, resultType] = startExchange(
        rewriter, op, adaptor.getBlock(), *getTypeConverter(), onGPU);
    IndexMath m(rewriter, loc);
    SmallVector<Value> blockSizes = sizesOf(rewriter, loc, adaptor.getBlock());
    Value sourceRowElements = m.value(
        m.product(getAsOpFoldResult(ArrayRef<Value>(blockSizes).drop_front())));
    Value total = m.value(m.mul(adaptor.getSourceRows(), sourceRowElements));
    // The runtime checks the counts before it moves anything (rows of at
    // least one element are no more than the elements, and this process
    // gets no more than all of them).
    Value myRows = clampedBlockRows(rewriter, loc, module, adaptor.getRows(),
                                    total);
    Value product = m.value(m.mul(myRows, adaptor.getRowElements()));
    Value count = clampRows(rewriter, loc, product, total);
    ByteBuffer mine = allocateBytes(rewriter, loc, resultType, {count});
    Value bytes = m.value(m.index(elementBytes(resultType)));
    // An uneven part tells its rows; -1: the block rule's.
    Value localRows = op.getUneven() ? blockSizes.front()
                                     : m.value(m.index(-1));
    callWithSizes(rewriter, loc, module,
                  entryFor("ptensor_rt_team_reblock", onGPU),
                  {local.bytes, mine.bytes},
                  {adaptor.getSourceRows(), sourceRowElements,
                   adaptor.getRows(), adaptor.getRowElements(), bytes,
                   localRows});
    rewriter.replaceOp(op, toTensor(rewriter, loc, resultType, mine.typed));
    return success();
  }
};

/// team_exchange: the runtime sizes what this process receives (the run
/// sizes cross once), the result is allocated, and the runs move (the
/// sizes cross again beside them: the calls keep no state) while the
/// runtime writes where the received runs end (the `_device` entries for
/// GPU data, the ends included).
struct TeamExchangePattern : public OpConversionPattern<TeamExchangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TeamExchangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool onGPU = isGPUData(op.getPart());
    auto [module, local, resultType] = startExchange(
        rewriter, op, adaptor.getPart(), *getTypeConverter(), onGPU);
    ByteBuffer ends = copyToBytes(rewriter, loc, adaptor.getEnds(), onGPU);
    IndexMath m(rewriter, loc);
    SmallVector<Value> sizes = sizesOf(rewriter, loc, adaptor.getPart());
    Value rowBytes = rowBytesOf(m, resultType, sizes);
    Value localRows = sizes.front();
    sizes.front() = callIndexFunction(
        rewriter, loc, module,
        entryFor("ptensor_rt_team_exchange_rows", onGPU),
                                      ends.bytes, {localRows, rowBytes});
    ByteBuffer mine = allocateBytes(rewriter, loc, resultType, sizes);
    auto runEndsType = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getRunEnds().getType()));
    Value processes = m.value(m.index(runEndsType.getDimSize(0)));
    ByteBuffer runEnds =
        allocateBytes(rewriter, loc, runEndsType, processes);
    callWithSizes(rewriter, loc, module,
                  entryFor("ptensor_rt_team_exchange", onGPU),
                  {local.bytes, mine.bytes, ends.bytes, runEnds.bytes},
                  {localRows, rowBytes, sizes.front()});
    Value received = toTensor(rewriter, loc, resultType, mine.typed);
    Value runEndsTensor = toTensor(rewriter, loc, runEndsType, runEnds.typed);
    rewriter.replaceOp(op, ValueRange{received, runEndsTensor});
    return success();
  }
};

struct TeamBlockPattern : public OpConversionPattern<TeamBlockOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TeamBlockOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value whole = adaptor.getWhole();
    // Static sizes stay attributes: the slice's type keeps them.
    SmallVector<OpFoldResult> blockSizes =
        tensor::getMixedSizes(rewriter, loc, whole);
    IndexMath m(rewriter, loc);
    auto [offset, rows] = blockOf(rewriter, loc, op->getParentOfType<ModuleOp>(),
                                  m.value(blockSizes.front()));
    SmallVector<OpFoldResult> offsets(blockSizes.size(),
                                      rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(blockSizes.size(),
                                      rewriter.getIndexAttr(1));
    offsets.front() = offset;
    blockSizes.front() = rows;
    auto resultType =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    auto slice = rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, resultType, whole, offsets, blockSizes, strides);
    slice->setAttr(kTeamBlockAttrName, rewriter.getUnitAttr());
    return success();
  }
};

/// team_block_rows (the block's size) and team_block_start (its first
/// row): one half each of the block rule.
template <typename OpTy, bool start>
struct TeamBlockIndexPattern : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto [first, rows] =
        blockOf(rewriter, op.getLoc(), op->template getParentOfType<ModuleOp>(),
                adaptor.getRows());
    rewriter.replaceOp(op, start ? first : rows);
    return success();
  }
};
using TeamBlockRowsPattern = TeamBlockIndexPattern<TeamBlockRowsOp, false>;
using TeamBlockStartPattern = TeamBlockIndexPattern<TeamBlockStartOp, true>;

struct TeamSumPattern : public OpConversionPattern<TeamSumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TeamSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, callIndexFunction(rewriter, op.getLoc(),
                                             op->getParentOfType<ModuleOp>(),
                                             "ptensor_rt_team_sum",
                                             adaptor.getValue()));
    return success();
  }
};

} // namespace

void mlir::ptensor::computeTeamBlocksOnly(ModuleOp module) {
  SmallVector<tensor::ExtractSliceOp> blocks;
  module.walk([&](tensor::ExtractSliceOp slice) {
    if (slice->hasAttr(kTeamBlockAttrName))
      blocks.push_back(slice);
  });
  for (tensor::ExtractSliceOp slice : blocks) {
    slice->removeAttr(kTeamBlockAttrName);
    auto producer = slice.getSource().getDefiningOp<linalg::LinalgOp>();
    if (!producer || !producer->hasOneUse() || !producer.hasPureTensorSemantics())
      continue;
    OpBuilder b(slice);
    FailureOr<TilingResult> tiled = tensor::replaceExtractSliceWithTiledProducer(
        b, slice, cast<OpResult>(slice.getSource()));
    if (failed(tiled) || tiled->tiledValues.size() != 1 ||
        tiled->tiledValues.front().getType() != slice.getType())
      continue;
    slice.replaceAllUsesWith(tiled->tiledValues.front());
    slice.erase();
    producer->erase();
  }
}

void mlir::ptensor::populateTeamsToRuntimePatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TeamAllReducePattern, TeamGatherPattern, TeamSliceRowsPattern,
               TeamResplitPattern, TeamReblockPattern, TeamExchangePattern,
               TeamBlockPattern,
               TeamBlockRowsPattern, TeamBlockStartPattern, TeamSumPattern>(converter,
                                                     patterns.getContext());
}
