//===- ptensor-runner.cpp - JIT-execute a function of a ptensor module ----===//
//
//   ptensor-runner FILE.mlir -e FUNC [--input a.npy]... [--output-dir DIR]
//                  [--print]
//
// Compiles FILE with ptensor-to-cpu-pipeline on the MLIR ExecutionEngine,
// binds each .npy to the next argument and writes results to DIR/outN.npy
// and/or prints them numpy-style. Every error is a message and exit code 1.
//
// Under mpirun, a module with team tensors runs on every process
// (docs/Teams.md): each reads the whole .npy inputs and passes its block of
// the team ones (rows split along the first dim), team results are
// gathered, and only rank 0 writes or prints.
//
// A module whose functions take or return "cuda" tensors is compiled with
// ptensor-to-nvvm-pipeline and runs with libptensor_runtime: device inputs
// are copied to GPU 0, device results back to the host. Without a CUDA
// driver it stops, before anything is written, with the runtime's message
// ("no CUDA driver found ..."); --compile-only stops after compiling.
//
//===----------------------------------------------------------------------===//

#include "DeviceArrays.h"

#include "ptensor/JIT/JIT.h"
#include "ptensor/Support/ArrayPrinter.h"
#include "ptensor/Support/Npy.h"
#include "ptensor/Tools/CommandLine.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace ::ptensor;
using namespace ::ptensor::jit;

static llvm::cl::OptionCategory runnerCategory("ptensor-runner options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input .mlir>"),
                                            llvm::cl::Required,
                                            llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string>
    entryPoint("e", llvm::cl::desc("Function to execute"),
               llvm::cl::value_desc("FUNC"), llvm::cl::Required,
               llvm::cl::cat(runnerCategory));
static llvm::cl::list<std::string>
    inputs("input", llvm::cl::desc("A .npy file for the next argument"),
           llvm::cl::value_desc("file.npy"), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string>
    outputDir("output-dir", llvm::cl::desc("Write results to DIR/outN.npy"),
              llvm::cl::value_desc("DIR"), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> print("print",
                                 llvm::cl::desc("Print results numpy-style"),
                                 llvm::cl::cat(runnerCategory));
static llvm::cl::opt<unsigned> optLevel("O", llvm::cl::desc("LLVM opt level"),
                                        llvm::cl::init(3),
                                        llvm::cl::cat(runnerCategory));
static llvm::cl::opt<std::string>
    cacheDir("cache-dir",
             llvm::cl::desc("Compiled-code cache directory ('' disables); "
                            "default $PTENSOR_CACHE_DIR or ~/.cache/ptensor"),
             llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> parallel(
    "parallel",
    llvm::cl::desc("Run large loop nests on several threads (OpenMP; "
                   "PTENSOR_NUM_THREADS, default the CPUs available; "
                   "--parallel=false: one)"),
    llvm::cl::init(true), llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool> compileOnly(
    "compile-only",
    llvm::cl::desc("Stop after compiling (checks the GPU pipeline without a "
                   "GPU); prints the entry's signature"),
    llvm::cl::cat(runnerCategory));
static llvm::cl::opt<bool>
    reportLatency("report-latency",
                  llvm::cl::desc("Print compile and first-call times to "
                                 "stderr"),
                  llvm::cl::cat(runnerCategory));

static llvm::cl::opt<unsigned> repeat(
    "repeat",
    llvm::cl::desc("Call the function N more times and print the median "
                   "time of a call to stderr (with teams: each rank's)"),
    llvm::cl::value_desc("N"), llvm::cl::init(0),
    llvm::cl::cat(runnerCategory));

/// The value of a 0-d array as a scalar argument of `dtype` when it
/// converts exactly (an f64 0.5 for an f32 parameter, an i64 3 for an i8),
/// or nullopt. f16/bf16 parameters take f16/bf16 arrays only.
static std::optional<Argument> convertExactly(const HostArray &a, DType dtype) {
  bool fromFloat = isFloatDType(a.dtype());
  bool fromUnsigned = a.dtype() == DType::U64;
  double asDouble = fromFloat      ? a.getDouble(0)
                    : fromUnsigned ? static_cast<double>(a.getUInt64(0))
                                   : static_cast<double>(a.getInt64(0));
  if (dtype == DType::F64 || dtype == DType::F32) {
    if (!fromFloat) { // integers up to 2^53 (f64) or 2^24 (f32) are exact
      double limit = dtype == DType::F64 ? 0x1p53 : 0x1p24;
      if (std::fabs(asDouble) > limit)
        return std::nullopt;
    }
    if (dtype == DType::F32 && !std::isnan(asDouble) &&
        static_cast<double>(static_cast<float>(asDouble)) != asDouble)
      return std::nullopt;
    return Argument::scalar(asDouble);
  }
  if (!isIntDType(dtype) && dtype != DType::Bool)
    return std::nullopt;
  if (fromFloat && (std::isnan(asDouble) || std::trunc(asDouble) != asDouble))
    return std::nullopt;
  // The range of the target integer type, in doubles (exact at the ends
  // that matter: 2^63 and 2^64 are powers of two).
  unsigned bits = dtype == DType::Bool ? 1 : dtypeBitWidth(dtype);
  bool isSigned = isSignedIntDType(dtype);
  double lo = isSigned ? -std::ldexp(1.0, bits - 1) : 0.0;
  double hi = std::ldexp(1.0, isSigned ? bits - 1 : bits);
  if (asDouble < lo || asDouble >= hi)
    return std::nullopt;
  if (fromUnsigned)
    return Argument::scalar(static_cast<int64_t>(a.getUInt64(0)));
  if (fromFloat) // in range: fits an int64, or a uint64 below 2^64
    return Argument::scalar(asDouble >= 0x1p63
                                ? static_cast<int64_t>(
                                      static_cast<uint64_t>(asDouble))
                                : static_cast<int64_t>(asDouble));
  return Argument::scalar(a.getInt64(0));
}

/// The shortest decimal that reads back as `v` (0.1, not 0.10000000000000001).
static std::string shortestDecimal(double v) {
  char text[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof(text), "%.*g", precision, v);
    if (std::strtod(text, nullptr) == v)
      break;
  }
  return text;
}

/// Converts a 0-d array to a scalar argument of the signature's dtype; an
/// array of another dtype is converted when that is exact.
static llvm::Expected<Argument> toScalar(const HostArray &a,
                                         const ValueType &type, size_t index) {
  if (a.rank() != 0)
    return llvm::createStringError(
        "input #%zu: argument #%zu is a scalar (%s), so expected a 0-d "
        "array, got shape %s",
        index, index, type.str().c_str(), shapeToString(a.shape()).c_str());
  bool indexLike = type.isIndex && isIntDType(a.dtype());
  if (a.dtype() != type.dtype && !indexLike) {
    if (std::optional<Argument> exact = convertExactly(a, type.dtype))
      return *exact;
    std::string value = isFloatDType(a.dtype())
                            ? shortestDecimal(a.getDouble(0))
                        : a.dtype() == DType::U64
                            ? std::to_string(a.getUInt64(0))
                            : std::to_string(a.getInt64(0));
    return llvm::createStringError(
        "input #%zu: argument #%zu is a %s scalar; the %s value %s of the 0-d "
        "array does not convert exactly to %s",
        index, index, dtypeName(type.dtype), dtypeName(a.dtype()),
        value.c_str(), dtypeName(type.dtype));
  }
  if (isFloatDType(a.dtype()))
    return Argument::scalar(a.getDouble(0));
  // The bits as they are (getInt64 would saturate values >= 2^63): a ui64
  // argument is passed in a 64-bit integer register like an i64.
  if (a.dtype() == DType::U64)
    return Argument::scalar(static_cast<int64_t>(a.getUInt64(0)));
  return Argument::scalar(a.getInt64(0));
}

static StridedBuffer viewOf(HostArray &a) {
  StridedBuffer b;
  b.data = a.buffer()->data();
  b.dtype = a.dtype();
  b.offset = a.offset();
  b.sizes.assign(a.shape().begin(), a.shape().end());
  b.strides.assign(a.strides().begin(), a.strides().end());
  return b;
}

/// Prints "ptensor-runner: error: <message>" in one write: the processes of
/// a team may all fail at once, and their lines must not interleave.
static int reportError(const llvm::Twine &message) {
  std::string line;
  llvm::raw_string_ostream os(line);
  llvm::WithColor::error(os, "ptensor-runner") << message << "\n";
  llvm::errs() << line;
  return 1;
}

static int run() {
  auto file = llvm::MemoryBuffer::getFile(inputFile);
  if (!file)
    return reportError("cannot open " + inputFile + ": " +
                       file.getError().message());
  JITOptions options;
  options.optLevel = optLevel;
  options.parallel = parallel;
  // Team tensors cross calls as this process's blocks: the runner blocks
  // the inputs once, and gathers the results once, outside the timed calls.
  options.teamBlocks = true;
  if (cacheDir.getNumOccurrences())
    options.cacheDir = cacheDir;
  auto start = std::chrono::steady_clock::now();
  auto module = JITModule::compile((*file)->getBuffer(), inputFile, options);
  if (!module)
    return reportError(llvm::toString(module.takeError()));
  auto compiled = std::chrono::steady_clock::now();
  const FunctionSignature *sig = (*module)->lookup(entryPoint);
  // With teams split over processes, a failing process ends the job: the
  // others may be waiting for it in a collective.
  auto fail = [&](const llvm::Twine &message) {
    reportError(message);
    (*module)->team().abortJob(1);
    return 1;
  };
  if (!sig)
    return fail("no public function @" + entryPoint + " in " + inputFile);
  if (compileOnly) {
    llvm::outs() << "compiled @" << entryPoint << "(";
    for (auto [i, t] : llvm::enumerate(sig->args))
      llvm::outs() << (i ? ", " : "") << t.str();
    llvm::outs() << ")\n";
    return 0;
  }
  if (inputs.size() != sig->args.size())
    return fail("@" + entryPoint + " expects " + llvm::Twine(sig->args.size()) +
                " inputs, got " + llvm::Twine(inputs.size()) + " --input files");
  if (ValueType::anyOnGPU(*sig))
    if (llvm::Error e = runner::checkCudaAvailable())
      return fail("@" + entryPoint + " runs on a GPU: " +
                  llvm::toString(std::move(e)));

  // With team tensors split over processes, this process's place.
  const Team &team = (*module)->team();
  llvm::SmallVector<HostArray> arrays;
  llvm::SmallVector<Argument> args;
  std::vector<std::unique_ptr<runner::DeviceCopy>> deviceInputs;
  for (auto [i, path] : llvm::enumerate(inputs)) {
    auto a = readNpy(path);
    if (!a)
      return fail("input #" + llvm::Twine(i) + ": " + llvm::toString(a.takeError()));
    arrays.push_back(std::move(*a));
  }
  for (auto [i, a] : llvm::enumerate(arrays)) {
    if (!sig->args[i].isTensor) {
      auto s = toScalar(a, sig->args[i], i);
      if (!s)
        return fail(llvm::toString(s.takeError()));
      args.push_back(*s);
      continue;
    }
    if (!sig->args[i].isOnGPU()) {
      args.push_back(Argument::tensor(viewOf(a)));
      continue;
    }
    auto copy = runner::DeviceCopy::upload(viewOf(a));
    if (!copy)
      return fail("input #" + llvm::Twine(i) + ": " +
                  llvm::toString(copy.takeError()));
    args.push_back(Argument::tensor((*copy)->view()));
    deviceInputs.push_back(std::move(*copy));
  }
  // The whole arguments, views of `arrays` (written team arguments are
  // gathered back into them after the calls).
  llvm::SmallVector<Argument> wholeArgs = args;
  if (team.size > 1) {
    llvm::SmallVector<Argument> blocks;
    if (llvm::Error e = team.blockArguments(*sig, args, blocks))
      return fail(llvm::toString(std::move(e)));
    args = std::move(blocks);
  }
  llvm::SmallVector<Result> results;
  if (team.size > 1)
    team.resetTraffic();
  if (llvm::Error e = (*module)->invoke(entryPoint, args, results))
    return fail(llvm::toString(std::move(e)));
  auto called = std::chrono::steady_clock::now();
  // The first call's communication (repeated calls add to the counters).
  Team::Traffic traffic = team.size > 1 ? team.traffic() : Team::Traffic{};
  if (repeat > 0) {
    // GPU calls return before their kernels end: each is timed until the
    // device is done, from a device with nothing queued.
    bool onGPU = ValueType::anyOnGPU(*sig);
    auto settle = [&]() -> llvm::Error {
      return onGPU ? runner::synchronizeDevice() : llvm::Error::success();
    };
    std::vector<double> times;
    for (unsigned i = 0; i < repeat; ++i) {
      llvm::SmallVector<Result> again;
      if (llvm::Error e = settle())
        return fail(llvm::toString(std::move(e)));
      auto before = std::chrono::steady_clock::now();
      if (llvm::Error e = (*module)->invoke(entryPoint, args, again))
        return fail(llvm::toString(std::move(e)));
      if (llvm::Error e = settle())
        return fail(llvm::toString(std::move(e)));
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - before)
                          .count());
    }
    std::sort(times.begin(), times.end());
    std::string line = llvm::formatv("median of {0} calls: {1:f3} ms", repeat,
                                     times[times.size() / 2]);
    if (team.size > 1)
      line += llvm::formatv(" (rank {0} of {1})", team.rank, team.size);
    llvm::errs() << line + "\n"; // one write (see the report below)
  }
  if (reportLatency) {
    auto ms = [](auto d) {
      return std::chrono::duration<double, std::milli>(d).count();
    };
    // One write of the whole report: stderr is unbuffered, and the lines of
    // a team's processes must not interleave mid-line.
    std::string report = llvm::formatv(
        "compile: {0:f2} ms ({1}), first call: {2:f2} ms\n",
        ms(compiled - start),
        (*module)->codeSource() == CodeSource::DiskCache ? "disk cache"
                                                         : "compiled",
        ms(called - compiled));
    if (team.size > 1)
      report += llvm::formatv(
          "rank {0} of {1}: {2} collectives, {3} bytes sent, {4:f2} ms "
          "communicating{5}{6}\n",
          team.rank, team.size, traffic.collectives, traffic.bytes,
          traffic.seconds * 1e3,
          traffic.gpuTransport.empty() ? "" : ", GPU data through ",
          traffic.gpuTransport);
    llvm::errs() << report;
  }

  // Written arguments (out=) are results too: they come back in place.
  // Written device arguments are downloaded into their host arrays first;
  // a team argument's blocks are then gathered into every process's array.
  llvm::SmallVector<Argument> hostWholeArgs = wholeArgs;
  size_t uploaded = 0;
  for (auto [i, type] : llvm::enumerate(sig->args)) {
    if (!type.isOnGPU() || !type.isTensor)
      continue;
    const runner::DeviceCopy &copy = *deviceInputs[uploaded++];
    if (!type.isWritten)
      continue;
    std::vector<std::byte> storage;
    auto host = runner::download(copy.view(), storage);
    if (!host)
      return fail(llvm::toString(host.takeError()));
    auto written = copyToHostArray(*host);
    if (!written)
      return fail(llvm::toString(written.takeError()));
    arrays[i] = std::move(*written);
    hostWholeArgs[i] = Argument::tensor(viewOf(arrays[i]));
  }
  if (llvm::Error e = team.gatherWrittenArguments(*sig, hostWholeArgs))
    return fail(llvm::toString(std::move(e)));
  // Results: device ones downloaded, team ones (this process's block)
  // gathered whole.
  llvm::SmallVector<HostArray> outputs;
  for (auto [r, type] : llvm::zip(results, sig->results)) {
    std::vector<std::byte> storage;
    jit::StridedBuffer local = r.buffer;
    if (type.isOnGPU()) {
      auto host = runner::download(r.buffer, storage);
      if (!host)
        return fail(llvm::toString(host.takeError()));
      local = *host;
    }
    auto whole = type.team ? team.gatherBlocks(local) : copyToHostArray(local);
    if (!whole)
      return fail(llvm::toString(whole.takeError()));
    outputs.push_back(std::move(*whole));
  }
  // Every process has the results; one writes them.
  if (team.rank != 0)
    return 0;
  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return fail("cannot create " + outputDir + ": " + ec.message());
    for (auto [i, a] : llvm::enumerate(outputs)) {
      llvm::SmallString<256> path(outputDir);
      llvm::sys::path::append(path, "out" + std::to_string(i) + ".npy");
      if (llvm::Error e = writeNpy(path, a))
        return fail(llvm::toString(std::move(e)));
    }
    for (auto [i, type] : llvm::enumerate(sig->args)) {
      if (!type.isWritten)
        continue;
      llvm::SmallString<256> path(outputDir);
      llvm::sys::path::append(path, "arg" + std::to_string(i) + ".npy");
      if (llvm::Error e = writeNpy(path, arrays[i]))
        return fail(llvm::toString(std::move(e)));
    }
  }
  if (print || outputDir.empty()) {
    for (auto [i, a] : llvm::enumerate(outputs)) {
      llvm::outs() << "out" << i << " (" << dtypeName(a.dtype()) << ", shape "
                   << shapeToString(a.shape()) << "):\n";
      printArray(llvm::outs(), a);
      llvm::outs() << "\n";
    }
  }
  return 0;
}

/// Run-time checks of compiled code (`cf.assert`) print their message with
/// puts() and abort(): flush it and exit with status 1 instead of a crash
/// report.
static void onAbort(int) {
  std::fflush(stdout);
  std::_Exit(1);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  std::signal(SIGABRT, onAbort);
  ::ptensor::tools::setUpCommandLine(runnerCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "ptensor-runner: JIT-execute a function of a ptensor module\n");
  return run();
}
