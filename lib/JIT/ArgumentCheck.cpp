//===- ArgumentCheck.cpp - validate call arguments ------------------------===//

#include "ArgumentCheck.h"

#include "ptensor/Semantics/Arguments.h"
#include "ptensor/Semantics/Overlap.h"

using namespace ::ptensor;
using namespace ::ptensor::jit;

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
    semantics::TensorParameter parameter{
        type.dtype, {type.shape.begin(), type.shape.end()}, type.device};
    // A StridedBuffer does not say where its memory is: the caller places
    // it (ptensor-runner copies inputs of "cuda" parameters to the GPU), so
    // only dtype and shape are checked here.
    semantics::TensorArgument argument{
        b.dtype, {b.sizes.begin(), b.sizes.end()}, type.device};
    if (std::optional<semantics::Error> error =
            semantics::checkTensorArgument(parameter, argument))
      return fail(which + ": " + error->message);
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
