//===- ParserHazards.h - input MLIR's parser crashes on -----------*- C++ -*-===//
//
// MLIR 22's parser aborts, instead of reporting an error, on some malformed
// input. Every ptensor entry that parses text (ptensor-compile, the JIT,
// the C API, the fuzz target) asks this first and refuses such input with
// an error at its place.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_COMPILER_PARSERHAZARDS_H
#define PTENSOR_COMPILER_PARSERHAZARDS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace ptensor::compiler {

/// A place in the source text and what is wrong there.
struct ParserHazard {
  size_t offset = 0;
  std::string message;
};

/// The first construct of `source` that MLIR's parser would crash on (both
/// found by test/Fuzz/parse-libfuzzer.test): a dense array of `index`
/// elements (`array<index: ...>`: the parser asks an index type for its
/// bit width), and a linalg op's properties that are not a dictionary
/// (`linalg.generic {...}<2>`: linalg's parsers cast them unchecked).
/// nullopt when there is none.
std::optional<ParserHazard> findParserHazard(llvm::StringRef source);

/// Parses the main buffer of `sourceMgr` as a module, refusing a parser
/// hazard first: an error at its line and column through the context's
/// diagnostic handlers, and a null module, as for any parse error.
mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::SourceMgr &sourceMgr,
                                              const mlir::ParserConfig &config);

} // namespace ptensor::compiler

#endif // PTENSOR_COMPILER_PARSERHAZARDS_H
