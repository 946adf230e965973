//===- ArgumentCheck.h - validate call arguments against a signature ------===//

#ifndef PTENSOR_LIB_JIT_ARGUMENTCHECK_H
#define PTENSOR_LIB_JIT_ARGUMENTCHECK_H

#include "ptensor/JIT/JIT.h"

namespace ptensor::jit {

/// Checks count, kinds, dtypes, ranks and static sizes of `args`, and that
/// every written argument neither overlaps itself (zero strides) nor
/// partially overlaps another argument (TensorIterator's check_mem_overlap;
/// an exact alias is allowed).
llvm::Error checkArguments(const FunctionSignature &sig,
                           llvm::ArrayRef<Argument> args);

} // namespace ptensor::jit

#endif // PTENSOR_LIB_JIT_ARGUMENTCHECK_H
