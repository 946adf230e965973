//===- CountAndCompact.cpp - results whose size is a count of flags -------===//

#include "CountAndCompact.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::ptensor;

SmallVector<Value> mlir::ptensor::countAndCompact(OpBuilder &b, Location loc,
                                                 ArrayRef<Value> ubs,
                                                 FlagFn flag,
                                                 AllocateFn allocate,
                                                 StoreFn store) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lbs(ubs.size(), zero), steps(ubs.size(), one);
  scf::LoopNest counting = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{zero},
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange count) {
        Value isTrue = flag(nb, l, ivs);
        Value add = arith::SelectOp::create(nb, l, isTrue, one, zero);
        Value next = arith::AddIOp::create(nb, l, count[0], add);
        return scf::ValueVector{next};
      });
  SmallVector<Value> init = allocate(counting.results[0]);
  size_t numResults = init.size();
  init.push_back(zero);
  scf::LoopNest compaction = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, init,
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange carried) {
        Value isTrue = flag(nb, l, ivs);
        ValueRange results = carried.drop_back();
        Value row = carried.back();
        auto pick = scf::IfOp::create(
            nb, l, isTrue,
            [&](OpBuilder &tb, Location tl) {
              SmallVector<Value> updated = store(tb, tl, results, ivs, row);
              updated.push_back(arith::AddIOp::create(tb, tl, row, one));
              scf::YieldOp::create(tb, tl, updated);
            },
            [&](OpBuilder &eb, Location el) {
              scf::YieldOp::create(eb, el, carried);
            });
        return scf::ValueVector(pick.getResults().begin(),
                                pick.getResults().end());
      });
  return SmallVector<Value>(compaction.results.begin(),
                            compaction.results.begin() + numResults);
}

