//===- ptensor-compile.cpp - ahead-of-time compilation of ptensor modules ===//
//
//   ptensor-compile FILE.mlir [-o OUT.so|-] [--target=cpu|cuda] [--chip=CHIP]
//                   [--cpu=HOST_CPU]
//   ptensor-compile FILE.mlir -c [-o OUT.o|-] ...
//
// Lowers every public function with ptensor-to-cpu-pipeline or
// ptensor-to-nvvm-pipeline (cubins embedded), emits host object code with
// `_mlir_ciface_NAME` entry points and a `ptensor_module_signature` JSON
// string describing them (the driver's compileToObject, docs/ABI.md), and
// links a shared library with the LLD built into ptensor (no C compiler
// needed) that needs only libc, libm and (for cuda) libptensor_runtime at
// run time. Outputs are written atomically: on any error nothing is left
// behind.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Cache/CPUFeatures.h"
#include "ptensor/Compiler/Compiler.h"
#include "ptensor/Compiler/ParserHazards.h"
#include "ptensor/Pipelines/Pipelines.h"
#include "ptensor/Tools/CommandLine.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
namespace compiler = ::ptensor::compiler;

static llvm::cl::OptionCategory compileCategory("ptensor-compile options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input .mlir>"),
                                            llvm::cl::Required,
                                            llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string> outputFile(
    "o",
    llvm::cl::desc("Output file ('-' for stdout; default: the input's name "
                   "with .so, or .o with -c, in the current directory)"),
    llvm::cl::value_desc("file"), llvm::cl::cat(compileCategory));
static llvm::cl::opt<bool>
    objectOnly("c", llvm::cl::desc("Emit an object file only"),
               llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string> target("target",
                                         llvm::cl::desc("cpu or cuda"),
                                         llvm::cl::init("cpu"),
                                         llvm::cl::cat(compileCategory));
static llvm::cl::opt<bool> verbose(
    "v",
    llvm::cl::desc("Report the time of each stage on stderr (also with "
                   "PTENSOR_LOG=info)"),
    llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string>
    chip("chip", llvm::cl::desc("GPU chip"),
         llvm::cl::init(std::string(mlir::ptensor::kDefaultChip)),
         llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string> hostCPU(
    "cpu",
    llvm::cl::desc("CPU the host code is compiled for, an LLVM CPU name "
                   "(e.g. x86-64-v3, znver4; default: PTENSOR_HOST_CPU, "
                   "else this machine's CPU and all its features)"),
    llvm::cl::value_desc("name"), llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string>
    features("features", llvm::cl::desc("PTX feature"),
             llvm::cl::init(std::string(mlir::ptensor::kDefaultPTXFeatures)),
             llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string> gpuOptions(
    "gpu-options",
    llvm::cl::desc(
        "More options of ptensor-to-nvvm-pipeline, as in ptensor-opt "
        "(e.g. \"block-size=128 unroll=2\")"),
    llvm::cl::init(""), llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string> cpuOptions(
    "cpu-options",
    llvm::cl::desc("Options of ptensor-to-cpu-pipeline, as in ptensor-opt "
                   "(e.g. \"reorder-loops=false\")"),
    llvm::cl::init(""), llvm::cl::cat(compileCategory));
static llvm::cl::opt<int64_t> teamSize(
    "team-size",
    llvm::cl::desc("Processes the team tensors are split over (CPU; "
                   "docs/Teams.md): callers pass each process's block of "
                   "every team argument and gather team results"),
    llvm::cl::init(1), llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string>
    runtimeDir("runtime-dir",
               llvm::cl::desc("Directory of libptensor_runtime.so (default: "
                              "../lib next to this tool)"),
               llvm::cl::cat(compileCategory));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "ptensor-compile") << message << "\n";
  return 1;
}

/// The -o path: "-" for stdout; by default the input's name with .so (or
/// .o with -c) in the current directory.
static std::string getOutputPath() {
  if (!outputFile.empty())
    return outputFile;
  llvm::SmallString<128> name(llvm::sys::path::filename(inputFile));
  llvm::sys::path::replace_extension(name, objectOnly ? "o" : "so");
  return std::string(name);
}

/// Writes `bytes` to `output` (stdout for "-") atomically: LLVM's
/// writeToOutput goes through a temporary file beside it, renamed at the
/// end.
static int publish(llvm::StringRef bytes, llvm::StringRef output) {
  llvm::Error e = llvm::writeToOutput(output, [&](llvm::raw_ostream &os) {
    os << bytes;
    return llvm::Error::success();
  });
  if (e)
    return fail("cannot write " + output + ": " +
                llvm::errorToErrorCode(std::move(e)).message());
  return 0;
}

/// The directory of libptensor_runtime.so: --runtime-dir, else ../lib next
/// to this tool.
static std::string getRuntimeDir() {
  if (!runtimeDir.empty())
    return runtimeDir;
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&fail));
  return (llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)) +
          "/lib")
      .str();
}

namespace {
/// Times the stages of one compile for -v / PTENSOR_LOG=info: one line on
/// stderr at the end, e.g. "parse 1 ms, lower 95 ms, ... (total 180 ms)".
class StageTimer {
public:
  StageTimer() {
    const char *log = std::getenv("PTENSOR_LOG");
    enabled = verbose || (log && (llvm::StringRef(log) == "info" ||
                                  llvm::StringRef(log) == "debug"));
    start = last = std::chrono::steady_clock::now();
  }
  ~StageTimer() {
    if (!enabled || stages.empty())
      return;
    llvm::errs() << "ptensor-compile: " << input << ": " << stages
                 << " (total " << millis(start) << " ms)\n";
  }
  /// Ends the stage `name` that began at the previous call (or the start).
  void done(llvm::StringRef name) {
    if (!enabled)
      return;
    stages += (stages.empty() ? "" : ", ") + name.str() + " " +
              std::to_string(millis(last)) + " ms";
    last = std::chrono::steady_clock::now();
  }

private:
  static long millis(std::chrono::steady_clock::time_point since) {
    return static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - since)
            .count());
  }
  bool enabled = false;
  /// The input's name, read at the start: linking resets every cl::opt.
  std::string input = inputFile;
  std::string stages;
  std::chrono::steady_clock::time_point start, last;
};
} // namespace

static int run() {
  StageTimer timer;
  if (target != "cpu" && target != "cuda")
    return fail("unknown --target=" + target + "; expected cpu or cuda");
  std::string cpu = hostCPU.getNumOccurrences()
                        ? std::string(hostCPU)
                        : ::ptensor::cache::requestedHostCPU();
  // An unknown CPU name, before any work.
  if (auto known = compiler::getHostCodeCPUFeatures(cpu); !known)
    return fail(llvm::toString(known.takeError()));
  DialectRegistry registry;
  compiler::registerCompilerDialects(registry);
  // Never destroyed: the process ends without cleanup (main), so joining the
  // context's threads and freeing its storage is left to the system.
  MLIRContext &context = *new MLIRContext(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  auto buffer = llvm::MemoryBuffer::getFile(inputFile);
  if (!buffer)
    return fail("cannot open " + inputFile + ": " + buffer.getError().message());
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      compiler::parseModule(sourceMgr, ParserConfig(&context));
  if (!module)
    return 1;
  timer.done("parse");

  // A module on GPU tensors is compiled for the GPU unless told otherwise
  // (an explicit --target=cpu is refused by the CPU pipeline).
  compiler::CompileOptions options;
  if (target.getNumOccurrences())
    options.target =
        target == "cuda" ? compiler::Target::CUDA : compiler::Target::CPU;
  options.chip = chip;
  options.features = features;
  options.hostCPU = cpu;
  options.cpuPipelineOptions = cpuOptions;
  options.teamSize = teamSize;
  options.gpuPipelineOptions = gpuOptions;
  auto compiled = compiler::compileToObject(
      *module, options, [&](llvm::StringRef stage) { timer.done(stage); });
  if (!compiled)
    return fail("compiling " + inputFile + ": " +
                llvm::toString(compiled.takeError()));
  std::string output = getOutputPath();
  if (objectOnly) {
    auto object = compiler::mergeObjects(*compiled);
    if (!object)
      return fail(llvm::toString(object.takeError()));
    return publish(*object, output);
  }
  if (output == "-") {
    llvm::SmallString<128> tmp;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "ptensor-compile", "so", tmp))
      return fail("cannot create a temporary file: " + ec.message());
    llvm::sys::fs::remove(tmp);
    llvm::Error e = compiler::linkSharedLibrary(*compiled, tmp, getRuntimeDir());
    if (e)
      return fail(llvm::toString(std::move(e)));
    auto bytes = llvm::MemoryBuffer::getFile(tmp, /*IsText=*/false);
    llvm::sys::fs::remove(tmp);
    if (!bytes)
      return fail("cannot read back " + tmp + ": " + bytes.getError().message());
    timer.done("link");
    return publish((*bytes)->getBuffer(), output);
  }
  if (llvm::Error e =
          compiler::linkSharedLibrary(*compiled, output, getRuntimeDir()))
    return fail(llvm::toString(std::move(e)));
  timer.done("link");
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --mlir-disable-threading, as for mlir-opt: the kernels' PTX is
  // generated in parts on the context's threads (KernelParts.cpp).
  mlir::registerMLIRContextCLOptions();
  ::ptensor::tools::setUpCommandLine(compileCategory);
  // The identity caches key compiled code by (docs/ABI.md).
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "build id: " << compiler::getCompilerBuildId() << "\n";
  });
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "ptensor-compile: ahead-of-time compiler\n");
  int status = run();
  // Every output is written by now: the process ends without destroying
  // what a 200 MB compiler set up (the MLIR context and its threads, LLVM's
  // and MLIR's statics). What LLVM reports at exit (--stats, then
  // --time-passes' code generation timers) is printed first, and a failed
  // write to stdout (-o -) still fails the process.
  llvm::PrintStatistics();
  llvm::TimerGroup::printAll(llvm::errs());
  llvm::outs().flush();
  if (llvm::outs().has_error()) {
    status = fail("cannot write to stdout: " + llvm::outs().error().message());
    llvm::outs().clear_error();
  }
  llvm::errs().flush();
  llvm::sys::Process::Exit(status, /*NoCleanup=*/true);
}
