//===- TeamOps.cpp - team_all_reduce, team_gather, team_block, ... -------===//
//
// The communication steps of partitioned team code: each names its team by
// a 1-D `shard.grid` whose size is the number of processes; the tensors
// are local blocks (no team in their types).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ptensor;

/// The 1-D shard.grid `grid` names, or null after an error on `op`.
static shard::GridOp lookupTeamGrid(Operation *op, FlatSymbolRefAttr grid,
                                    SymbolTableCollection &symbols) {
  auto found = symbols.lookupNearestSymbolFrom<shard::GridOp>(op, grid);
  if (!found) {
    op->emitOpError("expected ") << grid << " to name a shard.grid";
    return nullptr;
  }
  if (found.getRank() != 1 || ShapedType::isDynamic(found.getShape()[0])) {
    op->emitOpError("expected the team's grid ")
        << grid << " to have one static dim (the number of processes)";
    return nullptr;
  }
  return found;
}

/// Team tensors are partitioned already: a local block has no team.
static LogicalResult verifyLocal(Operation *op) {
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto pt = dyn_cast<PTensorType>(t); pt && pt.getTeam())
      return op->emitOpError("works on local blocks, but got the team tensor ")
             << pt;
  return success();
}

/// The result has the block's dtype and rank, and the same sizes past the
/// first dim (the split one).
static LogicalResult verifyRowsChange(Operation *op, PTensorType from,
                                      PTensorType to) {
  if (from.getElementType() != to.getElementType() ||
      from.getRank() != to.getRank() || from.getRank() == 0 ||
      from.getShape().drop_front() != to.getShape().drop_front() ||
      from.getDevice() != to.getDevice())
    return op->emitOpError("expected a result of rank >= 1 that differs from ")
           << from << " only in its first dim, but got " << to;
  return verifyLocal(op);
}

#define PTENSOR_TEAM_SIZE(Op)                                                  \
  int64_t Op::getTeamSize() {                                                  \
    SymbolTableCollection symbols;                                             \
    return lookupTeamGrid(*this, getGridAttr(), symbols).getShape()[0];        \
  }
#define PTENSOR_TEAM_OP_COMMON(Op)                                             \
  PTENSOR_TEAM_SIZE(Op)                                                        \
  LogicalResult Op::verifySymbolUses(SymbolTableCollection &symbols) {         \
    return success(lookupTeamGrid(*this, getGridAttr(), symbols) != nullptr);  \
  }

PTENSOR_TEAM_OP_COMMON(TeamAllReduceOp)
PTENSOR_TEAM_OP_COMMON(TeamGatherOp)
PTENSOR_TEAM_OP_COMMON(TeamBlockOp)
PTENSOR_TEAM_OP_COMMON(TeamSliceRowsOp)
PTENSOR_TEAM_OP_COMMON(TeamResplitOp)
PTENSOR_TEAM_OP_COMMON(TeamReblockOp)
PTENSOR_TEAM_SIZE(TeamExchangeOp)
PTENSOR_TEAM_OP_COMMON(TeamBlockRowsOp)
PTENSOR_TEAM_OP_COMMON(TeamBlockStartOp)
PTENSOR_TEAM_OP_COMMON(TeamSumOp)
#undef PTENSOR_TEAM_OP_COMMON
#undef PTENSOR_TEAM_SIZE

/// The received runs' ends: one per process of the team.
LogicalResult
TeamExchangeOp::verifySymbolUses(SymbolTableCollection &symbols) {
  shard::GridOp grid = lookupTeamGrid(*this, getGridAttr(), symbols);
  if (!grid)
    return failure();
  PTensorType runEnds = getRunEnds().getType();
  if (runEnds.getRank() == 1 && runEnds.getDimSize(0) != grid.getShape()[0])
    return emitOpError("expected ")
           << grid.getShape()[0] << " run ends (one per process of "
           << getGridAttr() << "), but got " << runEnds;
  return success();
}

/// The error of a team op whose `what` (a block, blocks...) of type `type`
/// has a static first dim.
static LogicalResult emitNotBlock(Operation *op, StringRef what,
                                  PTensorType type) {
  return op->emitOpError("expected ")
         << what << " (a dynamic first dim: the rows depend on the rank), "
         << "but got " << type;
}

LogicalResult TeamAllReduceOp::verify() { return verifyLocal(*this); }

LogicalResult TeamGatherOp::verify() {
  return verifyRowsChange(*this, getBlock().getType(), getType());
}

LogicalResult TeamBlockOp::verify() {
  if (failed(verifyRowsChange(*this, getWhole().getType(), getType())))
    return failure();
  if (!ShapedType::isDynamic(getType().getShape()[0]))
    return emitOpError("expected a dynamic first dim (the block's rows "
                       "depend on the rank), but got ")
           << getType();
  return success();
}

void TeamSliceRowsOp::build(OpBuilder &b, OperationState &state, Type result,
                            Value block, Value sourceRows, Value offset,
                            Value rows, Value step, FlatSymbolRefAttr grid) {
  build(b, state, result, ValueRange{block}, ValueRange{sourceRows},
        ValueRange{offset}, ValueRange{rows}, ValueRange{step}, grid);
}

/// `%block, %n [%offset, %rows, %step], ... on @grid : types -> type`.
ParseResult TeamSliceRowsOp::parse(OpAsmParser &parser,
                                   OperationState &state) {
  SmallVector<OpAsmParser::UnresolvedOperand> lists[5];
  auto parseSlice = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand operands[5];
    if (parser.parseOperand(operands[0]) || parser.parseComma() ||
        parser.parseOperand(operands[1]) || parser.parseLSquare() ||
        parser.parseOperand(operands[2]) || parser.parseComma() ||
        parser.parseOperand(operands[3]) || parser.parseComma() ||
        parser.parseOperand(operands[4]) || parser.parseRSquare())
      return failure();
    for (int i = 0; i < 5; ++i)
      lists[i].push_back(operands[i]);
    return success();
  };
  FlatSymbolRefAttr grid;
  SmallVector<Type> blockTypes;
  Type resultType;
  llvm::SMLoc typesLoc;
  if (parser.parseCommaSeparatedList(parseSlice) ||
      parser.parseKeyword("on") || parser.parseAttribute(grid) ||
      parser.parseOptionalAttrDict(state.attributes) || parser.parseColon())
    return failure();
  typesLoc = parser.getCurrentLocation();
  if (parser.parseTypeList(blockTypes) || parser.parseArrow() ||
      parser.parseType(resultType))
    return failure();
  size_t count = lists[0].size();
  if (blockTypes.size() != count)
    return parser.emitError(typesLoc)
           << "expected " << count << " block types (one per slice), but got "
           << blockTypes.size();
  Properties &properties = state.getOrAddProperties<Properties>();
  properties.grid = grid;
  for (int &size : properties.operandSegmentSizes)
    size = static_cast<int>(count);
  Type index = parser.getBuilder().getIndexType();
  if (parser.resolveOperands(lists[0], blockTypes, typesLoc, state.operands))
    return failure();
  for (int i = 1; i < 5; ++i)
    if (parser.resolveOperands(lists[i], index, state.operands))
      return failure();
  state.addTypes(resultType);
  return success();
}

void TeamSliceRowsOp::print(OpAsmPrinter &p) {
  for (unsigned k = 0; k < getNumSlices(); ++k)
    p << (k ? ", " : " ") << getBlocks()[k] << ", " << getSourceRows()[k]
      << " [" << getOffsets()[k] << ", " << getRows()[k] << ", "
      << getSteps()[k] << "]";
  p << " on " << getGridAttr();
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getGridAttrName(), getOperandSegmentSizesAttrName()});
  p << " : ";
  llvm::interleaveComma(getBlocks().getTypes(), p);
  p << " -> " << getType();
}

LogicalResult TeamSliceRowsOp::verify() {
  unsigned count = getNumSlices();
  if (count == 0 || getSourceRows().size() != count ||
      getOffsets().size() != count || getRows().size() != count ||
      getSteps().size() != count)
    return emitOpError("expected one or more slices, each a block, its "
                       "tensor's rows, an offset, rows and a step");
  if (!ShapedType::isDynamic(getType().getShape()[0]))
    return emitNotBlock(*this, "blocks", getType());
  for (unsigned k = 0; k < count; ++k) {
    PTensorType block = cast<PTensorType>(getBlocks()[k].getType());
    if (failed(verifyRowsChange(*this, block, getType())))
      return failure();
    if (!ShapedType::isDynamic(block.getShape()[0]))
      return emitNotBlock(*this, "blocks", block);
    if (matchPattern(getSteps()[k], m_Zero()))
      return emitOpError("expected a non-zero step, but slice ")
             << k << "'s is 0";
  }
  return success();
}

LogicalResult TeamResplitOp::verify() {
  PTensorType part = getPart().getType(), result = getType();
  int64_t rank = part.getRank(), axis = static_cast<int64_t>(getAxis());
  if (part.getElementType() != result.getElementType() ||
      part.getDevice() != result.getDevice() || rank != result.getRank() ||
      axis >= rank)
    return emitOpError("expected a part and a result of one dtype, one "
                       "device and one rank greater than the split axis ")
           << axis << ", but got " << part << " and " << result;
  for (int64_t d = 1; d < rank; ++d)
    if (d != axis && part.getDimSize(d) != result.getDimSize(d))
      return emitOpError("expected dim ")
             << d << " of the result (" << result
             << ") to be the part's (" << part
             << "): only dims 0 and the split axis change";
  if (!part.isDynamicDim(axis))
    return emitOpError("expected a part split along dim ")
           << axis << " (a dynamic size there: it depends on the rank), "
           << "but got " << part;
  if (!result.isDynamicDim(0))
    return emitNotBlock(*this, "a block as the result", result);
  return verifyLocal(*this);
}

LogicalResult TeamReblockOp::verify() {
  PTensorType block = getBlock().getType(), result = getType();
  if (block.getRank() == 0 || !block.isDynamicDim(0))
    return emitNotBlock(*this, "a block", block);
  if (result.getRank() != 1 || !result.isDynamicDim(0) ||
      result.getElementType() != block.getElementType() ||
      result.getDevice() != block.getDevice())
    return emitOpError("expected a flat result of dynamic size with the "
                       "block's dtype and device, but got ")
           << result;
  return verifyLocal(*this);
}

LogicalResult TeamExchangeOp::verify() {
  PTensorType part = getPart().getType(), result = getResult().getType();
  if (failed(verifyRowsChange(*this, part, result)))
    return failure();
  if (!result.isDynamicDim(0))
    return emitOpError("expected a result of dynamic rows (what a process "
                       "receives is known when the code runs), but got ")
           << result;
  PTensorType ends = getEnds().getType();
  if (ends.getRank() != 1 || !ends.getElementType().isSignlessInteger(64) ||
      ends.getDevice() != part.getDevice())
    return emitOpError("expected the run ends as a 1-D i64 tensor on the "
                       "part's device, but got ")
           << ends;
  PTensorType runEnds = getRunEnds().getType();
  if (runEnds.getRank() != 1 || runEnds.isDynamicDim(0) ||
      !runEnds.getElementType().isSignlessInteger(64) ||
      runEnds.getDevice() != part.getDevice())
    return emitOpError("expected the received runs' ends as a 1-D i64 "
                       "tensor of static size (the team's) on the part's "
                       "device, but got ")
           << runEnds;
  return success();
}
