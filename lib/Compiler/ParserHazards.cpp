//===- ParserHazards.cpp - input MLIR's parser crashes on -----------------===//

#include "ptensor/Compiler/ParserHazards.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

using namespace ptensor::compiler;

/// The text after the attribute dictionary that `text` starts with (a
/// balanced `{...}`, strings skipped), or `text` when it starts with none;
/// empty when the dictionary does not close.
static llvm::StringRef skipAttrDict(llvm::StringRef text) {
  if (!text.starts_with("{"))
    return text;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') { // a string: up to its unescaped closing quote
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '{')
      ++depth;
    else if (c == '}' && --depth == 0)
      return text.substr(i + 1);
  }
  return {};
}

/// A linalg op's custom syntax with properties (`<...>`) that are not a
/// dictionary: linalg's parsers cast them to one unchecked (found by
/// test/Fuzz/parse-libfuzzer.test: `linalg.generic {...}<2>`).
static std::optional<ParserHazard>
findLinalgPropertiesHazard(llvm::StringRef source) {
  llvm::StringRef opener = "linalg.";
  for (size_t at = source.find(opener); at != llvm::StringRef::npos;
       at = source.find(opener, at + 1)) {
    llvm::StringRef rest = source.substr(at + opener.size());
    rest = rest.drop_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
    rest = skipAttrDict(rest.ltrim(" \t\r\n")).ltrim(" \t\r\n");
    if (!rest.consume_front("<"))
      continue;
    if (rest.ltrim(" \t\r\n").starts_with("{"))
      continue;
    return ParserHazard{at, "the properties of a linalg op (`<...>` after "
                            "its name or attributes) must be a dictionary "
                            "(`<{...}>`)"};
  }
  return std::nullopt;
}

std::optional<ParserHazard>
ptensor::compiler::findParserHazard(llvm::StringRef source) {
  std::optional<ParserHazard> linalg = findLinalgPropertiesHazard(source);
  llvm::StringRef opener = "array<";
  for (size_t at = source.find(opener); at != llvm::StringRef::npos;
       at = source.find(opener, at + 1)) {
    llvm::StringRef rest = source.substr(at + opener.size()).ltrim(" \t\r\n");
    if (!rest.starts_with("index"))
      continue;
    llvm::StringRef after = rest.drop_front(5);
    if (!after.empty() &&
        (llvm::isAlnum(after.front()) || after.front() == '_'))
      continue; // a longer name
    if (linalg && linalg->offset < at)
      return linalg;
    return ParserHazard{at, "a dense array of index elements (`array<index"
                            "...>`) is not supported: its elements must be "
                            "integers or floats"};
  }
  return linalg;
}

mlir::OwningOpRef<mlir::ModuleOp>
ptensor::compiler::parseModule(llvm::SourceMgr &sourceMgr,
                               const mlir::ParserConfig &config) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  llvm::StringRef source = buffer->getBuffer();
  std::optional<ParserHazard> hazard = findParserHazard(source);
  if (!hazard)
    return mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  llvm::StringRef before = source.take_front(hazard->offset);
  unsigned line = 1 + before.count('\n');
  size_t lineStart = before.rfind('\n');
  size_t firstColumn = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  auto column = static_cast<unsigned>(hazard->offset - firstColumn + 1);
  mlir::emitError(mlir::FileLineColLoc::get(config.getContext(),
                                            buffer->getBufferIdentifier(),
                                            line, column),
                  hazard->message);
  return nullptr;
}
