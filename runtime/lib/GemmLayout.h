//===- GemmLayout.h - how a strided matrix lies, for BLAS -------*- C++ -*-===//
//
// The operands of ptensor_rt_cpu_gemm and ptensor_rt_gpu_gemm (Gemm.h) as
// BLAS libraries take them: column-major with a leading dimension, or the
// transpose of such a matrix (row-major). One rule for both libraries.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_GEMMLAYOUT_H
#define PTENSOR_RUNTIME_LIB_GEMMLAYOUT_H

#include <cstdint>
#include <utility>

namespace ptensor::rt {

/// A strided operand as the caller passes it (offset and strides in
/// elements).
struct Matrix {
  uintptr_t base;
  int64_t offset, rows, cols;
  int64_t rowStride, colStride, batchStride;
};

inline Matrix transposed(Matrix x) {
  std::swap(x.rows, x.cols);
  std::swap(x.rowStride, x.colStride);
  return x;
}

/// Column-major with a valid leading dimension: each column contiguous,
/// columns at least `rows` apart. The stride of a dimension of size 1 is
/// never used, so it may be anything.
inline bool isColumnMajor(const Matrix &x) {
  return (x.rows == 1 || x.rowStride == 1) &&
         (x.cols == 1 || x.colStride >= x.rows);
}

/// The leading dimension of a column-major `x` (>= max(1, rows)).
inline int64_t leadingDimension(const Matrix &x) {
  return x.cols == 1 ? (x.rows > 1 ? x.rows : 1) : x.colStride;
}

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_GEMMLAYOUT_H
