//===- ptensor-opt.cpp - mlir-opt with the ptensor dialect ----------------===//
//
// All upstream dialects, extensions and passes plus ptensor's dialect, passes
// and named pipelines.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/InitAll.h"
#include "ptensor/Tools/CommandLine.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  ptensor::tools::addVersionPrinter();
  mlir::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
#ifdef PTENSOR_DIALECT_ONLY
  mlir::ptensor::registerPTensorDialect(registry);
#else
  mlir::ptensor::registerAllPTensorPasses();
  mlir::ptensor::registerAllPTensorDialects(registry);
#endif
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ptensor optimizer driver\n", registry));
}
