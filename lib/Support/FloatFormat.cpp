//===- FloatFormat.cpp - numpy FloatingFormat emulation -------------------===//

#include "FloatFormat.h"
#include "ptensor/Support/FloatConversion.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace ptensor;
using namespace ptensor::detail;

namespace {

/// A decimal number: sign, significant digits d0 d1 d2 ... and the decimal
/// exponent of d0, i.e. value = d0.d1d2... * 10^exp10.
struct Decimal {
  bool negative = false;
  std::string digits;
  int exp10 = 0;
};

/// Parses printf/to_chars scientific output like "-1.25e+02" or "3e-05".
/// With `trim`, trailing zeros of the significand are dropped.
Decimal parseScientific(const char *s, bool trim = true) {
  Decimal d;
  if (*s == '-') {
    d.negative = true;
    ++s;
  }
  for (; *s && *s != 'e'; ++s)
    if (*s >= '0' && *s <= '9')
      d.digits += *s;
  if (*s == 'e')
    d.exp10 = std::atoi(s + 1);
  // Drop trailing zeros of the significand but keep one digit.
  while (trim && d.digits.size() > 1 && d.digits.back() == '0')
    d.digits.pop_back();
  return d;
}

/// Rounds `value` to `dtype` precision (value is exactly representable in
/// f64, the result converted back to double).
double roundToDType(double value, DType dtype) {
  switch (dtype) {
  case DType::F16:
    return halfBitsToFloat(doubleToHalfBits(value));
  case DType::F32:
    return static_cast<float>(value);
  default:
    return value;
  }
}

/// Shortest digit string that round-trips to the same `dtype` value
/// (numpy's Dragon4 "unique" mode). `value` must be finite.
Decimal shortestDigits(double value, DType dtype) {
  char buf[64];
  if (dtype == DType::F64 || dtype == DType::F32) {
    std::to_chars_result r =
        dtype == DType::F64
            ? std::to_chars(buf, buf + sizeof(buf) - 1, value,
                            std::chars_format::scientific)
            : std::to_chars(buf, buf + sizeof(buf) - 1,
                            static_cast<float>(value),
                            std::chars_format::scientific);
    *r.ptr = '\0';
    return parseScientific(buf);
  }
  // f16: the correctly rounded p-digit decimal is the best p-digit
  // candidate, so the first p that round-trips gives the shortest string.
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof(buf), "%.*e", p - 1, value);
    if (roundToDType(std::strtod(buf, nullptr), dtype) == value)
      break;
  }
  return parseScientific(buf);
}

void trimTrailingZeros(std::string &s) {
  while (!s.empty() && s.back() == '0')
    s.pop_back();
}

/// Dragon4 positional, unique, at most `precision` fractional digits,
/// trim='.'. Returns the integer part (with '-') and fractional part.
std::pair<std::string, std::string> positional(double value, DType dtype,
                                               int precision) {
  Decimal d = shortestDigits(value, dtype);
  const int n = static_cast<int>(d.digits.size());
  std::string ip, fp;
  if (std::max(0, n - 1 - d.exp10) <= precision) {
    if (d.exp10 >= 0) {
      ip = d.digits.substr(0, std::min(n, d.exp10 + 1));
      if (d.exp10 + 1 > n)
        ip.append(d.exp10 + 1 - n, '0');
      if (d.exp10 + 1 < n)
        fp = d.digits.substr(d.exp10 + 1);
    } else {
      ip = "0";
      fp = std::string(-d.exp10 - 1, '0') + d.digits;
    }
  } else {
    // More digits than allowed: round the exact binary value.
    char buf[512];
    std::snprintf(buf, sizeof(buf), "%.*f", precision, std::fabs(value));
    std::string s(buf);
    size_t dot = s.find('.');
    ip = s.substr(0, dot);
    fp = dot == std::string::npos ? "" : s.substr(dot + 1);
  }
  trimTrailingZeros(fp);
  if (d.negative)
    ip = "-" + ip;
  return {ip, fp};
}

/// Dragon4 scientific, unique, at most `precision` fractional mantissa
/// digits, trailing zeros trimmed.
struct Scientific {
  std::string intPart; // with '-'
  std::string fracPart;
  int exp10;
};

Scientific scientific(double value, DType dtype, int precision) {
  Decimal d = shortestDigits(value, dtype);
  if (static_cast<int>(d.digits.size()) - 1 > precision) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*e", precision, std::fabs(value));
    Decimal r = parseScientific(buf);
    d.digits = r.digits;
    d.exp10 = r.exp10;
  }
  Scientific s;
  s.intPart = (d.negative ? "-" : "") + d.digits.substr(0, 1);
  s.fracPart = d.digits.substr(1);
  trimTrailingZeros(s.fracPart);
  s.exp10 = d.exp10;
  return s;
}

std::string exponentDigits(int exp10) {
  std::string e = std::to_string(std::abs(exp10));
  if (e.size() < 2)
    e.insert(0, 2 - e.size(), '0');
  return e;
}

/// numpy: 10 ** min(8, np.finfo(dtype).precision).
double expCutoff(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 1e3;
  case DType::F32:
    return 1e6;
  default:
    return 1e8;
  }
}

} // namespace

NumpyFloatFormat::NumpyFloatFormat(llvm::ArrayRef<double> displayed,
                                   DType dtype, int precision)
    : dtype(dtype), precision(precision) {
  bool anyFinite = false, anyNonFinite = false, anyNegInf = false;
  double maxAbs = 0, minAbs = 0;
  bool anyNonZero = false;
  for (double v : displayed) {
    if (!std::isfinite(v)) {
      anyNonFinite = true;
      anyNegInf |= std::isinf(v) && v < 0;
      continue;
    }
    anyFinite = true;
    if (v == 0)
      continue;
    double a = std::fabs(v);
    maxAbs = anyNonZero ? std::max(maxAbs, a) : a;
    minAbs = anyNonZero ? std::min(minAbs, a) : a;
    anyNonZero = true;
  }
  if (anyNonZero) {
    // numpy evaluates these in the array's dtype.
    double ratio = dtype == DType::F32
                       ? static_cast<double>(static_cast<float>(maxAbs) /
                                             static_cast<float>(minAbs))
                       : roundToDType(maxAbs / minAbs, dtype);
    expFormat = maxAbs >= expCutoff(dtype) ||
                minAbs < roundToDType(0.0001, dtype) || ratio > 1000.0;
  }

  if (!anyFinite) {
    padLeft = padRight = 0;
  } else if (expFormat) {
    int maxFrac = 0, maxExp = 0;
    for (double v : displayed) {
      if (!std::isfinite(v))
        continue;
      Scientific s = scientific(v, dtype, precision);
      padLeft = std::max(padLeft, static_cast<int>(s.intPart.size()));
      maxFrac = std::max(maxFrac, static_cast<int>(s.fracPart.size()));
      maxExp =
          std::max(maxExp, static_cast<int>(exponentDigits(s.exp10).size()));
    }
    this->precision = maxFrac;
    expSize = maxExp;
    padRight = expSize + 2 + maxFrac;
  } else {
    for (double v : displayed) {
      if (!std::isfinite(v))
        continue;
      auto [ip, fp] = positional(v, dtype, precision);
      padLeft = std::max(padLeft, static_cast<int>(ip.size()));
      padRight = std::max(padRight, static_cast<int>(fp.size()));
    }
  }

  if (anyNonFinite) {
    const int offset = padRight + 1;
    padLeft = std::max({padLeft, 3 - offset, 3 + (anyNegInf ? 1 : 0) - offset});
  }
}

std::string NumpyFloatFormat::operator()(double value) const {
  auto padTo = [](std::string s, int width) {
    if (static_cast<int>(s.size()) < width)
      s.insert(0, width - s.size(), ' ');
    return s;
  };
  if (std::isnan(value))
    return padTo("nan", padLeft + padRight + 1);
  if (std::isinf(value))
    return padTo(value < 0 ? "-inf" : "inf", padLeft + padRight + 1);

  if (expFormat) {
    // numpy passes min_digits = precision here, so Dragon4 prints exactly
    // `precision` digits of the exact value (rounded half-even), not the
    // shortest digits padded with zeros.
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*e", precision, std::fabs(value));
    Decimal d = parseScientific(buf, /*trim=*/false);
    std::string intPart =
        (std::signbit(value) ? "-" : "") + d.digits.substr(0, 1);
    std::string exp = exponentDigits(d.exp10);
    if (static_cast<int>(exp.size()) < expSize)
      exp.insert(0, expSize - exp.size(), '0');
    return padTo(intPart, padLeft) + "." + d.digits.substr(1) + "e" +
           (d.exp10 < 0 ? "-" : "+") + exp;
  }
  auto [ip, fp] = positional(value, dtype, precision);
  fp.append(std::max(0, padRight - static_cast<int>(fp.size())), ' ');
  return padTo(ip, padLeft) + "." + fp;
}
