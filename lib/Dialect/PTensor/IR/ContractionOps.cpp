//===- ContractionOps.cpp - type inference of matmul, vecdot, tensordot ---===//
//
// The meta step of the linear-algebra ops: the semantics library computes
// the contraction (result shape and dtype, every message); this file
// converts between it and MLIR types.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/Contractions.h"
#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

namespace {
/// An op's operands as the semantics library takes them.
struct Operands {
  sem::Shape lhs, rhs;
  ::ptensor::DType lhsDType, rhsDType;
};
} // namespace

static Operands toOperands(PTensorType lhs, PTensorType rhs) {
  return {sem::Shape(lhs.getShape().begin(), lhs.getShape().end()),
          sem::Shape(rhs.getShape().begin(), rhs.getShape().end()),
          *toDType(lhs.getElementType()), *toDType(rhs.getElementType())};
}

static sem::Result<sem::Contraction> contract(MatmulOp::Adaptor, const Operands &o) {
  return sem::matmulContraction(o.lhs, o.lhsDType, o.rhs, o.rhsDType);
}
static sem::Result<sem::Contraction> contract(VecdotOp::Adaptor a, const Operands &o) {
  return sem::vecdotContraction(o.lhs, o.lhsDType, o.rhs, o.rhsDType,
                                a.getAxis());
}
static sem::Result<sem::Contraction> contract(TensordotOp::Adaptor a,
                                              const Operands &o) {
  return sem::tensordotContraction(
      o.lhs, o.lhsDType, o.rhs, o.rhsDType,
      std::vector<int64_t>(a.getLhsAxes().begin(), a.getLhsAxes().end()),
      std::vector<int64_t>(a.getRhsAxes().begin(), a.getRhsAxes().end()));
}

/// Infers the result type of a contraction op from its adaptor: placement
/// first, then the semantics library's contraction.
template <typename Adaptor>
static LogicalResult inferContraction(std::optional<Location> loc, Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  auto lhs = cast<PTensorType>(adaptor.getLhs().getType());
  auto rhs = cast<PTensorType>(adaptor.getRhs().getType());
  StringAttr device;
  IntegerAttr team;
  std::string error;
  if (failed(getCommonPlacement(TypeRange{lhs, rhs}, device, team, error)))
    return emitOptionalError(loc, error);
  sem::Result<sem::Contraction> c = contract(adaptor, toOperands(lhs, rhs));
  if (!c)
    return emitOptionalError(loc, c.getError().message);
  results.push_back(lhs.cloneWithShapeAndType(
      SmallVector<int64_t>(c->result.begin(), c->result.end()),
      toMLIRType(lhs.getContext(), c->dtype)));
  return success();
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  return inferContraction(loc, adaptor, results);
}

LogicalResult VecdotOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  return inferContraction(loc, adaptor, results);
}

LogicalResult TensordotOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  return inferContraction(loc, adaptor, results);
}

template <typename OpTy>
static std::optional<sem::Contraction> contractionOf(OpTy op) {
  auto lhs = cast<PTensorType>(op.getLhs().getType());
  auto rhs = cast<PTensorType>(op.getRhs().getType());
  sem::Result<sem::Contraction> c =
      contract(typename OpTy::Adaptor(op), toOperands(lhs, rhs));
  assert(c && "contraction ops are verified");
  return *c;
}

std::optional<sem::Contraction> mlir::ptensor::getContraction(Operation *op) {
  if (auto matmul = dyn_cast<MatmulOp>(op))
    return contractionOf(matmul);
  if (auto vecdot = dyn_cast<VecdotOp>(op))
    return contractionOf(vecdot);
  if (auto tensordot = dyn_cast<TensordotOp>(op))
    return contractionOf(tensordot);
  return std::nullopt;
}

StringRef mlir::ptensor::getContractionName(Operation *op) {
  return op->getName().stripDialect();
}
