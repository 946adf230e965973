//===- Dialect.cpp - ptensor dialect, passes and types in the C API -------===//

#include "ptensor-c/Dialect.h"

#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/DialectRegistry.h"

#include <mutex>

using namespace mlir;
using namespace mlir::ptensor;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(PTensor, ptensor,
                                      mlir::ptensor::PTensorDialect)

void ptensorRegisterAllDialects(MlirDialectRegistry registry) {
  // What the compile driver registers: the pipelines bufferize and lower
  // through upstream dialects (their interface models live in the upstream
  // extensions) down to LLVM IR.
  ::ptensor::compiler::registerCompilerDialects(*unwrap(registry));
}

void ptensorRegisterAllPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { registerAllPTensorPasses(); });
}

bool ptensorTypeIsAPTensor(MlirType type) {
  return llvm::isa<PTensorType>(unwrap(type));
}

MlirType ptensorPTensorTypeGet(MlirContext context, intptr_t rank,
                               const int64_t *shape, MlirType elementType,
                               MlirStringRef device) {
  MLIRContext *ctx = unwrap(context);
  StringAttr deviceAttr;
  if (device.length != 0)
    deviceAttr = StringAttr::get(ctx, unwrap(device));
  llvm::ArrayRef<int64_t> sizes(shape, static_cast<size_t>(rank));
  return wrap(PTensorType::getChecked(
      [&] { return emitError(UnknownLoc::get(ctx)); }, ctx, sizes,
      unwrap(elementType), deviceAttr, IntegerAttr()));
}

MlirStringRef ptensorPTensorTypeGetDevice(MlirType type) {
  return wrap(llvm::cast<PTensorType>(unwrap(type)).getDeviceName());
}
