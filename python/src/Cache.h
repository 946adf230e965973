//===- Cache.h - the disk cache, for the Python package ---------*- C++ -*-===//

#ifndef PTENSOR_PYTHON_CACHE_H
#define PTENSOR_PYTHON_CACHE_H

#include <nanobind/nanobind.h>

namespace ptensor::python {
namespace nb = nanobind;

/// Registers cache_directory, cache_key, cache_entry_path,
/// cache_is_current, cache_write and cache_record_build_id.
void registerCache(nb::module_ &m);

} // namespace ptensor::python

#endif // PTENSOR_PYTHON_CACHE_H
