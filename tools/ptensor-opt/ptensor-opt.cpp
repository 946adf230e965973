//===- ptensor-opt.cpp - mlir-opt with the ptensor dialect ----------------===//
//
// All upstream dialects, extensions and passes plus ptensor's dialect, passes
// and named pipelines.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Compiler/ParserHazards.h"
#include "ptensor/Dialect/PTensor/IR/PTensor.h"
#include "ptensor/InitAll.h"
#include "ptensor/Tools/CommandLine.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>

/// Upstream's MlirOptMain for `inputFilename`, but input that MLIR's parser
/// would abort on (ptensor/Compiler/ParserHazards.h) is refused with an
/// error at its place, as ptensor-compile and the JIT do.
static mlir::LogicalResult optMain(llvm::StringRef inputFilename,
                                   llvm::StringRef outputFilename,
                                   mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Listings read no input (and upstream's file-name form would set up
  // LLVM a second time).
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::MlirOptMain(llvm::outs(), llvm::MemoryBuffer::getMemBuffer(""),
                             registry, config);
  // As upstream: input from a terminal is often a mistake that looks like
  // a hang.
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  // Bytecode (its magic number first) is not text the hazard is found in.
  bool bytecode = input->getBuffer().starts_with("ML\xefR");
  std::optional<ptensor::compiler::ParserHazard> hazard;
  if (!bytecode)
    hazard = ptensor::compiler::findParserHazard(input->getBuffer());
  if (hazard) {
    const char *at = input->getBufferStart() + hazard->offset;
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    sourceMgr.PrintMessage(llvm::errs(), llvm::SMLoc::getFromPointer(at),
                           llvm::SourceMgr::DK_Error, hazard->message);
    return mlir::failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return mlir::failure();
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return mlir::failure();
  output->keep();
  return mlir::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
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
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "ptensor optimizer driver\n", registry);
  return mlir::asMainReturnCode(
      optMain(inputFilename, outputFilename, registry));
}
