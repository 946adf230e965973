//===- ArgumentCheck.cpp - validate call arguments ------------------------===//

#include "ArgumentCheck.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"

using namespace ::ptensor;
using namespace ::ptensor::jit;

static std::string formatSizes(llvm::ArrayRef<int64_t> sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i)
      s += ", ";
    s += mlir::ShapedType::isDynamic(sizes[i]) ? std::string("?")
                                              : std::to_string(sizes[i]);
  }
  return s + "]";
}

/// The byte range [lo, hi) a buffer can touch; empty for size-0 tensors.
static std::pair<uintptr_t, uintptr_t> byteRange(const StridedBuffer &b) {
  int64_t lo = b.offset, hi = b.offset;
  for (auto [size, stride] : llvm::zip(b.sizes, b.strides)) {
    if (size == 0)
      return {0, 0};
    int64_t span = (size - 1) * stride;
    (span < 0 ? lo : hi) += span;
  }
  auto es = static_cast<int64_t>(dtypeByteSize(b.dtype));
  auto base = reinterpret_cast<uintptr_t>(b.data);
  return {base + lo * es, base + (hi + 1) * es};
}

static bool sameView(const StridedBuffer &a, const StridedBuffer &b) {
  return a.data == b.data && a.offset == b.offset && a.dtype == b.dtype &&
         a.sizes == b.sizes && a.strides == b.strides;
}

/// True when two distinct indices of `b` can name the same element.
static bool hasInternalOverlap(const StridedBuffer &b) {
  for (auto [size, stride] : llvm::zip(b.sizes, b.strides))
    if (size > 1 && stride == 0)
      return true;
  return false;
}

llvm::Error ptensor::jit::checkArguments(const FunctionSignature &sig,
                                         llvm::ArrayRef<Argument> args) {
  auto fail = [&](const llvm::Twine &message) {
    return llvm::createStringError("@" + sig.name + ": " + message);
  };
  if (args.size() != sig.args.size())
    return fail("expected " + llvm::Twine(sig.args.size()) +
                " inputs, got " + llvm::Twine(args.size()));
  for (auto [i, arg, type] : llvm::enumerate(args, sig.args)) {
    std::string which = "argument #" + std::to_string(i) + " (" + type.str() + ")";
    if (type.isTensor != arg.buffer.has_value())
      return fail(which + ": expected " +
                  (type.isTensor ? "a tensor" : "a 0-d scalar") +
                  ", got " + (arg.buffer ? "a tensor" : "a scalar"));
    if (!arg.buffer)
      continue;
    const StridedBuffer &b = *arg.buffer;
    if (b.dtype != type.dtype)
      return fail(which + ": expected dtype " + dtypeName(type.dtype) +
                  ", got " + dtypeName(b.dtype));
    if (static_cast<int64_t>(b.sizes.size()) != type.rank())
      return fail(which + ": expected rank " + llvm::Twine(type.rank()) +
                  ", got rank " + llvm::Twine(b.sizes.size()) + " with shape " +
                  formatSizes(b.sizes));
    for (auto [d, expected] : llvm::enumerate(type.shape))
      if (!mlir::ShapedType::isDynamic(expected) && b.sizes[d] != expected)
        return fail(which + ": expected shape " + formatSizes(type.shape) +
                    ", got " + formatSizes(b.sizes) + " (dimension " +
                    llvm::Twine(d) + " differs)");
  }
  for (auto [i, type] : llvm::enumerate(sig.args)) {
    if (!type.isWritten)
      continue;
    const StridedBuffer &out = *args[i].buffer;
    if (hasInternalOverlap(out))
      return fail("argument #" + llvm::Twine(i) +
                  " is written but has zero strides (several indices share "
                  "one element); pass a tensor with its own memory");
    auto [lo, hi] = byteRange(out);
    for (auto [j, other] : llvm::enumerate(args)) {
      if (j == i || !other.buffer)
        continue;
      auto [olo, ohi] = byteRange(*other.buffer);
      bool overlap = lo < ohi && olo < hi;
      if (overlap && !sameView(out, *other.buffer))
        return fail("written argument #" + llvm::Twine(i) +
                    " partially overlaps argument #" + llvm::Twine(j) +
                    "; in-place is allowed only on the very same view");
    }
  }
  return llvm::Error::success();
}
