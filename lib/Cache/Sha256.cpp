//===- Sha256.cpp - SHA-256 (FIPS 180-4) ----------------------------------===//
//
// Written here because the cache key must be computed where neither LLVM
// (llvm/Support/SHA256.h) nor a crypto library is linked: the Python
// binding on a machine that only runs kernels. Blocks are compressed with
// the x86 SHA extensions where the CPU has them (about ten times the
// portable code's 150 MB/s: every process checks a cache entry's checksum
// on its first use of it), else by the portable code.
//
//===----------------------------------------------------------------------===//

#include "Hex.h"
#include "Sha256Blocks.h"

#include "ptensor/Cache/CPUFeatures.h"
#include "ptensor/Cache/DiskCache.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PTENSOR_SHA256_X86 1
#include <immintrin.h>
#endif

using namespace ptensor::cache;

namespace {

constexpr std::array<uint32_t, 64> kRoundConstants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

/// Folds one 64-byte block into `state`.
void compress(uint32_t state[8], const unsigned char *block) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t(block[4 * i]) << 24 | uint32_t(block[4 * i + 1]) << 16 |
           uint32_t(block[4 * i + 2]) << 8 | uint32_t(block[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3],
           e = state[4], f = state[5], g = state[6], h = state[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    uint32_t choose = (e & f) ^ (~e & g);
    uint32_t t1 = h + s1 + choose + kRoundConstants[i] + w[i];
    uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = s0 + majority;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  uint32_t add[8] = {a, b, c, d, e, f, g, h};
  for (int i = 0; i < 8; ++i)
    state[i] += add[i];
}

#ifdef PTENSOR_SHA256_X86
/// The blocks with the SHA extensions (sha256rnds2 does two rounds on the
/// state held as ABEF and CDGH; sha256msg1/msg2 extend the message
/// schedule four words at a time).
__attribute__((target("sha,sse4.1"))) void
compressWithShaExtensions(uint32_t state[8], const unsigned char *data,
                          size_t blocks) {
  const __m128i byteSwap =
      _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i *>(state));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i *>(state + 4));
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  for (size_t b = 0; b < blocks; ++b, data += 64) {
    // The schedule, four words per vector: w[n] = words 4n .. 4n+3.
    __m128i w[16];
    for (int n = 0; n < 4; ++n)
      w[n] = _mm_shuffle_epi8(
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(data + 16 * n)),
          byteSwap);
    for (int n = 4; n < 16; ++n)
      w[n] = _mm_sha256msg2_epu32(
          _mm_add_epi32(_mm_sha256msg1_epu32(w[n - 4], w[n - 3]),
                        _mm_alignr_epi8(w[n - 1], w[n - 2], 4)),
          w[n - 1]);
    __m128i savedAbef = abef, savedCdgh = cdgh;
    for (int n = 0; n < 16; ++n) {
      __m128i k = _mm_add_epi32(
          w[n], _mm_loadu_si128(reinterpret_cast<const __m128i *>(
                    kRoundConstants.data() + 4 * n)));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, k);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(k, 0x0E));
    }
    abef = _mm_add_epi32(abef, savedAbef);
    cdgh = _mm_add_epi32(cdgh, savedCdgh);
  }
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(state),
                   _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(state + 4),
                   _mm_alignr_epi8(dchg, feba, 8));
}
#endif

} // namespace

void detail::sha256BlocksPortable(uint32_t state[8], const unsigned char *data,
                                  size_t blocks) {
  for (size_t b = 0; b < blocks; ++b)
    compress(state, data + 64 * b);
}

bool detail::sha256BlocksWithShaExtensions(uint32_t state[8],
                                           const unsigned char *data,
                                           size_t blocks) {
#ifdef PTENSOR_SHA256_X86
  // From the cache's one CPUID probe, which the entry's currency check
  // needs too: each CPUID traps to the hypervisor in a virtual machine
  // (10-20 µs each on the build machine's).
  static const bool available = [] {
    const std::vector<std::string> &host = hostCPUFeatures();
    auto has = [&](const char *name) {
      return std::find(host.begin(), host.end(), name) != host.end();
    };
    return has("sse4.1") && has("sha");
  }();
  if (available) {
    compressWithShaExtensions(state, data, blocks);
    return true;
  }
#endif
  (void)state, (void)data, (void)blocks;
  return false;
}

/// Folds `blocks` 64-byte blocks into `state`, by the fastest code here.
static void sha256Blocks(uint32_t state[8], const unsigned char *data,
                         size_t blocks) {
  if (!detail::sha256BlocksWithShaExtensions(state, data, blocks))
    detail::sha256BlocksPortable(state, data, blocks);
}

std::string ptensor::cache::sha256Hex(const std::string &bytes) {
  uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                   0xa54ff53a, 0x510e527f, 0x9b05688c,
                                   0x1f83d9ab, 0x5be0cd19};
  const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
  size_t full = bytes.size() / 64 * 64;
  sha256Blocks(state, data, full / 64);
  // The tail, a 1 bit, zeros, and the length in bits (big-endian).
  unsigned char tail[128] = {};
  size_t rest = bytes.size() - full;
  for (size_t i = 0; i < rest; ++i)
    tail[i] = data[full + i];
  tail[rest] = 0x80;
  size_t tailSize = rest < 56 ? 64 : 128;
  uint64_t bits = uint64_t(bytes.size()) * 8;
  for (int i = 0; i < 8; ++i)
    tail[tailSize - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
  sha256Blocks(state, tail, tailSize / 64);
  // The digest: the state words big-endian.
  std::string hex;
  hex.reserve(64);
  for (int w = 0; w < 8; ++w)
    for (int shift = 24; shift >= 0; shift -= 8)
      detail::appendHexByte(hex, static_cast<unsigned char>(state[w] >> shift));
  return hex;
}
