//===- ArgumentCheck.cpp - validate call arguments ------------------------===//

#include "ArgumentCheck.h"

#include "ptensor/Semantics/Overlap.h"

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

/// The semantics library's view of a buffer (for the overlap rule).
static semantics::MemoryView toMemoryView(const StridedBuffer &b) {
  semantics::MemoryView view;
  view.itemSize = static_cast<unsigned>(dtypeByteSize(b.dtype));
  view.address = reinterpret_cast<uintptr_t>(b.data) + b.offset * view.itemSize;
  view.sizes.assign(b.sizes.begin(), b.sizes.end());
  view.strides.assign(b.strides.begin(), b.strides.end());
  return view;
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
  std::vector<semantics::MemoryView> views;
  std::vector<size_t> written;
  for (auto [i, arg, type] : llvm::enumerate(args, sig.args)) {
    views.push_back(arg.buffer ? toMemoryView(*arg.buffer)
                               : semantics::MemoryView{});
    views.back().isScalar = !arg.buffer;
    if (type.isWritten)
      written.push_back(i);
  }
  if (std::optional<semantics::Error> error =
          semantics::checkWrittenOverlap(views, written))
    return fail(error->message);
  return llvm::Error::success();
}
