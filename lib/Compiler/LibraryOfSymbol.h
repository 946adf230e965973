//===- LibraryOfSymbol.h - the shared library a symbol is from ---*- C++ -*-===//

#ifndef PTENSOR_LIB_COMPILER_LIBRARYOFSYMBOL_H
#define PTENSOR_LIB_COMPILER_LIBRARYOFSYMBOL_H

#include "llvm/ADT/StringRef.h"

#include <dlfcn.h>
#include <string>

namespace ptensor::compiler {

/// The path of the loaded file that defines `symbol` (dladdr), so that a
/// library compiled here can name it as needed without a search path; empty
/// when it cannot be told or the path does not contain `expected`.
inline std::string getLibraryOfSymbol(const void *symbol,
                                      llvm::StringRef expected = "") {
  Dl_info info;
  if (symbol && dladdr(symbol, &info) && info.dli_fname &&
      llvm::StringRef(info.dli_fname).contains(expected))
    return info.dli_fname;
  return "";
}

} // namespace ptensor::compiler

#endif // PTENSOR_LIB_COMPILER_LIBRARYOFSYMBOL_H
