//===- NumPyArrays.h - numpy arrays through numpy's C API -----------------===//
//
// The host path of a call reads and makes numpy arrays on every call: the
// C API (PyArray_* accessors, PyArray_NewFromDescr) costs a fraction of the
// buffer protocol's format strings and numpy.asarray's Python-level call.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_PYTHON_NUMPYARRAYS_H
#define PTENSOR_PYTHON_NUMPYARRAYS_H

#include "Interop.h"

#include <optional>

namespace ptensor::python {

/// Imports numpy's C API (once; numpy is a dependency of the package).
/// Raises ImportError when numpy cannot be imported.
void importNumPyAPI();

/// Whether `x` is a numpy.ndarray (or a subclass).
bool isNumPyArray(nb::handle x);

/// The ptensor dtype of numpy dtype kind `kind` ('b', 'i', 'u', 'f') and
/// item size; nullopt for others (bfloat16 from ml_dtypes, strings, ...).
std::optional<DType> dtypeOfNumPyKind(char kind, int itemSize);

/// Fills `view` from numpy array `x` (data, shape, strides in elements,
/// read-only flag) when its dtype is a native-order builtin numeric one;
/// returns false (view untouched) otherwise.
bool readNumPyArray(nb::handle x, ArrayView &view);

/// A numpy array over `data` (`shape`, `strides` in elements, `dtype`),
/// keeping `owner` alive as its base; bfloat16 comes back as uint16.
nb::object newNumPyArray(char *data, const std::vector<int64_t> &shape,
                         const std::vector<int64_t> &strides, DType dtype,
                         nb::object owner);

} // namespace ptensor::python

#endif // PTENSOR_PYTHON_NUMPYARRAYS_H
