//===- Cache.cpp - the disk cache, for the Python package -----------------===//
//
// ptensor._core's view of the one disk cache (ptensor/Cache/DiskCache.h):
// the package keeps its compiled libraries there with the JIT's layout and
// key, also on machines without the compiler.
//
//===----------------------------------------------------------------------===//

#include "Cache.h"

#include "ptensor/Cache/BuildId.h"
#include "ptensor/Cache/CPUFeatures.h"
#include "ptensor/Cache/DiskCache.h"

// Built with the compiler (CMake): its version header and LLVM's version
// give the compiler's build identity without loading it. The GPU check's
// binding has neither, and no compiler to identify.
#ifdef PTENSOR_LLVM_VERSION
#include "ptensor/Tools/Version.h"
#endif

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace cache = ptensor::cache;

void ptensor::python::registerCache(nb::module_ &m) {
  m.attr("CACHE_FORMAT_VERSION") = cache::kCacheFormatVersion;
  m.def(
      "cache_directory",
      [](std::optional<std::string> override) {
        return cache::resolveCacheDirectory(override);
      },
      nb::arg("override") = nb::none(),
      "The disk cache's directory (\"\" when PTENSOR_DISABLE_CACHE=1).");
  m.def(
      "cache_key",
      [](std::string kind, std::string target, std::string chip,
         std::string options, const std::string &source) {
        return cache::computeKey({std::move(kind), std::move(target),
                                  std::move(chip), std::move(options)},
                                 source);
      },
      nb::arg("kind"), nb::arg("target"), nb::arg("chip"), nb::arg("options"),
      nb::arg("source"), "The machine-independent key of compiled code.");
  m.def("cache_entry_path", &cache::entryPath, nb::arg("directory"),
        nb::arg("key"), nb::arg("extension"));
  m.def("cache_companion_path", &cache::companionPath, nb::arg("path"),
        nb::arg("extension"), "KEY.EXTENSION beside the entry KEY.EXT.");
#ifdef PTENSOR_LLVM_VERSION
  // The project's version (pyproject.toml's), for ptensor.__version__.
  m.attr("VERSION") = PTENSOR_VERSION;
#endif
  m.def(
      "compiler_build_id",
      [](const std::string &compilerBinary) -> std::optional<std::string> {
#ifdef PTENSOR_LLVM_VERSION
        return cache::formatCompilerBuildId(
            PTENSOR_VERSION, PTENSOR_GIT_COMMIT,
            cache::binaryIdentityOfFile(compilerBinary), PTENSOR_LLVM_VERSION);
#else
        (void)compilerBinary;
        return std::nullopt;
#endif
      },
      nb::arg("compiler_binary"),
      "The build identity ptensor._compile.build_id() gives, computed from "
      "that extension's file without loading it (None in a binding built "
      "without the compiler).");
  m.def("cache_is_current", &cache::isCurrent, nb::arg("path"),
        nb::arg("build_id"),
        "Whether the entry exists and (with a build id) was made by it.");
  m.def("cache_why_not_current", &cache::whyNotCurrent, nb::arg("path"),
        nb::arg("build_id"),
        "Why the entry cannot be used here (\"\" when it can).");
  m.def("host_cpu_features", &cache::hostCPUFeatures,
        "The CPU features a cache entry compiled here records.");
  m.def(
      "missing_cpu_features",
      [](const std::vector<std::string> &features) {
        return cache::missingCPUFeatures(cache::cpuFeaturesLine(features),
                                         cache::hostCPUFeatures());
      },
      nb::arg("features"),
      "Those of `features` (code's needs) that this CPU lacks.");
  auto raiseOnError = [](const std::string &error) {
    if (!error.empty())
      throw std::runtime_error(error);
  };
  m.def(
      "cache_write",
      [raiseOnError](const std::string &path, const std::string &text) {
        raiseOnError(cache::writeAtomically(path, text));
      },
      nb::arg("path"), nb::arg("text"), "Writes a file atomically.");
  m.def(
      "cache_record_build_id",
      [raiseOnError](const std::string &path, const std::string &buildId,
                     std::optional<std::vector<std::string>> cpuFeatures) {
        raiseOnError(cache::recordBuildId(
            path, buildId, cpuFeatures.value_or(cache::hostCPUFeatures())));
      },
      nb::arg("path"), nb::arg("build_id"),
      nb::arg("cpu_features") = nb::none(),
      "Marks the entry as made by `build_id` (written last), its code "
      "needing `cpu_features` (default: this CPU's).");
  nb::class_<cache::EntryLock>(
      m, "CacheEntryLock",
      "The lock of a cache entry while this process compiles it (waits for "
      "another process that holds it; see DiskCache.h).")
      .def(nb::init<const std::string &>(), nb::arg("path"),
           nb::call_guard<nb::gil_scoped_release>())
      .def("release", &cache::EntryLock::release, "Releases the lock.");
  m.def("requested_host_cpu", &cache::requestedHostCPU,
        "The CPU named by PTENSOR_HOST_CPU (\"\": this machine's).");
}
