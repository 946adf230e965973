//===- PTensorTypes.cpp - the !ptensor.ptensor type -----------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ptensor;

#define GET_TYPEDEF_CLASSES
#include "ptensor/Dialect/PTensor/IR/PTensorTypes.cpp.inc"

void PTensorDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ptensor/Dialect/PTensor/IR/PTensorTypes.cpp.inc"
      >();
}

bool PTensorType::isSupportedDType(Type dtype) {
  if (dtype.isF16() || dtype.isBF16() || dtype.isF32() || dtype.isF64())
    return true;
  auto it = dyn_cast<IntegerType>(dtype);
  if (!it)
    return false;
  unsigned w = it.getWidth();
  if (it.isSignless())
    return w == 1 || w == 8 || w == 16 || w == 32 || w == 64;
  if (it.isUnsigned())
    return w == 8 || w == 16 || w == 32 || w == 64;
  return false;
}

ShapedType PTensorType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                  Type elementType) const {
  return cloneWithShapeAndType(shape ? *shape : getShape(), elementType);
}

PTensorType PTensorType::cloneWithShapeAndType(ArrayRef<int64_t> shape,
                                               Type elementType) const {
  return PTensorType::get(getContext(), shape, elementType, getDevice(),
                          getTeam());
}

LogicalResult
PTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                    ArrayRef<int64_t> shape, Type elementType,
                    StringAttr device, IntegerAttr team) {
  for (int64_t d : shape)
    if (d < 0 && !ShapedType::isDynamic(d))
      return emitError() << "ptensor dimension sizes must be >= 0 or '?', got "
                         << d;
  if (!isSupportedDType(elementType))
    return emitError() << "ptensor dtype must be one of i1, i8, i16, i32, i64, "
                          "ui8, ui16, ui32, ui64, f16, bf16, f32, f64; got "
                       << elementType;
  if (device && device.getValue().empty())
    return emitError() << "ptensor device must be a non-empty string (omit it "
                          "for host memory)";
  if (team && team.getInt() < 0)
    return emitError() << "ptensor team must be >= 0, got " << team.getInt();
  return success();
}

/// `<` dims `x` dtype (`,` `device` `=` string | `,` `team` `=` int)* `>`
Type PTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type dtype;
  StringAttr device;
  IntegerAttr team;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true))
    return {};
  SMLoc dtypeLoc = parser.getCurrentLocation();
  if (parser.parseType(dtype))
    return {};
  if (!isSupportedDType(dtype)) {
    parser.emitError(dtypeLoc)
        << "ptensor dtype must be one of i1, i8, i16, i32, i64, ui8, ui16, "
           "ui32, ui64, f16, bf16, f32, f64; got "
        << dtype;
    return {};
  }
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc keyLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key))
      return {};
    if (key == "device" && !device) {
      std::string value;
      if (parser.parseEqual() || parser.parseString(&value))
        return {};
      device = StringAttr::get(parser.getContext(), value);
    } else if (key == "team" && !team) {
      int64_t value;
      if (parser.parseEqual() || parser.parseInteger(value))
        return {};
      team = IntegerAttr::get(IntegerType::get(parser.getContext(), 64), value);
    } else {
      parser.emitError(keyLoc)
          << "expected 'device' or 'team' (each at most once) in ptensor type, "
             "got '"
          << key << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PTensorType>(parser.getContext(), shape, dtype,
                                        device, team);
}

void PTensorType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  if (!getShape().empty())
    printer << "x";
  printer << getElementType();
  if (getDevice())
    printer << ", device = \"" << getDevice().getValue() << "\"";
  if (getTeam())
    printer << ", team = " << getTeam().getInt();
  printer << ">";
}
