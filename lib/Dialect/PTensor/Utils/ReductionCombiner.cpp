//===- ReductionCombiner.cpp - how partial results of a reduction merge ---===//

#include "ptensor/Dialect/PTensor/Utils/ReductionCombiner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ptensor;

StringRef mlir::ptensor::stringifyCombiner(Combiner combiner) {
  switch (combiner) {
  case Combiner::AddF: return "addf";
  case Combiner::AddI: return "addi";
  case Combiner::MulF: return "mulf";
  case Combiner::MulI: return "muli";
  case Combiner::MaxF: return "maxf";
  case Combiner::MaxSI: return "maxsi";
  case Combiner::MaxUI: return "maxui";
  case Combiner::MinF: return "minf";
  case Combiner::MinSI: return "minsi";
  case Combiner::MinUI: return "minui";
  case Combiner::Or: return "or";
  case Combiner::And: return "and";
  case Combiner::ArgMaxF: return "argmaxf";
  case Combiner::ArgMaxSI: return "argmaxsi";
  case Combiner::ArgMaxUI: return "argmaxui";
  case Combiner::ArgMinF: return "argminf";
  case Combiner::ArgMinSI: return "argminsi";
  case Combiner::ArgMinUI: return "argminui";
  }
  return "";
}

std::optional<Combiner> mlir::ptensor::symbolizeCombiner(StringRef name) {
  for (int c = 0; c <= static_cast<int>(Combiner::ArgMinUI); ++c)
    if (stringifyCombiner(static_cast<Combiner>(c)) == name)
      return static_cast<Combiner>(c);
  return std::nullopt;
}

void mlir::ptensor::markCombiner(Operation *op, Combiner combiner) {
  op->setAttr(kCombinerAttrName,
              StringAttr::get(op->getContext(), stringifyCombiner(combiner)));
}

std::optional<Combiner> mlir::ptensor::getMarkedCombiner(Operation *yield) {
  if (yield->getNumOperands() == 0)
    return std::nullopt;
  Operation *def = yield->getOperand(0).getDefiningOp();
  if (!def)
    return std::nullopt;
  auto name = def->getAttrOfType<StringAttr>(kCombinerAttrName);
  return name ? symbolizeCombiner(name.getValue()) : std::nullopt;
}

bool mlir::ptensor::isArgCombiner(Combiner c) {
  return c >= Combiner::ArgMaxF;
}
static bool isArgMax(Combiner c) {
  return c == Combiner::ArgMaxF || c == Combiner::ArgMaxSI ||
         c == Combiner::ArgMaxUI;
}

unsigned mlir::ptensor::getNumAccumulators(Combiner combiner) {
  return isArgCombiner(combiner) ? 2 : 1;
}

Combiner mlir::ptensor::getCombiner(StringRef kind, Type dtype) {
  bool isFloat = isa<FloatType>(dtype);
  // bool compares as unsigned (false < true).
  bool isUnsigned = dtype.isUnsignedInteger() || dtype.isInteger(1);
  // Pick the float, signed or unsigned variant.
  auto pick = [&](Combiner f, Combiner si, Combiner ui) {
    return isFloat ? f : isUnsigned ? ui : si;
  };
  // A bool sum (dtype = i1) is numpy's bool add: a logical or.
  Combiner add = isFloat               ? Combiner::AddF
                 : dtype.isInteger(1)  ? Combiner::Or
                                       : Combiner::AddI;
  return llvm::StringSwitch<Combiner>(kind)
      .Cases({"sum", "mean", "var", "std"}, add)
      .Case("prod", isFloat ? Combiner::MulF : Combiner::MulI)
      .Case("max", pick(Combiner::MaxF, Combiner::MaxSI, Combiner::MaxUI))
      .Case("min", pick(Combiner::MinF, Combiner::MinSI, Combiner::MinUI))
      .Case("any", Combiner::Or)
      .Case("all", Combiner::And)
      .Case("argmax",
            pick(Combiner::ArgMaxF, Combiner::ArgMaxSI, Combiner::ArgMaxUI))
      .Case("argmin",
            pick(Combiner::ArgMinF, Combiner::ArgMinSI, Combiner::ArgMinUI));
}

/// The least (`lowest`) or greatest value of storage type `t` for the
/// comparisons of `combiner`.
static Value extremum(OpBuilder &b, Location loc, Combiner combiner, Type t,
                      bool lowest) {
  if (auto ft = dyn_cast<FloatType>(t))
    return arith::ConstantOp::create(
        b, loc, t,
        b.getFloatAttr(t, APFloat::getInf(ft.getFloatSemantics(), lowest)));
  unsigned width = t.getIntOrFloatBitWidth();
  bool isUnsigned = combiner == Combiner::MaxUI || combiner == Combiner::MinUI ||
                    combiner == Combiner::ArgMaxUI ||
                    combiner == Combiner::ArgMinUI;
  APInt v = isUnsigned ? (lowest ? APInt::getMinValue(width)
                                 : APInt::getMaxValue(width))
                       : (lowest ? APInt::getSignedMinValue(width)
                                 : APInt::getSignedMaxValue(width));
  return arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
}

Value mlir::ptensor::buildVarianceDivisor(OpBuilder &b, Location loc,
                                         Value count, double correction) {
  Type f64 = b.getF64Type();
  Value subtrahend = arith::ConstantOp::create(b, loc, f64,
                                               b.getF64FloatAttr(correction));
  Value dof = arith::SubFOp::create(b, loc, count, subtrahend);
  Value zero = arith::ConstantOp::create(b, loc, f64, b.getF64FloatAttr(0.0));
  return arith::MaximumFOp::create(b, loc, dof, zero);
}

SmallVector<Value> mlir::ptensor::buildIdentity(OpBuilder &b, Location loc,
                                                Combiner combiner,
                                                TypeRange types) {
  Type t = types.front();
  auto constant = [&](double f, int64_t i) -> Value {
    if (isa<FloatType>(t))
      return arith::ConstantOp::create(b, loc, t, b.getFloatAttr(t, f));
    return arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, i));
  };
  switch (combiner) {
  case Combiner::AddF:
    // -0.0 + x is x for every x, -0.0 included.
    return {constant(-0.0, 0)};
  case Combiner::AddI:
  case Combiner::Or:
    return {constant(0.0, 0)};
  case Combiner::MulF:
  case Combiner::MulI:
    return {constant(1.0, 1)};
  case Combiner::And:
    return {constant(1.0, -1)};
  case Combiner::MaxF:
  case Combiner::MaxSI:
  case Combiner::MaxUI:
    return {extremum(b, loc, combiner, t, /*lowest=*/true)};
  case Combiner::MinF:
  case Combiner::MinSI:
  case Combiner::MinUI:
    return {extremum(b, loc, combiner, t, /*lowest=*/false)};
  default:
    break;
  }
  Value noIndex = buildNoIndex(b, loc, types[1]);
  return {extremum(b, loc, combiner, t, /*lowest=*/isArgMax(combiner)),
          noIndex};
}

Value mlir::ptensor::buildNoIndex(OpBuilder &b, Location loc, Type indexType) {
  return arith::ConstantOp::create(
      b, loc, indexType,
      b.getIntegerAttr(indexType, APInt::getSignedMaxValue(64)));
}

Combiner mlir::ptensor::getExtremumCombiner(Combiner argCombiner) {
  switch (argCombiner) {
  case Combiner::ArgMaxF: return Combiner::MaxF;
  case Combiner::ArgMaxSI: return Combiner::MaxSI;
  case Combiner::ArgMaxUI: return Combiner::MaxUI;
  case Combiner::ArgMinF: return Combiner::MinF;
  case Combiner::ArgMinSI: return Combiner::MinSI;
  case Combiner::ArgMinUI: return Combiner::MinUI;
  default: llvm_unreachable("not an argmax/argmin combiner");
  }
}

Value mlir::ptensor::buildMatchesExtremum(OpBuilder &b, Location loc, Value v,
                                          Value extremum,
                                          StringRef markCompare) {
  Operation *equal;
  if (isa<FloatType>(v.getType()))
    equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, v,
                                  extremum);
  else
    equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v,
                                  extremum);
  if (!markCompare.empty())
    equal->setAttr(markCompare, b.getUnitAttr());
  if (!isa<FloatType>(v.getType()))
    return equal->getResult(0);
  Value extremumIsNaN = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::UNO, extremum, extremum);
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  return arith::SelectOp::create(b, loc, extremumIsNaN, isNaN,
                                 equal->getResult(0));
}

/// The comparison by which an integer element is strictly better in an
/// argmax (greater) or argmin (less) of signed or unsigned values.
static arith::CmpIPredicate argIntegerPredicate(Combiner combiner) {
  bool isUnsigned =
      combiner == Combiner::ArgMaxUI || combiner == Combiner::ArgMinUI;
  if (isArgMax(combiner))
    return isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  return isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
}

Value mlir::ptensor::buildArgTakesRhs(OpBuilder &b, Location loc,
                                      Combiner combiner, ValueRange lhs,
                                      ValueRange rhs) {
  Value lv = lhs[0], li = lhs[1], rv = rhs[0], ri = rhs[1];
  bool max = isArgMax(combiner);
  Value smallerIndex =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ri, li);
  if (combiner == Combiner::ArgMaxF || combiner == Combiner::ArgMinF) {
    // Ordered comparisons are false with NaN; NaN wins over numbers.
    Value better = arith::CmpFOp::create(
        b, loc, max ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
        rv, lv);
    Value lNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, lv, lv);
    Value rNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, rv, rv);
    Value notLNaN = arith::XOrIOp::create(
        b, loc, lNaN, arith::ConstantIntOp::create(b, loc, 1, 1));
    Value nanWins = arith::AndIOp::create(b, loc, rNaN, notLNaN);
    Value bothNaN = arith::AndIOp::create(b, loc, rNaN, lNaN);
    Value equal =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, rv, lv);
    Value tie = arith::OrIOp::create(b, loc, equal, bothNaN);
    Value tieWins = arith::AndIOp::create(b, loc, tie, smallerIndex);
    Value wins = arith::OrIOp::create(b, loc, better, nanWins);
    return arith::OrIOp::create(b, loc, wins, tieWins);
  }
  Value better =
      arith::CmpIOp::create(b, loc, argIntegerPredicate(combiner), rv, lv);
  Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rv, lv);
  Value tieWins = arith::AndIOp::create(b, loc, equal, smallerIndex);
  return arith::OrIOp::create(b, loc, better, tieWins);
}

Value mlir::ptensor::buildArgTakesLater(OpBuilder &b, Location loc,
                                        Combiner combiner, ValueRange lhs,
                                        ValueRange rhs) {
  Value lv = lhs[0], li = lhs[1], rv = rhs[0];
  bool max = isArgMax(combiner);
  Value better;
  if (combiner == Combiner::ArgMaxF || combiner == Combiner::ArgMinF) {
    // Unordered-or-better: a NaN element wins, unless lhs holds a NaN.
    Value greaterOrNaN = arith::CmpFOp::create(
        b, loc, max ? arith::CmpFPredicate::UGT : arith::CmpFPredicate::ULT,
        rv, lv);
    Value lNumber =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, lv, lv);
    better = arith::AndIOp::create(b, loc, greaterOrNaN, lNumber);
  } else {
    better =
        arith::CmpIOp::create(b, loc, argIntegerPredicate(combiner), rv, lv);
  }
  Value noIndex = buildNoIndex(b, loc, li.getType());
  Value isIdentity =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, li, noIndex);
  return arith::OrIOp::create(b, loc, better, isIdentity);
}

/// The unit attribute on the value select of a body that foldArgInOrder
/// rewrote.
static constexpr llvm::StringLiteral kInOrderAttrName = "ptensor.in_order";

/// Erases `v`'s defining op and, in turn, its operands' pure defining ops
/// once nothing uses them. (A set: an op whose two erased users both
/// queued it is visited once, not again after its erasure.)
static void eraseDeadTree(Value v) {
  llvm::SetVector<Operation *> work;
  if (Operation *def = v.getDefiningOp())
    work.insert(def);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!op->use_empty() || !isMemoryEffectFree(op) ||
        op->getNumRegions() != 0)
      continue;
    SmallVector<Value> operands(op->getOperands());
    op->erase();
    for (Value operand : operands)
      if (Operation *def = operand.getDefiningOp())
        work.insert(def);
  }
}

bool mlir::ptensor::foldArgInOrder(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumReductionLoops() != 1)
    return false;
  Block *body = generic.getBody();
  Operation *yield = body->getTerminator();
  std::optional<Combiner> combiner = getMarkedCombiner(yield);
  if (!combiner || !isArgCombiner(*combiner) || yield->getNumOperands() != 2)
    return false;
  auto valueSelect = yield->getOperand(0).getDefiningOp<arith::SelectOp>();
  auto indexSelect = yield->getOperand(1).getDefiningOp<arith::SelectOp>();
  if (!valueSelect || !indexSelect || valueSelect->hasAttr(kInOrderAttrName))
    return false;
  Value condition = valueSelect.getCondition();
  ArrayRef<BlockArgument> outputs =
      body->getArguments().take_back(generic.getNumDpsInits());
  if (indexSelect.getCondition() != condition ||
      valueSelect.getFalseValue() != outputs[0] ||
      indexSelect.getFalseValue() != outputs[1])
    return false;
  // The element's index: the reduced dimension's position.
  auto cast = indexSelect.getTrueValue().getDefiningOp<arith::IndexCastOp>();
  auto position =
      cast ? cast.getIn().getDefiningOp<linalg::IndexOp>() : linalg::IndexOp();
  if (!position || generic.getIteratorTypesArray()[position.getDim()] !=
                       utils::IteratorType::reduction)
    return false;
  OpBuilder b(valueSelect);
  Value lhs[] = {outputs[0], outputs[1]};
  Value rhs[] = {valueSelect.getTrueValue(), indexSelect.getTrueValue()};
  Value later = buildArgTakesLater(b, valueSelect.getLoc(), *combiner, lhs, rhs);
  valueSelect.getConditionMutable().assign(later);
  indexSelect.getConditionMutable().assign(later);
  valueSelect->setAttr(kInOrderAttrName, b.getUnitAttr());
  eraseDeadTree(condition);
  return true;
}

SmallVector<Value> mlir::ptensor::buildCombine(OpBuilder &b, Location loc,
                                               Combiner combiner,
                                               ValueRange lhs, ValueRange rhs) {
  Value l = lhs[0], r = rhs[0];
  switch (combiner) {
  case Combiner::AddF:
    return {arith::AddFOp::create(b, loc, l, r)};
  case Combiner::AddI:
    return {arith::AddIOp::create(b, loc, l, r)};
  case Combiner::MulF:
    return {arith::MulFOp::create(b, loc, l, r)};
  case Combiner::MulI:
    return {arith::MulIOp::create(b, loc, l, r)};
  case Combiner::MaxF:
    return {arith::MaximumFOp::create(b, loc, l, r)};
  case Combiner::MaxSI:
    return {arith::MaxSIOp::create(b, loc, l, r)};
  case Combiner::MaxUI:
    return {arith::MaxUIOp::create(b, loc, l, r)};
  case Combiner::MinF:
    return {arith::MinimumFOp::create(b, loc, l, r)};
  case Combiner::MinSI:
    return {arith::MinSIOp::create(b, loc, l, r)};
  case Combiner::MinUI:
    return {arith::MinUIOp::create(b, loc, l, r)};
  case Combiner::Or:
    return {arith::OrIOp::create(b, loc, l, r)};
  case Combiner::And:
    return {arith::AndIOp::create(b, loc, l, r)};
  default:
    break;
  }
  Value takeRhs = buildArgTakesRhs(b, loc, combiner, lhs, rhs);
  Value value = arith::SelectOp::create(b, loc, takeRhs, rhs[0], lhs[0]);
  Value index = arith::SelectOp::create(b, loc, takeRhs, rhs[1], lhs[1]);
  return {value, index};
}

SmallVector<Value> mlir::ptensor::buildLaneMerge(OpBuilder &b, Location loc,
                                                 Combiner combiner,
                                                 ValueRange values,
                                                 unsigned lanes) {
  size_t width = values.size() / lanes;
  SmallVector<SmallVector<Value>> partial;
  for (unsigned j = 0; j < lanes; ++j) {
    ValueRange lane = values.slice(j * width, width);
    partial.emplace_back(lane.begin(), lane.end());
  }
  while (partial.size() > 1) {
    SmallVector<SmallVector<Value>> merged;
    for (size_t j = 0; j + 1 < partial.size(); j += 2)
      merged.push_back(
          buildCombine(b, loc, combiner, partial[j], partial[j + 1]));
    if (partial.size() % 2)
      merged.push_back(partial.back());
    partial = std::move(merged);
  }
  return partial.front();
}

SmallVector<Value> mlir::ptensor::buildLaneFold(OpBuilder &b, Location loc,
                                                Combiner combiner,
                                                ValueRange init, unsigned lanes,
                                                Value lo, Value hi, Value step,
                                                PositionFold fold) {
  auto inOrder = [&](Value from, ValueRange acc) {
    auto loop = scf::ForOp::create(
        b, loc, from, hi, step, acc,
        [&](OpBuilder &nb, Location nloc, Value position, ValueRange state) {
          scf::YieldOp::create(nb, nloc, fold(nb, nloc, position, state));
        });
    return SmallVector<Value>(loop.getResults());
  };
  if (lanes == 1)
    return inOrder(lo, init);
  size_t width = init.size();
  // count = ceil(max(hi - lo, 0) / step); the lanes take count rounded
  // down to a multiple of `lanes`.
  Value end = arith::MaxUIOp::create(b, loc, hi, lo);
  Value span = arith::SubIOp::create(b, loc, end, lo);
  Value count = arith::CeilDivUIOp::create(b, loc, span, step);
  Value laneCount = arith::ConstantIndexOp::create(b, loc, lanes);
  Value rounds = arith::DivUIOp::create(b, loc, count, laneCount);
  Value laneStep = arith::MulIOp::create(b, loc, step, laneCount);
  Value bulkSpan = arith::MulIOp::create(b, loc, rounds, laneStep);
  Value bulkEnd = arith::AddIOp::create(b, loc, lo, bulkSpan);
  SmallVector<Value> setsInit(init.begin(), init.end());
  SmallVector<Value> identity =
      buildIdentity(b, loc, combiner, ValueRange(init).getTypes());
  for (unsigned j = 1; j < lanes; ++j)
    setsInit.append(identity.begin(), identity.end());
  auto bulk = scf::ForOp::create(
      b, loc, lo, bulkEnd, laneStep, setsInit,
      [&](OpBuilder &nb, Location nloc, Value position, ValueRange state) {
        SmallVector<Value> next;
        for (unsigned j = 0; j < lanes; ++j) {
          if (j > 0)
            position = arith::AddIOp::create(nb, nloc, position, step);
          SmallVector<Value> folded =
              fold(nb, nloc, position, state.slice(j * width, width));
          next.append(folded.begin(), folded.end());
        }
        scf::YieldOp::create(nb, nloc, next);
      });
  SmallVector<Value> merged =
      buildLaneMerge(b, loc, combiner, bulk.getResults(), lanes);
  return inOrder(bulkEnd, merged);
}

SmallVector<Type> mlir::ptensor::getAccumulatorTypes(Operation *generic) {
  SmallVector<Type> types;
  for (Value out : cast<DestinationStyleOpInterface>(generic).getDpsInits())
    types.push_back(cast<MemRefType>(out.getType()).getElementType());
  return types;
}
