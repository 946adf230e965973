//===- CpuGemm.cpp - host matrix products through CBLAS -------------------===//
//
// ptensor_rt_cpu_gemm (Gemm.h): f32 and f64 products through OpenBLAS's
// cblas_sgemm/cblas_dgemm, with row- or column-major operands passed as
// transposes (no copies) and a batch as a loop of calls. OpenBLAS is
// loaded on first use (dlopen of libopenblas.so.0, Debian's
// libopenblas0): the runtime loads on machines without it, and there, like
// for other layouts, dtypes and empty sizes, the call is "not taken" and
// the compiled code runs its own loops.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/Gemm.h"

#include "GemmLayout.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>

#include <dlfcn.h>

namespace {

using ptensor::rt::Matrix;

/// How a matrix lies in memory, as BLAS takes it.
enum class Order { Row, Col, None };

struct Layout {
  Order order;
  int64_t ld; ///< the leading dimension (elements between rows or columns)
};

/// `x` as column-major, row-major (its transpose column-major) or neither.
Layout layoutOf(const Matrix &x) {
  using namespace ptensor::rt;
  if (isColumnMajor(x))
    return {Order::Col, leadingDimension(x)};
  if (isColumnMajor(transposed(x)))
    return {Order::Row, leadingDimension(transposed(x))};
  return {Order::None, 0};
}

/// CBLAS's enums (cblas.h; the values are the standard's).
enum CblasOrder { CblasRowMajor = 101, CblasColMajor = 102 };
enum CblasTranspose { CblasNoTrans = 111, CblasTrans = 112 };

template <typename T>
using GemmFn = void (*)(int order, int transA, int transB, int m, int n,
                        int k, T alpha, const T *a, int lda, const T *b,
                        int ldb, T beta, T *c, int ldc);

/// cblas_sgemm and cblas_dgemm of OpenBLAS, resolved once (null when the
/// library is not installed).
struct Cblas {
  GemmFn<float> sgemm = nullptr;
  GemmFn<double> dgemm = nullptr;

  static const Cblas &get() {
    static const Cblas cblas = load();
    return cblas;
  }

private:
  static Cblas load() {
    Cblas c;
    for (const char *name : {"libopenblas.so.0", "libopenblas.so"}) {
      void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (!lib)
        continue;
      c.sgemm = reinterpret_cast<GemmFn<float>>(dlsym(lib, "cblas_sgemm"));
      c.dgemm = reinterpret_cast<GemmFn<double>>(dlsym(lib, "cblas_dgemm"));
      if (c.sgemm && c.dgemm)
        return c;
      c = Cblas();
    }
    return c;
  }
};

/// True when every value fits CBLAS's `int` arguments.
bool fitsInt(std::initializer_list<int64_t> values) {
  return std::all_of(values.begin(), values.end(),
                     [](int64_t v) { return v >= 0 && v <= INT_MAX; });
}

/// One operand: its element (0, 0, 0) and batch stride.
template <typename T> struct Operand {
  T *origin;
  int64_t batchStride;
};

/// The products of a batch with `gemm` (cblas_sgemm or cblas_dgemm).
template <typename T>
bool batchedGemm(GemmFn<T> gemm, int64_t batch, int64_t m, int64_t n, int64_t k,
                 Operand<const T> a, Layout la, Operand<const T> b, Layout lb,
                 Operand<T> c, Layout lc) {
  if (!gemm || !fitsInt({m, n, k, la.ld, lb.ld, lc.ld}))
    return false;
  // In C's order, an operand in the other order is its transpose.
  int order = lc.order == Order::Row ? CblasRowMajor : CblasColMajor;
  auto trans = [&](Layout l) -> int {
    return l.order == lc.order ? CblasNoTrans : CblasTrans;
  };
  for (int64_t p = 0; p < batch; ++p)
    gemm(order, trans(la), trans(lb), int(m), int(n), int(k), T(1),
         a.origin + p * a.batchStride, int(la.ld), b.origin + p * b.batchStride,
         int(lb.ld), T(0), c.origin + p * c.batchStride, int(lc.ld));
  return true;
}

template <typename T>
bool typedGemm(int64_t batch, int64_t m, int64_t n, int64_t k, intptr_t a,
               int64_t aOffset, int64_t aBatch, Layout la, intptr_t b,
               int64_t bOffset, int64_t bBatch, Layout lb, intptr_t c,
               int64_t cOffset, int64_t cBatch, Layout lc) {
  Operand<const T> oa{reinterpret_cast<const T *>(a) + aOffset, aBatch};
  Operand<const T> ob{reinterpret_cast<const T *>(b) + bOffset, bBatch};
  Operand<T> oc{reinterpret_cast<T *>(c) + cOffset, cBatch};
  const Cblas &cblas = Cblas::get();
  if constexpr (sizeof(T) == 4)
    return batchedGemm<T>(cblas.sgemm, batch, m, n, k, oa, la, ob, lb, oc, lc);
  else
    return batchedGemm<T>(cblas.dgemm, batch, m, n, k, oa, la, ob, lb, oc, lc);
}

} // namespace

extern "C" PTENSOR_RT_EXPORT bool ptensor_rt_cpu_gemm(
    int64_t abType, int64_t cType, int64_t batch, int64_t m, int64_t n,
    int64_t k, intptr_t a, int64_t aOffset, int64_t aBatchStride,
    int64_t aRowStride, int64_t aColStride, intptr_t b, int64_t bOffset,
    int64_t bBatchStride, int64_t bRowStride, int64_t bColStride, intptr_t c,
    int64_t cOffset, int64_t cBatchStride, int64_t cRowStride,
    int64_t cColStride) {
  if (batch <= 0 || m <= 0 || n <= 0 || k <= 0 || abType != cType)
    return false;
  Layout la = layoutOf({uintptr_t(a), aOffset, m, k, aRowStride, aColStride,
                        aBatchStride});
  Layout lb = layoutOf({uintptr_t(b), bOffset, k, n, bRowStride, bColStride,
                        bBatchStride});
  Layout lc = layoutOf({uintptr_t(c), cOffset, m, n, cRowStride, cColStride,
                        cBatchStride});
  if (la.order == Order::None || lb.order == Order::None ||
      lc.order == Order::None)
    return false;
  if (abType == PTENSOR_RT_GEMM_F32)
    return typedGemm<float>(batch, m, n, k, a, aOffset, aBatchStride, la, b,
                            bOffset, bBatchStride, lb, c, cOffset,
                            cBatchStride, lc);
  if (abType == PTENSOR_RT_GEMM_F64)
    return typedGemm<double>(batch, m, n, k, a, aOffset, aBatchStride, la, b,
                             bOffset, bBatchStride, lb, c, cOffset,
                             cBatchStride, lc);
  return false;
}
