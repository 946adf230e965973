//===- BoolBytes.h - bools in memory as bytes for the vectorizer -*- C++ -*-===//

#ifndef PTENSOR_LIB_COMPILER_BOOLBYTES_H
#define PTENSOR_LIB_COMPILER_BOOLBYTES_H

namespace llvm {
class Module;
} // namespace llvm

namespace ptensor::compiler {

/// Rewrites `module`'s scalar `i1` loads and stores (a bool tensor's
/// elements, one byte each) into `i8` ones: a store zero-extends, a load
/// compares the byte with 0 (any nonzero byte is true, as numpy reads it).
/// LLVM's loop vectorizer refuses `i1` memory accesses (the type is
/// smaller than its byte, and a vector of i1 in memory would be bit
/// packed), so a comparison or a `where` over a bool tensor ran as scalar
/// code; as bytes they vectorize. Volatile and atomic accesses and vectors
/// are left alone.
void widenBoolMemoryAccesses(llvm::Module &module);

} // namespace ptensor::compiler

#endif // PTENSOR_LIB_COMPILER_BOOLBYTES_H
