//===- GenericBody.cpp - one element of a linalg.generic, inlined ---------===//

#include "ptensor/Dialect/PTensor/Utils/GenericBody.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ptensor;

SmallVector<Value> mlir::ptensor::inlineBody(OpBuilder &b, linalg::GenericOp op,
                                             ValueRange inputs, ValueRange ids,
                                             ValueRange outputs) {
  IRMapping mapping;
  for (auto [in, v] : llvm::zip_equal(op.getDpsInputOperands(), inputs))
    mapping.map(op.getMatchingBlockArgument(in), v);
  for (auto [out, v] : llvm::zip(op.getDpsInitsMutable(), outputs))
    mapping.map(op.getMatchingBlockArgument(&out), v);
  Block *body = op.getBody();
  for (Operation &nested : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
      mapping.map(index.getResult(), ids[index.getDim()]);
      continue;
    }
    b.clone(nested, mapping);
  }
  SmallVector<Value> results;
  for (Value v : cast<linalg::YieldOp>(body->getTerminator()).getValues())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

SmallVector<Value> mlir::ptensor::indicesThroughMap(OpBuilder &b, Location loc,
                                                  linalg::GenericOp op,
                                                  OpOperand *operand,
                                                  ValueRange ids) {
  SmallVector<Value> indices;
  for (AffineExpr e : op.getMatchingIndexingMap(operand).getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      indices.push_back(ids[dim.getPosition()]);
    else
      indices.push_back(arith::ConstantIndexOp::create(
          b, loc, cast<AffineConstantExpr>(e).getValue()));
  }
  return indices;
}

Value mlir::ptensor::loadThroughMap(OpBuilder &b, Location loc,
                                    linalg::GenericOp op, OpOperand *in,
                                    ValueRange ids) {
  return memref::LoadOp::create(b, loc, in->get(),
                                indicesThroughMap(b, loc, op, in, ids));
}

SmallVector<Value> mlir::ptensor::emitElement(OpBuilder &b, Location loc,
                                              linalg::GenericOp op,
                                              ValueRange ids,
                                              ArrayRef<Value> preloaded,
                                              ValueRange outputs) {
  SmallVector<Value> inputs;
  for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands())) {
    Value v = in->get();
    if (i < preloaded.size() && preloaded[i]) {
      v = preloaded[i];
    } else if (isa<MemRefType>(v.getType())) {
      v = loadThroughMap(b, loc, op, in, ids);
    }
    inputs.push_back(v);
  }
  return inlineBody(b, op, inputs, ids, outputs);
}
