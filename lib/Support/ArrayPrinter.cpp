//===- ArrayPrinter.cpp - numpy-style printing of host arrays -------------===//
//
// A transcription of numpy's arrayprint._formatArray / _extendLine (numpy 2,
// legacy=False) plus the per-dtype element formatters.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Support/ArrayPrinter.h"
#include "FloatFormat.h"
#include "ptensor/Support/FloatConversion.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

using namespace ptensor;

namespace {

using Formatter = std::function<std::string(const std::byte *)>;

template <typename T> T load(const std::byte *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// Element value widened to double (float dtypes only).
double loadFloat(DType dtype, const std::byte *p) {
  switch (dtype) {
  case DType::F16:
    return halfBitsToFloat(load<uint16_t>(p));
  case DType::BF16:
    return bfloat16BitsToFloat(load<uint16_t>(p));
  case DType::F32:
    return load<float>(p);
  default:
    return load<double>(p);
  }
}

/// Signed integer element widened to int64.
int64_t loadSigned(DType dtype, const std::byte *p) {
  switch (dtype) {
  case DType::I8:
    return load<int8_t>(p);
  case DType::I16:
    return load<int16_t>(p);
  case DType::I32:
    return load<int32_t>(p);
  default:
    return load<int64_t>(p);
  }
}

/// Unsigned integer element widened to uint64.
uint64_t loadUnsigned(DType dtype, const std::byte *p) {
  switch (dtype) {
  case DType::U8:
    return load<uint8_t>(p);
  case DType::U16:
    return load<uint16_t>(p);
  case DType::U32:
    return load<uint32_t>(p);
  default:
    return load<uint64_t>(p);
  }
}

std::string padLeft(std::string s, size_t width) {
  if (s.size() < width)
    s.insert(0, width - s.size(), ' ');
  return s;
}

/// ml_dtypes prints bfloat16 scalars with `std::ostream << float`.
std::string formatBF16(float f) {
  if (std::isnan(f))
    return "nan";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", static_cast<double>(f));
  return buf;
}

/// Builds the element formatter from the elements that will be displayed.
Formatter makeFormatter(const HostArray &array,
                        llvm::ArrayRef<const std::byte *> shown,
                        int precision) {
  const DType dtype = array.dtype();
  if (dtype == DType::Bool) {
    std::string trueStr = array.rank() == 0 ? "True" : " True";
    return [trueStr](const std::byte *p) {
      return load<uint8_t>(p) ? trueStr : std::string("False");
    };
  }
  if (isSignedIntDType(dtype)) {
    size_t width = 0;
    for (const std::byte *p : shown)
      width = std::max(width, std::to_string(loadSigned(dtype, p)).size());
    return [dtype, width](const std::byte *p) {
      return padLeft(std::to_string(loadSigned(dtype, p)), width);
    };
  }
  if (isUnsignedIntDType(dtype)) {
    size_t width = 0;
    for (const std::byte *p : shown)
      width = std::max(width, std::to_string(loadUnsigned(dtype, p)).size());
    return [dtype, width](const std::byte *p) {
      return padLeft(std::to_string(loadUnsigned(dtype, p)), width);
    };
  }
  if (dtype == DType::BF16) {
    return [](const std::byte *p) {
      return formatBF16(bfloat16BitsToFloat(load<uint16_t>(p)));
    };
  }
  std::vector<double> values;
  values.reserve(shown.size());
  for (const std::byte *p : shown)
    values.push_back(loadFloat(dtype, p));
  detail::NumpyFloatFormat format(values, dtype, precision);
  return [dtype, format](const std::byte *p) {
    return format(loadFloat(dtype, p));
  };
}

/// Walks the array like numpy's _formatArray.
class ArrayFormatter {
public:
  ArrayFormatter(const HostArray &array, const ArrayPrintOptions &options)
      : array(array), options(options),
        summarize(array.numElements() > options.threshold) {}

  std::string run() {
    llvm::SmallVector<const std::byte *, 64> shown;
    collect(shown);
    format = makeFormatter(array, shown, std::clamp(options.precision, 0, 64));
    index.clear();
    return recurse(" ", static_cast<int64_t>(options.lineWidth));
  }

private:
  /// Positions printed along an axis of length `len`, in order; -1 marks
  /// the "..." summary.
  llvm::SmallVector<int64_t, 16> positions(int64_t len) const {
    llvm::SmallVector<int64_t, 16> out;
    const int64_t edge = std::max<int64_t>(options.edgeItems, 0);
    if (summarize && 2 * edge < len) {
      for (int64_t i = 0; i < edge; ++i)
        out.push_back(i);
      out.push_back(-1);
      for (int64_t i = len - edge; i < len; ++i)
        out.push_back(i);
    } else {
      for (int64_t i = 0; i < len; ++i)
        out.push_back(i);
    }
    return out;
  }

  void collect(llvm::SmallVectorImpl<const std::byte *> &shown) {
    if (static_cast<int64_t>(index.size()) == array.rank()) {
      shown.push_back(array.elementPtr(index));
      return;
    }
    for (int64_t i : positions(array.shape()[index.size()])) {
      if (i < 0)
        continue;
      index.push_back(i);
      collect(shown);
      index.pop_back();
    }
  }

  static void rstrip(std::string &s) {
    while (!s.empty() && s.back() == ' ')
      s.pop_back();
  }

  /// numpy _extendLine (legacy=False).
  static void extendLine(std::string &s, std::string &line,
                         const std::string &word, int64_t lineWidth,
                         const std::string &nextLinePrefix) {
    bool needsWrap =
        static_cast<int64_t>(line.size() + word.size()) > lineWidth;
    if (line.size() <= nextLinePrefix.size())
      needsWrap = false;
    if (needsWrap) {
      rstrip(line);
      s += line;
      s += "\n";
      line = nextLinePrefix;
    }
    line += word;
  }

  std::string recurse(const std::string &hanging, int64_t currWidth) {
    const size_t axis = index.size();
    const int64_t axesLeft = array.rank() - static_cast<int64_t>(axis);
    if (axesLeft == 0)
      return format(array.elementPtr(index));

    const std::string nextHanging = hanging + " ";
    const int64_t nextWidth = currWidth - 1; // len(']')
    llvm::SmallVector<int64_t, 16> items = positions(array.shape()[axis]);
    auto sub = [&](int64_t i) {
      index.push_back(i);
      std::string r = recurse(nextHanging, nextWidth);
      index.pop_back();
      return r;
    };

    std::string s;
    if (axesLeft == 1) {
      // Separator is " ", so max(len(sep.rstrip()), len(']')) == 1.
      const int64_t elemWidth = currWidth - 1;
      std::string line = hanging;
      for (size_t k = 0; k < items.size(); ++k) {
        std::string word = items[k] < 0 ? std::string("...") : sub(items[k]);
        extendLine(s, line, word, elemWidth, hanging);
        if (k + 1 < items.size())
          line += " ";
      }
      s += line;
    } else {
      const std::string lineSep(static_cast<size_t>(axesLeft - 1), '\n');
      for (size_t k = 0; k < items.size(); ++k) {
        s += hanging;
        s += items[k] < 0 ? std::string("...") : sub(items[k]);
        if (k + 1 < items.size())
          s += lineSep;
      }
    }
    return "[" + s.substr(hanging.size()) + "]";
  }

  const HostArray &array;
  const ArrayPrintOptions &options;
  const bool summarize;
  Formatter format;
  llvm::SmallVector<int64_t, 8> index;
};

} // namespace

void ptensor::printArray(llvm::raw_ostream &os, const HostArray &array,
                         const ArrayPrintOptions &options) {
  os << arrayToString(array, options);
}

std::string ptensor::arrayToString(const HostArray &array,
                                   const ArrayPrintOptions &options) {
  if (array.isNull())
    return "<null>";
  if (array.numElements() == 0)
    return "[]";
  return ArrayFormatter(array, options).run();
}
