//===- VQSort.cpp - libptensor_runtime_vqsort: Highway's VQSort -----------===//
//
// The one function of libptensor_runtime_vqsort.so, which the runtime loads
// on the first host sort (HostSort.h): Debian's libhwy_contrib, AVX2 or
// AVX-512 chosen at run time.
//
//===----------------------------------------------------------------------===//

#include <hwy/contrib/sort/vqsort.h>

#include <cstddef>
#include <cstdint>

/// Sorts `n` unsigned keys of `keyBits` bits (16, 32, 64; 128: {lo, hi}
/// pairs ordered by hi, then lo) ascending, in place, with the calling
/// thread's Sorter (it holds scratch and is not shared).
extern "C" __attribute__((visibility("default"))) void
ptensor_rt_vqsort(int keyBits, void *keys, size_t n) {
  thread_local hwy::Sorter sorter;
  switch (keyBits) {
  case 16:
    sorter(static_cast<uint16_t *>(keys), n, hwy::SortAscending());
    return;
  case 32:
    sorter(static_cast<uint32_t *>(keys), n, hwy::SortAscending());
    return;
  case 64:
    sorter(static_cast<uint64_t *>(keys), n, hwy::SortAscending());
    return;
  case 128:
    sorter(static_cast<hwy::uint128_t *>(keys), n, hwy::SortAscending());
    return;
  }
}
