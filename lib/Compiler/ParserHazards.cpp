//===- ParserHazards.cpp - input MLIR's parser crashes on -----------------===//

#include "ptensor/Compiler/ParserHazards.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

using namespace ptensor::compiler;

std::optional<ParserHazard>
ptensor::compiler::findParserHazard(llvm::StringRef source) {
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
    return ParserHazard{at, "a dense array of index elements (`array<index"
                            "...>`) is not supported: its elements must be "
                            "integers or floats"};
  }
  return std::nullopt;
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
