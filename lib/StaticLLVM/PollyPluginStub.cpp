//===- PollyPluginStub.cpp - Polly's entry point for static LLVM links ----===//
//
// Debian's LLVM is configured with Polly as a static extension: LLVM's
// LTO backend (which LLD's ELF driver links) and the new pass manager's
// driver call getPollyPluginInfo(), defined in libPolly, which Debian ships
// as the LLVMPolly.so plugin only, not as an archive. A link against the
// static component libraries (cmake/PTensorStaticLLVM.cmake) takes this
// definition instead: Polly's passes are not registered, which ptensor never
// asks for (its host code is not linked with LTO).
//
//===----------------------------------------------------------------------===//

#include "llvm/Plugins/PassPlugin.h"

/// An extension that registers nothing.
llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly", "none",
          [](llvm::PassBuilder &) {}};
}
