//===- KernelConfig.h - launch configuration of the generated GPU kernels -===//
//
// The one owner of the GPU kernel options: the chip's default here, the
// options themselves (defaults, limits, help) in KernelOptions.def, made
// into KernelConfig and its one validation (KernelConfig::verify). The pass
// options of convert-ptensor-linalg-to-gpu, the options of
// ptensor-to-nvvm-pipeline, ptensor-compile and the Python package
// (ptensor._core) are made from the same list.
//
// Plain C++17 (no LLVM/MLIR headers), so that the Python binding can be
// built against it where LLVM is not installed (the GPU check).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CONVERSION_LINALGTOGPU_KERNELCONFIG_H
#define PTENSOR_CONVERSION_LINALGTOGPU_KERNELCONFIG_H

#include <functional>
#include <string>
#include <vector>

namespace mlir::ptensor {

/// The GPU the kernels are compiled for unless told otherwise (H100).
inline constexpr const char kDefaultChip[] = "sm_90";
/// The PTX version feature used unless told otherwise (kDefaultChip needs
/// at least +ptx78).
inline constexpr const char kDefaultPTXFeatures[] = "+ptx80";

/// Largest number of threads of a CUDA block (every chip since sm_20).
inline constexpr unsigned kMaxThreadsPerBlock = 1024;
/// Largest x dimension of a CUDA grid (every chip since sm_30).
inline constexpr unsigned kMaxGridX = 2147483647u;
/// Most 16-byte vectors a thread loads before storing: more only add
/// registers (the H100 is at copy bandwidth with 4).
inline constexpr unsigned kMaxUnroll = 8;
/// Most tile rows per group of the tiled path's tile order.
inline constexpr unsigned kMaxTransposeGroup = 64;

/// The kernel options, in KernelOptions.def's order.
enum class KernelOption : unsigned {
#define PTENSOR_KERNEL_OPTION(Field, ...) Field,
#include "ptensor/Conversion/LinalgToGPU/KernelOptions.def"
};

/// What KernelOptions.def says of one option.
struct KernelOptionInfo {
  KernelOption option;
  const char *flag; ///< spelled as on the command line: "block-size"
  unsigned defaultValue;
  unsigned min, max;
  bool powersOfTwo; ///< only the powers of two in [min, max]
  const char *unit; ///< follows the allowed values in messages
  const char *help; ///< what the option does

  bool allows(unsigned value) const {
    return value >= min && value <= max &&
           (!powersOfTwo || (value & (value - 1)) == 0);
  }
  /// The allowed values in words: "1 to 1024 threads per block", "32 or 64
  /// (blocks of 256 threads)".
  std::string expected() const {
    std::string values;
    if (powersOfTwo) {
      std::vector<unsigned> powers;
      for (unsigned long long v = 1; v <= max; v *= 2)
        if (v >= min)
          powers.push_back(static_cast<unsigned>(v));
      for (size_t i = 0; i < powers.size(); ++i)
        values += (i == 0 ? "" : i + 1 == powers.size() ? " or " : ", ") +
                  std::to_string(powers[i]);
    } else {
      values = std::to_string(min) + " to " + std::to_string(max);
    }
    return values + " " + unit;
  }
};

/// Every kernel option, in KernelOptions.def's order.
inline const std::vector<KernelOptionInfo> &kernelOptions() {
  static const std::vector<KernelOptionInfo> options = {
#define PTENSOR_KERNEL_OPTION(Field, Flag, Default, Min, Max, PowersOfTwo,     \
                              Unit, Help)                                      \
  {KernelOption::Field, Flag, Default, Min, Max, PowersOfTwo, Unit, Help},
#include "ptensor/Conversion/LinalgToGPU/KernelOptions.def"
  };
  return options;
}

/// The text of an option's `--help`: what it does and its allowed values.
/// Lives as long as the process (llvm::cl::desc keeps a pointer).
inline const char *kernelOptionDescription(KernelOption option) {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> all;
    for (const KernelOptionInfo &info : kernelOptions())
      all.push_back(std::string(info.help) + " [" + info.expected() + "]");
    return all;
  }();
  return texts[static_cast<unsigned>(option)].c_str();
}

/// How the generated kernels are launched and shaped: one field per option
/// of KernelOptions.def, with its default.
struct KernelConfig {
#define PTENSOR_KERNEL_OPTION(Field, Flag, Default, ...) unsigned Field = Default;
#include "ptensor/Conversion/LinalgToGPU/KernelOptions.def"

  /// The value of `option`.
  unsigned get(KernelOption option) const {
    switch (option) {
#define PTENSOR_KERNEL_OPTION(Field, ...)                                      \
  case KernelOption::Field:                                                    \
    return Field;
#include "ptensor/Conversion/LinalgToGPU/KernelOptions.def"
    }
    return 0;
  }
  /// Sets `option` to `value` (not checked: see verify).
  void set(KernelOption option, unsigned value) {
    switch (option) {
#define PTENSOR_KERNEL_OPTION(Field, ...)                                      \
  case KernelOption::Field:                                                    \
    Field = value;                                                             \
    return;
#include "ptensor/Conversion/LinalgToGPU/KernelOptions.def"
    }
  }

  /// Called with an option (spelled as on the command line, e.g.
  /// "unroll"), its value and what was expected instead.
  using RejectFn = std::function<void(const char *option, unsigned value,
                                      const std::string &expected)>;

  /// Reports each option outside its limits through `reject`; returns
  /// whether all were allowed.
  bool verify(const RejectFn &reject) const {
    bool ok = true;
    for (const KernelOptionInfo &info : kernelOptions()) {
      unsigned value = get(info.option);
      if (info.allows(value))
        continue;
      ok = false;
      reject(info.flag, value, info.expected());
    }
    return ok;
  }
};

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_LINALGTOGPU_KERNELCONFIG_H
