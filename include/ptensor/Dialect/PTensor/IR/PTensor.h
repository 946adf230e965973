//===- PTensor.h - ptensor dialect -------------------------------*- C++ -*-===//
//
// Public header of the ptensor dialect: dialect, types, enums and ops.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_DIALECT_PTENSOR_IR_PTENSOR_H
#define PTENSOR_DIALECT_PTENSOR_IR_PTENSOR_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/SubsetOpInterface.h"

#include "ptensor/Dialect/PTensor/IR/PTensorDialect.h.inc"
#include "ptensor/Dialect/PTensor/IR/PTensorEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ptensor/Dialect/PTensor/IR/PTensorTypes.h.inc"

#define GET_OP_CLASSES
#include "ptensor/Dialect/PTensor/IR/PTensorOps.h.inc"

namespace mlir {
class DialectRegistry;
class Type;
namespace ptensor {
/// Registers the ptensor dialect (and what it depends on) in `registry`.
void registerPTensorDialect(DialectRegistry &registry);

/// The signless type that stores values of semantic dtype `t` (ui8 -> i8);
/// other types are their own storage.
Type getStorageType(Type t);

/// The view ops (permute_dims, flip, extract_slice, expand_dims, squeeze):
/// their result always aliases operand 0.
bool isViewOp(Operation *op);

/// Ops whose results may share an operand's storage: the view ops, reshape
/// (a view when the strides allow), broadcast, meshgrid, to_ranked and
/// team_block.
bool mayShareOperandStorage(Operation *op);

/// The tensor whose storage `v` may be: followed back through the ops
/// whose result may share their one tensor operand's storage (the view
/// ops, reshape, broadcast, to_ranked, team_block; not meshgrid, whose
/// results each view another input), or `v` itself.
Value getStorageRoot(Value v);

/// The argument of `fn` that `write` writes into (its destination, or a
/// view of it), or null.
BlockArgument getWrittenArgument(WriteOp write, Operation *fn);

/// The value that `op`'s result is by an identity or involution fold
/// (cast or copy to the same type, positive, negative(negative(x)),
/// bitwise_invert(bitwise_invert(x))), or null; the folds return it.
Value getIdentityFold(Operation *op);

/// Marks a reduction (reduce, find_index) that ptensor-partition-teams made
/// over one process's block: its result is combined with the other
/// processes', so an empty block gives the kind's identity instead of the
/// run-time error of max/min/argmax/argmin over an empty axis.
inline constexpr llvm::StringLiteral kTeamPartialAttrName =
    "ptensor.team_partial";
} // namespace ptensor
} // namespace mlir

#endif // PTENSOR_DIALECT_PTENSOR_IR_PTENSOR_H
