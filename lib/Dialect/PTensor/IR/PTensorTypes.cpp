//===- PTensorTypes.cpp - the !ptensor.ptensor type -----------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/Dialect/PTensor/IR/DTypeConversion.h"
#include "ptensor/Dialect/PTensor/IR/PTensorSemantics.h"
#include "ptensor/Semantics/Broadcast.h"

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

/// The supported dtypes, for diagnostics: "i1, i8, ..., f64".
static std::string supportedDTypeList() {
  std::string list;
  for (::ptensor::DType d : ::ptensor::allDTypes())
    list += (list.empty() ? "" : ", ") + std::string(::ptensor::dtypeName(d));
  return list;
}

bool PTensorType::isSupportedDType(Type dtype) {
  return toDType(dtype).has_value();
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

bool PTensorType::isOnGPU() const {
  return ::ptensor::semantics::isGPUDevice(getDeviceName());
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
    return emitError() << "ptensor dtype must be one of " << supportedDTypeList()
                       << "; got " << elementType;
  if (device && device.getValue().empty())
    return emitError() << "ptensor device must be a non-empty string (omit it "
                          "for host memory)";
  if (team && team.getInt() < 0)
    return emitError() << "ptensor team must be >= 0, got " << team.getInt();
  return success();
}

/// Parses `device = "STR"` or `team = INT` after its key; fails on a second
/// occurrence of the same key.
template <typename AttrT, typename ParseValue>
static ParseResult parseKeyValue(AsmParser &parser, SMLoc keyLoc,
                                 StringRef key, AttrT &attr,
                                 ParseValue parseValue) {
  if (attr)
    return parser.emitError(keyLoc)
           << "'" << key << "' is given twice in ptensor type";
  if (parser.parseEqual())
    return failure();
  return parseValue(attr);
}

/// `<` dims `x` dtype (`,` `device` `=` string | `,` `team` `=` int)* `>`
Type PTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type dtype;
  StringAttr device;
  IntegerAttr team;
  MLIRContext *ctx = parser.getContext();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true))
    return {};
  // The dimension list stops at a `-`: name the negative size.
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalMinus())) {
    int64_t size = 0;
    (void)parser.parseOptionalInteger(size);
    parser.emitError(loc)
        << "ptensor dimension sizes must be >= 0 or '?', got -" << size;
    return {};
  }
  OptionalParseResult hasType = parser.parseOptionalType(dtype);
  if (!hasType.has_value()) {
    parser.emitError(loc) << "expected a ptensor dtype (" << supportedDTypeList()
                          << ") after the shape";
    return {};
  }
  if (failed(*hasType))
    return {};
  if (!isSupportedDType(dtype)) {
    parser.emitError(loc) << "ptensor dtype must be one of " << supportedDTypeList()
                          << "; got " << dtype;
    return {};
  }
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc keyLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key))
      return {};
    ParseResult result = failure();
    if (key == "device") {
      result = parseKeyValue(parser, keyLoc, key, device, [&](StringAttr &a) {
        std::string value;
        if (parser.parseString(&value))
          return failure();
        a = StringAttr::get(ctx, value);
        return success();
      });
    } else if (key == "team") {
      result = parseKeyValue(parser, keyLoc, key, team, [&](IntegerAttr &a) {
        int64_t value;
        if (parser.parseInteger(value))
          return failure();
        a = IntegerAttr::get(IntegerType::get(ctx, 64), value);
        return success();
      });
    } else {
      parser.emitError(keyLoc) << "unknown key '" << key
                               << "' in ptensor type, expected 'device' or "
                                  "'team'";
    }
    if (failed(result))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PTensorType>(ctx, shape, dtype, device, team);
}

void PTensorType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  if (!getShape().empty())
    printer << "x";
  printer << getElementType();
  if (getDevice()) {
    printer << ", device = ";
    printer.printString(getDevice().getValue());
  }
  if (getTeam())
    printer << ", team = " << getTeam().getInt();
  printer << ">";
}

Type mlir::ptensor::getStorageType(Type t) {
  if (auto it = dyn_cast<IntegerType>(t); it && !it.isSignless())
    return IntegerType::get(t.getContext(), it.getWidth());
  return t;
}
