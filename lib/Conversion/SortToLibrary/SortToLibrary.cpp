//===- SortToLibrary.cpp - sorts as runtime calls --------------------------===//
//
// See Passes.td (convert-ptensor-sort-to-library) and the ABIs in
// ptensor/Runtime/Sort.h (the key type codes below are that header's) and
// ptensor/Runtime/Compact.h (count_true, select_true, scatter_runs).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Conversion/SortToLibrary/SortToLibrary.h"

#include "ptensor/Conversion/LinalgToGPU/LinalgToGPU.h"
#include "ptensor/Conversion/RunTimeChecks/RunTimeChecks.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Runtime/Sort.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::ptensor {
#define GEN_PASS_DEF_CONVERTPTENSORSORTTOLIBRARY
#include "ptensor/Conversion/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

namespace {

static_assert(areCodesInWidthOrder(PTENSOR_RT_SORT_I8, PTENSOR_RT_SORT_I16, PTENSOR_RT_SORT_I32, PTENSOR_RT_SORT_I64) &&
                  areCodesInWidthOrder(PTENSOR_RT_SORT_U8, PTENSOR_RT_SORT_U16, PTENSOR_RT_SORT_U32, PTENSOR_RT_SORT_U64),
              "getWidthOrderedCode: sort codes of 8 to 64 bits in order");

/// ptensor_rt_cpu_sort's flag bits.
enum SortFlags : int64_t {
  Descending = PTENSOR_RT_SORT_DESCENDING,
  Stable = PTENSOR_RT_SORT_STABLE,
};

/// The ptensor_rt_sort_type of `dtype` (ptensor/Runtime/Sort.h).
std::optional<int64_t> sortType(Type dtype) {
  if (dtype.isInteger(1))
    return PTENSOR_RT_SORT_BOOL;
  if (auto i = dyn_cast<IntegerType>(dtype))
    return getWidthOrderedCode(i, PTENSOR_RT_SORT_I8, PTENSOR_RT_SORT_U8);
  if (dtype.isF16())
    return PTENSOR_RT_SORT_F16;
  if (dtype.isBF16())
    return PTENSOR_RT_SORT_BF16;
  if (dtype.isF32())
    return PTENSOR_RT_SORT_F32;
  if (dtype.isF64())
    return PTENSOR_RT_SORT_F64;
  return std::nullopt;
}

constexpr llvm::StringLiteral kCpuSort = "ptensor_rt_cpu_sort";
constexpr llvm::StringLiteral kCpuSortRuns = "ptensor_rt_cpu_sort_runs";
constexpr llvm::StringLiteral kGpuSort = "ptensor_rt_gpu_sort";

/// The declaration of ptensor_rt_cpu_sort or ptensor_rt_gpu_sort (one
/// signature), or with `withRuns` ptensor_rt_cpu_sort_runs, once per module.
func::FuncOp getSortFunction(OpBuilder &b, ModuleOp module, StringRef name,
                             bool withRuns) {
  Type i64 = b.getI64Type(), index = b.getIndexType();
  // type, flags, rank, dim, sizes, then (address, offset, strides) of the
  // input, the values and the indices, then (address, stride, count) of
  // the run ends.
  SmallVector<Type> inputs = {i64, i64, i64, i64, index};
  for (int buffer = 0; buffer < 3; ++buffer)
    inputs.append({index, i64, index});
  if (withRuns)
    inputs.append({index, i64, i64});
  return getOrDeclareRuntimeFunction(b, module, name, inputs, {});
}

/// Whether the 1-D `type` has a static unit stride.
bool isContiguous(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides[0] == 1;
}

/// The address (index) of element 0 of the 1-D `buffer` and its stride
/// (i64, in elements), read at run time.
std::pair<Value, Value> elementAddress(OpBuilder &b, Location loc,
                                       Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  unsigned bits = type.getElementTypeBitWidth();
  Value bytes = arith::ConstantIndexOp::create(b, loc, bits < 8 ? 1 : bits / 8);
  Value offsetBytes = arith::MulIOp::create(b, loc, meta.getOffset(), bytes);
  Value address = arith::AddIOp::create(b, loc, base, offsetBytes);
  Value stride = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                            meta.getStrides()[0]);
  return {address, stride};
}

/// The size of the 1-D `buffer` as an i64.
Value lineSize(OpBuilder &b, Location loc, Value buffer) {
  Value size = memref::DimOp::create(b, loc, buffer, 0);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
}

/// The aligned pointer, offset and the addresses of stack arrays of the
/// strides and (with `withSizes`) the sizes of `buffer`.
struct BufferArgs {
  Value pointer, offset, sizes, strides;
};

BufferArgs bufferArgs(OpBuilder &b, Location loc, Value buffer,
                      bool withSizes) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  BufferArgs args;
  if (withSizes) {
    Value sizes = buildIndexArray(b, loc, meta.getSizes());
    args.sizes = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, sizes);
  }
  Value strides = buildIndexArray(b, loc, meta.getStrides());
  args.strides =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, strides);
  args.pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  args.offset = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                           meta.getOffset());
  return args;
}

LogicalResult replaceWithCall(OpBuilder &b, SortAlongOp op) {
  if (!isa<MemRefType>(op.getInput().getType()))
    return op.emitOpError("on tensors: run one-shot bufferization first");
  auto fn = op->getParentOfType<func::FuncOp>();
  bool device = fn && fn->hasAttr(kDeviceAttrName);
  std::optional<int64_t> type = sortType(op.getDtype());
  if (!type)
    return op.emitOpError("no runtime sort for ") << op.getDtype();
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  };
  int64_t flags = (op.getDescending() ? int64_t(Descending) : 0) |
                  (op.getStable() ? int64_t(Stable) : 0);
  auto rank = cast<MemRefType>(op.getInput().getType()).getRank();
  // The outputs have the input's sizes.
  BufferArgs input = bufferArgs(b, loc, op.getInput(), /*withSizes=*/true);
  Value none = arith::ConstantIndexOp::create(b, loc, 0);
  Value zero = constant(0);
  BufferArgs absent{none, zero, none, none};
  BufferArgs values = absent, indices = absent;
  if (Value buffer = op.getValues())
    values = bufferArgs(b, loc, buffer, /*withSizes=*/false);
  if (Value buffer = op.getIndices())
    indices = bufferArgs(b, loc, buffer, /*withSizes=*/false);
  Value typeCode = constant(int64_t(*type));
  Value flagBits = constant(flags);
  Value rankValue = constant(rank);
  Value dim = constant(op.getDimAttr().getInt());
  SmallVector<Value> args = {typeCode, flagBits, rankValue, dim, input.sizes};
  for (const BufferArgs &buffer : {input, values, indices})
    args.append({buffer.pointer, buffer.offset, buffer.strides});
  // The runs hint is the host sort's (GPU sorts do not merge).
  bool withRuns = op.getRuns() && !device;
  if (withRuns) {
    auto [address, stride] = elementAddress(b, loc, op.getRuns());
    args.append({address, stride, lineSize(b, loc, op.getRuns())});
  }
  StringRef name = device ? kGpuSort : withRuns ? kCpuSortRuns : kCpuSort;
  func::FuncOp callee =
      getSortFunction(b, op->getParentOfType<ModuleOp>(), name, withRuns);
  func::CallOp::create(b, loc, callee, args);
  op.erase();
  return success();
}

/// `ptensor_rt_<cpu|gpu>_<step>` for the function `op` is in.
std::string compactFunctionName(Operation *op, StringRef step) {
  auto fn = op->getParentOfType<func::FuncOp>();
  bool device = fn && fn->hasAttr(kDeviceAttrName);
  return (Twine("ptensor_rt_") + (device ? "gpu_" : "cpu_") + step).str();
}

/// count_true, select_true, scatter_runs as calls of Compact.h.
LogicalResult replaceWithCall(OpBuilder &b, Operation *op) {
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  Type i64 = b.getI64Type(), index = b.getIndexType();
  auto module = op->getParentOfType<ModuleOp>();
  // Inputs are passed as (address, stride), the output (always a new
  // buffer) as its address.
  SmallVector<Value> args;
  Value output = isa<CountTrueOp>(op) ? Value() : op->getOperands().back();
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type)
      return op->emitOpError("on tensors: run one-shot bufferization first");
    if (operand == output && !isContiguous(type))
      return op->emitOpError("expected a contiguous output, but got ")
             << operand.getType();
    auto [address, stride] = elementAddress(b, loc, operand);
    args.push_back(address);
    if (operand != output)
      args.push_back(stride);
  }
  Value n = lineSize(b, loc, op->getOperand(0));
  if (auto count = dyn_cast<CountTrueOp>(op)) {
    func::FuncOp callee =
        getOrDeclareRuntimeFunction(b, module, compactFunctionName(op, "count_true"),
                           {index, i64, i64}, {i64});
    auto call = func::CallOp::create(b, loc, callee, {args[0], args[1], n});
    Value result =
        arith::IndexCastOp::create(b, loc, index, call.getResult(0));
    count.getResult().replaceAllUsesWith(result);
  } else if (isa<SelectTrueOp>(op)) {
    func::FuncOp callee =
        getOrDeclareRuntimeFunction(b, module, compactFunctionName(op, "select_true"),
                           {index, i64, i64, index}, {});
    func::CallOp::create(b, loc, callee, {args[0], args[1], n, args[2]});
  } else {
    func::FuncOp callee =
        getOrDeclareRuntimeFunction(b, module, compactFunctionName(op, "scatter_runs"),
                           {index, i64, index, i64, i64, index}, {});
    func::CallOp::create(b, loc, callee,
                         {args[0], args[1], args[2], args[3], n, args[4]});
  }
  op->erase();
  return success();
}

struct ConvertPTensorSortToLibraryPass
    : public mlir::ptensor::impl::ConvertPTensorSortToLibraryBase<
          ConvertPTensorSortToLibraryPass> {
  void runOnOperation() override {
    SmallVector<SortAlongOp> sorts;
    SmallVector<Operation *> steps;
    getOperation().walk([&](Operation *op) {
      if (auto sort = dyn_cast<SortAlongOp>(op))
        sorts.push_back(sort);
      else if (isa<CountTrueOp, SelectTrueOp, ScatterRunsOp>(op))
        steps.push_back(op);
    });
    OpBuilder b(&getContext());
    for (SortAlongOp op : sorts)
      if (failed(replaceWithCall(b, op)))
        return signalPassFailure();
    for (Operation *op : steps)
      if (failed(replaceWithCall(b, op)))
        return signalPassFailure();
  }
};

} // namespace
