//===- ArrayPrinter.h - numpy-style printing of host arrays ----*- C++ -*-===//
//
// Prints a HostArray the way `np.array2string(arr)` (= `print(arr)`) does with
// numpy's default print options (numpy >= 2), without any "shape/dtype"
// header line:
//   * nesting brackets, lines wrapped at 75 columns with numpy's hanging
//     indent, rows of 2-d arrays separated by "\n", higher ranks by more
//     blank lines; "[]" for empty arrays; 0-d arrays print a bare scalar;
//   * more than 1000 elements are summarized with "..." showing 3 edge items
//     per axis;
//   * Bool: "True"/"False", right-aligned (" True") except for 0-d arrays;
//   * integers: decimal, right-aligned to the widest displayed element;
//   * f16/f32/f64: numpy's FloatingFormat in 'maxprec' mode with precision
//     8: shortest round-trip digits for the element type (capped at 8
//     fractional digits), trailing zeros trimmed ("1.", "0.5"), decimal
//     points aligned; switches to scientific notation ("1.5e-05", all
//     elements with the same mantissa digit count) when the largest |x| >=
//     10^min(8, decimal precision of the type: 1e3 f16, 1e6 f32, 1e8 f64)
//     or the smallest nonzero |x| < 1e-4 or their ratio > 1000;
//     nan/inf/-inf;
//   * bf16: like numpy + ml_dtypes, each element is `%g` of its float value
//     (6 significant digits) without alignment padding.
// Rounding when a value needs more than 8 fractional digits follows the
// exact binary value (round-half-even), as numpy's Dragon4 does. The output
// is verified against np.array2string in test/Support/print-numpy.test.
// Meant for ranks up to 64 (readNpy's limit): output nests one bracket and
// one indentation level per dimension.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SUPPORT_ARRAYPRINTER_H
#define PTENSOR_SUPPORT_ARRAYPRINTER_H

#include "ptensor/Support/HostArray.h"

#include <cstdint>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ptensor {

/// Print options; the defaults are numpy's defaults.
struct ArrayPrintOptions {
  /// Maximum characters per line (numpy `linewidth`).
  unsigned lineWidth = 75;
  /// Summarize when numElements() exceeds this (numpy `threshold`).
  int64_t threshold = 1000;
  /// Items shown at each edge of a summarized axis (numpy `edgeitems`).
  int64_t edgeItems = 3;
  /// Maximum fractional digits for floats (numpy `precision`).
  int precision = 8;
};

/// Prints `array` numpy-style (see the file comment); no trailing newline.
void printArray(llvm::raw_ostream &os, const HostArray &array,
                const ArrayPrintOptions &options = {});

/// printArray() into a string.
std::string arrayToString(const HostArray &array,
                          const ArrayPrintOptions &options = {});

} // namespace ptensor

#endif // PTENSOR_SUPPORT_ARRAYPRINTER_H
