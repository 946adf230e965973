//===- NVPTXTargets.cpp - GPU chips and PTX versions LLVM's NVPTX knows ---===//

#include "NVPTXTargets.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::ptensor;

namespace {
/// A chip and the oldest PTX version LLVM's NVPTX backend accepts for it.
struct ChipInfo {
  llvm::StringLiteral name;
  unsigned minPTX;
};
} // namespace

/// Taken from LLVM 22 (`llc -mtriple=nvptx64-nvidia-cuda -mcpu=help`, then
/// the lowest +ptxNN each -mcpu compiles with). Chips before sm_50 are left
/// out: no supported CUDA toolkit targets them.
static constexpr ChipInfo kChips[] = {
    {"sm_50", 40},    {"sm_52", 41},    {"sm_53", 42},    {"sm_60", 50},
    {"sm_61", 50},    {"sm_62", 50},    {"sm_70", 60},    {"sm_72", 61},
    {"sm_75", 63},    {"sm_80", 70},    {"sm_86", 71},    {"sm_87", 74},
    {"sm_88", 90},    {"sm_89", 78},    {"sm_90", 78},    {"sm_90a", 80},
    {"sm_100", 86},   {"sm_100a", 86},  {"sm_100f", 88},  {"sm_101", 86},
    {"sm_101a", 86},  {"sm_101f", 88},  {"sm_103", 88},   {"sm_103a", 88},
    {"sm_103f", 88},  {"sm_110", 90},   {"sm_110a", 90},  {"sm_110f", 90},
    {"sm_120", 87},   {"sm_120a", 87},  {"sm_120f", 88},  {"sm_121", 88},
    {"sm_121a", 88},  {"sm_121f", 88},
};

/// The PTX versions LLVM 22 has a `ptxNN` feature for.
static constexpr unsigned kPTXVersions[] = {
    32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73,
    74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90};

std::optional<unsigned> mlir::ptensor::getMinPTXVersion(llvm::StringRef chip) {
  for (const ChipInfo &info : kChips)
    if (info.name == chip)
      return info.minPTX;
  return std::nullopt;
}

std::optional<unsigned>
mlir::ptensor::getChipCapability(llvm::StringRef chip) {
  if (!getMinPTXVersion(chip))
    return std::nullopt;
  llvm::StringRef digits = chip.drop_front(3).take_while(llvm::isDigit);
  unsigned capability;
  if (digits.getAsInteger(10, capability))
    return std::nullopt;
  return capability;
}

std::optional<unsigned> mlir::ptensor::parsePTXFeature(llvm::StringRef features) {
  llvm::StringRef digits = features;
  unsigned version;
  // consumeInteger would also take a sign or a radix prefix: digits only.
  if (!digits.consume_front("+ptx") || digits.empty() ||
      !llvm::all_of(digits, llvm::isDigit) ||
      digits.getAsInteger(10, version) ||
      !llvm::is_contained(kPTXVersions, version))
    return std::nullopt;
  return version;
}

std::string mlir::ptensor::listKnownChips() {
  return llvm::join(llvm::map_range(kChips,
                                    [](const ChipInfo &info) {
                                      return info.name.str();
                                    }),
                    ", ");
}

std::string mlir::ptensor::listKnownPTXFeatures() {
  return llvm::join(llvm::map_range(kPTXVersions,
                                    [](unsigned version) {
                                      return "+ptx" + std::to_string(version);
                                    }),
                    ", ");
}
