//===- OutputLayout.cpp - fresh outputs follow the inputs' run-time order -===//
//
// TensorIterator allocates outputs after reordering dims, so an output
// follows its inputs' stride order (DESIGN.md: when all inputs agree,
// row-major otherwise). Bufferization allocates row-major; this gives such
// an allocation column-major strides at run time when every input with
// distinct strides votes for the reversed order, through a view of the same
// allocation (no copy, same size).
//
//===----------------------------------------------------------------------===//

#include "OutputLayout.h"
#include "ptensor/Dialect/PTensor/Utils/RunTimeLayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ptensor;

/// Whether `user`, an op after the writer, accepts the allocation under any
/// strided layout: loop nests, its deallocation, metadata, and casts to a
/// fully dynamic layout (function results). Not memref.copy: a strided copy
/// lowers to a call of MLIR's runner utilities, a contiguous one to memcpy.
static bool acceptsAnyLayout(Operation *user) {
  if (isa<linalg::GenericOp, memref::DeallocOp,
          memref::ExtractStridedMetadataOp>(user))
    return true;
  auto castOp = dyn_cast<memref::CastOp>(user);
  if (!castOp)
    return false;
  auto type = dyn_cast<MemRefType>(castOp.getType());
  if (!type)
    return false;
  auto [strides, offset] = type.getStridesAndOffset();
  return !type.getLayout().isIdentity() &&
         llvm::all_of(strides, ShapedType::isDynamic) &&
         ShapedType::isDynamic(offset);
}

/// The allocation `out` writes fresh, if its layout may change: identity
/// layout, rank >= 2, written in the loop order (identity map), not read by
/// the body, and used only after `op` in its block by ops that accept any
/// strided layout.
static memref::AllocOp changeableAllocation(linalg::GenericOp op,
                                            OpOperand &out) {
  auto alloc = out.get().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != op->getBlock())
    return {};
  MemRefType type = alloc.getType();
  if (!type.getLayout().isIdentity() || type.getRank() < 2 ||
      !op.getMatchingIndexingMap(&out).isIdentity() ||
      op.payloadUsesValueFromOperand(&out))
    return {};
  for (Operation *user : alloc->getUsers()) {
    if (user == op.getOperation())
      continue;
    Operation *inBlock = op->getBlock()->findAncestorOpInBlock(*user);
    if (!inBlock || !op->isBeforeInBlock(inBlock) || !acceptsAnyLayout(user))
      return {};
  }
  return alloc;
}

void mlir::ptensor::followInputOrder(linalg::GenericOp op) {
  for (OpOperand &out : op.getDpsInitsMutable()) {
    memref::AllocOp alloc = changeableAllocation(op, out);
    if (!alloc)
      continue;
    CreatedOps created;
    OpBuilder b(op, &created);
    Location loc = op.getLoc();
    IndexMath math(b, loc);
    Value reversed =
        buildReversedOrderCondition(math, op, OrderVote::InputsAgree);
    if (matchPattern(reversed, m_Zero())) {
      created.eraseDead();
      continue;
    }
    // Row-major and column-major strides of the allocation's sizes.
    Layout layout = getLayout(b, loc, alloc);
    int64_t rank = alloc.getType().getRank();
    SmallVector<OpFoldResult> rowMajor(rank), colMajor(rank), strides;
    rowMajor[rank - 1] = colMajor[0] = b.getIndexAttr(1);
    for (int64_t i = rank - 1; i > 0; --i)
      rowMajor[i - 1] = math.mul(rowMajor[i], layout.sizes[i]);
    for (int64_t i = 1; i < rank; ++i)
      colMajor[i] = math.mul(colMajor[i - 1], layout.sizes[i - 1]);
    SmallVector<int64_t> staticStrides;
    for (int64_t i = 0; i < rank; ++i) {
      Value s = math.select(reversed, math.value(colMajor[i]),
                            math.value(rowMajor[i]));
      std::optional<int64_t> c = getConstantIntValue(s);
      strides.push_back(c ? OpFoldResult(b.getIndexAttr(*c)) : s);
      staticStrides.push_back(c.value_or(ShapedType::kDynamic));
    }
    auto viewType = MemRefType::get(
        alloc.getType().getShape(), alloc.getType().getElementType(),
        StridedLayoutAttr::get(b.getContext(), 0, staticStrides),
        alloc.getType().getMemorySpace());
    auto view = memref::ReinterpretCastOp::create(
        b, loc, viewType, alloc, b.getIndexAttr(0), layout.sizes, strides);
    // The writer and what follows it (the size computations above read
    // the allocation itself).
    Block *block = op->getBlock();
    alloc.getResult().replaceUsesWithIf(view, [&](OpOperand &use) {
      Operation *inBlock = block->findAncestorOpInBlock(*use.getOwner());
      return !isa<memref::DeallocOp>(use.getOwner()) &&
             (inBlock == op || op->isBeforeInBlock(inBlock));
    });
    created.eraseDead();
  }
}
