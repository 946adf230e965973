//===- FloatFormat.h - numpy FloatingFormat emulation (private) -*- C++ -*-===//
//
// Reimplementation of numpy's `FloatingFormat` (arrayprint.py, numpy >= 2,
// default options: floatmode='maxprec', sign='-', suppress=False) on top of
// shortest round-trip digit generation for f16/f32/f64.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_SUPPORT_FLOATFORMAT_H
#define PTENSOR_LIB_SUPPORT_FLOATFORMAT_H

#include "ptensor/Support/DType.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace ptensor {
namespace detail {

/// Formats the elements of one f16/f32/f64 array so they align like numpy.
class NumpyFloatFormat {
public:
  /// `displayed` are all values that will be printed (after summarizing),
  /// already widened to double; `dtype` selects the round-trip precision.
  NumpyFloatFormat(llvm::ArrayRef<double> displayed, DType dtype,
                   int precision);

  /// Formats one value (which must be one of the `displayed` values or at
  /// least of the same dtype).
  std::string operator()(double value) const;

private:
  DType dtype;
  int precision;
  bool expFormat = false;
  int padLeft = 0;
  int padRight = 0;
  int expSize = -1;
};

} // namespace detail
} // namespace ptensor

#endif // PTENSOR_LIB_SUPPORT_FLOATFORMAT_H
