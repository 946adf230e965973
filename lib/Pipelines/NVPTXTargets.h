//===- NVPTXTargets.h - GPU chips and PTX versions LLVM's NVPTX knows -----===//
//
// The NVPTX backend aborts the process (report_fatal_error) on a chip whose
// PTX version is too old, so ptensor-to-nvvm-pipeline checks `chip` and
// `features` against these tables before it builds anything.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_PIPELINES_NVPTXTARGETS_H
#define PTENSOR_LIB_PIPELINES_NVPTXTARGETS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
namespace ptensor {

/// The oldest PTX version (times ten: 78 is PTX 7.8) that LLVM 22's NVPTX
/// backend accepts for `chip` (e.g. "sm_90" -> 78, "sm_90a" -> 80), or none
/// for a chip it does not know or that ptensor does not support (before
/// sm_50).
std::optional<unsigned> getMinPTXVersion(llvm::StringRef chip);

/// The compute capability of a known chip, times ten ("sm_90a" -> 90), or
/// none.
std::optional<unsigned> getChipCapability(llvm::StringRef chip);

/// The PTX version (times ten) of a feature string of the form "+ptxNN"
/// naming a version LLVM 22 knows, or none.
std::optional<unsigned> parsePTXFeature(llvm::StringRef features);

/// The supported chips, comma separated, for error messages.
std::string listKnownChips();

/// The known PTX version features ("+ptx32, ..."), for error messages.
std::string listKnownPTXFeatures();

} // namespace ptensor
} // namespace mlir

#endif // PTENSOR_LIB_PIPELINES_NVPTXTARGETS_H
