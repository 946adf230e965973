//===- Hex.h - bytes as lowercase hex digits --------------------*- C++ -*-===//
//
// The one spelling of the cache's hex digits (the SHA-256 keys and
// checksums, Sha256.cpp; a compiler's GNU build id, BuildId.cpp). Written
// out by hand: both run on a process's first call, and its first snprintf
// costs 15-20 µs (locale set-up).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CACHE_HEX_H
#define PTENSOR_LIB_CACHE_HEX_H

#include <string>

namespace ptensor::cache::detail {

/// Appends `byte` to `hex` as two lowercase hex digits.
inline void appendHexByte(std::string &hex, unsigned char byte) {
  static constexpr char kDigits[] = "0123456789abcdef";
  hex += kDigits[byte >> 4];
  hex += kDigits[byte & 0xf];
}

} // namespace ptensor::cache::detail

#endif // PTENSOR_LIB_CACHE_HEX_H
