//===- PTensorSemantics.cpp - the semantic rules on MLIR types ------------===//
//
// Converts MLIR types to the semantics library's dtypes and shapes, asks it,
// and converts back; no rule is decided here.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"
#include "ptensor/Semantics/Broadcast.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ptensor;
namespace sem = ::ptensor::semantics;
using ::ptensor::DType;

static_assert(sem::kDynamicSize == ShapedType::kDynamic,
              "the semantics library's dynamic size is MLIR's");
#define PTENSOR_CHECK_METHOD(NAME)                                             \
  static_assert(static_cast<int>(PromotionMethod::NAME) ==                     \
                static_cast<int>(sem::PromotionMethod::NAME));
PTENSOR_CHECK_METHOD(DEFAULT)
PTENSOR_CHECK_METHOD(NO_OPMATH)
PTENSOR_CHECK_METHOD(INT_TO_FLOAT)
PTENSOR_CHECK_METHOD(ALWAYS_BOOL)
PTENSOR_CHECK_METHOD(BOOL_TO_LONG)
#undef PTENSOR_CHECK_METHOD

std::optional<sem::TypedShape> mlir::ptensor::toTypedShape(PTensorType type) {
  std::optional<DType> dtype = toDType(type.getElementType());
  if (!dtype)
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  return sem::TypedShape{sem::Shape(shape.begin(), shape.end()), *dtype};
}

std::optional<DType> mlir::ptensor::toDType(Type type) {
  if (type.isSignlessInteger(1)) // bool; ui1 and si1 are no dtype
    return DType::Bool;
  if (auto it = dyn_cast<IntegerType>(type)) {
    if (it.isSigned()) // dtypes are signless (iN) or unsigned (uiN)
      return std::nullopt;
    auto kind = it.isUnsigned() ? ::ptensor::DTypeKind::Unsigned
                                : ::ptensor::DTypeKind::Signed;
    return ::ptensor::intDType(kind, it.getWidth());
  }
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  return std::nullopt;
}

Type mlir::ptensor::toMLIRType(MLIRContext *context, DType dtype) {
  switch (dtype) {
  case DType::F16:
    return Float16Type::get(context);
  case DType::BF16:
    return BFloat16Type::get(context);
  case DType::F32:
    return Float32Type::get(context);
  case DType::F64:
    return Float64Type::get(context);
  case DType::Bool:
    return IntegerType::get(context, 1);
  default:
    return IntegerType::get(context, ::ptensor::dtypeBitWidth(dtype),
                            ::ptensor::isUnsignedIntDType(dtype)
                                ? IntegerType::Unsigned
                                : IntegerType::Signless);
  }
}

DType mlir::ptensor::weakScalarDType(Type scalar) {
  if (std::optional<DType> d = toDType(scalar))
    return *d;
  if (isa<FloatType>(scalar))
    return DType::F64;
  return DType::I64;
}

sem::PromotionMethod mlir::ptensor::toSemantics(PromotionMethod method) {
  return static_cast<sem::PromotionMethod>(method);
}

/// The semantics operand of a ptensor element type or builtin scalar.
static sem::PromotionOperand toOperand(const PromotionOperand &op) {
  if (op.isWeak)
    return {weakScalarDType(op.dtype), true};
  std::optional<DType> d = toDType(op.dtype);
  // PTensorType's verifier admits only the dtypes of the semantics library.
  assert(d && "ptensor element type outside the dtype set");
  return {*d, false};
}

FailureOr<Type>
mlir::ptensor::promoteDTypes(ArrayRef<PromotionOperand> operands,
                             std::string &error) {
  std::vector<sem::PromotionOperand> ops;
  for (const PromotionOperand &op : operands)
    ops.push_back(toOperand(op));
  sem::Result<DType> r = sem::promoteDTypes(ops);
  if (!r) {
    error = r.getError().message;
    return failure();
  }
  // Success implies a tensor operand, so `operands` is not empty.
  return toMLIRType(operands.front().dtype.getContext(), *r);
}

Type mlir::ptensor::applyPromotionMethod(PromotionMethod method, Type common) {
  std::optional<DType> d = toDType(common);
  if (!d)
    return common;
  return toMLIRType(common.getContext(),
                    sem::applyPromotionMethod(toSemantics(method), *d));
}

Type mlir::ptensor::getComputeType(Type dtype) {
  std::optional<DType> d = toDType(dtype);
  if (!d)
    return dtype;
  return toMLIRType(dtype.getContext(), sem::computeDType(*d));
}

LogicalResult mlir::ptensor::verifyDynamicSizeCount(
    std::optional<Location> loc, StringRef opName, ArrayRef<int64_t> sizes,
    size_t numOperands) {
  auto numDynamic = static_cast<size_t>(llvm::count_if(
      sizes, [](int64_t s) { return ShapedType::isDynamic(s); }));
  if (numDynamic == numOperands)
    return success();
  return emitOptionalError(loc, opName, " has ", numOperands,
                           " size operands for ", numDynamic,
                           " dynamic sizes");
}

std::string mlir::ptensor::formatShape(ArrayRef<int64_t> shape) {
  return sem::formatShape(sem::Shape(shape.begin(), shape.end()));
}

FailureOr<SmallVector<int64_t>>
mlir::ptensor::broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes,
                               std::string &error) {
  std::vector<sem::Shape> in;
  for (ArrayRef<int64_t> s : shapes)
    in.emplace_back(s.begin(), s.end());
  sem::Result<sem::Shape> r = sem::broadcastShapes(in);
  if (!r) {
    error = r.getError().message;
    return failure();
  }
  return SmallVector<int64_t>(r->begin(), r->end());
}

LogicalResult mlir::ptensor::getCommonPlacement(TypeRange types,
                                                StringAttr &device,
                                                IntegerAttr &team,
                                                std::string &error) {
  std::vector<sem::Placement> placements;
  PTensorType first;
  for (Type t : types) {
    auto pt = dyn_cast<PTensorType>(t);
    if (!pt)
      continue;
    if (!first)
      first = pt;
    sem::Placement p;
    if (StringAttr d = pt.getDevice())
      p.device = d.getValue().str();
    if (IntegerAttr tm = pt.getTeam())
      p.team = tm.getInt();
    placements.push_back(std::move(p));
  }
  sem::Result<sem::Placement> r = sem::commonPlacement(placements);
  if (!r) {
    error = r.getError().message;
    return failure();
  }
  if (first) {
    device = first.getDevice();
    team = first.getTeam();
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
