//===- PTensorOpKinds.cpp - the op-kind table for the dialect's enums -----===//

#include "ptensor/Dialect/PTensor/IR/PTensorOpKinds.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;

static FailureOr<sem::OpKind> lookup(std::optional<Location> loc,
                                     sem::OpClass opClass, StringRef name) {
  sem::Result<sem::OpKind> row = sem::lookupOpKind(opClass, name);
  if (row)
    return *row;
  (void)emitOptionalError(loc, "kind '", name, "' of ptensor.",
                          sem::opClassName(opClass),
                          " has no row in OpKinds.def");
  return failure();
}

FailureOr<sem::OpKind> mlir::ptensor::getOpKindRow(std::optional<Location> loc,
                                                   UnaryOpKind kind) {
  return lookup(loc, sem::OpClass::Unary, stringifyUnaryOpKind(kind));
}

FailureOr<sem::OpKind> mlir::ptensor::getOpKindRow(std::optional<Location> loc,
                                                   UnaryTestKind kind) {
  return lookup(loc, sem::OpClass::UnaryTest, stringifyUnaryTestKind(kind));
}

FailureOr<sem::OpKind> mlir::ptensor::getOpKindRow(std::optional<Location> loc,
                                                   BinaryOpKind kind) {
  return lookup(loc, sem::OpClass::Binary, stringifyBinaryOpKind(kind));
}

FailureOr<sem::OpKind> mlir::ptensor::getOpKindRow(std::optional<Location> loc,
                                                   BinaryTestKind kind) {
  return lookup(loc, sem::OpClass::BinaryTest, stringifyBinaryTestKind(kind));
}

PromotionMethod mlir::ptensor::getPromotionMethod(const sem::OpKind &row) {
  return static_cast<PromotionMethod>(row.method);
}
