//===- DLPackExchange.h - DLPack's C exchange API, consumer side ---------===//
//
// DLPack 1.3 lets a framework publish C functions that turn its tensors
// into DLTensors and DLPack managed tensors into its tensors, with no
// Python call: a PyCapsule named "dlpack_exchange_api" holding a
// `DLPackExchangeAPI` table, set as the attribute `__dlpack_c_exchange_api__`
// of the framework's tensor type (torch >= 2.10 has it; older torch builds
// named it `__c_dlpack_exchange_api__`). Reading a torch tensor through it
// costs tens of nanoseconds instead of the microseconds of `data_ptr()`,
// `shape` and `stride()` lookups, and a result becomes a torch tensor
// without torch's Python-level DLPack import.
//
// The layouts below are DLPack's ABI (major version 1), declared here
// because the system dlpack.h (Debian's libdlpack-dev) predates them. The
// DLTensor itself is nanobind's `dlpack::dltensor` (the same layout).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_PYTHON_DLPACKEXCHANGE_H
#define PTENSOR_PYTHON_DLPACKEXCHANGE_H

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "ptensor/Runtime/MemorySource.h"

#include <cstdint>
#include <optional>

namespace ptensor::python::dlpack {

namespace nb = nanobind;
using DLTensor = nb::dlpack::dltensor;

struct Version {
  uint32_t major;
  uint32_t minor;
};

/// DLManagedTensorVersioned: an owned tensor handed from one framework to
/// another; the receiver calls `deleter` when it is done with it.
struct ManagedTensorVersioned {
  Version version;
  void *managerContext;
  void (*deleter)(ManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor tensor;
};

/// DLPackExchangeAPI (with its header). Every function returns 0, or -1
/// with a Python exception set; they must be called with the GIL held.
struct ExchangeAPI {
  Version version;
  ExchangeAPI *previous; ///< an older major version's table, or null
  /// Allocates a managed tensor like `prototype` (its dtype, ndim, shape
  /// and device); returns 0, or -1 after `setError(errorContext, kind,
  /// message)`. Needs no GIL (deviceMemorySource).
  int (*managedTensorAllocator)(DLTensor *prototype,
                                ManagedTensorVersioned **out,
                                void *errorContext,
                                void (*setError)(void *errorContext,
                                                 const char *kind,
                                                 const char *message));
  int (*managedTensorFromPyObject)(void *object,
                                   ManagedTensorVersioned **out);
  /// Takes ownership of `tensor`. On failure the framework may or may not
  /// have called its deleter (torch can fail before it owns it): the caller
  /// must not call it (a possible leak of one tensor, never a double free).
  int (*managedTensorToPyObject)(ManagedTensorVersioned *tensor,
                                 void **outObject);
  /// A non-owning DLTensor of `object`: valid while `object` lives.
  int (*dltensorFromPyObject)(void *object, DLTensor *out);
  /// The framework's current stream of a device (null: the default
  /// stream); may itself be null.
  int (*currentWorkStream)(int32_t deviceType, int32_t deviceId,
                           void **outStream);
};

constexpr uint32_t kMajorVersion = 1;
constexpr int32_t kDeviceCPU = 1;
constexpr int32_t kDeviceCUDA = 2;
constexpr int32_t kDeviceCUDAHost = 3;
constexpr int32_t kDeviceCUDAManaged = 13;

/// The exchange table of `type`, or null when the type has none, or none of
/// major version 1. Cached per type (a weak reference tells a type from a
/// later one at the same address; the capsule is kept, so is the table).
const ExchangeAPI *exchangeAPIOf(PyTypeObject *type);

/// Reads `object` through `api`; throws the framework's Python exception.
DLTensor readTensor(const ExchangeAPI &api, nb::handle object);

/// The framework's current stream on CUDA device `device` (null: the
/// legacy default stream), or nullopt when the framework cannot say (no
/// current_work_stream, or it failed).
std::optional<void *> currentCUDAStream(const ExchangeAPI &api, int device);

/// A tensor of `api`'s framework over `data` (shape and strides in
/// elements), which calls `release(context)` when the framework frees it
/// (with the GIL held or not: `release` must not need it).
nb::object makeTensor(const ExchangeAPI &api, void *data, int device,
                      nb::dlpack::dtype dtype, const int64_t *shape,
                      const int64_t *strides, int32_t rank,
                      void (*release)(void *context), void *context);

/// The runtime's device-memory source made of `api`'s allocator (blocks
/// are 1-D byte tensors of the framework, released through their
/// deleters), or nullopt when the table has no allocator. `api` must live
/// as long as the process (tables from exchangeAPIOf do).
std::optional<ptensor_rt_device_memory_source>
deviceMemorySource(const ExchangeAPI &api);

} // namespace ptensor::python::dlpack

#endif // PTENSOR_PYTHON_DLPACKEXCHANGE_H
