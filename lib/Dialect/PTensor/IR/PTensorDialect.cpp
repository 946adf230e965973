//===- PTensorDialect.cpp - ptensor dialect registration ------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ptensor;

#include "ptensor/Dialect/PTensor/IR/PTensorDialect.cpp.inc"

void PTensorDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "ptensor/Dialect/PTensor/IR/PTensorOps.cpp.inc"
      >();
}

void mlir::ptensor::registerPTensorDialect(DialectRegistry &registry) {
  registry.insert<PTensorDialect, arith::ArithDialect, math::MathDialect>();
}

/// Materializes the constants of folds (sizes from ptensor.dim) as
/// arith.constant.
Operation *PTensorDialect::materializeConstant(OpBuilder &builder,
                                               Attribute value, Type type,
                                               Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
