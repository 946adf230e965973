//===- PackedCall.h - the packed calling convention of MLIR's JIT --------===//
//
// ExecutionEngine's `_mlir_NAME(void **args)` wrappers take one pointer per
// parameter of the lowered LLVM function (a memref of rank r is 3 + 2r
// parameters: allocated, aligned, offset, sizes, strides) and a last
// pointer to storage for the returned value: one memref struct, or a
// struct of them for several results; every field is 8 bytes.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_JIT_PACKEDCALL_H
#define PTENSOR_LIB_JIT_PACKEDCALL_H

#include "ptensor/JIT/JIT.h"

#include <vector>

namespace ptensor::jit {

/// Storage and pointers of one packed call.
class PackedCall {
public:
  PackedCall(const FunctionSignature &sig, llvm::ArrayRef<Argument> args);

  /// The `void **` to pass to the packed wrapper.
  void **pointers() { return pointers_.data(); }

  /// Decodes the returned memref descriptors. Results whose allocation is
  /// an argument's memory are views (no owner); others are freed with
  /// `free` (device results: ptensor_rt_free) when the last Result sharing
  /// the allocation goes away.
  void takeResults(const FunctionSignature &sig,
                   llvm::ArrayRef<Argument> args,
                   llvm::SmallVectorImpl<Result> &results);

private:
  std::vector<int64_t> words_; ///< argument values, then the result struct
  std::vector<void *> pointers_;
  size_t resultStart_ = 0;
};

} // namespace ptensor::jit

#endif // PTENSOR_LIB_JIT_PACKEDCALL_H
