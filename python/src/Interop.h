//===- Interop.h - numpy, torch, CuPy and DLPack arrays, without copies ---===//
//
// What compiled code needs of a Python array (dtype, memory space, address
// of element 0, sizes and strides in elements), read straight from the
// framework's objects on every call, and results handed back as arrays of
// the caller's framework that own the memory the compiled code allocated.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_PYTHON_INTEROP_H
#define PTENSOR_PYTHON_INTEROP_H

#include "ptensor/Semantics/DType.h"

#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ptensor::python {

namespace nb = nanobind;

/// Where an array came from; results are arrays of the first tensor
/// operand's framework.
enum class Framework : uint8_t { NumPy, Torch, CuPy, DLPack };

/// One array operand.
struct ArrayView {
  DType dtype = DType::F32;
  /// -1 for host memory, else the CUDA device ordinal.
  int device = -1;
  /// Address of element (0, ..., 0).
  char *data = nullptr;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides; ///< in elements; any sign, 0 allowed
  Framework framework = Framework::NumPy;
  bool readOnly = false;
  /// The object results may be views of (kept alive by them).
  nb::object owner;
  /// Kept alive for the call (a DLPack import).
  nb::object keep;
  /// The caller passed a ptensor.Array: results are Arrays too.
  bool isPTensorArray = false;

  bool onGPU() const { return device >= 0; }
  /// "" for the host, "cuda:N".
  std::string deviceName() const;
  int64_t numElements() const;
};

/// Whether `x` is a weak scalar operand: a Python bool, int or float, or a
/// numpy scalar (0-d arrays are tensors).
bool isScalar(nb::handle x);

/// The array view of `x` (numpy, torch, CuPy, ptensor.Array,
/// ptensor.StridedBuffer/Tensor, anything with __dlpack__; lists and
/// tuples through numpy.asarray). Raises TypeError for anything else and
/// the package's DTypeError/DeviceError for what ptensor cannot hold.
ArrayView importArray(nb::handle x);

/// A result of compiled code: `allocated` is freed by the returned array
/// when `owns` (free() on the host, the runtime's free on the GPU); when it
/// is a view of an operand, `viewOf` keeps that operand alive.
struct ResultBuffer {
  void *allocated = nullptr;
  char *data = nullptr; ///< element (0, ..., 0)
  std::vector<int64_t> shape;
  std::vector<int64_t> strides; ///< in elements
  DType dtype = DType::F32;
  int device = -1;
  bool owns = false;
  nb::object viewOf;
};

/// Makes `free` (libptensor_runtime's ptensor_rt_host_free, found by the
/// first kernel loaded) release owned host results; std::free until then.
void setHostFree(void (*free)(void *));
/// Releases a host result's memory (from compiled code's allocator).
void freeHostResult(void *p);

/// The array of `framework` over `result` (a ptensor.Array when
/// `asPTensorArray`).
nb::object exportArray(ResultBuffer &result, Framework framework,
                       bool asPTensorArray);

/// A new uninitialized array of `framework` (outputs allocated here).
nb::object emptyArray(Framework framework, const std::vector<int64_t> &shape,
                      DType dtype, const std::string &device);

/// Waits for the framework's pending work on GPU operands unless the
/// compiled code is already ordered after it (the framework's current
/// stream is CUDA's legacy default stream, which compiled code uses).
void synchronizeInputs(const std::vector<const ArrayView *> &operands);

/// Makes `device` the calling thread's device for the next compiled call
/// (libptensor_runtime's mgpuSetDefaultDevice).
void setDefaultDevice(int device);

/// Registers the package's Python side of interop (_interop.py's hooks).
void registerInterop(nb::module_ &m);

} // namespace ptensor::python

#endif // PTENSOR_PYTHON_INTEROP_H
