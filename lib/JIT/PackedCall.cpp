//===- PackedCall.cpp - the packed calling convention of MLIR's JIT -------===//

#include "ptensor/Runtime/PTensorRuntime.h"
#include "PackedCall.h"

#include "ptensor/Support/FloatConversion.h"

#include <cstdlib>
#include <cstring>
#include <map>

using namespace ::ptensor;
using namespace ::ptensor::jit;

/// Bits of scalar `a` converted to `dtype`, in the low bytes of a word
/// (little-endian, as the packed wrapper loads the parameter's width).
static int64_t scalarWord(const Argument &a, DType dtype) {
  int64_t word = 0;
  auto put = [&](auto v) { std::memcpy(&word, &v, sizeof(v)); };
  double f = a.isFloat ? a.floatValue : static_cast<double>(a.intValue);
  int64_t i = a.isFloat ? static_cast<int64_t>(a.floatValue) : a.intValue;
  switch (dtype) {
  case DType::F64: put(f); break;
  case DType::F32: put(static_cast<float>(f)); break;
  case DType::F16: put(doubleToHalfBits(f)); break;
  case DType::BF16: put(doubleToBFloat16Bits(f)); break;
  case DType::Bool: put(static_cast<uint8_t>(a.isFloat ? f != 0 : i != 0)); break;
  default: put(i); break;
  }
  return word;
}

PackedCall::PackedCall(const FunctionSignature &sig,
                       llvm::ArrayRef<Argument> args) {
  size_t count = 0;
  for (const ValueType &t : sig.args)
    count += t.isTensor ? 3 + 2 * t.rank() : 1;
  resultStart_ = count;
  for (const ValueType &t : sig.results)
    count += 3 + 2 * t.rank();
  // Reserved up front: pointers into `words_` stay valid.
  words_.reserve(count);
  auto push = [&](int64_t w) {
    words_.push_back(w);
    pointers_.push_back(&words_.back());
  };
  for (auto [arg, type] : llvm::zip(args, sig.args)) {
    if (!type.isTensor) {
      push(scalarWord(arg, type.dtype));
      continue;
    }
    const StridedBuffer &b = *arg.buffer;
    push(reinterpret_cast<int64_t>(b.data)); // allocated
    push(reinterpret_cast<int64_t>(b.data)); // aligned
    push(b.offset);
    for (int64_t s : b.sizes)
      push(s);
    for (int64_t s : b.strides)
      push(s);
  }
  words_.resize(count, 0);
  if (!sig.results.empty())
    pointers_.push_back(&words_[resultStart_]);
}

void PackedCall::takeResults(const FunctionSignature &sig,
                             llvm::ArrayRef<Argument> args,
                             llvm::SmallVectorImpl<Result> &results) {
  std::map<void *, std::shared_ptr<void>> owners;
  size_t w = resultStart_;
  for (const ValueType &t : sig.results) {
    void *allocated = reinterpret_cast<void *>(words_[w]);
    Result r;
    r.buffer.data = reinterpret_cast<void *>(words_[w + 1]);
    r.buffer.dtype = t.dtype;
    r.buffer.offset = words_[w + 2];
    r.buffer.sizes.assign(&words_[w + 3], &words_[w + 3 + t.rank()]);
    r.buffer.strides.assign(&words_[w + 3 + t.rank()],
                            &words_[w + 3 + 2 * t.rank()]);
    w += 3 + 2 * t.rank();
    bool isArgument = llvm::any_of(args, [&](const Argument &a) {
      return a.buffer && a.buffer->data == allocated;
    });
    if (!isArgument && allocated) {
      auto &owner = owners[allocated];
      if (!owner && t.isOnGPU())
        owner = std::shared_ptr<void>(
            allocated, [](void *p) { ptensor_rt_free(p, /*stream=*/nullptr); });
      else if (!owner)
        owner = std::shared_ptr<void>(allocated,
                                      [](void *p) { ptensor_rt_host_free(p); });
      r.owner = owner;
    }
    results.push_back(std::move(r));
  }
}
