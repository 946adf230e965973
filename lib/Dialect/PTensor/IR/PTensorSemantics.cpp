//===- PTensorSemantics.cpp - broadcasting and type promotion -------------===//

#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ptensor;

DTypeKind mlir::ptensor::getDTypeKind(Type dtype) {
  if (isa<FloatType>(dtype))
    return DTypeKind::Float;
  if (dtype.isInteger(1))
    return DTypeKind::Bool;
  if (dtype.isUnsignedInteger())
    return DTypeKind::Unsigned;
  return DTypeKind::Signed;
}

static unsigned getWidth(Type dtype) {
  if (isa<IndexType>(dtype))
    return 64;
  return dtype.getIntOrFloatBitWidth();
}

static std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// Promotes two strong (tensor) dtypes.
static FailureOr<Type> promotePair(Type a, Type b, std::string &error) {
  if (a == b)
    return a;
  MLIRContext *ctx = a.getContext();
  DTypeKind ka = getDTypeKind(a), kb = getDTypeKind(b);
  if (ka == DTypeKind::Float && kb == DTypeKind::Float) {
    // f16 with bf16 has no common 16-bit type.
    if (getWidth(a) == getWidth(b))
      return Type(Float32Type::get(ctx));
    return getWidth(a) > getWidth(b) ? a : b;
  }
  if (ka == DTypeKind::Float)
    return a;
  if (kb == DTypeKind::Float)
    return b;
  if (ka == DTypeKind::Bool)
    return b;
  if (kb == DTypeKind::Bool)
    return a;
  if (ka == kb)
    return getWidth(a) > getWidth(b) ? a : b;
  // Signed with unsigned: the smallest signed type holding both.
  Type s = ka == DTypeKind::Signed ? a : b;
  Type u = ka == DTypeKind::Signed ? b : a;
  if (getWidth(u) == 64) {
    error = "cannot promote '" + typeName(u) + "' with signed '" +
            typeName(s) +
            "': no integer type holds both (cast one operand first)";
    return failure();
  }
  unsigned width = std::max(getWidth(s), 2 * getWidth(u));
  return Type(IntegerType::get(ctx, width));
}

FailureOr<Type>
mlir::ptensor::promoteDTypes(ArrayRef<PromotionOperand> operands,
                             std::string &error) {
  // With a float tensor among the operands the result is that float type,
  // whatever the integers are: promote the floats alone, so that e.g.
  // (f16, ui64, i8) gives f16 in any order instead of failing on ui64 + i8.
  bool hasFloat = llvm::any_of(operands, [](const PromotionOperand &op) {
    return !op.isWeak && isa<FloatType>(op.dtype);
  });
  Type strong;
  std::optional<DTypeKind> weakKind;
  for (const PromotionOperand &op : operands) {
    if (op.isWeak) {
      DTypeKind k = getDTypeKind(op.dtype);
      if (k == DTypeKind::Unsigned)
        k = DTypeKind::Signed;
      weakKind = weakKind ? std::max(*weakKind, k) : k;
      continue;
    }
    if (hasFloat && !isa<FloatType>(op.dtype))
      continue;
    if (!strong) {
      strong = op.dtype;
      continue;
    }
    FailureOr<Type> p = promotePair(strong, op.dtype, error);
    if (failed(p))
      return failure();
    strong = *p;
  }
  if (!strong) {
    error = "at least one operand must be a ptensor";
    return failure();
  }
  if (!weakKind)
    return strong;
  MLIRContext *ctx = strong.getContext();
  DTypeKind k = getDTypeKind(strong);
  // A weak scalar matters only when its category is stronger.
  if (*weakKind == DTypeKind::Float && k != DTypeKind::Float)
    return Type(Float32Type::get(ctx));
  if (*weakKind == DTypeKind::Signed && k == DTypeKind::Bool)
    return Type(IntegerType::get(ctx, 64));
  return strong;
}

Type mlir::ptensor::applyPromotionMethod(PromotionMethod method, Type common) {
  MLIRContext *ctx = common.getContext();
  switch (method) {
  case PromotionMethod::DEFAULT:
  case PromotionMethod::NO_OPMATH:
    return common;
  case PromotionMethod::INT_TO_FLOAT:
    return isa<FloatType>(common) ? common : Float32Type::get(ctx);
  case PromotionMethod::ALWAYS_BOOL:
    return IntegerType::get(ctx, 1);
  case PromotionMethod::BOOL_TO_LONG:
    return common.isInteger(1) ? IntegerType::get(ctx, 64) : common;
  }
  llvm_unreachable("unknown promotion method");
}

Type mlir::ptensor::getComputeType(Type dtype) {
  if (isa<FloatType>(dtype) && dtype.getIntOrFloatBitWidth() < 32)
    return Float32Type::get(dtype.getContext());
  return dtype;
}

std::string mlir::ptensor::formatShape(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << "?";
    else
      os << d;
  });
  os << "]";
  return s;
}

FailureOr<SmallVector<int64_t>>
mlir::ptensor::broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes,
                               std::string &error) {
  size_t rank = 0;
  for (ArrayRef<int64_t> s : shapes)
    rank = std::max(rank, s.size());
  SmallVector<int64_t> result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // `i` counts from the right; `cur` is the size chosen so far.
    int64_t &cur = result[rank - 1 - i];
    bool seenDynamic = false;
    for (ArrayRef<int64_t> s : shapes) {
      if (i >= s.size())
        continue;
      int64_t d = s[s.size() - 1 - i];
      if (ShapedType::isDynamic(d)) {
        seenDynamic = true;
        continue;
      }
      if (d == 1)
        continue;
      if (cur != 1 && cur != d) {
        error = "cannot broadcast shapes ";
        llvm::raw_string_ostream os(error);
        llvm::interleave(
            shapes, os, [&](ArrayRef<int64_t> sh) { os << formatShape(sh); },
            " and ");
        os << ": sizes " << cur << " and " << d << " of dimension -" << i + 1
           << " (right-aligned) differ and neither is 1";
        return failure();
      }
      cur = d;
    }
    if (seenDynamic && cur == 1)
      cur = ShapedType::kDynamic;
  }
  return result;
}

LogicalResult mlir::ptensor::getCommonPlacement(TypeRange types,
                                                StringAttr &device,
                                                IntegerAttr &team,
                                                std::string &error) {
  bool first = true;
  for (Type t : types) {
    auto pt = dyn_cast<PTensorType>(t);
    if (!pt)
      continue;
    if (first) {
      device = pt.getDevice();
      team = pt.getTeam();
      first = false;
      continue;
    }
    if (pt.getDevice() != device) {
      auto name = [](StringAttr d) {
        return d ? "\"" + d.getValue().str() + "\"" : std::string("host");
      };
      error = "operands must be on the same device, but got " + name(device) +
              " and " + name(pt.getDevice());
      return failure();
    }
    if (pt.getTeam() != team) {
      auto name = [](IntegerAttr t) {
        return t ? std::to_string(t.getInt()) : std::string("none");
      };
      error = "operands must belong to the same team, but got " + name(team) +
              " and " + name(pt.getTeam());
      return failure();
    }
  }
  return success();
}

FailureOr<PTensorType>
mlir::ptensor::inferElementwiseType(MLIRContext *context,
                                    std::optional<Location> loc,
                                    TypeRange operands,
                                    PromotionMethod method) {
  std::string error;
  auto fail = [&]() -> FailureOr<PTensorType> {
    (void)emitOptionalError(loc, error);
    return failure();
  };
  StringAttr device;
  IntegerAttr team;
  if (failed(getCommonPlacement(operands, device, team, error)))
    return fail();
  SmallVector<ArrayRef<int64_t>> shapes;
  SmallVector<PromotionOperand> dtypes;
  for (Type t : operands) {
    if (auto pt = dyn_cast<PTensorType>(t)) {
      shapes.push_back(pt.getShape());
      dtypes.push_back({pt.getElementType(), /*isWeak=*/false});
    } else {
      dtypes.push_back({t, /*isWeak=*/true});
    }
  }
  FailureOr<SmallVector<int64_t>> shape = broadcastShapes(shapes, error);
  if (failed(shape))
    return fail();
  FailureOr<Type> common = promoteDTypes(dtypes, error);
  if (failed(common))
    return fail();
  return PTensorType::get(context, *shape,
                          applyPromotionMethod(method, *common), device, team);
}
