//===- GemmTests.cpp - ptensor_rt_cpu_gemm against a triple loop ----------===//
///
/// \file
/// Host matrix products (Gemm.h) on small integers (exact in f32 and f64):
/// row- and column-major operands and outputs, a padded leading dimension,
/// a batch with a broadcast (stride 0) operand; and the calls the library
/// declines (another layout, mixed types, empty sizes, integers), which
/// must leave the output untouched. Needs OpenBLAS (libopenblas.so.0);
/// without it every call is declined, which the suite reports.
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ptensor/Runtime/Gemm.h"

#include <cstdio>
#include <vector>

namespace ptensor::rt::test {
namespace {

/// A strided view over `data`: element (p, i, j) at
/// offset + p * batch + i * row + j * col.
template <typename T> struct View {
  std::vector<T> data;
  int64_t offset, batch, row, col;
  T &at(int64_t p, int64_t i, int64_t j) {
    return data[offset + p * batch + i * row + j * col];
  }
};

template <typename T>
View<T> makeView(int64_t size, int64_t offset, int64_t batch, int64_t row,
                 int64_t col, int seed) {
  View<T> v{std::vector<T>(size), offset, batch, row, col};
  for (int64_t i = 0; i < size; ++i)
    v.data[i] = T((i * 7 + seed) % 5 - 2);
  return v;
}

/// Calls ptensor_rt_cpu_gemm on the views; true if it was taken.
template <typename T>
bool gemm(int64_t type, int64_t batch, int64_t m, int64_t n, int64_t k,
          View<T> &a, View<T> &b, View<T> &c, int64_t cType = -1) {
  return ptensor_rt_cpu_gemm(
      type, cType < 0 ? type : cType, batch, m, n, k,
      intptr_t(a.data.data()), a.offset, a.batch, a.row, a.col,
      intptr_t(b.data.data()), b.offset, b.batch, b.row, b.col,
      intptr_t(c.data.data()), c.offset, c.batch, c.row, c.col);
}

/// Whether c equals a @ b (triple loop) for every batch.
template <typename T>
bool matches(int64_t batch, int64_t m, int64_t n, int64_t k, View<T> &a,
             View<T> &b, View<T> &c) {
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        T sum = 0;
        for (int64_t l = 0; l < k; ++l)
          sum += a.at(p, i, l) * b.at(p, l, j);
        if (c.at(p, i, j) != sum)
          return false;
      }
  return true;
}

/// One product: prints whether the library took it and checks the result.
template <typename T>
void product(const char *what, int64_t type, int64_t batch, int64_t m,
             int64_t n, int64_t k, View<T> a, View<T> b, View<T> c) {
  bool taken = gemm(type, batch, m, n, k, a, b, c);
  std::printf("%s: %s\n", what, taken ? "taken" : "declined");
  if (taken && !matches(batch, m, n, k, a, b, c))
    reportFailure(__FILE__, __LINE__, std::string(what) + ": wrong result");
}

/// A call that must be declined with the output unchanged.
template <typename T>
void declined(const char *what, int64_t type, int64_t batch, int64_t m,
              int64_t n, int64_t k, View<T> a, View<T> b, View<T> c,
              int64_t cType = -1) {
  std::vector<T> before = c.data;
  bool taken = gemm(type, batch, m, n, k, a, b, c, cType);
  std::printf("%s: %s\n", what, taken ? "taken" : "declined");
  if (taken || c.data != before)
    reportFailure(__FILE__, __LINE__, std::string(what) + ": not declined");
}

} // namespace

int runGemmTests() {
  const int64_t f32 = PTENSOR_RT_GEMM_F32, f64 = PTENSOR_RT_GEMM_F64;
  const int64_t m = 5, n = 7, k = 3;
  // Row-major A (m x k), B (k x n), C (m x n).
  product("f32 row-major", f32, 1, m, n, k, makeView<float>(m * k, 0, 0, k, 1, 1),
          makeView<float>(k * n, 0, 0, n, 1, 2), makeView<float>(m * n, 0, 0, n, 1, 0));
  // Column-major A and C, row-major B with a padded leading dimension and
  // an offset.
  product("f64 mixed layouts", f64, 1, m, n, k,
          makeView<double>(m * k, 0, 0, 1, m, 3),
          makeView<double>(2 + k * (n + 4), 2, 0, n + 4, 1, 4),
          makeView<double>(m * n, 0, 0, 1, m, 0));
  // A batch of 3 against one B (batch stride 0), column-major C.
  product("f32 batch, broadcast rhs", f32, 3, m, n, k,
          makeView<float>(3 * m * k, 0, m * k, k, 1, 5),
          makeView<float>(k * n, 0, 0, 1, k, 6),
          makeView<float>(3 * m * n, 0, m * n, 1, m, 0));
  // A single row: its row stride is never used.
  product("f32 one row", f32, 1, 1, n, k, makeView<float>(k, 0, 0, 99, 1, 7),
          makeView<float>(k * n, 0, 0, n, 1, 8), makeView<float>(n, 0, 0, 0, 1, 0));

  // Declined: A with both strides > 1, mixed types, an empty size.
  declined("f32 strided both ways", f32, 1, m, n, k,
           makeView<float>(4 * m * k, 0, 0, 2 * k, 2, 1),
           makeView<float>(k * n, 0, 0, n, 1, 2), makeView<float>(m * n, 0, 0, n, 1, 0));
  declined("f32 into f64", f32, 1, m, n, k, makeView<float>(m * k, 0, 0, k, 1, 1),
           makeView<float>(k * n, 0, 0, n, 1, 2), makeView<float>(m * n, 0, 0, n, 1, 0),
           f64);
  declined("f32 k = 0", f32, 1, m, n, 0, makeView<float>(1, 0, 0, 1, 1, 1),
           makeView<float>(1, 0, 0, n, 1, 2), makeView<float>(m * n, 0, 0, n, 1, 0));
  declined("f16", int64_t(PTENSOR_RT_GEMM_F16), 1, m, n, k,
           makeView<float>(m * k, 0, 0, k, 1, 1), makeView<float>(k * n, 0, 0, n, 1, 2),
           makeView<float>(m * n, 0, 0, n, 1, 0));
  // TF32 (GPU f32 products) is off unless asked for.
  std::printf("allow tf32 by default: %d\n", ptensor_rt_get_allow_tf32());
  ptensor_rt_set_allow_tf32(true);
  std::printf("allow tf32 after enabling: %d\n", ptensor_rt_get_allow_tf32());
  ptensor_rt_set_allow_tf32(false);
  return failureCount();
}

} // namespace ptensor::rt::test
