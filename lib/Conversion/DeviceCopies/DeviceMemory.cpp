//===- DeviceMemory.cpp - allocation, staging and copy kernels ------------===//

#include "DeviceMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::ptensor;

/// Threads per block of the staging kernel.
static constexpr int64_t kCopyBlockSize = 256;
/// Largest grid of the staging kernel (the loop strides over the rest).
static constexpr int64_t kCopyMaxBlocks = 65535;

void mlir::ptensor::emitOnStream(OpBuilder &b, Location loc,
                                 function_ref<Value(Value token)> build) {
  Type tokenType = gpu::AsyncTokenType::get(b.getContext());
  Value token = gpu::WaitOp::create(b, loc, tokenType, ValueRange())
                    .getAsyncToken();
  gpu::WaitOp::create(b, loc, Type(), build(token));
}

Value mlir::ptensor::allocateOn(OpBuilder &b, Location loc, bool onDevice,
                                MemRefType type, ValueRange dynamicSizes) {
  if (!onDevice)
    return memref::AllocOp::create(b, loc, type, dynamicSizes);
  Value buffer;
  emitOnStream(b, loc, [&](Value token) {
    auto alloc = gpu::AllocOp::create(
        b, loc, type, token.getType(), token, dynamicSizes,
        /*symbolOperands=*/ValueRange(), /*hostShared=*/false);
    buffer = alloc.getMemref();
    return alloc.getAsyncToken();
  });
  return buffer;
}

void mlir::ptensor::freeOn(OpBuilder &b, Location loc, bool onDevice,
                           Value buffer) {
  if (!onDevice) {
    memref::DeallocOp::create(b, loc, buffer);
    return;
  }
  emitOnStream(b, loc, [&](Value token) {
    return gpu::DeallocOp::create(b, loc, token.getType(), token, buffer)
        .getAsyncToken();
  });
}

/// The sizes of `buffer` as index values.
static SmallVector<Value> getSizes(OpBuilder &b, Location loc, Value buffer) {
  SmallVector<Value> sizes;
  int64_t rank = cast<MemRefType>(buffer.getType()).getRank();
  for (int64_t dim = 0; dim < rank; ++dim)
    sizes.push_back(memref::DimOp::create(b, loc, buffer, dim));
  return sizes;
}

/// The dynamic sizes of `buffer`, as an allocation of its shape takes them.
static SmallVector<Value> getDynamicSizes(OpBuilder &b, Location loc,
                                          Value buffer) {
  SmallVector<Value> dynamic;
  auto type = cast<MemRefType>(buffer.getType());
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      dynamic.push_back(memref::DimOp::create(b, loc, buffer, dim));
  return dynamic;
}

/// A 1-D grid of kCopyBlockSize-thread blocks whose threads stride over the
/// row-major linear index and copy one element each step.
static void emitCopyKernel(OpBuilder &b, Location loc, Value source,
                           Value dest) {
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  SmallVector<Value> sizes = getSizes(b, loc, source);
  Value count = cst(1);
  for (Value size : sizes)
    count = arith::MulIOp::create(b, loc, count, size);
  Value blocks = arith::CeilDivUIOp::create(b, loc, count, cst(kCopyBlockSize));
  blocks = arith::MinUIOp::create(b, loc, blocks, cst(kCopyMaxBlocks));
  blocks = arith::MaxUIOp::create(b, loc, blocks, cst(1));
  Value one = cst(1), blockSize = cst(kCopyBlockSize);
  auto launch = gpu::LaunchOp::create(b, loc, blocks, one, one, blockSize,
                                      one, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value first = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, blockSize),
      launch.getThreadIds().x);
  Value step = arith::MulIOp::create(b, loc, launch.getGridSize().x, blockSize);
  scf::ForOp::create(
      b, loc, first, count, step, ValueRange(),
      [&](OpBuilder &nb, Location nloc, Value linear, ValueRange) {
        SmallVector<Value> indices(sizes.size());
        for (int64_t dim = sizes.size() - 1; dim >= 0; --dim) {
          indices[dim] = arith::RemUIOp::create(nb, nloc, linear, sizes[dim]);
          linear = arith::DivUIOp::create(nb, nloc, linear, sizes[dim]);
        }
        Value v = memref::LoadOp::create(nb, nloc, source, indices);
        memref::StoreOp::create(nb, nloc, v, dest, indices);
        scf::YieldOp::create(nb, nloc);
      });
  gpu::TerminatorOp::create(b, loc);
}

void mlir::ptensor::copyElementsOn(OpBuilder &b, Location loc, bool onDevice,
                                   Value source, Value dest) {
  if (onDevice)
    emitCopyKernel(b, loc, source, dest);
  else
    linalg::CopyOp::create(b, loc, source, dest);
}

/// Whether the strided `source` is row-major with offset 0 (dims of size 1
/// may have any stride), computed at run time.
static Value isRowMajor(OpBuilder &b, Location loc, Value source) {
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, source);
  auto eq = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  };
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value ok = eq(md.getOffset(), zero);
  Value expected = one;
  for (int64_t dim = md.getSizes().size() - 1; dim >= 0; --dim) {
    Value size = md.getSizes()[dim];
    Value sizeOne = eq(size, one);
    Value strideOk = eq(md.getStrides()[dim], expected);
    Value dimOk = arith::OrIOp::create(b, loc, sizeOne, strideOk);
    ok = arith::AndIOp::create(b, loc, ok, dimOk);
    if (dim > 0)
      expected = arith::MulIOp::create(b, loc, expected, size);
  }
  return ok;
}

Value mlir::ptensor::makeContiguous(OpBuilder &b, Location loc, bool onDevice,
                                    Value source, Value &isStaged) {
  auto type = cast<MemRefType>(source.getType());
  isStaged = Value();
  if (type.getLayout().isIdentity())
    return source;
  auto rowMajor = MemRefType::get(type.getShape(), type.getElementType());
  Value contiguous = isRowMajor(b, loc, source);
  auto ifOp = scf::IfOp::create(
      b, loc, contiguous,
      [&](OpBuilder &tb, Location tloc) {
        // Checked above: the row-major strides and offset 0 hold. A
        // reinterpretation, not a memref.cast: a static layout may differ
        // from row-major in the strides of size-1 dims (a broadcast's 0),
        // and casts between different static layouts are invalid.
        SmallVector<OpFoldResult> sizes =
            memref::getMixedSizes(tb, tloc, source);
        SmallVector<OpFoldResult> strides(type.getRank());
        // Row-major strides, static while the sizes after them are
        // (memref::computeStridesIRBlock multiplies even static sizes in IR).
        OpFoldResult stride = tb.getIndexAttr(1);
        for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
          strides[dim] = stride;
          if (dim == 0)
            break;
          std::optional<int64_t> s = getConstantIntValue(stride);
          std::optional<int64_t> n = getConstantIntValue(sizes[dim]);
          if (s && n)
            stride = tb.getIndexAttr(*s * *n);
          else if (s == 1)
            stride = sizes[dim];
          else
            stride = arith::MulIOp::create(
                         tb, tloc,
                         getValueOrCreateConstantIndexOp(tb, tloc, stride),
                         getValueOrCreateConstantIndexOp(tb, tloc, sizes[dim]))
                         .getResult();
        }
        Value same = memref::ReinterpretCastOp::create(
            tb, tloc, rowMajor, source, tb.getIndexAttr(0), sizes, strides);
        scf::YieldOp::create(tb, tloc, same);
      },
      [&](OpBuilder &eb, Location eloc) {
        Value staging = allocateOn(eb, eloc, onDevice, rowMajor,
                                   getDynamicSizes(eb, eloc, source));
        copyElementsOn(eb, eloc, onDevice, source, staging);
        scf::YieldOp::create(eb, eloc, staging);
      });
  Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
  isStaged = arith::XOrIOp::create(b, loc, contiguous, yes);
  return ifOp.getResult(0);
}
