//===- CommandLine.cpp - the command line of ptensor's tools --------------===//

#include "ptensor/Tools/CommandLine.h"
#include "ptensor/Tools/Version.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

const char *ptensor::tools::getVersionString() {
  return "ptensor " PTENSOR_VERSION " (commit " PTENSOR_GIT_COMMIT ")";
}

void ptensor::tools::addVersionPrinter() {
  cl::AddExtraVersionPrinter(
      [](raw_ostream &os) { os << getVersionString() << "\n"; });
}

void ptensor::tools::setUpCommandLine(cl::OptionCategory &category) {
  addVersionPrinter();
  // The generic options stay in --help (cl::HideUnrelatedOptions would make
  // LLVM's invisible even to --help-hidden).
  StringSet<> generic = {"help",          "help-hidden",  "help-list",
                         "help-list-hidden", "version",  "print-options",
                         "print-all-options"};
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    if (generic.contains(entry.first) ||
        llvm::is_contained(option->Categories, &category))
      continue;
    if (option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
}
