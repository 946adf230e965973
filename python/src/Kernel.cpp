//===- Kernel.cpp - calling a compiled function from Python ---------------===//

#include "Kernel.h"

#include "Errors.h"
#include "SharedLibraries.h"
#include "TeamCall.h"

#include "ptensor/Semantics/Overlap.h"
#include "ptensor/Semantics/Teams.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstring>
#include <memory>

namespace ptensor::python {

namespace sem = ptensor::semantics;

namespace {

DType parseParameterDType(const std::string &name, bool &isIndex) {
  isIndex = name == "index";
  if (isIndex)
    return DType::I64;
  if (std::optional<DType> d = parseDTypeName(name))
    return *d;
  throwRule(sem::ErrorKind::Value, "unknown dtype '" + name +
                                       "' in a compiled module's signature");
}

sem::TensorParameter parseTensorType(nb::handle entry) {
  nb::dict d = nb::borrow<nb::dict>(entry);
  sem::TensorParameter t;
  bool isIndex = false;
  t.dtype = parseParameterDType(nb::cast<std::string>(d["dtype"]), isIndex);
  t.shape = nb::cast<std::vector<int64_t>>(d["shape"]);
  if (d.contains("device") && !d["device"].is_none())
    t.device = nb::cast<std::string>(d["device"]);
  return t;
}

/// The team of a tensor in a signature (0: none).
int64_t teamOf(nb::dict entry) {
  return entry.contains("team") ? nb::cast<int64_t>(entry["team"]) : 0;
}

/// float -> IEEE half bits, rounding to nearest even.
uint16_t toHalfBits(double value) {
  _Float16 h = static_cast<_Float16>(value);
  uint16_t bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

/// float -> bfloat16 bits, rounding to nearest even (NaN stays NaN).
uint16_t toBFloat16Bits(double value) {
  float f = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  if (std::isnan(f))
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

std::string reprOf(nb::handle value) {
  return nb::cast<std::string>(nb::repr(value));
}

/// Stores Python scalar `value` as the C value of a scalar parameter of
/// `dtype` (f16/bf16 as their bits) in `slot`; the array API's rules for a
/// weak scalar: an integer parameter takes integral values in its range.
void convertScalar(DType dtype, bool isIndex, nb::handle value,
                   uint64_t &slot) {
  PyObject *o = value.ptr();
  slot = 0;
  const char *typeName = isIndex ? "index" : dtypeName(dtype);
  if (isFloatDType(dtype)) {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
      throw nb::python_error();
    switch (dtype) {
    case DType::F16: {
      uint16_t b = toHalfBits(v);
      std::memcpy(&slot, &b, sizeof b);
      return;
    }
    case DType::BF16: {
      uint16_t b = toBFloat16Bits(v);
      std::memcpy(&slot, &b, sizeof b);
      return;
    }
    case DType::F32: {
      float f = static_cast<float>(v);
      std::memcpy(&slot, &f, sizeof f);
      return;
    }
    default:
      std::memcpy(&slot, &v, sizeof v);
      return;
    }
  }
  if (dtype == DType::Bool) {
    int truth = PyObject_IsTrue(o);
    if (truth < 0)
      throw nb::python_error();
    slot = static_cast<uint64_t>(truth);
    return;
  }
  // Integers: a float must be integral.
  nb::object integer;
  if (PyFloat_Check(o) || (!PyLong_Check(o) && !PyIndex_Check(o))) {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
      throw nb::python_error();
    if (!std::isfinite(v) || v != std::trunc(v))
      throwRule(sem::ErrorKind::DType, "scalar " + reprOf(value) +
                                           " is not an integer (argument "
                                           "type " +
                                           typeName + ")");
    integer = nb::steal(PyLong_FromDouble(v));
  } else {
    integer = nb::steal(PyNumber_Index(o));
    if (!integer.is_valid())
      throw nb::python_error();
  }
  unsigned bits = dtypeBitWidth(dtype);
  auto overflow = [&]() -> void {
    PyErr_Clear();
    std::string message = "scalar " + reprOf(integer) +
                          " does not fit the scalar type " + typeName;
    PyErr_SetString(PyExc_OverflowError, message.c_str());
    throw nb::python_error();
  };
  if (isUnsignedIntDType(dtype)) {
    unsigned long long v = PyLong_AsUnsignedLongLong(integer.ptr());
    if (PyErr_Occurred() || (bits < 64 && v >> bits))
      overflow();
    slot = v;
    return;
  }
  long long v = PyLong_AsLongLong(integer.ptr());
  if (PyErr_Occurred())
    overflow();
  if (bits < 64) {
    long long lo = -(1LL << (bits - 1)), hi = (1LL << (bits - 1)) - 1;
    if (v < lo || v > hi)
      overflow();
  }
  int64_t s = v; // little endian: the low bytes are the narrower value
  std::memcpy(&slot, &s, sizeof s);
}

/// The memref descriptor words of a view: {allocated, aligned, offset,
/// sizes..., strides...}, allocated = aligned = the lowest address the
/// view touches (negative strides move element 0 above it).
void appendDescriptor(std::vector<int64_t> &words, char *data, size_t itemSize,
                      const int64_t *shape, const int64_t *strides,
                      size_t rank) {
  int64_t low = 0;
  bool empty = false;
  for (size_t d = 0; d < rank; ++d) {
    if (shape[d] == 0)
      empty = true;
    else if (strides[d] < 0)
      low += strides[d] * (shape[d] - 1);
  }
  if (empty)
    low = 0;
  auto base = reinterpret_cast<int64_t>(data + low * static_cast<int64_t>(itemSize));
  words.push_back(base);
  words.push_back(base);
  words.push_back(-low);
  words.insert(words.end(), shape, shape + rank);
  words.insert(words.end(), strides, strides + rank);
}

/// Storage of one call's argument words and pointers.
struct CallScratch {
  std::vector<int64_t> words;
  std::vector<size_t> start;
  std::vector<uint64_t> scalars;
  std::vector<void *> descriptorAddresses;
  std::vector<void *> pointers;
  std::vector<const ArrayView *> arrays;
};

/// The thread's CallScratch, reused from call to call (no allocation once
/// grown), or a fresh one for a call made while the thread's is in use (a
/// scalar's __float__ that calls ptensor).
class ScratchLease {
public:
  ScratchLease() {
    if (!busy()) {
      busy() = true;
      scratch_ = &shared();
      leased_ = true;
    } else {
      own_ = std::make_unique<CallScratch>();
      scratch_ = own_.get();
    }
  }
  ~ScratchLease() {
    if (leased_)
      busy() = false;
  }
  ScratchLease(const ScratchLease &) = delete;
  ScratchLease &operator=(const ScratchLease &) = delete;
  CallScratch &operator*() { return *scratch_; }

private:
  static CallScratch &shared() {
    thread_local CallScratch scratch;
    return scratch;
  }
  static bool &busy() {
    thread_local bool inUse = false;
    return inUse;
  }
  CallScratch *scratch_;
  std::unique_ptr<CallScratch> own_;
  bool leased_ = false;
};

} // namespace

void checkWrittenOperands(const std::vector<CallOperand> &operands,
                          const std::vector<size_t> &written,
                          const char *what) {
  if (written.empty())
    return;
  std::vector<sem::MemoryView> views;
  for (const CallOperand &op : operands) {
    sem::MemoryView view;
    view.isScalar = !op.array;
    if (!view.isScalar) {
      view.address = reinterpret_cast<uintptr_t>(op.data);
      view.itemSize = static_cast<unsigned>(dtypeByteSize(op.array->dtype));
      view.sizes.assign(op.shape, op.shape + op.rank);
      view.strides.assign(op.strides, op.strides + op.rank);
      view.device = op.array->deviceName();
    }
    views.push_back(std::move(view));
  }
  if (std::optional<sem::Error> error =
          sem::checkWrittenOverlap(views, written, what))
    throw RuleError{*error};
}

ResultFramework
getResultFramework(const std::vector<const ArrayView *> &tensors) {
  const ArrayView *lead = tensors.empty() ? nullptr : tensors.front();
  for (const ArrayView *t : tensors)
    if (t->isPTensorArray) {
      lead = t;
      break;
    }
  if (!lead)
    return {};
  Framework framework = lead->framework;
  if (framework == Framework::DLPack && !lead->onGPU())
    framework = Framework::NumPy;
  return {framework, lead->isPTensorArray};
}

Kernel::Kernel(uint64_t entry, std::string name, nb::list args,
               nb::list results, bool cuda, nb::object library,
               int64_t teamSize)
    : entry_(reinterpret_cast<PackedEntry>(static_cast<uintptr_t>(entry))),
      name_(std::move(name)), cuda_(cuda), library_(std::move(library)) {
  // A team tensor on a GPU: TeamCall splits and gathers in host memory (as
  // the JIT's whole-tensor door, which refuses the same).
  bool takesGPUTeam = false;
  auto noteGPUTeam = [&](const semantics::TensorParameter &t, int64_t team) {
    takesGPUTeam |= team != 0 && semantics::isGPUDevice(t.device);
  };
  for (nb::handle a : args) {
    nb::dict d = nb::borrow<nb::dict>(a);
    Parameter p;
    p.isTensor = nb::cast<std::string>(d["kind"]) == "tensor";
    p.team = teamOf(d);
    if (p.isTensor) {
      p.tensor = parseTensorType(a);
      p.dtype = p.tensor.dtype;
      noteGPUTeam(p.tensor, p.team);
    } else {
      p.dtype =
          parseParameterDType(nb::cast<std::string>(d["dtype"]), p.isIndex);
    }
    p.isWritten = d.contains("written") && nb::cast<bool>(d["written"]);
    params_.push_back(std::move(p));
  }
  for (nb::handle r : results) {
    int64_t team = teamOf(nb::borrow<nb::dict>(r));
    results_.push_back(parseTensorType(r));
    splitResults_.push_back(team != 0 && !results_.back().shape.empty());
    noteGPUTeam(results_.back(), team);
  }
  // The runtime the library loaded (none when its code calls none),
  // through the library's own handle: dlopen's RTLD_NOLOAD of the bare
  // soname searched the file system whenever no runtime was loaded.
  void *(*hostAlloc)(size_t) = nullptr; // a team call's results' allocator
  if (LibraryReference library =
          libraryContaining(reinterpret_cast<void *>(entry_))) {
    callChecked_ = reinterpret_cast<decltype(callChecked_)>(
        library.symbol("ptensor_rt_call_checked"));
    lastError_ = reinterpret_cast<decltype(lastError_)>(
        library.symbol("ptensor_rt_last_error"));
    if (!callChecked_ || !lastError_)
      callChecked_ = nullptr;
    if (auto hostFree = reinterpret_cast<void (*)(void *)>(
            library.symbol("ptensor_rt_host_free")))
      setHostFree(hostFree);
    hostAlloc = reinterpret_cast<void *(*)(size_t)>(
        library.symbol("ptensor_rt_host_alloc"));
  }
  if (teamSize > 1) {
    if (takesGPUTeam)
      raisePackageError("RuntimeUnavailableError",
                        semantics::wholeGPUTeamTensorsRefusal(
                            name_, "run it with ptensor-runner"));
    team_ = std::make_shared<TeamCall>(teamSize, hostAlloc);
  }
}

/// Raises the package's exception for a compiled call that failed with
/// `status` (ptensor_rt_call_checked): BroadcastError for a run-time
/// broadcast, CheckError for a failed check or an invalid value (a negative
/// size), OutOfMemoryError, RuntimeUnavailableError for a missing driver,
/// ExecutionError for other GPU failures (ptensor/_errors.py).
[[noreturn]] static void raiseCallError(ptensor_rt_status status,
                                        const std::string &message) {
  if (status == PTENSOR_RT_ERROR_BROADCAST)
    throwRule(semantics::ErrorKind::Broadcast, message);
  const char *cls = status == PTENSOR_RT_ERROR_CHECK_FAILED ||
                            status == PTENSOR_RT_ERROR_INVALID_ARGUMENT
                        ? "CheckError"
                    : status == PTENSOR_RT_ERROR_OUT_OF_MEMORY ? "OutOfMemoryError"
                    : status == PTENSOR_RT_ERROR_NO_DRIVER
                        ? "RuntimeUnavailableError"
                        : "ExecutionError";
  raisePackageError(cls, message);
}

std::vector<ResultBuffer>
Kernel::invoke(const std::vector<CallOperand> &operands) {
  // Words: the results' descriptors first (written by the callee), then one
  // descriptor per tensor operand; scalars get one word each.
  ScratchLease lease;
  CallScratch &scratch = *lease;
  std::vector<int64_t> &words = scratch.words;
  size_t resultWords = 0, numWords = 0;
  for (const sem::TensorParameter &r : results_)
    resultWords += 3 + 2 * r.shape.size();
  numWords = resultWords;
  for (const CallOperand &op : operands)
    numWords += op.array ? 3 + 2 * op.rank : 0;
  words.clear();
  words.reserve(numWords); // one allocation per thread, not one per append
  words.resize(resultWords);
  std::vector<size_t> &start = scratch.start;
  start.assign(operands.size(), 0);
  std::vector<uint64_t> &scalars = scratch.scalars;
  scalars.assign(operands.size(), 0);
  for (size_t i = 0; i < operands.size(); ++i) {
    const CallOperand &op = operands[i];
    const Parameter &p = params_[i];
    start[i] = words.size();
    if (p.isTensor)
      appendDescriptor(words, op.data, dtypeByteSize(p.dtype), op.shape,
                       op.strides, op.rank);
    else
      convertScalar(p.dtype, p.isIndex, op.scalar, scalars[i]);
  }
  std::vector<void *> &pointers = scratch.pointers;
  pointers.clear();
  void *resultAddress = words.data();
  if (!results_.empty())
    pointers.push_back(&resultAddress);
  std::vector<void *> &descriptorAddresses = scratch.descriptorAddresses;
  descriptorAddresses.assign(operands.size(), nullptr);
  for (size_t i = 0; i < operands.size(); ++i) {
    if (params_[i].isTensor) {
      descriptorAddresses[i] = words.data() + start[i];
      pointers.push_back(&descriptorAddresses[i]);
    } else {
      pointers.push_back(&scalars[i]);
    }
  }
  // The GPU of the call: its first GPU operand's (GPU 0 without one).
  int gpu = 0;
  for (const CallOperand &op : operands)
    if (op.array && op.array->onGPU()) {
      gpu = op.array->device;
      break;
    }
  if (cuda_) {
    std::vector<const ArrayView *> &arrays = scratch.arrays;
    arrays.clear();
    for (const CallOperand &op : operands)
      if (op.array)
        arrays.push_back(op.array);
    synchronizeInputs(arrays);
    setDefaultDevice(gpu);
  }
  ptensor_rt_status status = PTENSOR_RT_SUCCESS;
  {
    nb::gil_scoped_release release;
    if (callChecked_)
      status = callChecked_(entry_, pointers.data());
    else
      entry_(pointers.data());
  }
  if (status != PTENSOR_RT_SUCCESS)
    raiseCallError(status, "@" + name_ + ": " + lastError_());

  std::vector<ResultBuffer> out;
  out.reserve(results_.size());
  size_t k = 0;
  for (const sem::TensorParameter &r : results_) {
    size_t rank = r.shape.size();
    ResultBuffer b;
    int64_t allocated = words[k];
    b.allocated = reinterpret_cast<void *>(allocated);
    int64_t offset = words[k + 2];
    b.shape.assign(words.begin() + k + 3, words.begin() + k + 3 + rank);
    b.strides.assign(words.begin() + k + 3 + rank,
                     words.begin() + k + 3 + 2 * rank);
    b.dtype = r.dtype;
    b.data = reinterpret_cast<char *>(words[k + 1]);
    if (b.data)
      b.data += offset * static_cast<int64_t>(dtypeByteSize(r.dtype));
    b.device = r.device.empty() ? -1 : gpu;
    k += 3 + 2 * rank;
    // A view of an operand's memory, or of an earlier result's, is not
    // freed by the result.
    b.owns = allocated != 0;
    for (const ResultBuffer &earlier : out)
      if (reinterpret_cast<int64_t>(earlier.allocated) == allocated)
        b.owns = false;
    for (size_t i = 0; i < operands.size() && b.owns; ++i)
      if (params_[i].isTensor &&
          words[start[i]] == allocated) {
        b.owns = false;
        b.viewOf = operands[i].array ? operands[i].array->owner : nb::object();
      }
    out.push_back(std::move(b));
  }
  return out;
}

nb::object Kernel::call(nb::args args) {
  // Messages are built only on errors (this is every call's path).
  auto prefix = [&] { return "@" + name_ + ": "; };
  auto which = [&](size_t i) {
    return prefix() + "argument #" + std::to_string(i);
  };
  if (args.size() != params_.size())
    throw nb::type_error((prefix() + "expected " +
                          std::to_string(params_.size()) + " arguments, got " +
                          std::to_string(args.size()))
                             .c_str());
  std::vector<ArrayView> arrays(params_.size());
  std::vector<CallOperand> operands(params_.size());
  // The sizes of this process's blocks of team arguments (split calls).
  std::vector<std::vector<int64_t>> blockShapes(team_ ? params_.size() : 0);
  std::vector<const ArrayView *> tensors;
  std::vector<size_t> written;
  for (size_t i = 0; i < params_.size(); ++i) {
    nb::handle x = args[i];
    if (!params_[i].isTensor) {
      if (!isScalar(x))
        throw nb::type_error((which(i) + ": expected a scalar, got " +
                              nb::cast<std::string>(nb::type_name(x.type())))
                                 .c_str());
      operands[i].scalar = x;
      continue;
    }
    if (isScalar(x))
      throw nb::type_error(
          (which(i) + ": expected a tensor, got a scalar").c_str());
    arrays[i] = importArray(x);
    const ArrayView &a = arrays[i];
    if (std::optional<sem::Error> error = sem::checkTensorArgument(
            params_[i].tensor, {a.dtype, a.shape, a.deviceName()}))
      throwRule(error->kind, which(i) + ": " + error->message);
    operands[i] = CallOperand::tensor(&a, a.data, a.shape, a.strides);
    // A split call gets this process's block (a written one is gathered
    // back after the call).
    if (team_ && params_[i].team && !a.shape.empty())
      operands[i] = team_->block(operands[i], dtypeByteSize(a.dtype),
                                 blockShapes[i]);
    tensors.push_back(&a);
    if (params_[i].isWritten)
      written.push_back(i);
  }
  checkWrittenOperands(operands, written, "argument");

  std::vector<ResultBuffer> results;
  if (!team_) {
    results = invoke(operands);
  } else {
    try {
      results = invoke(operands);
    } catch (const nb::python_error &e) { // a check failed on this block
      team_->abortJob(e.what());
    }
    team_->gather(results, splitResults_);
    for (size_t i : written)
      if (params_[i].team && !arrays[i].shape.empty())
        team_->gatherWritten(arrays[i], results);
  }
  ResultFramework kind = getResultFramework(tensors);
  if (results.empty())
    return nb::none();
  if (results.size() == 1)
    return exportArray(results[0], kind.framework, kind.wrap);
  nb::list out;
  for (ResultBuffer &r : results)
    out.append(exportArray(r, kind.framework, kind.wrap));
  return nb::tuple(out);
}

} // namespace ptensor::python
