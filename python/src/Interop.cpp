//===- Interop.cpp - numpy, torch, CuPy and DLPack arrays, without copies -===//

#include "Interop.h"

#include "DLPackExchange.h"
#include "Errors.h"
#include "NumPyArrays.h"

#include "ptensor/Runtime/Status.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ptensor::python {

namespace sem = ptensor::semantics;

namespace {

/// The package's Python side of interop (ptensor/_interop.py's hooks), and
/// types and callables looked up once.
struct InteropState {
  nb::object hooks;
  PyTypeObject *ndarrayType = nullptr;
  PyTypeObject *torchTensorType = nullptr;
  PyTypeObject *cupyArrayType = nullptr;
  PyTypeObject *arrayType = nullptr; ///< ptensor.Array
  /// torch's DLPack C exchange table (null when this torch has none).
  const dlpack::ExchangeAPI *torchExchange = nullptr;
  /// Whether framework tensors are read and made through their DLPack C
  /// exchange tables (set_dlpack_exchange: off only to measure the gain).
  bool useExchange = true;
  nb::dict numpyDTypes; ///< numpy dtype -> ptensor dtype name
  nb::dict torchDTypes; ///< torch dtype -> ptensor dtype name
  nb::object torchRawStream;
  /// torch's C-level DLPack import (torch._C._from_dlpack): a capsule to a
  /// tensor without torch.utils.dlpack's Python-level stream handshake
  /// (compiled code runs on the legacy default stream, which orders itself
  /// with torch's streams); None when this torch lacks it.
  nb::object torchFromCapsule;
  void (*setDevice)(int) = nullptr;
  int (*freeDevice)(void *, void *) = nullptr;
  /// Host results go back to the runtime's caching host allocator.
  void (*freeHost)(void *) = nullptr;
  bool syncLaunches = false;
  /// Where the runtime's device blocks come from: "driver" or "torch"
  /// (setDefaultDevice decides on the first GPU call).
  std::string deviceMemory = "driver";
  /// Per DType, its name as a Python str (dict values compare by identity
  /// first, so lookups go through this table).
  std::unordered_map<std::string, DType> dtypeByName;
};

InteropState &state() {
  static InteropState *s = new InteropState(); // never destroyed: interpreter
  return *s;                                    // teardown order is unknown
}

[[noreturn]] void throwDType(std::string message) {
  throwRule(sem::ErrorKind::DType, std::move(message));
}

[[noreturn]] void throwDevice(std::string message) {
  throwRule(sem::ErrorKind::Device, std::move(message));
}

DType dtypeFromName(nb::handle name, nb::handle original) {
  auto &names = state().dtypeByName;
  auto it = names.find(nb::cast<std::string>(name));
  if (it == names.end())
    throwDType("dtype " + nb::cast<std::string>(nb::str(original)) +
               " is not supported by ptensor");
  return it->second;
}

/// A module's type attribute once the module is imported (never imports).
PyTypeObject *lookupType(const char *module, const char *name) {
  PyObject *modules = PyImport_GetModuleDict();
  PyObject *mod = PyDict_GetItemString(modules, module);
  if (!mod)
    return nullptr;
  PyObject *type = PyObject_GetAttrString(mod, name);
  if (!type) {
    PyErr_Clear();
    return nullptr;
  }
  if (!PyType_Check(type)) {
    Py_DECREF(type);
    return nullptr;
  }
  return reinterpret_cast<PyTypeObject *>(type); // kept: types are immortal
}

bool isInstance(nb::handle x, PyTypeObject *type) {
  return type && PyObject_TypeCheck(x.ptr(), type);
}

std::vector<int64_t> toInt64s(nb::handle sequence) {
  std::vector<int64_t> out;
  nb::object seq = nb::borrow(sequence);
  size_t n = nb::len(seq);
  out.reserve(n);
  for (nb::handle item : seq)
    out.push_back(nb::cast<int64_t>(item));
  return out;
}

void bytesToElements(std::vector<int64_t> &strides, int64_t itemSize,
                     const char *what) {
  for (int64_t &s : strides) {
    if (s % itemSize)
      throw nb::value_error((std::string(what) + " has a stride of " +
                             std::to_string(s) +
                             " bytes, not a multiple of its itemsize " +
                             std::to_string(itemSize))
                                .c_str());
    s /= itemSize;
  }
}

/// The ptensor dtype name (borrowed) of numpy dtype `dtype`, or null: the
/// package's table, else its hook for a dtype it adds when first seen
/// (ml_dtypes' bfloat16: the package does not import ml_dtypes itself).
PyObject *numpyDTypeName(nb::handle dtype) {
  PyObject *table = state().numpyDTypes.ptr();
  if (PyObject *name = PyDict_GetItem(table, dtype.ptr()))
    return name;
  if (state().hooks.attr("late_numpy_dtype")(dtype).is_none())
    return nullptr;
  return PyDict_GetItem(table, dtype.ptr());
}

ArrayView fromNumPy(nb::handle x) {
  ArrayView v;
  if (readNumPyArray(x, v)) // builtin numeric dtypes, native byte order
    return v;
  nb::object dtype = nb::borrow(x).attr("dtype");
  PyObject *name = numpyDTypeName(dtype);
  if (!name) {
    if (!nb::cast<bool>(dtype.attr("isnative")))
      throwDType("arrays of non-native byte order (" +
                 nb::cast<std::string>(nb::str(dtype)) +
                 ") are not supported");
    throwDType("dtype " + nb::cast<std::string>(nb::str(dtype)) +
               " is not supported by ptensor");
  }
  v.dtype = dtypeFromName(name, dtype);
  Py_buffer buffer;
  if (PyObject_GetBuffer(x.ptr(), &buffer, PyBUF_STRIDES) != 0)
    throw nb::python_error();
  v.data = static_cast<char *>(buffer.buf);
  v.readOnly = buffer.readonly;
  v.shape.assign(buffer.shape, buffer.shape + buffer.ndim);
  v.strides.assign(buffer.strides, buffer.strides + buffer.ndim);
  int64_t itemSize = buffer.itemsize;
  PyBuffer_Release(&buffer);
  bytesToElements(v.strides, itemSize, "array");
  v.framework = Framework::NumPy;
  v.owner = nb::borrow(x);
  return v;
}

ArrayView fromTorch(nb::handle x) {
  InteropState &s = state();
  ArrayView v;
  nb::object dtype = nb::borrow(x).attr("dtype");
  if (!s.torchDTypes.is_valid() || !s.torchDTypes.size())
    s.torchDTypes = nb::cast<nb::dict>(s.hooks.attr("torch_dtypes")());
  PyObject *name = PyDict_GetItem(s.torchDTypes.ptr(), dtype.ptr());
  if (!name)
    throwDType("dtype " + nb::cast<std::string>(nb::str(dtype)) +
               " is not supported by ptensor");
  v.dtype = dtypeFromName(name, dtype);
  nb::object t = nb::borrow(x);
  int device = nb::cast<int>(t.attr("get_device")());
  if (device >= 0) {
    if (!nb::cast<bool>(t.attr("is_cuda")))
      throwDevice("torch tensors on " +
                  nb::cast<std::string>(nb::str(t.attr("device"))) +
                  " are not supported (expected cpu or cuda)");
    v.device = device;
  }
  v.data = reinterpret_cast<char *>(
      static_cast<uintptr_t>(nb::cast<uint64_t>(t.attr("data_ptr")())));
  v.shape = toInt64s(t.attr("shape"));
  v.strides = toInt64s(t.attr("stride")());
  v.framework = Framework::Torch;
  v.owner = t;
  return v;
}

ArrayView fromCuPy(nb::handle x) {
  ArrayView v;
  nb::object a = nb::borrow(x);
  nb::object dtype = a.attr("dtype");
  PyObject *name = numpyDTypeName(dtype);
  if (!name)
    throwDType("dtype " + nb::cast<std::string>(nb::str(dtype)) +
               " is not supported by ptensor");
  v.dtype = dtypeFromName(name, dtype);
  v.device = nb::cast<int>(a.attr("device").attr("id"));
  v.data = reinterpret_cast<char *>(
      static_cast<uintptr_t>(nb::cast<uint64_t>(a.attr("data").attr("ptr"))));
  v.shape = toInt64s(a.attr("shape"));
  v.strides = toInt64s(a.attr("strides"));
  bytesToElements(v.strides, static_cast<int64_t>(dtypeByteSize(v.dtype)),
                  "CuPy array");
  v.framework = Framework::CuPy;
  v.owner = a;
  return v;
}

std::optional<DType> fromDLPackDType(nb::dlpack::dtype t) {
  if (t.lanes != 1)
    return std::nullopt;
  switch (static_cast<nb::dlpack::dtype_code>(t.code)) {
  case nb::dlpack::dtype_code::Bool:
    return t.bits == 8 ? std::optional(DType::Bool) : std::nullopt;
  case nb::dlpack::dtype_code::Int:
    return intDType(DTypeKind::Signed, t.bits);
  case nb::dlpack::dtype_code::UInt:
    return intDType(DTypeKind::Unsigned, t.bits);
  case nb::dlpack::dtype_code::Float:
    if (t.bits == 16)
      return DType::F16;
    if (t.bits == 32)
      return DType::F32;
    if (t.bits == 64)
      return DType::F64;
    return std::nullopt;
  case nb::dlpack::dtype_code::Bfloat:
    return t.bits == 16 ? std::optional(DType::BF16) : std::nullopt;
  default:
    return std::nullopt;
  }
}

nb::dlpack::dtype toDLPackDType(DType dtype) {
  nb::dlpack::dtype t;
  t.lanes = 1;
  t.bits = static_cast<uint8_t>(dtypeBitWidth(dtype));
  switch (dtypeKind(dtype)) {
  case DTypeKind::Bool:
    t.code = static_cast<uint8_t>(nb::dlpack::dtype_code::Bool);
    t.bits = 8;
    break;
  case DTypeKind::Signed:
    t.code = static_cast<uint8_t>(nb::dlpack::dtype_code::Int);
    break;
  case DTypeKind::Unsigned:
    t.code = static_cast<uint8_t>(nb::dlpack::dtype_code::UInt);
    break;
  case DTypeKind::Float:
    t.code = static_cast<uint8_t>(dtype == DType::BF16
                                      ? nb::dlpack::dtype_code::Bfloat
                                      : nb::dlpack::dtype_code::Float);
    break;
  }
  return t;
}

/// The dtype of a DLPack tensor, or a DType error naming it.
DType dtypeOfDLPack(nb::dlpack::dtype t) {
  std::optional<DType> dtype = fromDLPackDType(t);
  if (!dtype)
    throwDType("DLPack dtype (code " + std::to_string(t.code) + ", " +
               std::to_string(t.bits) + " bits, " + std::to_string(t.lanes) +
               " lanes) is not supported");
  return *dtype;
}

/// The device ordinal of a DLPack tensor (-1: host memory), or a Device
/// error naming it.
int deviceOfDLPack(int32_t type, int32_t id) {
  switch (type) {
  case dlpack::kDeviceCPU:
  case dlpack::kDeviceCUDAHost:
    return -1;
  case dlpack::kDeviceCUDA:
  case dlpack::kDeviceCUDAManaged:
    return id;
  default:
    throwDevice("DLPack device type " + std::to_string(type) +
                " is not supported (expected CPU or CUDA)");
  }
}

/// The one message for an operand that is not an array (raised here and by
/// Python's as_tensor, through _core.not_an_array_message). Scalars are
/// not named: where an op takes them they never reach the array import.
std::string notAnArrayMessage(const std::string &typeName) {
  return "expected an array (numpy, torch, CuPy, ptensor.Array, DLPack, or a "
         "list or tuple of numbers), got " +
         typeName;
}

ArrayView fromDLPack(nb::handle x) {
  nb::ndarray<> a;
  try {
    a = nb::cast<nb::ndarray<>>(x);
  } catch (const nb::cast_error &) {
    throw nb::type_error(
        notAnArrayMessage(nb::cast<std::string>(nb::type_name(x.type())))
            .c_str());
  }
  ArrayView v;
  v.dtype = dtypeOfDLPack(a.dtype());
  v.device = deviceOfDLPack(a.device_type(), a.device_id());
  v.data = static_cast<char *>(a.data());
  for (size_t i = 0; i < a.ndim(); ++i) {
    v.shape.push_back(static_cast<int64_t>(a.shape(i)));
    v.strides.push_back(a.stride(i));
  }
  v.framework = Framework::DLPack;
  v.owner = nb::borrow(x);
  v.keep = nb::cast(a);
  return v;
}

/// A tensor of a framework with a DLPack C exchange table (torch): one C
/// call instead of a Python lookup per attribute.
ArrayView fromExchange(nb::handle x, const dlpack::ExchangeAPI &api,
                       Framework framework) {
  dlpack::DLTensor t = dlpack::readTensor(api, x);
  ArrayView v;
  v.dtype = dtypeOfDLPack(t.dtype);
  v.device = deviceOfDLPack(t.device.device_type, t.device.device_id);
  v.data = static_cast<char *>(t.data) + t.byte_offset;
  v.shape.assign(t.shape, t.shape + t.ndim);
  if (t.strides) {
    v.strides.assign(t.strides, t.strides + t.ndim);
  } else { // compact row-major
    v.strides.assign(t.ndim, 1);
    for (int32_t d = t.ndim - 1; d > 0; --d)
      v.strides[d - 1] = v.strides[d] * v.shape[d];
  }
  v.framework = framework;
  v.owner = nb::borrow(x);
  return v;
}

const char *frameworkName(Framework f) {
  switch (f) {
  case Framework::NumPy:
    return "numpy";
  case Framework::Torch:
    return "torch";
  case Framework::CuPy:
    return "cupy";
  case Framework::DLPack:
    return "dlpack";
  }
  return "numpy";
}

/// A description made in Python (ptensor.Tensor, StridedBuffer): its
/// attributes are the view.
ArrayView fromDescription(nb::handle t) {
  nb::object d = nb::borrow(t);
  ArrayView v;
  v.dtype = dtypeFromName(d.attr("dtype"), d.attr("dtype"));
  std::string device = nb::cast<std::string>(d.attr("device"));
  if (!device.empty())
    v.device = device.size() > 5 ? std::atoi(device.c_str() + 5) : 0;
  v.data = reinterpret_cast<char *>(
      static_cast<uintptr_t>(nb::cast<uint64_t>(d.attr("ptr"))));
  v.shape = toInt64s(d.attr("shape"));
  v.strides = toInt64s(d.attr("strides"));
  std::string fw = nb::cast<std::string>(d.attr("framework"));
  v.framework = Framework::DLPack; // any other name: read as DLPack
  for (Framework f : {Framework::NumPy, Framework::Torch, Framework::CuPy})
    if (fw == frameworkName(f))
      v.framework = f;
  v.owner = d.attr("obj");
  v.keep = d.attr("keep");
  return v;
}

} // namespace

std::string ArrayView::deviceName() const {
  return device < 0 ? std::string() : "cuda:" + std::to_string(device);
}

int64_t ArrayView::numElements() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

bool isScalar(nb::handle x) {
  PyObject *o = x.ptr();
  if (PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o))
    return true;
  InteropState &s = state();
  if (isInstance(x, s.ndarrayType))
    return false;
  static PyTypeObject *generic = lookupType("numpy", "generic");
  return isInstance(x, generic);
}

namespace {

/// ptensor.Array, looked up once.
PyTypeObject *ptensorArrayType() {
  InteropState &s = state();
  if (!s.arrayType && !s.hooks.is_valid()) // ptensor/_interop.py not run
    throw std::logic_error("ptensor's interop hooks are not installed: "
                           "import ptensor before calling ptensor._core");
  if (!s.arrayType)
    s.arrayType = reinterpret_cast<PyTypeObject *>(
        s.hooks.attr("array_type")().release().ptr()); // kept: a class
  return s.arrayType;
}

/// The name of ptensor.Array's slot for its array (`__slots__` in
/// ptensor/_array.py), interned once and never freed, as the state.
PyObject *backingSlot() {
  static PyObject *name = PyUnicode_InternFromString("_backing");
  return name;
}

/// The array a ptensor.Array holds: its `_backing` slot, read directly (no
/// property call on the hot path); the `_array` property's error once
/// `ptensor.delete` released it.
nb::object backingArray(nb::handle array) {
  nb::object held =
      nb::steal(PyObject_GenericGetAttr(array.ptr(), backingSlot()));
  if (!held.is_valid())
    throw nb::python_error();
  if (held.is_none())
    return nb::borrow(array).attr("_array"); // raises
  return held;
}

/// A ptensor.Array over `backing` (Array._new without its framework check:
/// `backing` is a result made here).
nb::object newPTensorArray(nb::handle backing) {
  static PyObject *noArguments = PyTuple_New(0);
  PyTypeObject *type = ptensorArrayType();
  nb::object array =
      nb::steal(PyBaseObject_Type.tp_new(type, noArguments, nullptr));
  if (!array.is_valid() ||
      PyObject_GenericSetAttr(array.ptr(), backingSlot(), backing.ptr()) < 0)
    throw nb::python_error();
  return array;
}

} // namespace

/// torch's tensor type and exchange table, once torch is imported.
static void lookUpTorch(InteropState &s) {
  if (s.torchTensorType)
    return;
  s.torchTensorType = lookupType("torch", "Tensor");
  if (s.torchTensorType)
    s.torchExchange = dlpack::exchangeAPIOf(s.torchTensorType);
}

ArrayView importArray(nb::handle x) {
  InteropState &s = state();
  if (isInstance(x, s.ndarrayType))
    return fromNumPy(x);
  if (isInstance(x, ptensorArrayType())) { // its backing array
    ArrayView v = importArray(backingArray(x));
    v.isPTensorArray = true;
    return v;
  }
  lookUpTorch(s);
  if (isInstance(x, s.torchTensorType))
    return s.torchExchange && s.useExchange
               ? fromExchange(x, *s.torchExchange, Framework::Torch)
               : fromTorch(x);
  if (!s.cupyArrayType)
    s.cupyArrayType = lookupType("cupy", "ndarray");
  if (isInstance(x, s.cupyArrayType))
    return fromCuPy(x);
  if (s.useExchange)
    if (const dlpack::ExchangeAPI *api =
            dlpack::exchangeAPIOf(Py_TYPE(x.ptr()))) {
      ArrayView v = fromExchange(x, *api, Framework::DLPack);
      // Only the Python protocol synchronizes with another framework's
      // streams (__dlpack__ without a stream: the legacy default stream).
      if (!v.onGPU())
        return v;
    }
  nb::object kind = s.hooks.attr("classify")(x);
  std::string k = nb::cast<std::string>(kind[0]);
  if (k == "description")
    return fromDescription(kind[1]);
  if (k == "sequence")
    return importArray(kind[1]);
  return fromDLPack(x);
}

namespace {

/// Returns a device block to the runtime without holding the GIL: with
/// torch's allocator as the runtime's memory source, a thread allocating
/// inside compiled code (GIL released) holds the device allocator's lock
/// and may wait for the GIL in torch (its memory history takes Python
/// stacks); a free made holding the GIL would wait for that lock.
void freeDeviceBlock(void *ptr) {
  auto free = state().freeDevice;
  if (!free)
    return;
  if (!PyGILState_Check()) {
    free(ptr, nullptr);
    return;
  }
  PyThreadState *thread = PyEval_SaveThread();
  free(ptr, nullptr);
  PyEval_RestoreThread(thread);
}

/// Drops the reference a framework tensor made by dlpack::makeTensor holds
/// on its owner (the result's memory, or the operand it views), from
/// whichever thread the framework frees it on.
void releaseOwner(void *owner) {
  if (!Py_IsInitialized())
    return; // interpreter gone: so is the owner
  PyGILState_STATE gil = PyGILState_Ensure();
  Py_DECREF(static_cast<PyObject *>(owner));
  PyGILState_Release(gil);
}

nb::object exportDense(ResultBuffer &r, Framework framework, nb::handle owner) {
  std::vector<size_t> shape(r.shape.begin(), r.shape.end());
  nb::dlpack::dtype dt = toDLPackDType(r.dtype);
  int deviceType = r.device < 0 ? nb::device::cpu::value
                                : nb::device::cuda::value;
  int deviceId = r.device < 0 ? 0 : r.device;
  if (r.device < 0 && framework != Framework::Torch)
    framework = Framework::NumPy;
  // numpy has no bfloat16: uint16 viewed as ml_dtypes' (torch has its own).
  bool bf16OnHost = r.dtype == DType::BF16 && r.device < 0 &&
                    framework == Framework::NumPy;
  if (bf16OnHost)
    dt = nb::dtype<uint16_t>();
  if (r.device >= 0 && (framework == Framework::NumPy ||
                        framework == Framework::DLPack)) {
    std::string f = nb::cast<std::string>(
        state().hooks.attr("default_gpu_framework")());
    framework = f == "torch" ? Framework::Torch : Framework::CuPy;
  }
  nb::object out;
  switch (framework) {
  case Framework::Torch: {
    // torch has no negative strides (its DLPack import aborts on them): the
    // view is exported with those dimensions reversed, then flipped back
    // by torch.flip (a copy, only for such results).
    std::vector<int64_t> strides = r.strides;
    char *data = r.data;
    nb::list flipped;
    for (size_t d = 0; d < shape.size(); ++d)
      if (strides[d] < 0 && shape[d] > 1) {
        data += strides[d] * static_cast<int64_t>(shape[d] - 1) *
                static_cast<int64_t>(dtypeByteSize(r.dtype));
        strides[d] = -strides[d];
        flipped.append(d);
      }
    InteropState &s = state();
    if (!s.torchFromCapsule.is_valid())
      s.torchFromCapsule = s.hooks.attr("torch_from_capsule")();
    // Without an owner nanobind copies, which only the framework's export
    // can do.
    if (s.torchExchange && s.useExchange && owner.is_valid()) {
      out = dlpack::makeTensor(*s.torchExchange, data, r.device, dt,
                               r.shape.data(), strides.data(),
                               static_cast<int32_t>(shape.size()),
                               releaseOwner, owner.inc_ref().ptr());
    } else if (s.torchFromCapsule.is_none() || !owner.is_valid()) {
      out = nb::ndarray<nb::pytorch>(data, shape.size(), shape.data(), owner,
                                     strides.data(), dt, deviceType, deviceId)
                .cast();
    } else {
      nb::object capsule =
          nb::ndarray<>(data, shape.size(), shape.data(), owner,
                        strides.data(), dt, deviceType, deviceId)
              .cast();
      out = s.torchFromCapsule(capsule);
    }
    if (flipped.size() != 0)
      out = out.attr("flip")(nb::tuple(flipped));
    break;
  }
  case Framework::CuPy:
    out = nb::ndarray<nb::cupy>(r.data, shape.size(), shape.data(), owner,
                                r.strides.data(), dt, deviceType, deviceId)
              .cast();
    break;
  default:
    if (r.device < 0)
      out = newNumPyArray(r.data, r.shape, r.strides, r.dtype,
                          nb::borrow(owner));
    else
      out = nb::ndarray<nb::numpy>(r.data, shape.size(), shape.data(), owner,
                                   r.strides.data(), dt, deviceType, deviceId)
                .cast();
    break;
  }
  if (bf16OnHost)
    out = state().hooks.attr("as_bfloat16")(out);
  return out;
}

} // namespace

void freeHostResult(void *p) {
  if (auto free = state().freeHost)
    free(p);
  else
    std::free(p);
}

void setHostFree(void (*free)(void *)) { state().freeHost = free; }

nb::object exportArray(ResultBuffer &r, Framework framework,
                       bool asPTensorArray) {
  InteropState &s = state();
  int64_t n = 1;
  for (int64_t size : r.shape)
    n *= size;
  nb::object out;
  if (n == 0 || !r.data) {
    if (r.owns && r.allocated) {
      if (r.device < 0)
        freeHostResult(r.allocated);
      else
        freeDeviceBlock(r.allocated);
    }
    out = emptyArray(framework, r.shape, r.dtype,
                     r.device < 0 ? "" : "cuda:" + std::to_string(r.device));
  } else {
    nb::object owner;
    if (r.owns && r.allocated) {
      if (r.device < 0)
        owner = nb::capsule(r.allocated,
                            [](void *p) noexcept { freeHostResult(p); });
      else
        owner = nb::capsule(r.allocated,
                            [](void *p) noexcept { freeDeviceBlock(p); });
    } else {
      owner = r.viewOf;
    }
    out = exportDense(r, framework, owner);
  }
  if (asPTensorArray)
    out = newPTensorArray(out);
  return out;
}

nb::object emptyArray(Framework framework, const std::vector<int64_t> &shape,
                      DType dtype, const std::string &device) {
  nb::list sizes;
  for (int64_t size : shape)
    sizes.append(size);
  return state().hooks.attr("empty")(frameworkName(framework), nb::tuple(sizes),
                                     dtypeName(dtype), device);
}

void synchronizeInputs(const std::vector<const ArrayView *> &operands) {
  InteropState &s = state();
  int torchDone = -2, cupyDone = -2;
  for (const ArrayView *v : operands) {
    if (!v->onGPU())
      continue;
    if (v->framework == Framework::Torch && torchDone != v->device) {
      torchDone = v->device;
      if (s.torchExchange && s.useExchange && !s.syncLaunches) {
        std::optional<void *> stream =
            dlpack::currentCUDAStream(*s.torchExchange, v->device);
        if (stream && !*stream) // the legacy default stream: ordered
          continue;
        if (stream) { // another stream: waited for below
          s.hooks.attr("synchronize")("torch", v->deviceName());
          continue;
        }
      }
      if (!s.torchRawStream.is_valid())
        s.torchRawStream = s.hooks.attr("torch_raw_stream")();
      if (!s.syncLaunches && s.torchRawStream.is_valid() &&
          !s.torchRawStream.is_none() &&
          nb::cast<int64_t>(s.torchRawStream(v->device)) == 0)
        continue;
      s.hooks.attr("synchronize")("torch", v->deviceName());
    } else if (v->framework == Framework::CuPy && cupyDone != v->device) {
      cupyDone = v->device;
      s.hooks.attr("synchronize")("cupy", v->deviceName());
    }
  }
}

void setDefaultDevice(int device) {
  InteropState &s = state();
  if (!s.setDevice) {
    nb::tuple fns = nb::cast<nb::tuple>(s.hooks.attr("runtime_functions")());
    s.setDevice = reinterpret_cast<void (*)(int)>(
        static_cast<uintptr_t>(nb::cast<uint64_t>(fns[0])));
    s.freeDevice = reinterpret_cast<int (*)(void *, void *)>(
        static_cast<uintptr_t>(nb::cast<uint64_t>(fns[1])));
    // With torch in use the runtime's device blocks come from torch's
    // caching allocator: the process's first cuMemAlloc of the runtime's
    // own would cost 0.2-0.3 ms on the first call. The runtime refuses the
    // source when a device has already allocated (through the runtime's C
    // API): its memory then stays the driver's. PTENSOR_DEVICE_MEMORY=driver
    // keeps the driver's.
    const char *choice = std::getenv("PTENSOR_DEVICE_MEMORY");
    bool driverOnly = choice && std::string(choice) == "driver";
    lookUpTorch(s); // (a call without array operands has not yet)
    if (s.torchExchange && s.useExchange && !driverOnly)
      if (std::optional<ptensor_rt_device_memory_source> source =
              dlpack::deviceMemorySource(*s.torchExchange)) {
        auto setSource = reinterpret_cast<ptensor_rt_status (*)(
            const ptensor_rt_device_memory_source *)>(
            static_cast<uintptr_t>(nb::cast<uint64_t>(fns[2])));
        s.deviceMemory =
            setSource(&*source) == PTENSOR_RT_SUCCESS ? "torch" : "driver";
      }
  }
  s.setDevice(device);
}

void registerInterop(nb::module_ &m) {
  m.def("not_an_array_message", &notAnArrayMessage, nb::arg("type_name"),
        "The TypeError message for an operand that is not an array.");
  m.def(
      "init_interop",
      [](nb::object hooks) {
        importNumPyAPI();
        InteropState &s = state();
        s.hooks = hooks;
        s.ndarrayType = lookupType("numpy", "ndarray");
        s.numpyDTypes = nb::cast<nb::dict>(hooks.attr("numpy_dtypes"));
        s.syncLaunches = nb::cast<bool>(hooks.attr("sync_launches"));
        for (DType d : allDTypes())
          s.dtypeByName[dtypeName(d)] = d;
      },
      nb::arg("hooks"),
      "Sets the package's Python side of interop (ptensor/_interop.py).");
  m.def(
      "set_dlpack_exchange",
      [](bool on) {
        bool old = state().useExchange;
        state().useExchange = on;
        return old;
      },
      nb::arg("on"),
      "Whether torch tensors (and other frameworks' with a DLPack C "
      "exchange table) are read and made through that table (default) or "
      "through Python attribute lookups; returns the previous setting. "
      "For measurements (bench/host_latency.py).");
  m.def(
      "device_memory", [] { return state().deviceMemory; },
      "Where the runtime's device memory comes from: \"torch\" (torch's "
      "caching allocator, chosen on the first GPU call when torch is "
      "imported) or \"driver\" (cuMemAlloc).");
  m.def(
      "has_dlpack_exchange",
      [](nb::handle x) {
        PyTypeObject *type = PyType_Check(x.ptr())
                                 ? reinterpret_cast<PyTypeObject *>(x.ptr())
                                 : Py_TYPE(x.ptr());
        return dlpack::exchangeAPIOf(type) != nullptr;
      },
      nb::arg("x"),
      "Whether `x` (a tensor or its type) has a usable DLPack C exchange "
      "table.");
}

} // namespace ptensor::python
