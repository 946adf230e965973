//===- Passes.h - ptensor transformation passes ------------------*- C++ -*-===//

#ifndef PTENSOR_DIALECT_PTENSOR_TRANSFORMS_PASSES_H
#define PTENSOR_DIALECT_PTENSOR_TRANSFORMS_PASSES_H

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ptensor/Dialect/PTensor/Transforms/Passes.h.inc"

} // namespace mlir::ptensor

#endif // PTENSOR_DIALECT_PTENSOR_TRANSFORMS_PASSES_H
