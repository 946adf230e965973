//===- ptensor-fuzz-parse.cpp - libFuzzer target: parse and verify --------===//
//
// Coverage-guided fuzzing of what ptensor-opt does first with its input:
// libFuzzer hands arbitrary bytes to MLIR's parser with every dialect of
// the compile driver registered (ptensor's types, attributes and custom op
// syntax among them) and the parsed module is verified (ptensor's
// verifiers and type inference). Any crash, sanitizer finding or hang is a
// failure; diagnostics are the expected outcome and are discarded.
//
// Built only with Clang in the sanitizer build (-DPTENSOR_SANITIZE=ON);
// test/Fuzz/parse-libfuzzer.test runs it for a bounded time on a corpus of
// the project's own .mlir tests, from a fixed seed. Run it longer by hand,
// from other seeds (the corpus: test/Fuzz/Inputs/make_corpus.py):
//   build-sanitize/bin/ptensor-fuzz-parse -seed=N -max_total_time=600 CORPUS_DIR
// and keep each finding, as found, in test/Fuzz/Inputs/regressions (its
// first line says what it did).
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Compiler/ParserHazards.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

/// One context for every input (creating one per input would spend the run
/// loading dialects): single-threaded, diagnostics discarded.
mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    mlir::DialectRegistry registry;
    ptensor::compiler::registerCompilerDialects(registry);
    auto *c = new mlir::MLIRContext(registry,
                                    mlir::MLIRContext::Threading::DISABLED);
    c->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
    return c;
  }();
  return *ctx;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer reads to a NUL past the end, as every file buffer has
  // (libFuzzer's input has none): a std::string copy supplies it.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::ParserConfig config(&context());
  // Through the tools' parse (ptensor/Compiler/ParserHazards.h), which
  // refuses what MLIR's own parser crashes on.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, "fuzz"),
                               llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      ptensor::compiler::parseModule(sourceMgr, config);
  if (module)
    (void)mlir::verify(*module);
  return 0;
}
