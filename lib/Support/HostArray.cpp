//===- HostArray.cpp - Owning strided host arrays -------------------------===//

#include "ptensor/Support/HostArray.h"
#include "ptensor/Semantics/Layout.h"
#include "ptensor/Support/FloatConversion.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemAlloc.h"

#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

using namespace ptensor;

//===----------------------------------------------------------------------===//
// AlignedBuffer
//===----------------------------------------------------------------------===//

std::shared_ptr<AlignedBuffer> AlignedBuffer::create(size_t numBytes) {
  size_t allocated = numBytes == 0 ? 1 : numBytes;
  auto *data = static_cast<std::byte *>(
      llvm::allocate_buffer(allocated, kAlignment));
  std::memset(data, 0, allocated);
  return std::shared_ptr<AlignedBuffer>(
      new AlignedBuffer(data, numBytes, allocated));
}

AlignedBuffer::~AlignedBuffer() {
  llvm::deallocate_buffer(data_, allocated_, kAlignment);
}

//===----------------------------------------------------------------------===//
// Shape helpers
//===----------------------------------------------------------------------===//

std::string ptensor::shapeToString(llvm::ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

std::optional<int64_t>
HostArray::checkedNumElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || llvm::MulOverflow(n, d, n))
      return std::nullopt;
  }
  return n;
}

llvm::SmallVector<int64_t, 4>
HostArray::rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  // Unsigned arithmetic: wraps instead of UB for absurd (empty) shapes.
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  uint64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = static_cast<int64_t>(s);
    s *= static_cast<uint64_t>(std::max<int64_t>(shape[i], 1));
  }
  return strides;
}

llvm::SmallVector<int64_t, 4>
HostArray::columnMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  uint64_t s = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    strides[i] = static_cast<int64_t>(s);
    s *= static_cast<uint64_t>(std::max<int64_t>(shape[i], 1));
  }
  return strides;
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

llvm::Expected<HostArray>
HostArray::tryAllocate(DType dtype, llvm::ArrayRef<int64_t> shape) {
  // Also require that the extents with empty dimensions counted as 1 fit,
  // so that byte offsets computed from strides can never overflow.
  llvm::SmallVector<int64_t, 4> extents;
  for (int64_t d : shape)
    extents.push_back(d == 0 ? 1 : d);
  std::optional<int64_t> n = checkedNumElements(shape);
  std::optional<int64_t> span = checkedNumElements(extents);
  const int64_t elemSize = static_cast<int64_t>(dtypeByteSize(dtype));
  int64_t bytes = 0, spanBytes = 0;
  if (!n || !span || llvm::MulOverflow(*n, elemSize, bytes) ||
      llvm::MulOverflow(*span, elemSize, spanBytes))
    return llvm::createStringError(
        "invalid array shape " + shapeToString(shape) + " for dtype " +
        dtypeName(dtype) +
        ": dimensions must be >= 0 and the byte size must fit in int64");
  HostArray a;
  a.dtype_ = dtype;
  a.shape_.assign(shape.begin(), shape.end());
  a.strides_ = rowMajorStrides(shape);
  a.buffer_ = AlignedBuffer::create(static_cast<size_t>(bytes));
  return a;
}

HostArray HostArray::allocate(DType dtype, llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<HostArray> a = tryAllocate(dtype, shape);
  if (!a)
    llvm::report_fatal_error(a.takeError());
  return std::move(*a);
}

llvm::Expected<HostArray>
HostArray::createView(std::shared_ptr<AlignedBuffer> buffer, DType dtype,
                      llvm::ArrayRef<int64_t> shape,
                      llvm::ArrayRef<int64_t> strides, int64_t offset) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError("invalid view with shape " +
                                   shapeToString(shape) + ", strides " +
                                   shapeToString(strides) + ", offset " +
                                   llvm::Twine(offset) + ": " + why);
  };
  if (!buffer)
    return fail("no buffer");
  if (shape.size() != strides.size())
    return fail("shape and strides have different ranks");
  std::optional<int64_t> n = checkedNumElements(shape);
  if (!n)
    return fail("negative dimension or element count overflow");
  const int64_t capacity =
      static_cast<int64_t>(buffer->size() / dtypeByteSize(dtype));
  if (offset < 0 || offset > capacity)
    return fail("offset outside the buffer of " + llvm::Twine(capacity) +
                " elements");
  if (*n != 0) {
    int64_t lo = offset, hi = offset;
    for (size_t i = 0; i < shape.size(); ++i) {
      int64_t span;
      if (llvm::MulOverflow(strides[i], shape[i] - 1, span))
        return fail("stride overflow");
      if (span < 0 ? llvm::AddOverflow(lo, span, lo)
                   : llvm::AddOverflow(hi, span, hi))
        return fail("stride overflow");
    }
    if (lo < 0 || hi >= capacity)
      return fail("elements reach outside the buffer of " +
                  llvm::Twine(capacity) + " elements");
  }
  HostArray a;
  a.dtype_ = dtype;
  a.shape_.assign(shape.begin(), shape.end());
  a.strides_.assign(strides.begin(), strides.end());
  a.offset_ = offset;
  a.buffer_ = std::move(buffer);
  return a;
}

llvm::Expected<HostArray> HostArray::view(llvm::ArrayRef<int64_t> shape,
                                          llvm::ArrayRef<int64_t> strides,
                                          int64_t offset) const {
  return createView(buffer_, dtype_, shape, strides, offset);
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

int64_t HostArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape_)
    n *= d;
  return n;
}

size_t HostArray::numBytes() const {
  return static_cast<size_t>(numElements()) * elementByteSize();
}

static bool stridesMatch(llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<int64_t> strides,
                         llvm::ArrayRef<int64_t> expected) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0)
      return true;
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1 && strides[i] != expected[i])
      return false;
  }
  return true;
}

bool HostArray::isContiguous() const {
  return semantics::isRowMajor(shape_.data(), strides_.data(), shape_.size());
}

bool HostArray::isFortranContiguous() const {
  return stridesMatch(shape_, strides_, columnMajorStrides(shape_));
}

std::byte *HostArray::data() {
  return buffer_ ? buffer_->data() + offset_ * elementByteSize() : nullptr;
}

const std::byte *HostArray::data() const {
  return const_cast<HostArray *>(this)->data();
}

std::byte *HostArray::elementPtr(llvm::ArrayRef<int64_t> index) {
  assert(static_cast<int64_t>(index.size()) == rank() && "rank mismatch");
  int64_t e = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    assert(index[i] >= 0 && index[i] < shape_[i] && "index out of range");
    e += index[i] * strides_[i];
  }
  return data() + e * static_cast<int64_t>(elementByteSize());
}

const std::byte *HostArray::elementPtr(llvm::ArrayRef<int64_t> index) const {
  return const_cast<HostArray *>(this)->elementPtr(index);
}

std::byte *HostArray::elementPtrAtLinear(int64_t linearIndex) {
  assert(linearIndex >= 0 && linearIndex < numElements() && "out of range");
  int64_t e = 0;
  for (int64_t d = rank() - 1; d >= 0; --d) {
    e += (linearIndex % shape_[d]) * strides_[d];
    linearIndex /= shape_[d];
  }
  return data() + e * static_cast<int64_t>(elementByteSize());
}

const std::byte *HostArray::elementPtrAtLinear(int64_t linearIndex) const {
  return const_cast<HostArray *>(this)->elementPtrAtLinear(linearIndex);
}

//===----------------------------------------------------------------------===//
// Element conversion
//===----------------------------------------------------------------------===//

template <typename T> static T load(const std::byte *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T> static void store(std::byte *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

template <typename T> static T saturate(double v) {
  if (std::isnan(v))
    return 0;
  constexpr T lo = std::numeric_limits<T>::min();
  constexpr T hi = std::numeric_limits<T>::max();
  if (v <= static_cast<double>(lo))
    return lo;
  // (double)hi rounds up to a power of two for 32/64-bit types, hence >=.
  if (v >= static_cast<double>(hi))
    return hi;
  return static_cast<T>(v);
}

double HostArray::getDouble(int64_t linearIndex) const {
  const std::byte *p = elementPtrAtLinear(linearIndex);
  switch (dtype_) {
  case DType::Bool:
    return load<uint8_t>(p) != 0 ? 1.0 : 0.0;
  case DType::I8:
    return load<int8_t>(p);
  case DType::I16:
    return load<int16_t>(p);
  case DType::I32:
    return load<int32_t>(p);
  case DType::I64:
    return static_cast<double>(load<int64_t>(p));
  case DType::U8:
    return load<uint8_t>(p);
  case DType::U16:
    return load<uint16_t>(p);
  case DType::U32:
    return load<uint32_t>(p);
  case DType::U64:
    return static_cast<double>(load<uint64_t>(p));
  case DType::F16:
    return halfBitsToFloat(load<uint16_t>(p));
  case DType::BF16:
    return bfloat16BitsToFloat(load<uint16_t>(p));
  case DType::F32:
    return load<float>(p);
  case DType::F64:
    return load<double>(p);
  }
  llvm_unreachable("invalid dtype");
}

int64_t HostArray::getInt64(int64_t linearIndex) const {
  const std::byte *p = elementPtrAtLinear(linearIndex);
  switch (dtype_) {
  case DType::I64:
    return load<int64_t>(p);
  case DType::U64: {
    uint64_t v = load<uint64_t>(p);
    return v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
               ? std::numeric_limits<int64_t>::max()
               : static_cast<int64_t>(v);
  }
  default:
    // All other integer types are exactly representable as double.
    return saturate<int64_t>(getDouble(linearIndex));
  }
}

uint64_t HostArray::getUInt64(int64_t linearIndex) const {
  const std::byte *p = elementPtrAtLinear(linearIndex);
  switch (dtype_) {
  case DType::U64:
    return load<uint64_t>(p);
  case DType::I64: {
    int64_t v = load<int64_t>(p);
    return v < 0 ? 0 : static_cast<uint64_t>(v);
  }
  default:
    return saturate<uint64_t>(getDouble(linearIndex));
  }
}

void HostArray::setDouble(int64_t linearIndex, double value) {
  std::byte *p = elementPtrAtLinear(linearIndex);
  switch (dtype_) {
  case DType::Bool:
    return store<uint8_t>(p, value != 0 ? 1 : 0);
  case DType::I8:
    return store(p, saturate<int8_t>(value));
  case DType::I16:
    return store(p, saturate<int16_t>(value));
  case DType::I32:
    return store(p, saturate<int32_t>(value));
  case DType::I64:
    return store(p, saturate<int64_t>(value));
  case DType::U8:
    return store(p, saturate<uint8_t>(value));
  case DType::U16:
    return store(p, saturate<uint16_t>(value));
  case DType::U32:
    return store(p, saturate<uint32_t>(value));
  case DType::U64:
    return store(p, saturate<uint64_t>(value));
  case DType::F16:
    return store(p, doubleToHalfBits(value));
  case DType::BF16:
    return store(p, doubleToBFloat16Bits(value));
  case DType::F32:
    return store(p, static_cast<float>(value));
  case DType::F64:
    return store(p, value);
  }
  llvm_unreachable("invalid dtype");
}

void HostArray::setInt64(int64_t linearIndex, int64_t value) {
  std::byte *p = elementPtrAtLinear(linearIndex);
  switch (dtype_) {
  case DType::Bool:
    return store<uint8_t>(p, value != 0 ? 1 : 0);
  case DType::I8:
  case DType::U8:
    return store(p, static_cast<uint8_t>(value));
  case DType::I16:
  case DType::U16:
    return store(p, static_cast<uint16_t>(value));
  case DType::I32:
  case DType::U32:
    return store(p, static_cast<uint32_t>(value));
  case DType::I64:
  case DType::U64:
    return store(p, static_cast<uint64_t>(value));
  case DType::F32:
    return store(p, static_cast<float>(value));
  case DType::F16:
  case DType::BF16:
  case DType::F64:
    return setDouble(linearIndex, static_cast<double>(value));
  }
  llvm_unreachable("invalid dtype");
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

HostArray HostArray::clone() const {
  if (isNull())
    return HostArray();
  HostArray out = allocate(dtype_, shape_);
  const size_t elemSize = elementByteSize();
  std::byte *dst = out.data();
  forEachElement([&](const std::byte *src) {
    std::memcpy(dst, src, elemSize);
    dst += elemSize;
  });
  return out;
}

HostArray HostArray::toContiguous() const {
  if (isNull() || isContiguous())
    return *this;
  return clone();
}

bool ptensor::bitwiseEqual(const HostArray &a, const HostArray &b) {
  if (a.isNull() || b.isNull())
    return a.isNull() && b.isNull();
  if (a.dtype() != b.dtype() || a.shape() != b.shape())
    return false;
  HostArray ca = a.toContiguous(), cb = b.toContiguous();
  return a.numBytes() == 0 ||
         std::memcmp(ca.data(), cb.data(), a.numBytes()) == 0;
}
