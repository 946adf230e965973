//===- PTensorOpKinds.cpp - properties of elementwise op kinds ------------===//

#include "ptensor/Dialect/PTensor/IR/PTensorOpKinds.h"

using namespace mlir;
using namespace mlir::ptensor;

PromotionMethod mlir::ptensor::getPromotionMethod(UnaryOpKind kind) {
  switch (kind) {
  case UnaryOpKind::abs:
  case UnaryOpKind::bitwise_invert:
  case UnaryOpKind::ceil:
  case UnaryOpKind::floor:
  case UnaryOpKind::negative:
  case UnaryOpKind::positive:
  case UnaryOpKind::round:
  case UnaryOpKind::sign:
  case UnaryOpKind::square:
  case UnaryOpKind::trunc:
    return PromotionMethod::DEFAULT;
  default:
    return PromotionMethod::INT_TO_FLOAT;
  }
}

PromotionMethod mlir::ptensor::getPromotionMethod(BinaryOpKind kind) {
  switch (kind) {
  case BinaryOpKind::atan2:
  case BinaryOpKind::copysign:
  case BinaryOpKind::divide:
  case BinaryOpKind::hypot:
  case BinaryOpKind::logaddexp:
    return PromotionMethod::INT_TO_FLOAT;
  default:
    return PromotionMethod::DEFAULT;
  }
}

bool mlir::ptensor::isBitwise(UnaryOpKind kind) {
  return kind == UnaryOpKind::bitwise_invert;
}

bool mlir::ptensor::isBitwise(BinaryOpKind kind) {
  switch (kind) {
  case BinaryOpKind::bitwise_and:
  case BinaryOpKind::bitwise_or:
  case BinaryOpKind::bitwise_xor:
  case BinaryOpKind::bitwise_left_shift:
  case BinaryOpKind::bitwise_right_shift:
    return true;
  default:
    return false;
  }
}

bool mlir::ptensor::isShift(BinaryOpKind kind) {
  return kind == BinaryOpKind::bitwise_left_shift ||
         kind == BinaryOpKind::bitwise_right_shift;
}
