//===- PackedEntryPoints.h - one calling convention for every signature ---===//
//
// A caller that learns a function's signature at run time (Python, another
// language's FFI) cannot call `_mlir_ciface_NAME` directly: its scalars
// are passed by value, so the C prototype differs per function. Every
// compiled module therefore also exports
//
//   void _ptensor_packed_NAME(void **args);
//
// where args[i] points to the value of `_mlir_ciface_NAME`'s parameter i
// (the results pointer first, when there are results). See docs/ABI.md.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_COMPILER_PACKEDENTRYPOINTS_H
#define PTENSOR_LIB_COMPILER_PACKEDENTRYPOINTS_H

namespace llvm {
class Module;
} // namespace llvm

namespace ptensor::compiler {

/// Adds `_ptensor_packed_NAME` for every defined `_mlir_ciface_NAME`.
void addPackedEntryPoints(llvm::Module &module);

} // namespace ptensor::compiler

#endif // PTENSOR_LIB_COMPILER_PACKEDENTRYPOINTS_H
