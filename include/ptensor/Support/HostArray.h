//===- HostArray.h - Owning strided host arrays ----------------*- C++ -*-===//
//
// HostArray is a numpy-like n-dimensional array living in host memory: a
// dtype, an int64 shape, int64 strides counted in ELEMENTS (they may be zero
// or negative), and a reference-counted 64-byte aligned byte buffer plus the
// element offset of element [0, ..., 0] inside that buffer. Copying a
// HostArray is cheap and shares the buffer (like a numpy view).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_SUPPORT_HOSTARRAY_H
#define PTENSOR_SUPPORT_HOSTARRAY_H

#include "ptensor/Support/DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace ptensor {

/// A zero-initialized heap buffer aligned to kAlignment bytes.
class AlignedBuffer {
public:
  /// Alignment of every buffer, in bytes.
  static constexpr size_t kAlignment = 64;

  /// Allocates `numBytes` zeroed bytes (at least one byte is reserved so the
  /// pointer is never null).
  static std::shared_ptr<AlignedBuffer> create(size_t numBytes);

  ~AlignedBuffer();
  AlignedBuffer(const AlignedBuffer &) = delete;
  AlignedBuffer &operator=(const AlignedBuffer &) = delete;

  /// Start of the buffer (kAlignment-aligned).
  std::byte *data() const { return data_; }
  /// Usable size in bytes, as requested in create().
  size_t size() const { return size_; }

private:
  AlignedBuffer(std::byte *data, size_t size, size_t allocated)
      : data_(data), size_(size), allocated_(allocated) {}
  std::byte *data_;
  size_t size_;
  size_t allocated_;
};

/// An n-dimensional strided array in host memory. See the file comment.
class HostArray {
public:
  /// Creates a null array (isNull() is true); use allocate() for real ones.
  HostArray() = default;

  /// Allocates a zero-filled row-major array. Aborts (report_fatal_error) on
  /// negative dimensions or a byte size that overflows; use tryAllocate()
  /// for untrusted shapes.
  static HostArray allocate(DType dtype, llvm::ArrayRef<int64_t> shape);

  /// Like allocate() but reports invalid shapes as an llvm::Error.
  static llvm::Expected<HostArray> tryAllocate(DType dtype,
                                               llvm::ArrayRef<int64_t> shape);

  /// Creates a view of `buffer`. Fails unless shape and strides have equal
  /// rank, every dimension is >= 0, and every reachable element (offset +
  /// sum(index[i] * strides[i])) lies inside the buffer.
  static llvm::Expected<HostArray>
  createView(std::shared_ptr<AlignedBuffer> buffer, DType dtype,
             llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> strides,
             int64_t offset);

  /// createView() on this array's buffer and dtype.
  llvm::Expected<HostArray> view(llvm::ArrayRef<int64_t> shape,
                                 llvm::ArrayRef<int64_t> strides,
                                 int64_t offset) const;

  /// Row-major (C order) element strides for `shape`.
  static llvm::SmallVector<int64_t, 4>
  rowMajorStrides(llvm::ArrayRef<int64_t> shape);
  /// Column-major (Fortran order) element strides for `shape`.
  static llvm::SmallVector<int64_t, 4>
  columnMajorStrides(llvm::ArrayRef<int64_t> shape);
  /// Product of `shape`, or std::nullopt if a dimension is negative or the
  /// product overflows int64.
  static std::optional<int64_t>
  checkedNumElements(llvm::ArrayRef<int64_t> shape);

  /// True for a default-constructed array without buffer.
  bool isNull() const { return buffer_ == nullptr; }
  /// Element type.
  DType dtype() const { return dtype_; }
  /// Bytes per element.
  size_t elementByteSize() const { return dtypeByteSize(dtype_); }
  /// Number of dimensions (0 for a scalar).
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  /// Extent of each dimension.
  llvm::ArrayRef<int64_t> shape() const { return shape_; }
  /// Stride of each dimension, in elements.
  llvm::ArrayRef<int64_t> strides() const { return strides_; }
  /// Element offset of element [0, ..., 0] from buffer()->data().
  int64_t offset() const { return offset_; }
  /// The shared storage.
  const std::shared_ptr<AlignedBuffer> &buffer() const { return buffer_; }

  /// Product of the shape (1 for rank 0).
  int64_t numElements() const;
  /// numElements() * elementByteSize().
  size_t numBytes() const;
  /// True if the elements are densely packed in row-major order starting at
  /// data() (strides of size-1 dimensions and of empty arrays are ignored,
  /// like numpy's C_CONTIGUOUS flag).
  bool isContiguous() const;
  /// Like isContiguous() but for column-major (Fortran) order.
  bool isFortranContiguous() const;

  /// Pointer to element [0, ..., 0] (null for a null array).
  std::byte *data();
  const std::byte *data() const;
  /// Pointer to the element at multi-index `index` (rank() entries, each in
  /// range; checked with assert only).
  const std::byte *elementPtr(llvm::ArrayRef<int64_t> index) const;
  std::byte *elementPtr(llvm::ArrayRef<int64_t> index);
  /// Pointer to the element at position `linearIndex` in row-major order.
  const std::byte *elementPtrAtLinear(int64_t linearIndex) const;
  std::byte *elementPtrAtLinear(int64_t linearIndex);

  /// Element at row-major position `linearIndex` converted to double
  /// (Bool -> 0/1; 64-bit integers may round).
  double getDouble(int64_t linearIndex) const;
  /// Element converted to int64: floats truncate toward zero, saturate at
  /// the int64 range and map NaN to 0; ui64 values above INT64_MAX saturate.
  int64_t getInt64(int64_t linearIndex) const;
  /// Element converted to uint64 (negative values and NaN give 0, floats
  /// saturate).
  uint64_t getUInt64(int64_t linearIndex) const;
  /// Stores `value` converted to dtype(): floats round to nearest-even,
  /// integers saturate (NaN -> 0), Bool stores value != 0.
  void setDouble(int64_t linearIndex, double value);
  /// Stores `value` converted to dtype() (integers wrap like a C cast,
  /// Bool stores value != 0, floats round).
  void setInt64(int64_t linearIndex, int64_t value);

  /// Returns *this (sharing the buffer) if already isContiguous(), otherwise
  /// a new compact row-major copy. Either way data() of the result points at
  /// numElements() densely packed row-major elements.
  HostArray toContiguous() const;
  /// Always returns a new compact row-major copy.
  HostArray clone() const;

  /// Calls `fn(const std::byte *elementPtr)` for every element in row-major
  /// order.
  template <typename Fn> void forEachElement(Fn &&fn) const;

private:
  DType dtype_ = DType::F32;
  llvm::SmallVector<int64_t, 4> shape_;
  llvm::SmallVector<int64_t, 4> strides_;
  int64_t offset_ = 0;
  std::shared_ptr<AlignedBuffer> buffer_;
};

/// Python tuple repr of a shape: "()", "(3,)", "(2, 3)".
std::string shapeToString(llvm::ArrayRef<int64_t> shape);

/// True if `a` and `b` have the same dtype and shape and bitwise identical
/// elements (so NaNs compare equal to identical NaNs, and -0.0 != 0.0).
bool bitwiseEqual(const HostArray &a, const HostArray &b);

template <typename Fn> void HostArray::forEachElement(Fn &&fn) const {
  if (isNull() || numElements() == 0)
    return;
  const std::byte *base = data();
  const int64_t elemSize = static_cast<int64_t>(elementByteSize());
  const int64_t r = rank();
  if (r == 0) {
    fn(base);
    return;
  }
  llvm::SmallVector<int64_t, 8> index(r, 0);
  const int64_t inner = shape_[r - 1];
  const int64_t innerStride = strides_[r - 1] * elemSize;
  while (true) {
    const std::byte *row = base;
    for (int64_t d = 0; d + 1 < r; ++d)
      row += index[d] * strides_[d] * elemSize;
    for (int64_t i = 0; i < inner; ++i)
      fn(row + i * innerStride);
    // Advance the odometer over the outer dimensions.
    int64_t d = r - 2;
    for (; d >= 0; --d) {
      if (++index[d] < shape_[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

} // namespace ptensor

#endif // PTENSOR_SUPPORT_HOSTARRAY_H
