//===- CommandLine.h - the command line of ptensor's tools -------*- C++ -*-===//
//
// ptensor-opt, ptensor-compile and ptensor-runner share one behaviour:
// `--version` names ptensor's version and commit before LLVM's, and
// `--help` lists the tool's own options first.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_TOOLS_COMMANDLINE_H
#define PTENSOR_TOOLS_COMMANDLINE_H

#include "llvm/Support/CommandLine.h"

namespace ptensor::tools {

/// "ptensor VERSION (commit COMMIT)".
const char *getVersionString();

/// Makes `--version` print getVersionString() before LLVM's version.
void addVersionPrinter();

/// `--version` as above, and `--help` listing only the options of
/// `category` (the tool's own) and the generic ones (--help, --version);
/// the options LLVM and MLIR register move behind `--help-hidden`.
void setUpCommandLine(llvm::cl::OptionCategory &category);

} // namespace ptensor::tools

#endif // PTENSOR_TOOLS_COMMANDLINE_H
