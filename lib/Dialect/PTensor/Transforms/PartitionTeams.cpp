//===- PartitionTeams.cpp - team tensors to local blocks + communication --===//
//
// Compute follows data: each process computes the block of every team
// tensor it holds (rows split along the first dim), and communicates only
// where an op needs data of another block. The rules are in the pass's
// description (Passes.td) and docs/Teams.md.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <set>

namespace mlir::ptensor {
#define GEN_PASS_DEF_PTENSORPARTITIONTEAMS
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"
} // namespace mlir::ptensor

using namespace mlir;
using namespace mlir::ptensor;

/// The symbol of team 1's grid.
static constexpr llvm::StringLiteral kTeamGrid = "ptensor_team1";

static bool hasTeam(Type t) {
  auto pt = dyn_cast<PTensorType>(t);
  return pt && pt.getTeam();
}

/// `t` without its team: the type of the whole tensor on one process.
static PTensorType wholeType(PTensorType t) {
  return PTensorType::get(t.getContext(), t.getShape(), t.getElementType(),
                          t.getDevice(), nullptr);
}

/// The type of a process's block of team tensor `t`: no team, and a
/// dynamic first dim (blocks differ in size) unless `t` is 0-d (replicated).
static PTensorType blockType(PTensorType t) {
  SmallVector<int64_t> shape(t.getShape());
  if (!shape.empty())
    shape[0] = ShapedType::kDynamic;
  return PTensorType::get(t.getContext(), shape, t.getElementType(),
                          t.getDevice(), nullptr);
}

static Type localType(Type t) {
  if (!hasTeam(t))
    return t;
  return blockType(cast<PTensorType>(t));
}

/// The normalized reduction axes of a reduce/test over `rank` dims (all
/// when none are given).
static SmallVector<int64_t> reducedAxes(std::optional<ArrayRef<int64_t>> axes,
                                        int64_t rank) {
  SmallVector<int64_t> result;
  if (!axes) {
    for (int64_t d = 0; d < rank; ++d)
      result.push_back(d);
    return result;
  }
  for (int64_t a : *axes)
    result.push_back(a < 0 ? a + rank : a);
  return result;
}

namespace {

struct PartitionTeamsPass
    : public ptensor::impl::PTensorPartitionTeamsBase<PartitionTeamsPass> {
  using Base::Base;

  /// Values split along their first dim (team tensors of rank >= 1), of
  /// their block type now.
  DenseSet<Value> split;
  /// The team type each localized value had.
  DenseMap<Value, PTensorType> globalTypes;
  FlatSymbolRefAttr grid;

  bool isSplit(Value v) const { return split.contains(v); }
  PTensorType globalOf(Value v) const { return globalTypes.lookup(v); }

  /// Gives team value `v` its block type (records its team type, and that
  /// it is split when it has a first dim).
  void localize(Value v) {
    auto pt = dyn_cast<PTensorType>(v.getType());
    if (!pt || !pt.getTeam())
      return;
    globalTypes[v] = pt;
    v.setType(blockType(pt));
    if (pt.getRank() > 0)
      split.insert(v);
  }

  /// Records `v` (a block) as split with team type `global`.
  void markSplit(Value v, PTensorType global) {
    globalTypes[v] = global;
    split.insert(v);
  }

  /// The global size of the first dim of split value `v`: static, or the
  /// sum of the blocks' sizes.
  Value globalRows(OpBuilder &b, Location loc, Value v) {
    PTensorType global = globalOf(v);
    if (!global.isDynamicDim(0))
      return arith::ConstantIndexOp::create(b, loc, global.getDimSize(0));
    Value mine = DimOp::create(b, loc, v, 0);
    return TeamSumOp::create(b, loc, b.getIndexType(), mine, grid);
  }

  /// The whole tensor of split value `v`, on every process.
  Value gather(OpBuilder &b, Location loc, Value v) {
    Value rows = globalRows(b, loc, v);
    return TeamGatherOp::create(b, loc, wholeType(globalOf(v)), v, rows, grid);
  }

  /// This process's block of `whole` (which every process has), a split
  /// value of team type `global`.
  Value block(OpBuilder &b, Location loc, Value whole, PTensorType global) {
    Value result = TeamBlockOp::create(b, loc, blockType(global), whole, grid);
    markSplit(result, global);
    return result;
  }

  LogicalResult partitionElementwise(Operation *op);
  void partitionBroadcast(BroadcastOp op);
  LogicalResult partitionReduction(Operation *op, ArrayRef<int64_t> axes,
                                   TeamReduceKind kind);
  void partitionCopy(CopyOp op);
  void partitionCreation(Operation *op);
  LogicalResult partitionOp(Operation *op);
  LogicalResult partitionFunction(func::FuncOp f);
  void dropTeams(func::FuncOp f);

  void runOnOperation() override;
};

} // namespace

/// Ops on operands of the result's shape (after ptensor-broadcast): the
/// blocks line up, nothing moves.
LogicalResult PartitionTeamsPass::partitionElementwise(Operation *op) {
  auto result = cast<PTensorType>(op->getResult(0).getType());
  for (Value operand : op->getOperands())
    if (isSplit(operand) && globalOf(operand).getRank() != result.getRank())
      return op->emitOpError("on a team: expected operands of the result's "
                             "rank (run ptensor-broadcast first), but got ")
             << globalOf(operand);
  for (Value r : op->getResults())
    localize(r);
  return success();
}

/// This process's rows of a broadcast result of team type `global` with
/// dynamic sizes `sizes`. A global size that is the sum of the blocks of a
/// split value (ptensor-broadcast takes result sizes from the operands)
/// gives that value's block size without communication.
static Value localRowsOf(OpBuilder &b, Location loc, PTensorType global,
                         ArrayRef<Value> sizes, FlatSymbolRefAttr grid) {
  if (!global.isDynamicDim(0)) {
    Value n = arith::ConstantIndexOp::create(b, loc, global.getDimSize(0));
    return TeamBlockRowsOp::create(b, loc, b.getIndexType(), n, grid);
  }
  if (auto sum = sizes.front().getDefiningOp<TeamSumOp>())
    if (auto dim = sum.getValue().getDefiningOp<DimOp>(); dim && dim.getDim() == 0)
      return dim.getResult();
  return TeamBlockRowsOp::create(b, loc, b.getIndexType(), sizes.front(), grid);
}

void PartitionTeamsPass::partitionBroadcast(BroadcastOp op) {
  PTensorType global = op.getType();
  if (global.getRank() == 0) {
    localize(op.getResult());
    return;
  }
  Value source = op.getSource();
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> sizes(op.getDynamicSizes());
  PTensorType sourceGlobal = globalOf(source);
  // The source's rows are the result's rows unless it is 0-d, of lower
  // rank, or a single row (static 1) stretched over the result's.
  bool aligned = isSplit(source) &&
                 sourceGlobal.getRank() == global.getRank() &&
                 !(sourceGlobal.getDimSize(0) == 1 && global.getDimSize(0) != 1);
  Value input = source, rows;
  if (aligned) {
    rows = DimOp::create(b, loc, source, 0);
  } else {
    if (isSplit(source))
      input = gather(b, loc, source);
    rows = localRowsOf(b, loc, global, sizes, grid);
  }
  if (global.isDynamicDim(0))
    sizes.front() = rows;
  else
    sizes.insert(sizes.begin(), rows);
  auto local = BroadcastOp::create(b, loc, blockType(global), input, sizes);
  markSplit(local, global);
  op.getResult().replaceAllUsesWith(local.getResult());
  op.erase();
}

LogicalResult PartitionTeamsPass::partitionReduction(Operation *op,
                                                     ArrayRef<int64_t> axes,
                                                     TeamReduceKind kind) {
  Value input = op->getOperand(0);
  Value result = op->getResult(0);
  auto global = cast<PTensorType>(result.getType());
  if (!isSplit(input) || !llvm::is_contained(axes, 0)) {
    localize(result); // the rows stay where they are
    return success();
  }
  // Reduce the block, combine the partial results of all processes, keep
  // the result's block.
  result.setType(wholeType(global));
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Location loc = op->getLoc();
  Value total =
      TeamAllReduceOp::create(b, loc, result.getType(), result,
                              TeamReduceKindAttr::get(b.getContext(), kind),
                              grid);
  Value final = total;
  if (global.getRank() > 0)
    final = block(b, loc, total, global);
  else
    globalTypes[final] = global;
  result.replaceAllUsesExcept(final, total.getDefiningOp());
  return success();
}

void PartitionTeamsPass::partitionCopy(CopyOp op) {
  Value source = op.getSource();
  PTensorType to = op.getType();
  bool fromTeam = globalOf(source) != nullptr;
  if (fromTeam == static_cast<bool>(to.getTeam()) || to.getRank() == 0) {
    localize(op.getResult()); // within the team, or a replicated 0-d
    return;
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  if (fromTeam) { // out of the team: every process gets the whole tensor
    Value whole = gather(b, loc, source);
    if (whole.getType() != to)
      whole = CopyOp::create(b, loc, to, whole);
    op.getResult().replaceAllUsesWith(whole);
  } else { // into the team: each process copies its rows
    Value rows = block(b, loc, source, to);
    auto copy = CopyOp::create(b, loc, blockType(to), rows);
    markSplit(copy, to);
    op.getResult().replaceAllUsesWith(copy.getResult());
  }
  op.erase();
}

/// Creation ops make the whole tensor and keep their block.
/// TODO(teams): make only the block (arange/linspace from the block's
/// offset), docs/Teams.md "Left".
void PartitionTeamsPass::partitionCreation(Operation *op) {
  Value result = op->getResult(0);
  auto global = cast<PTensorType>(result.getType());
  if (global.getRank() == 0) {
    localize(result);
    return;
  }
  result.setType(wholeType(global));
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Value local = block(b, op->getLoc(), result, global);
  result.replaceAllUsesExcept(local, local.getDefiningOp());
}

LogicalResult PartitionTeamsPass::partitionOp(Operation *op) {
  bool onTeam = llvm::any_of(op->getOperands(), [&](Value v) {
    return globalTypes.contains(v);
  }) || llvm::any_of(op->getResultTypes(), hasTeam);
  if (!onTeam)
    return success();
  if (isa<ElementwiseUnaryOp, ElementwiseUnaryTestOp, ElementwiseBinaryOp,
          ElementwiseBinaryTestOp, WhereOp, PointwiseOp, CastOp>(op))
    return partitionElementwise(op);
  if (auto broadcast = dyn_cast<BroadcastOp>(op))
    return partitionBroadcast(broadcast), success();
  if (auto dim = dyn_cast<DimOp>(op)) {
    if (isSplit(dim.getSource()) && dim.getDim() == 0) {
      OpBuilder b(op);
      dim.getResult().replaceAllUsesWith(
          globalRows(b, op->getLoc(), dim.getSource()));
      dim.erase();
    }
    return success();
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    std::optional<TeamReduceKind> kind;
    switch (reduce.getKind()) {
    case ReduceKind::sum:
      kind = TeamReduceKind::sum;
      break;
    case ReduceKind::prod:
      kind = TeamReduceKind::prod;
      break;
    case ReduceKind::max:
      kind = TeamReduceKind::max;
      break;
    case ReduceKind::min:
      kind = TeamReduceKind::min;
      break;
    default:
      break;
    }
    auto axes = reducedAxes(reduce.getAxes(),
                            reduce.getInput().getType().getRank());
    if (!kind && isSplit(reduce.getInput()) && llvm::is_contained(axes, 0))
      return op->emitOpError("on a team: ")
             << stringifyReduceKind(reduce.getKind())
             << " over the split first dim is not supported yet (sum, prod, "
                "max and min are)";
    return partitionReduction(op, axes, kind.value_or(TeamReduceKind::sum));
  }
  if (auto test = dyn_cast<TestOp>(op)) {
    auto axes = reducedAxes(test.getAxes(), test.getInput().getType().getRank());
    return partitionReduction(op, axes,
                              test.getKind() == TestKind::any
                                  ? TeamReduceKind::max
                                  : TeamReduceKind::min);
  }
  if (auto copy = dyn_cast<CopyOp>(op))
    return partitionCopy(copy), success();
  if (isa<CreateOp, ArangeOp, LinspaceOp>(op))
    return partitionCreation(op), success();
  if (isa<func::ReturnOp>(op))
    return success();
  return op->emitOpError("on team tensors is not supported yet (docs/Teams.md "
                         "lists the ops that are)");
}

LogicalResult PartitionTeamsPass::partitionFunction(func::FuncOp f) {
  for (BlockArgument arg : f.getArguments())
    localize(arg);
  SmallVector<Operation *> ops;
  f.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    ops.push_back(op);
    // Bodies of pointwise ops compute scalars.
    return isa<PointwiseOp>(op) ? WalkResult::skip() : WalkResult::advance();
  });
  for (Operation *op : ops)
    if (failed(partitionOp(op)))
      return failure();
  return success();
}

/// With one process a team tensor is the whole tensor.
void PartitionTeamsPass::dropTeams(func::FuncOp f) {
  auto drop = [](Value v) {
    if (hasTeam(v.getType()))
      v.setType(wholeType(cast<PTensorType>(v.getType())));
  };
  f.walk([&](Block *block) { llvm::for_each(block->getArguments(), drop); });
  f.walk([&](Operation *op) { llvm::for_each(op->getResults(), drop); });
}

void PartitionTeamsPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Which teams the module uses.
  std::set<int64_t> teams;
  module.walk([&](Operation *op) {
    auto note = [&](Type t) {
      if (auto pt = dyn_cast<PTensorType>(t); pt && pt.getTeam())
        teams.insert(pt.getTeam().getInt());
    };
    llvm::for_each(op->getResultTypes(), note);
    if (auto f = dyn_cast<func::FuncOp>(op))
      llvm::for_each(f.getArgumentTypes(), note);
  });
  if (teams.empty())
    return;
  if (teams != std::set<int64_t>{1}) {
    module.emitError() << "team " << *llvm::find_if(teams, [](int64_t t) {
      return t != 1;
    }) << ": only team 1 (all processes of the MPI job) is supported yet";
    return signalPassFailure();
  }
  if (teamSize < 1) {
    module.emitError() << "team-size must be at least 1, got " << teamSize;
    return signalPassFailure();
  }
  auto functions = llvm::to_vector(module.getOps<func::FuncOp>());
  if (teamSize > 1) {
    OpBuilder b(module.getBodyRegion());
    auto gridOp = shard::GridOp::create(b, module.getLoc(), kTeamGrid,
                                        ArrayRef<int64_t>{teamSize});
    gridOp.setPrivate();
    grid = FlatSymbolRefAttr::get(gridOp.getSymNameAttr());
  }
  for (func::FuncOp f : functions) {
    if (teamSize == 1)
      dropTeams(f);
    else if (failed(partitionFunction(f)))
      return signalPassFailure();
    SmallVector<Type> results;
    if (!f.isExternal())
      results = llvm::to_vector(
          f.getBody().back().getTerminator()->getOperandTypes());
    else
      results = llvm::map_to_vector(f.getResultTypes(), localType);
    SmallVector<Type> args =
        f.isExternal() ? llvm::map_to_vector(f.getArgumentTypes(), localType)
                       : llvm::to_vector(f.getBody().getArgumentTypes());
    f.setType(FunctionType::get(&getContext(), args, results));
  }
}
