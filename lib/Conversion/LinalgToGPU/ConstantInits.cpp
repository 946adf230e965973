//===- ConstantInits.cpp - reductions whose outputs start as constants ---===//

#include "ConstantInits.h"

#include "KernelCommon.h"

#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::ptensor;

/// If `op` fills one buffer with a constant (linalg.fill, or an
/// elementwise generic that yields its one input, a constant scalar, into
/// every element of its one output), that buffer and the constant.
static std::optional<std::pair<Value, TypedAttr>> constantFill(Operation *op) {
  Value value, buffer;
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (fill.getOutputs().size() != 1)
      return std::nullopt;
    value = fill.value();
    buffer = fill.getOutputs()[0];
  } else if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
        generic.getNumReductionLoops() != 0)
      return std::nullopt;
    OpOperand *in = generic.getDpsInputOperand(0);
    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    if (yield.getNumOperands() != 1 ||
        yield.getOperand(0) != generic.getMatchingBlockArgument(in))
      return std::nullopt;
    value = in->get();
    buffer = generic.getDpsInits()[0];
  } else {
    return std::nullopt;
  }
  TypedAttr constant;
  if (!isa<MemRefType>(buffer.getType()) ||
      !matchPattern(value, m_Constant(&constant)))
    return std::nullopt;
  return std::make_pair(buffer, constant);
}

/// Whether `op` writes every element of each output: its indexing maps
/// name distinct loop dims, or index 0 of a dim of static size 1 (else the
/// elements it leaves keep the fill's value, which must stay).
static bool writesEveryOutputElement(linalg::GenericOp op) {
  for (OpOperand &out : op.getDpsInitsMutable()) {
    auto type = cast<MemRefType>(out.get().getType());
    llvm::SmallBitVector seen(op.getNumLoops());
    for (auto [i, e] :
         llvm::enumerate(op.getMatchingIndexingMap(&out).getResults())) {
      if (auto dim = dyn_cast<AffineDimExpr>(e)) {
        if (seen.test(dim.getPosition()))
          return false;
        seen.set(dim.getPosition());
        continue;
      }
      auto constant = dyn_cast<AffineConstantExpr>(e);
      if (!constant || constant.getValue() != 0 || type.getDimSize(i) != 1)
        return false;
    }
  }
  return true;
}

void mlir::ptensor::foldConstantInits(RewriterBase &rewriter, func::FuncOp f) {
  SmallVector<linalg::GenericOp> reductions;
  f.walk([&](linalg::GenericOp g) {
    if (g.getNumReductionLoops() != 0 && g.hasPureBufferSemantics() &&
        getMarkedCombiner(g.getBody()->getTerminator()) &&
        writesEveryOutputElement(g))
      reductions.push_back(g);
  });
  for (linalg::GenericOp g : reductions) {
    SmallVector<Value> outputs(g.getDpsInits());
    SmallVector<TypedAttr> constants(outputs.size());
    SmallVector<Operation *> fills;
    // Back from g over neutral ops and fills of its outputs.
    for (Operation *op = g->getPrevNode();
         op && fills.size() < outputs.size(); op = op->getPrevNode()) {
      if (isNeutralBetweenKernels(*op))
        continue;
      std::optional<std::pair<Value, TypedAttr>> fill = constantFill(op);
      if (!fill)
        break;
      auto *it = llvm::find(outputs, fill->first);
      if (it == outputs.end() || constants[it - outputs.begin()])
        break;
      constants[it - outputs.begin()] = fill->second;
      fills.push_back(op);
    }
    if (fills.size() != outputs.size())
      continue;
    for (Operation *fill : fills)
      rewriter.eraseOp(fill);
    g->setAttr(kConstantInitsAttrName,
               rewriter.getArrayAttr(SmallVector<Attribute>(constants.begin(),
                                                            constants.end())));
  }
}

std::optional<SmallVector<TypedAttr>>
mlir::ptensor::constantInitsOf(linalg::GenericOp op) {
  auto inits = op->getAttrOfType<ArrayAttr>(kConstantInitsAttrName);
  if (!inits)
    return std::nullopt;
  return llvm::to_vector(inits.getAsRange<TypedAttr>());
}
