//===- TeamHostStaging.cpp - GPU team collectives through the host --------===//
//
// The team runtime moves GPU memory for every collective but one
// (all-reduces, gathers, slices of rows, reblocks and exchanges of runs:
// Team.h's *_device entries, through NCCL when every process has a GPU of
// its own, through host buffers otherwise). team_resplit (a transpose
// across the split dim) places the columns it receives with MPI's vector
// types, which have no NCCL equivalent, so a resplit of GPU blocks is
// staged: it moves into a private host function of its own (a function on
// GPU tensors runs its tensor work as kernels; one on host tensors runs it
// as host loops, which is what the collective's byte buffers need), and
// the call copies the GPU operands to the host before and the GPU results
// back after (`ptensor.copy`, lowered to device copies like any other).
// Everything around it stays on the GPU (docs/Teams.md, "GPU teams").
//
//===----------------------------------------------------------------------===//

#include "PartitionTeams.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ptensor;

/// `t` on the host (no device; a block has no team).
static PTensorType onHost(PTensorType t) {
  return PTensorType::get(t.getContext(), t.getShape(), t.getElementType(),
                          /*device=*/nullptr, t.getTeam());
}

static PTensorType onGPU(Type t) {
  auto pt = dyn_cast<PTensorType>(t);
  return pt && pt.isOnGPU() ? pt : PTensorType();
}

/// Stages collective `op` through the host when it moves GPU blocks: `op`
/// goes into a new private function of `module` on host types, called
/// between copies to and from the host.
static void stageOnHost(ModuleOp module, SymbolTable &symbols, Operation *op) {
  if (llvm::none_of(op->getOperandTypes(),
                    [](Type t) { return bool(onGPU(t)); }))
    return;
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  auto hostTypeOf = [](Type t) -> Type {
    PTensorType gpu = onGPU(t);
    return gpu ? onHost(gpu) : t;
  };
  // One argument (and one copy) per value, however often `op` names it.
  llvm::SetVector<Value> inputs(op->operand_begin(), op->operand_end());
  auto argTypes = llvm::map_to_vector(
      inputs, [&](Value v) { return hostTypeOf(v.getType()); });
  auto resultTypes = llvm::map_to_vector(op->getResultTypes(), hostTypeOf);

  // The host function: the collective alone.
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto step = func::FuncOp::create(
      b, loc, (op->getName().stripDialect() + "_on_host").str(),
      FunctionType::get(ctx, argTypes, resultTypes));
  step.setPrivate();
  symbols.insert(step); // renamed when taken
  Block *body = step.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), body->getArguments());
  Operation *moved = b.clone(*op, mapping);
  for (auto [result, type] : llvm::zip(moved->getResults(), resultTypes))
    result.setType(type);
  func::ReturnOp::create(b, loc, moved->getResults());

  // The call, between the copies.
  b.setInsertionPoint(op);
  SmallVector<Value> operands;
  for (auto [operand, type] : llvm::zip(inputs, argTypes)) {
    Value onHostSide = operand;
    if (type != operand.getType())
      onHostSide = CopyOp::create(b, loc, type, operand);
    operands.push_back(onHostSide);
  }
  auto call = func::CallOp::create(b, loc, step, operands);
  SmallVector<Value> replacements;
  for (auto [result, hostResult] :
       llvm::zip(op->getResults(), call.getResults())) {
    Value back = hostResult;
    if (result.getType() != hostResult.getType())
      back = CopyOp::create(b, loc, result.getType(), hostResult);
    replacements.push_back(back);
  }
  op->replaceAllUsesWith(replacements);
  op->erase();
}

void mlir::ptensor::stageTeamCommunicationOnHost(ModuleOp module) {
  SmallVector<Operation *> collectives;
  module.walk([&](Operation *op) {
    if (isa<TeamResplitOp>(op))
      collectives.push_back(op);
  });
  SymbolTable symbols(module);
  for (Operation *op : collectives)
    stageOnHost(module, symbols, op);
}
