//===- SortArguments.cpp - the arguments of the runtime's sorts -----------===//

#include "SortArguments.h"

#include "Errors.h"

using namespace ptensor::rt;

int64_t SortArguments::lines() const {
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      count *= sizes[d];
  return count;
}

bool ptensor::rt::decodeSortArguments(
    const char *function, int64_t keyType, int64_t flags, int64_t rank,
    int64_t dim, intptr_t sizes, intptr_t input, int64_t inputOffset,
    intptr_t inputStrides, intptr_t values, int64_t valuesOffset,
    intptr_t valuesStrides, intptr_t indices, int64_t indicesOffset,
    intptr_t indexStrides, SortArguments &out) {
  if (!sortFormatOf(keyType, out.format))
    return setErrorf(ErrorKind::InvalidArgument, "%s: unknown key type %lld",
                     function, static_cast<long long>(keyType));
  if (rank < 1 || dim < 0 || dim >= rank)
    return setErrorf(ErrorKind::InvalidArgument,
                     "%s: dim %lld of a rank-%lld buffer", function,
                     static_cast<long long>(dim), static_cast<long long>(rank));
  // An empty buffer may have address 0 (a GPU allocation of 0 bytes).
  int64_t elements = 1;
  for (int64_t d = 0; d < rank; ++d)
    elements *= reinterpret_cast<const int64_t *>(sizes)[d];
  if (!values && !indices && elements != 0)
    return setErrorf(ErrorKind::InvalidArgument,
                     "%s: neither values nor indices to write", function);
  auto array = [](intptr_t p) { return reinterpret_cast<const int64_t *>(p); };
  int64_t bytes = out.format.bytes;
  out.descending = flags & PTENSOR_RT_SORT_DESCENDING;
  out.rank = rank;
  out.dim = dim;
  out.sizes = array(sizes);
  out.input = reinterpret_cast<const char *>(input) + inputOffset * bytes;
  out.inputStrides = array(inputStrides);
  out.values =
      values ? reinterpret_cast<char *>(values) + valuesOffset * bytes : nullptr;
  out.valueStrides = array(valuesStrides);
  out.indices = indices ? reinterpret_cast<int64_t *>(indices) + indicesOffset
                        : nullptr;
  out.indexStrides = array(indexStrides);
  return true;
}
