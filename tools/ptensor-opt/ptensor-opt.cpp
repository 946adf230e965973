//===- ptensor-opt.cpp - mlir-opt with the ptensor dialect ----------------===//
//
// All upstream dialects, extensions and passes plus ptensor's dialect, passes
// and named pipelines.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/InitAll.h"
#include "ptensor/Tools/CommandLine.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  ptensor::tools::addVersionPrinter();
  mlir::registerAllPasses();
  mlir::DialectRegistry registry;
#ifdef PTENSOR_DIALECT_ONLY
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::ptensor::registerPTensorDialect(registry);
#else
  // What the compile driver uses (gpu-module-to-binary translates kernels
  // to LLVM IR), and every ptensor pass and pipeline.
  ptensor::compiler::registerCompilerDialects(registry);
  mlir::ptensor::registerAllPTensorPasses();
#endif
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ptensor optimizer driver\n", registry));
}
