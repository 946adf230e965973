//===- CompileModule.cpp - ptensor._compile: the compiler, in process -----===//
//
// The Python package's binding of the compile driver (Compiler.h): IR text
// in, a shared library with the module ABI (docs/ABI.md) out, linked by the
// LLD inside ptensor. No tool is run and no C compiler is needed. This
// module links LLVM/MLIR; ptensor._core (the semantics library and the
// calls) does not, so a machine without LLVM can still run kernels
// compiled elsewhere.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace nb = nanobind;
namespace compiler = ptensor::compiler;

namespace {
/// A compile that failed: the message carries the diagnostics.
struct CompileFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};
} // namespace

/// Compiles `ir` for `target` ("cpu" or "cuda") into the shared library
/// `output` (written atomically), with more options of
/// ptensor-to-nvvm-pipeline `gpuOptions` ("cuda"); returns the time of each
/// stage, e.g. "parse 1 ms, lower 9 ms, ...".
static std::string compileLibrary(const std::string &ir,
                                  const std::string &target,
                                  const std::string &chip,
                                  const std::string &hostCPU,
                                  const std::string &output,
                                  const std::string &runtimeDir,
                                  const std::string &bufferName,
                                  int64_t teamSize,
                                  const std::string &gpuOptions) {
  compiler::CompileOptions options;
  options.target =
      target == "cuda" ? compiler::Target::CUDA : compiler::Target::CPU;
  if (!chip.empty())
    options.chip = chip;
  options.hostCPU = hostCPU;
  options.teamSize = teamSize;
  options.gpuPipelineOptions = gpuOptions;
  std::string stages;
  auto last = std::chrono::steady_clock::now();
  auto onStage = [&](llvm::StringRef stage) {
    auto now = std::chrono::steady_clock::now();
    long ms = static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(now - last)
            .count());
    stages += (stages.empty() ? "" : ", ") + stage.str() + " " +
              std::to_string(ms) + " ms";
    last = now;
  };
  std::string error;
  {
    nb::gil_scoped_release release;
    auto compiled =
        compiler::compileSourceToObject(ir, bufferName, options, onStage);
    if (!compiled) {
      error = llvm::toString(compiled.takeError());
    } else if (llvm::Error e = compiler::linkSharedLibrary(*compiled, output,
                                                           runtimeDir)) {
      error = llvm::toString(std::move(e));
    } else {
      onStage("link");
    }
  }
  if (!error.empty())
    throw CompileFailed(error);
  return stages;
}

NB_MODULE(_compile, m) {
  m.doc() = "The ptensor compiler in process (docs/ABI.md libraries).";
  nb::exception<CompileFailed>(m, "CompileFailed");
  // PTENSOR_STATIC_COMPILERS (CMakeLists.txt).
  m.attr("static_llvm") = bool(PTENSOR_STATIC_LLVM);
  m.def("compile_library", &compileLibrary, nb::arg("ir"), nb::arg("target"),
        nb::arg("chip"), nb::arg("host_cpu"), nb::arg("output"),
        nb::arg("runtime_dir"), nb::arg("buffer_name"),
        nb::arg("team_size") = 1, nb::arg("gpu_options") = "",
        "Compiles IR text into the shared library `output`, its host code "
        "for the CPU `host_cpu` (\"\": this machine's), its team tensors "
        "split over `team_size` processes, with more options of "
        "ptensor-to-nvvm-pipeline `gpu_options` (\"cuda\"); returns the time "
        "of each stage. Raises CompileFailed with the diagnostics.");
  m.def(
      "host_code_cpu_features",
      [](const std::string &hostCPU) {
        auto features = compiler::getHostCodeCPUFeatures(hostCPU);
        if (!features)
          throw CompileFailed(llvm::toString(features.takeError()));
        return *features;
      },
      nb::arg("host_cpu"),
      "The instruction-set features host code compiled for `host_cpu` may "
      "use (\"\": this CPU's), which its cache entry records. Raises "
      "CompileFailed for a CPU LLVM does not know.");
  m.def(
      "build_id", [] { return compiler::getCompilerBuildId(); },
      "The compiler's identity (version, commit, LLVM; part of cache keys).");
}
