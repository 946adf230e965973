//===- Sha256Blocks.h - SHA-256's block function, both ways -----*- C++ -*-===//
//
// The two implementations of SHA-256's compression of whole 64-byte blocks
// (Sha256.cpp), declared apart so that a test can compare them.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CACHE_SHA256BLOCKS_H
#define PTENSOR_LIB_CACHE_SHA256BLOCKS_H

#include <cstddef>
#include <cstdint>

namespace ptensor::cache::detail {

/// Folds `blocks` 64-byte blocks at `data` into `state` (portable C++).
void sha256BlocksPortable(uint32_t state[8], const unsigned char *data,
                          size_t blocks);

/// The same with the x86 SHA extensions; false (nothing done) where the
/// CPU or the compiler lacks them.
bool sha256BlocksWithShaExtensions(uint32_t state[8], const unsigned char *data,
                                   size_t blocks);

} // namespace ptensor::cache::detail

#endif // PTENSOR_LIB_CACHE_SHA256BLOCKS_H
