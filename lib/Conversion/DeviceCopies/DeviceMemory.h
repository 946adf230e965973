//===- DeviceMemory.h - helpers of ptensor-lower-device-copies --*- C++ -*-===//

#ifndef PTENSOR_LIB_CONVERSION_DEVICECOPIES_DEVICEMEMORY_H
#define PTENSOR_LIB_CONVERSION_DEVICECOPIES_DEVICEMEMORY_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::ptensor {

/// Emits one GPU operation in the async form gpu-to-llvm lowers: `build`
/// gets the token of a fresh stream (`gpu.wait async`) and returns the
/// operation's token, which is waited for right after (`gpu.wait`).
void emitOnStream(OpBuilder &b, Location loc,
                  function_ref<Value(Value token)> build);

/// A buffer of `type` (row-major) on the device (`gpu.alloc`) or on the
/// host (`memref.alloc`).
Value allocateOn(OpBuilder &b, Location loc, bool onDevice, MemRefType type,
                 ValueRange dynamicSizes);

/// Frees a buffer of allocateOn.
void freeOn(OpBuilder &b, Location loc, bool onDevice, Value buffer);

/// Copies the strided `source` into `dest` (row-major, same shape): host
/// loops (linalg.copy) or, `onDevice`, a grid-stride GPU kernel.
void copyElementsOn(OpBuilder &b, Location loc, bool onDevice, Value source,
                    Value dest);

/// `source` (any strided layout) as a row-major buffer of the same shape
/// on its own side: itself when it is row-major with offset 0 (by its type,
/// or checked at run time), otherwise a staging copy. `isStaged` is set to
/// the (run-time) condition under which the result must be freed with
/// freeOn, or null when it never must.
Value makeContiguous(OpBuilder &b, Location loc, bool onDevice, Value source,
                     Value &isStaged);

} // namespace mlir::ptensor

#endif // PTENSOR_LIB_CONVERSION_DEVICECOPIES_DEVICEMEMORY_H
