//===- NumPyArrays.cpp - numpy arrays through numpy's C API ---------------===//

#include "NumPyArrays.h"

#define PY_ARRAY_UNIQUE_SYMBOL ptensor_numpy_api
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

namespace ptensor::python {

void importNumPyAPI() {
  static bool imported = false;
  if (imported)
    return;
  if (_import_array() < 0)
    throw nb::python_error();
  imported = true;
}

bool isNumPyArray(nb::handle x) { return PyArray_Check(x.ptr()); }

std::optional<DType> dtypeOfNumPyKind(char kind, int itemSize) {
  switch (kind) {
  case 'b':
    return itemSize == 1 ? std::optional(DType::Bool) : std::nullopt;
  case 'i':
  case 'u': {
    bool isSigned = kind == 'i';
    switch (itemSize) {
    case 1: return isSigned ? DType::I8 : DType::U8;
    case 2: return isSigned ? DType::I16 : DType::U16;
    case 4: return isSigned ? DType::I32 : DType::U32;
    case 8: return isSigned ? DType::I64 : DType::U64;
    default: return std::nullopt;
    }
  }
  case 'f':
    switch (itemSize) {
    case 2: return DType::F16;
    case 4: return DType::F32;
    case 8: return DType::F64;
    default: return std::nullopt;
    }
  default:
    return std::nullopt;
  }
}

bool readNumPyArray(nb::handle x, ArrayView &view) {
  auto *array = reinterpret_cast<PyArrayObject *>(x.ptr());
  PyArray_Descr *descr = PyArray_DESCR(array);
  int itemSize = static_cast<int>(PyArray_ITEMSIZE(array));
  std::optional<DType> dtype = dtypeOfNumPyKind(descr->kind, itemSize);
  if (!dtype || !PyArray_ISNOTSWAPPED(array))
    return false;
  view.dtype = *dtype;
  view.data = static_cast<char *>(PyArray_DATA(array));
  view.readOnly = !PyArray_ISWRITEABLE(array);
  int rank = PyArray_NDIM(array);
  const npy_intp *shape = PyArray_DIMS(array);
  const npy_intp *strides = PyArray_STRIDES(array);
  view.shape.assign(shape, shape + rank);
  view.strides.resize(rank);
  for (int d = 0; d < rank; ++d) {
    if (strides[d] % itemSize)
      throw nb::value_error(("array has a stride of " +
                             std::to_string(strides[d]) +
                             " bytes, not a multiple of its itemsize " +
                             std::to_string(itemSize))
                                .c_str());
    view.strides[d] = strides[d] / itemSize;
  }
  view.framework = Framework::NumPy;
  view.owner = nb::borrow(x);
  return true;
}

/// numpy's type number of `dtype` (bfloat16 as uint16).
static int typeNumber(DType dtype) {
  switch (dtype) {
  case DType::Bool: return NPY_BOOL;
  case DType::I8: return NPY_INT8;
  case DType::I16: return NPY_INT16;
  case DType::I32: return NPY_INT32;
  case DType::I64: return NPY_INT64;
  case DType::U8: return NPY_UINT8;
  case DType::U16: return NPY_UINT16;
  case DType::U32: return NPY_UINT32;
  case DType::U64: return NPY_UINT64;
  case DType::F16: return NPY_FLOAT16;
  case DType::BF16: return NPY_UINT16;
  case DType::F32: return NPY_FLOAT32;
  case DType::F64: return NPY_FLOAT64;
  }
  return NPY_NOTYPE;
}

nb::object newNumPyArray(char *data, const std::vector<int64_t> &shape,
                         const std::vector<int64_t> &strides, DType dtype,
                         nb::object owner) {
  size_t rank = shape.size();
  if (rank > NPY_MAXDIMS)
    throw nb::value_error(("a result of rank " + std::to_string(rank) +
                           " cannot be a numpy array (at most " +
                           std::to_string(NPY_MAXDIMS) + " dimensions)")
                              .c_str());
  npy_intp sizes[NPY_MAXDIMS], byteStrides[NPY_MAXDIMS];
  auto itemSize = static_cast<npy_intp>(dtypeByteSize(dtype));
  for (size_t d = 0; d < rank; ++d) {
    sizes[d] = shape[d];
    byteStrides[d] = strides[d] * itemSize;
  }
  PyArray_Descr *descr = PyArray_DescrFromType(typeNumber(dtype));
  // Steals the reference to descr.
  PyObject *array = PyArray_NewFromDescr(
      &PyArray_Type, descr, static_cast<int>(rank), sizes, byteStrides, data,
      NPY_ARRAY_WRITEABLE, nullptr);
  if (!array)
    throw nb::python_error();
  nb::object result = nb::steal(array);
  if (!owner.is_valid() || owner.is_none()) {
    // Nothing keeps the memory alive: a copy.
    PyObject *copy = PyArray_NewCopy(reinterpret_cast<PyArrayObject *>(array),
                                     NPY_KEEPORDER);
    if (!copy)
      throw nb::python_error();
    return nb::steal(copy);
  }
  // Steals the reference to the base.
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject *>(array),
                            owner.release().ptr()) < 0)
    throw nb::python_error();
  return result;
}

} // namespace ptensor::python
