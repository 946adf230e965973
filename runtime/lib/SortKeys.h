//===- SortKeys.h - the unsigned keys of the sort order --------*- C++ -*-===//
///
/// \file
/// One owner of the sort order (docs/Semantics.md "Sorting") for the host
/// sort (CpuSort.cpp) and the CUDA kernels around CUB (cuda/SortKernels.cu):
/// each element becomes an unsigned key of its width whose unsigned order
/// is the sort's — integers with the sign bit flipped, bool as 0/1, floats
/// by their bits with negatives reversed, -0.0 made 0.0 and every NaN the
/// largest key; complemented for a descending sort. Plain C++ that nvcc
/// also compiles for the device.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_SORTKEYS_H
#define PTENSOR_RUNTIME_LIB_SORTKEYS_H

#include "ptensor/Runtime/Sort.h"

#include <stdint.h>

#ifdef __CUDACC__
#define PTENSOR_HOST_DEVICE __host__ __device__
#else
#define PTENSOR_HOST_DEVICE
#endif

namespace ptensor::rt {

/// How the bits of an element order.
enum class SortOrder : int32_t { Unsigned, Signed, Bool, Float };

/// An element type of Sort.h: its width, its order and, for floats, the
/// exponent and mantissa masks of its bits.
struct SortFormat {
  SortOrder order;
  int32_t bytes;
  uint64_t exponent, mantissa;
};

/// The format of a ptensor_rt_sort_type; false for an unknown code.
inline bool sortFormatOf(int64_t type, SortFormat &f) {
  switch (type) {
  case PTENSOR_RT_SORT_BOOL: f = {SortOrder::Bool, 1, 0, 0}; return true;
  case PTENSOR_RT_SORT_I8: f = {SortOrder::Signed, 1, 0, 0}; return true;
  case PTENSOR_RT_SORT_I16: f = {SortOrder::Signed, 2, 0, 0}; return true;
  case PTENSOR_RT_SORT_I32: f = {SortOrder::Signed, 4, 0, 0}; return true;
  case PTENSOR_RT_SORT_I64: f = {SortOrder::Signed, 8, 0, 0}; return true;
  case PTENSOR_RT_SORT_U8: f = {SortOrder::Unsigned, 1, 0, 0}; return true;
  case PTENSOR_RT_SORT_U16: f = {SortOrder::Unsigned, 2, 0, 0}; return true;
  case PTENSOR_RT_SORT_U32: f = {SortOrder::Unsigned, 4, 0, 0}; return true;
  case PTENSOR_RT_SORT_U64: f = {SortOrder::Unsigned, 8, 0, 0}; return true;
  case PTENSOR_RT_SORT_F16:
    f = {SortOrder::Float, 2, 0x7C00, 0x03FF};
    return true;
  case PTENSOR_RT_SORT_BF16:
    f = {SortOrder::Float, 2, 0x7F80, 0x007F};
    return true;
  case PTENSOR_RT_SORT_F32:
    f = {SortOrder::Float, 4, 0x7F800000, 0x007FFFFF};
    return true;
  case PTENSOR_RT_SORT_F64:
    f = {SortOrder::Float, 8, 0x7FF0000000000000ull, 0x000FFFFFFFFFFFFFull};
    return true;
  default:
    return false;
  }
}

/// The offset (in elements) of the first element of line `line` of a
/// rank-`rank` buffer with `sizes` and `strides`, sorted along `dim`: the
/// lines are numbered row-major over the other dims. One numbering for the
/// host sort and the CUDA kernels.
PTENSOR_HOST_DEVICE inline int64_t sortLineOffset(int64_t rank, int64_t dim,
                                                  const int64_t *sizes,
                                                  const int64_t *strides,
                                                  int64_t line) {
  int64_t offset = 0;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (d == dim)
      continue;
    offset += (line % sizes[d]) * strides[d];
    line /= sizes[d];
  }
  return offset;
}

/// The key of every NaN (floats): the largest ascending key, complemented
/// for a descending sort.
template <typename U>
PTENSOR_HOST_DEVICE inline U sortNaNKey(bool descending) {
  return descending ? U(0) : U(~U(0));
}

/// The sign bit of an element of U's width.
template <typename U> PTENSOR_HOST_DEVICE constexpr U signBitOf() {
  return U(U(1) << (sizeof(U) * 8 - 1));
}

/// Whether float bits `b` are a NaN: every exponent bit and some mantissa
/// bit set.
template <typename U>
PTENSOR_HOST_DEVICE inline bool isNaNBits(U b, U exponent, U mantissa) {
  return (b & exponent) == exponent && (b & mantissa) != 0;
}

/// The float bits `b` as an unsigned key of the floats' order (negatives
/// reversed below the positives), every bit kept: -0.0 just below 0.0 and
/// NaNs by their bits at either end.
template <typename U> PTENSOR_HOST_DEVICE inline U floatBitsKey(U b) {
  const U sign = signBitOf<U>();
  return (b & sign) ? U(~b) : U(b | sign);
}

/// The ascending key of bits `b` for order O (branch-free: the compiler
/// vectorizes loops of it). U: the unsigned integer of the element's width.
template <SortOrder O, typename U>
PTENSOR_HOST_DEVICE inline U ascendingKey(U b, U exponent, U mantissa) {
  const U sign = signBitOf<U>();
  if constexpr (O == SortOrder::Signed)
    return U(b ^ sign);
  if constexpr (O == SortOrder::Bool)
    return U(b != 0);
  if constexpr (O == SortOrder::Float) {
    U key = floatBitsKey((b & U(~sign)) == 0 ? U(0) : b);
    return isNaNBits(b, exponent, mantissa) ? sortNaNKey<U>(false) : key;
  }
  return b;
}

/// The bits of the element whose ascending key is `key` for order O: exact
/// for integers and bools; for floats exact but for the keys of zeros
/// (always 0.0) and NaNs (never one), which do not tell the bits apart.
template <SortOrder O, typename U>
PTENSOR_HOST_DEVICE inline U bitsOfAscendingKey(U key) {
  const U sign = signBitOf<U>();
  if constexpr (O == SortOrder::Signed)
    return U(key ^ sign);
  if constexpr (O == SortOrder::Float)
    return (key & sign) ? U(key & U(~sign)) : U(~key);
  return key;
}

/// The unsigned key of the element with bits `b`: ascendingKey of its
/// order, complemented for a descending sort.
template <typename U>
PTENSOR_HOST_DEVICE inline U sortKeyOf(U b, const SortFormat &f,
                                       bool descending) {
  U exponent = U(f.exponent), mantissa = U(f.mantissa), key = b;
  switch (f.order) {
  case SortOrder::Unsigned:
    key = ascendingKey<SortOrder::Unsigned>(b, exponent, mantissa);
    break;
  case SortOrder::Signed:
    key = ascendingKey<SortOrder::Signed>(b, exponent, mantissa);
    break;
  case SortOrder::Bool:
    key = ascendingKey<SortOrder::Bool>(b, exponent, mantissa);
    break;
  case SortOrder::Float:
    key = ascendingKey<SortOrder::Float>(b, exponent, mantissa);
    break;
  }
  return descending ? U(~key) : key;
}

/// The bits of the element whose key (sortKeyOf) is `key`: exact but for
/// floats' zeros and NaNs (see bitsOfAscendingKey).
template <typename U>
PTENSOR_HOST_DEVICE inline U sortBitsOf(U key, const SortFormat &f,
                                        bool descending) {
  U ascending = descending ? U(~key) : key;
  switch (f.order) {
  case SortOrder::Signed:
    return bitsOfAscendingKey<SortOrder::Signed>(ascending);
  case SortOrder::Float:
    return bitsOfAscendingKey<SortOrder::Float>(ascending);
  default:
    return ascending;
  }
}

/// Float bits `b` with a NaN's sign cleared: sorted as floats (CUB's float
/// keys, or floatBitsKey), every NaN then lands after +inf.
template <typename U>
PTENSOR_HOST_DEVICE inline U positiveNaNs(U b, const SortFormat &f) {
  return isNaNBits(b, U(f.exponent), U(f.mantissa)) ? U(b & U(~signBitOf<U>()))
                                                    : b;
}

/// A float's key that keeps every bit, for a sort whose result is decoded
/// from its keys alone (the GPU's rows of floats): the order of sortKeyOf,
/// but -0.0 just below 0.0 (a stable sort then puts the zeros' signs back
/// in input order) and NaNs, their sign cleared, after +inf by their bits;
/// complemented for a descending sort.
template <typename U>
PTENSOR_HOST_DEVICE inline U exactFloatKeyOf(U b, const SortFormat &f,
                                             bool descending) {
  U key = floatBitsKey(positiveNaNs(b, f));
  return descending ? U(~key) : key;
}

/// The bits of the float whose exactFloatKeyOf is `key`.
template <typename U>
PTENSOR_HOST_DEVICE inline U bitsOfExactFloatKey(U key, bool descending) {
  return bitsOfAscendingKey<SortOrder::Float>(descending ? U(~key) : key);
}

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_SORTKEYS_H
