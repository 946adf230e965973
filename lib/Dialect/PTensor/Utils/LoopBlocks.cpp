//===- LoopBlocks.cpp - one block of a loop split in equal blocks ---------===//

#include "ptensor/Dialect/PTensor/Utils/LoopBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <utility>

using namespace mlir;
using namespace mlir::ptensor;

BlockBounds mlir::ptensor::buildBlockBounds(OpBuilder &b, Location loc,
                                            Value block, Value size, Value n) {
  Value first = arith::MulIOp::create(b, loc, block, size);
  Value end = arith::AddIOp::create(b, loc, first, size);
  Value last = arith::MinSIOp::create(b, loc, end, n);
  return {first, last};
}

std::optional<BlockEnd> mlir::ptensor::matchBlockEnd(Value first, Value last) {
  auto min = last.getDefiningOp<arith::MinSIOp>();
  if (!min)
    return std::nullopt;
  for (auto [bound, n] : {std::pair(min.getLhs(), min.getRhs()),
                          std::pair(min.getRhs(), min.getLhs())}) {
    auto add = bound.getDefiningOp<arith::AddIOp>();
    if (!add)
      continue;
    for (auto [base, size] : {std::pair(add.getLhs(), add.getRhs()),
                              std::pair(add.getRhs(), add.getLhs())})
      if (base == first)
        return BlockEnd{size, n};
  }
  return std::nullopt;
}
