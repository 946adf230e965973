//===- ptensor-compile.cpp - ahead-of-time compilation of ptensor modules ===//
//
//   ptensor-compile FILE.mlir [-o OUT.so|-] [--target=cpu|cuda] [--chip=CHIP]
//   ptensor-compile FILE.mlir -c [-o OUT.o|-] ...
//
// Lowers every public function with ptensor-to-cpu-pipeline or
// ptensor-to-nvvm-pipeline (cubins embedded), emits host object code with
// `_mlir_ciface_NAME` entry points and a `ptensor_module_signature` JSON
// string describing them, and links a shared library that needs only libc,
// libm and (for cuda) libptensor_runtime at run time. Outputs are written
// atomically: on any error nothing is left behind.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Compiler/Compiler.h"
#include "ptensor/JIT/Signature.h"
#include "ptensor/Pipelines/Pipelines.h"
#include "ptensor/Tools/CommandLine.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"

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
static llvm::cl::opt<std::string>
    runtimeDir("runtime-dir",
               llvm::cl::desc("Directory of libptensor_runtime.so (default: "
                              "../lib next to this tool)"),
               llvm::cl::cat(compileCategory));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "ptensor-compile") << message << "\n";
  return 1;
}

/// Emits `llvmModule` as an object file at `path`.
static llvm::Error emitObject(llvm::Module &llvmModule, llvm::TargetMachine &tm,
                              llvm::StringRef path) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "cannot write %s", path.str().c_str());
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, out.os(), nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the target cannot emit object files");
  pm.run(llvmModule);
  out.keep();
  return llvm::Error::success();
}

/// Links `object` into the shared library `path` with the system compiler.
/// Whether the CPU code runs loop nests on MLIR's async runtime
/// (--cpu-options=parallel=true): the library then links
/// libmlir_async_runtime from the LLVM installation ptensor was built with.
static bool usesAsyncRuntime = false;

static llvm::Error linkShared(llvm::StringRef object, llvm::StringRef path,
                              bool needsRuntime) {
  auto cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return llvm::createStringError(
        "no C compiler driver `cc` on PATH to link the shared library (use -c "
        "for an object file)");
  llvm::SmallVector<std::string> args = {*cc, "-shared", "-o", path.str(),
                                         object.str()};
  if (needsRuntime) {
    std::string dir = runtimeDir;
    if (dir.empty()) {
      std::string self = llvm::sys::fs::getMainExecutable(
          nullptr, reinterpret_cast<void *>(&fail));
      dir = (llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)) +
             "/lib")
                .str();
    }
    args.append({"-L" + dir, "-lptensor_runtime", "-Wl,-rpath," + dir,
                 "-Wl,-rpath,$ORIGIN"});
  }
  if (usesAsyncRuntime) {
    llvm::StringRef async = compiler::getAsyncRuntimeLibrary();
    if (!llvm::sys::fs::exists(async))
      return llvm::createStringError(
          "parallel=true code needs MLIR's async runtime, and %s is missing",
          async.str().c_str());
    llvm::StringRef dir = llvm::sys::path::parent_path(async);
    args.append({async.str(), "-Wl,-rpath," + dir.str()});
  }
  args.push_back("-lm");
  llvm::SmallVector<llvm::StringRef> refs(args.begin(), args.end());
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(*cc, refs, std::nullopt, {}, 0, 0, &error);
  if (rc != 0)
    return llvm::createStringError("linking %s failed (%s exit %d) %s",
                                   path.str().c_str(), cc->c_str(), rc,
                                   error.c_str());
  return llvm::Error::success();
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

/// Moves the finished temporary `tmp` to `output` (stdout for "-").
static int publish(llvm::StringRef tmp, llvm::StringRef output) {
  if (output == "-") {
    auto bytes = llvm::MemoryBuffer::getFile(tmp, /*IsText=*/false);
    llvm::sys::fs::remove(tmp);
    if (!bytes)
      return fail("cannot read back " + tmp + ": " +
                  bytes.getError().message());
    llvm::outs() << (*bytes)->getBuffer();
    llvm::outs().flush();
    return 0;
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, output)) {
    llvm::sys::fs::remove(tmp);
    return fail("cannot write " + output + ": " + ec.message());
  }
  return 0;
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
    llvm::errs() << "ptensor-compile: " << inputFile << ": " << stages
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
  std::string stages;
  std::chrono::steady_clock::time_point start, last;
};
} // namespace

static int run() {
  StageTimer timer;
  if (target != "cpu" && target != "cuda")
    return fail("unknown --target=" + target + "; expected cpu or cuda");
  DialectRegistry registry;
  compiler::registerCompilerDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  auto buffer = llvm::MemoryBuffer::getFile(inputFile);
  if (!buffer)
    return fail("cannot open " + inputFile + ": " + buffer.getError().message());
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  timer.done("parse");
  auto sigs = ::ptensor::jit::readSignatures(*module);
  if (!sigs)
    return fail(llvm::toString(sigs.takeError()));
  for (auto f : module->getOps<func::FuncOp>())
    if (f.isPublic() && !f.isExternal())
      f->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                 UnitAttr::get(&context));

  // A module on GPU tensors is compiled for the GPU unless told otherwise
  // (an explicit --target=cpu is refused by the CPU pipeline).
  compiler::CompileOptions options;
  if (target.getNumOccurrences())
    options.target =
        target == "cuda" ? compiler::Target::CUDA : compiler::Target::CPU;
  options.chip = chip;
  options.features = features;
  compiler::Target resolved = compiler::resolveTarget(
      options, llvm::any_of(*sigs, ::ptensor::jit::ValueType::anyOnGPU));
  target.setValue(compiler::getTargetName(resolved));
  options.pipelineOptions = target == "cuda" ? gpuOptions : cpuOptions;
  if (target == "cuda") {
    std::string cuda = mlir::ptensor::resolveCudaPath("");
    if (!llvm::sys::fs::exists(cuda + "/bin/ptxas"))
      return fail("no CUDA toolkit at " + cuda +
                  " (ptxas not found); set CUDA_HOME to the toolkit");
  }
  if (llvm::Error e = compiler::lowerToLLVMDialect(*module, resolved, options))
    return fail("lowering " + inputFile + ": " + llvm::toString(std::move(e)));
  timer.done(resolved == compiler::Target::CUDA
                 ? "lower (with kernels to cubin)"
                 : "lower");
  // Parallel loop nests call MLIR's async runtime: link it.
  usesAsyncRuntime = llvm::any_of(
      module->getOps<LLVM::LLVMFuncOp>(), [](LLVM::LLVMFuncOp f) {
        return f.isExternal() && f.getName().starts_with("mlirAsyncRuntime");
      });

  llvm::LLVMContext llvmContext;
  auto llvmModule = translateModuleToLLVMIR(*module, llvmContext);
  if (!llvmModule)
    return fail("translation of " + inputFile + " to LLVM IR failed");
  auto tm = compiler::createHostTargetMachine(options.optLevel);
  if (!tm)
    return fail(llvm::toString(tm.takeError()));
  ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(), tm->get());
  if (llvm::Error e = makeOptimizingTransformer(options.optLevel, 0,
                                                tm->get())(llvmModule.get()))
    return fail(llvm::toString(std::move(e)));
  timer.done("LLVM IR + optimize");
  auto *json = llvm::ConstantDataArray::getString(
      llvmContext, ::ptensor::jit::writeSignatureJson(*sigs, target));
  new llvm::GlobalVariable(*llvmModule, json->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, json,
                           ::ptensor::jit::kSignatureSymbol);

  // Everything goes to uniquely named temporaries first (beside the output,
  // so that the final rename is atomic; concurrent compiles to one path
  // never mix); the output appears only at the end.
  std::string output = getOutputPath();
  auto temporary = [&](llvm::StringRef suffix) -> llvm::Expected<std::string> {
    llvm::SmallString<128> path;
    std::error_code ec =
        output == "-"
            ? llvm::sys::fs::createTemporaryFile("ptensor-compile", suffix,
                                                 path)
            : llvm::sys::fs::createUniqueFile(
                  output + ".%%%%%%%%.tmp." + suffix.str(), path);
    if (ec)
      return llvm::createStringError("cannot write " + output + ": " +
                                     ec.message());
    return std::string(path);
  };
  auto tmpObject = temporary("o");
  if (!tmpObject)
    return fail(llvm::toString(tmpObject.takeError()));
  if (llvm::Error e = emitObject(*llvmModule, **tm, *tmpObject)) {
    llvm::sys::fs::remove(*tmpObject);
    return fail(llvm::toString(std::move(e)));
  }
  timer.done("codegen");
  if (objectOnly)
    return publish(*tmpObject, output);
  auto tmpLib = temporary("so");
  if (!tmpLib) {
    llvm::sys::fs::remove(*tmpObject);
    return fail(llvm::toString(tmpLib.takeError()));
  }
  llvm::Error linked = linkShared(*tmpObject, *tmpLib, target == "cuda");
  timer.done("link");
  llvm::sys::fs::remove(*tmpObject);
  if (linked) {
    llvm::sys::fs::remove(*tmpLib);
    return fail(llvm::toString(std::move(linked)));
  }
  return publish(*tmpLib, output);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  ::ptensor::tools::setUpCommandLine(compileCategory);
  // The identity caches key compiled code by (docs/ABI.md).
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "build id: " << compiler::getCompilerBuildId() << "\n";
  });
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "ptensor-compile: ahead-of-time compiler\n");
  return run();
}
