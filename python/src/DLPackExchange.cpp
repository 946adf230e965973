//===- DLPackExchange.cpp - DLPack's C exchange API, consumer side -------===//

#include "DLPackExchange.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ptensor::python::dlpack {

namespace {

/// The table in `attribute` (a capsule "dlpack_exchange_api", or an integer
/// address: the older attribute), walking back to major version 1.
const ExchangeAPI *tableOf(PyObject *attribute) {
  void *p = nullptr;
  if (PyCapsule_CheckExact(attribute))
    p = PyCapsule_GetPointer(attribute, "dlpack_exchange_api");
  else if (PyLong_Check(attribute))
    p = PyLong_AsVoidPtr(attribute);
  if (!p) {
    PyErr_Clear();
    return nullptr;
  }
  auto *api = static_cast<const ExchangeAPI *>(p);
  while (api && api->version.major > kMajorVersion)
    api = api->previous;
  if (!api || api->version.major != kMajorVersion ||
      !api->dltensorFromPyObject || !api->managedTensorToPyObject)
    return nullptr;
  return api;
}

/// What a type has: its table (null for none), the object that holds the
/// table, and a weak reference to the type.
struct TypeEntry {
  nb::object type;   ///< weakref.ref(type)
  nb::object holder; ///< the attribute the table came from
  const ExchangeAPI *api = nullptr;
};

/// The entry of `type`, new attribute name first.
TypeEntry lookUp(PyTypeObject *type) {
  TypeEntry entry;
  auto *object = reinterpret_cast<PyObject *>(type);
  entry.type = nb::steal(PyWeakref_NewRef(object, nullptr));
  if (!entry.type.is_valid())
    PyErr_Clear(); // not weakly referenceable: looked up each time
  for (const char *name :
       {"__dlpack_c_exchange_api__", "__c_dlpack_exchange_api__"}) {
    nb::object attribute = nb::steal(PyObject_GetAttrString(object, name));
    if (!attribute.is_valid()) {
      PyErr_Clear();
      continue;
    }
    if (const ExchangeAPI *api = tableOf(attribute.ptr())) {
      entry.holder = attribute;
      entry.api = api;
      break;
    }
  }
  return entry;
}

/// A managed tensor and the sizes and strides it points to, in one
/// allocation.
struct Exported {
  ManagedTensorVersioned managed;
  void (*release)(void *);
  void *context;
  int64_t dims[]; // shape, then strides
};

void deleteExported(ManagedTensorVersioned *self) {
  auto *e = reinterpret_cast<Exported *>(self);
  if (e->release)
    e->release(e->context);
  std::free(e);
}

} // namespace

const ExchangeAPI *exchangeAPIOf(PyTypeObject *type) {
  // The GIL orders the callers; never destroyed (interpreter teardown).
  static auto *known = new std::unordered_map<PyTypeObject *, TypeEntry>();
  auto it = known->find(type);
  if (it != known->end() && it->second.type.is_valid() &&
      PyWeakref_GetObject(it->second.type.ptr()) ==
          reinterpret_cast<PyObject *>(type))
    return it->second.api;
  TypeEntry entry = lookUp(type);
  const ExchangeAPI *api = entry.api;
  if (entry.type.is_valid())
    (*known)[type] = std::move(entry);
  return api;
}

/// The framework's exception after one of its functions failed, or an
/// error naming the function when it set none.
[[noreturn]] void raiseFailure(const char *function, nb::handle object) {
  if (PyErr_Occurred())
    throw nb::python_error();
  throw std::runtime_error(std::string("DLPack C exchange function ") +
                           function + " failed for a " +
                           nb::type_name(object.type()).c_str() +
                           " without saying why");
}

DLTensor readTensor(const ExchangeAPI &api, nb::handle object) {
  DLTensor t;
  if (api.dltensorFromPyObject(object.ptr(), &t) != 0)
    raiseFailure("dltensor_from_py_object_no_sync", object);
  return t;
}

std::optional<void *> currentCUDAStream(const ExchangeAPI &api, int device) {
  void *stream = nullptr;
  if (!api.currentWorkStream)
    return std::nullopt;
  if (api.currentWorkStream(kDeviceCUDA, device, &stream) != 0) {
    PyErr_Clear();
    return std::nullopt;
  }
  return stream;
}

nb::object makeTensor(const ExchangeAPI &api, void *data, int device,
                      nb::dlpack::dtype dtype, const int64_t *shape,
                      const int64_t *strides, int32_t rank,
                      void (*release)(void *context), void *context) {
  size_t dimBytes = sizeof(int64_t) * 2 * static_cast<size_t>(rank);
  auto *e = static_cast<Exported *>(std::malloc(sizeof(Exported) + dimBytes));
  if (!e) {
    if (release)
      release(context);
    throw std::bad_alloc();
  }
  if (rank > 0) { // shape and strides may be null for rank 0
    std::memcpy(e->dims, shape, dimBytes / 2);
    std::memcpy(e->dims + rank, strides, dimBytes / 2);
  }
  e->release = release;
  e->context = context;
  ManagedTensorVersioned &m = e->managed;
  m.version = {kMajorVersion, 1};
  m.managerContext = e;
  m.deleter = deleteExported;
  m.flags = 0;
  m.tensor = DLTensor();
  m.tensor.data = data;
  m.tensor.device.device_type = device < 0 ? kDeviceCPU : kDeviceCUDA;
  m.tensor.device.device_id = device < 0 ? 0 : device;
  m.tensor.ndim = rank;
  m.tensor.dtype = dtype;
  m.tensor.shape = e->dims;
  m.tensor.strides = e->dims + rank;
  m.tensor.byte_offset = 0;
  void *object = nullptr;
  // `m` is the framework's from here, even when the call fails (see
  // ExchangeAPI::managedTensorToPyObject).
  if (api.managedTensorToPyObject(&m, &object) != 0) {
    if (PyErr_Occurred())
      throw nb::python_error();
    throw std::runtime_error("DLPack C exchange function "
                             "managed_tensor_to_py_object_no_sync failed "
                             "without saying why");
  }
  return nb::steal(static_cast<PyObject *>(object));
}

namespace {

/// Where a framework allocator's SetError writes: the runtime's buffer.
struct ErrorBuffer {
  char *text;
  size_t size;
};

void writeError(void *context, const char *kind, const char *message) {
  auto *buffer = static_cast<ErrorBuffer *>(context);
  std::snprintf(buffer->text, buffer->size, "%s: %s", kind ? kind : "error",
                message ? message : "no message");
}

int allocateFromFramework(void *context, int device, size_t bytes, void **ptr,
                          void **block, void **readyStream, char *error,
                          size_t errorSize) {
  const auto &api = *static_cast<const ExchangeAPI *>(context);
  int64_t shape[1] = {static_cast<int64_t>(bytes)};
  DLTensor prototype = DLTensor();
  prototype.device.device_type = kDeviceCUDA;
  prototype.device.device_id = device;
  prototype.ndim = 1;
  prototype.dtype = nb::dtype<uint8_t>();
  prototype.shape = shape;
  ErrorBuffer buffer{error, errorSize};
  ManagedTensorVersioned *tensor = nullptr;
  if (api.managedTensorAllocator(&prototype, &tensor, &buffer, writeError) !=
          0 ||
      !tensor)
    // torch reports every failure with the kind "MemoryError"; its message
    // tells out of memory from the rest.
    return std::strstr(error, "out of memory") ? 1 : 2;
  *ptr = static_cast<char *>(tensor->tensor.data) + tensor->tensor.byte_offset;
  *block = tensor;
  // torch hands out a block freed on its current stream at once: on a side
  // stream (not the legacy default one, which orders itself with compiled
  // code's) its queued work must finish before the block is used. (torch's
  // current_work_stream is C++ only; it fails only on a bad device.)
  void *stream = nullptr;
  if (api.currentWorkStream &&
      api.currentWorkStream(kDeviceCUDA, device, &stream) == 0)
    *readyStream = stream;
  return 0;
}

void releaseToFramework(void *, void *block) {
  auto *tensor = static_cast<ManagedTensorVersioned *>(block);
  if (tensor->deleter)
    tensor->deleter(tensor);
}

} // namespace

std::optional<ptensor_rt_device_memory_source>
deviceMemorySource(const ExchangeAPI &api) {
  if (!api.managedTensorAllocator)
    return std::nullopt;
  ptensor_rt_device_memory_source source;
  source.context = const_cast<ExchangeAPI *>(&api);
  source.allocate = allocateFromFramework;
  source.release = releaseToFramework;
  return source;
}

} // namespace ptensor::python::dlpack
