//===- KernelConfig.h - launch configuration of the generated GPU kernels -===//
//
// The one owner of the GPU kernel options: their defaults (the chip
// included) and their limits. The pass options of
// convert-ptensor-linalg-to-gpu, the options of ptensor-to-nvvm-pipeline,
// ptensor-compile and the Python package (ptensor._core) take their
// defaults from here, and all of them are checked by KernelConfig::verify.
//
// Plain C++17 (no LLVM/MLIR headers), so that the Python binding can be
// built against it where LLVM is not installed (the GPU check).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CONVERSION_LINALGTOGPU_KERNELCONFIG_H
#define PTENSOR_CONVERSION_LINALGTOGPU_KERNELCONFIG_H

#include <functional>
#include <string>

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

/// How the elementwise kernels are launched and shaped. The defaults are
/// the values measured best on the H100 (bench/RESULTS.md).
struct KernelConfig {
  /// Threads per block.
  unsigned blockSize = 128;
  /// Largest grid of a kernel (a grid covering the work beats one sized to
  /// the resident blocks).
  unsigned maxBlocks = 65535;
  /// 16-byte vectors each thread loads before storing (flat vector path).
  unsigned unroll = 4;
  /// Tile edge of the tiled transpose path (32 or 64).
  unsigned transposeTile = 32;
  /// Tile rows per group in the tiled path's tile order (1: row by row).
  unsigned transposeGroup = 8;
  /// Largest grid of the tiled path (its blocks loop over the tiles; 1056
  /// is 8 per SM of an H100).
  unsigned transposeMaxBlocks = 1056;
  /// Interleaved accumulator sets of each thread of a row-reduction kernel.
  /// 1 since the row-vector path (16-byte loads) made one set enough:
  /// H200, stop 52, fraction of copy with 1 against 2 sets: max_rows 0.88
  /// / 0.81, argmax_rows 0.71 / 0.66, matvec_f32 0.88 / 0.80, mean_rows
  /// 0.87 / 0.83, sum_rows 0.85 / 0.83, sum_all 0.87 / 0.88 (the H100's
  /// sweep at stop 47 agreed: max_rows 0.94 / 0.90); row groups keep 2 at
  /// least (RowGroupKernel.cpp), column kernels one set unrolled by 4
  /// (ReductionKernel.cpp's kColumnLoadsInFlight). bench/RESULTS.md.
  unsigned reductionLanes = 1;

  /// Called with an option (spelled as on the command line, e.g.
  /// "unroll"), its value and what was expected instead.
  using RejectFn = std::function<void(const char *option, unsigned value,
                                      const std::string &expected)>;

  /// Reports each option outside its range through `reject`; returns
  /// whether all were in range.
  bool verify(const RejectFn &reject) const {
    bool ok = true;
    auto inRange = [&](const char *option, unsigned value, unsigned max,
                       const char *unit) {
      if (value >= 1 && value <= max)
        return;
      ok = false;
      reject(option, value, "1 to " + std::to_string(max) + unit);
    };
    inRange("block-size", blockSize, kMaxThreadsPerBlock, " threads per block");
    inRange("max-blocks", maxBlocks, kMaxGridX, " blocks");
    inRange("unroll", unroll, kMaxUnroll, " vectors per thread");
    if (transposeTile != 32 && transposeTile != 64) {
      ok = false;
      reject("transpose-tile", transposeTile,
             "32 or 64 (blocks of 256 or 1024 threads)");
    }
    inRange("transpose-group", transposeGroup, kMaxTransposeGroup,
            " tile rows");
    inRange("transpose-max-blocks", transposeMaxBlocks, kMaxGridX, " blocks");
    inRange("reduction-lanes", reductionLanes, kMaxUnroll,
            " accumulators per thread");
    return ok;
  }
};

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_LINALGTOGPU_KERNELCONFIG_H
