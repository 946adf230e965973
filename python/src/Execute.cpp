//===- Execute.cpp - one elementwise call, from Python arrays to results --===//
//
// TensorIterator's meta step in C++ on every call: operands are read from
// the caller's arrays, broadcast as zero strides, the dimensions ordered
// and coalesced (Iteration.h) so that kernels are compiled per coalesced
// rank, not per shape; the kernel of (rank, device, operand dtypes, result
// dtypes, out= dtypes) is found in a per-op table and called; results come
// back in the broadcast shape (their strides follow the dimension order the
// kernel used: no copies). Only a miss in the table goes back to Python,
// which generates the kernel's IR and compiles it.
//
//===----------------------------------------------------------------------===//

#include "Errors.h"
#include "Kernel.h"

#include "ptensor/Conversion/LinalgToGPU/KernelConfig.h"
#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/Iteration.h"
#include "ptensor/Semantics/Layout.h"
#include "ptensor/Semantics/OpKinds.h"
#include "ptensor/TeamHost/TeamLibrary.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <memory>
#include <optional>
#include <unordered_map>

namespace ptensor::python {

namespace sem = ptensor::semantics;

namespace {

/// The weak dtype of a Python scalar: bool -> i1, integers -> i64, floats
/// -> f64 (the weak rule looks only at the kind).
DType weakDType(nb::handle x) {
  PyObject *o = x.ptr();
  if (PyBool_Check(o))
    return DType::Bool;
  if (PyLong_Check(o))
    return DType::I64;
  if (PyFloat_Check(o))
    return DType::F64;
  // numpy scalars
  std::string kind = nb::cast<std::string>(nb::borrow(x).attr("dtype").attr("kind"));
  if (kind == "b")
    return DType::Bool;
  if (kind == "i" || kind == "u")
    return DType::I64;
  if (kind == "f")
    return DType::F64;
  throwRule(sem::ErrorKind::DType,
            "unsupported scalar " + nb::cast<std::string>(nb::repr(x)) +
                " (expected bool, int or float)");
}

/// One operand of an elementwise call.
struct Operand {
  nb::handle object;
  bool isTensor = false;
  DType dtype = DType::F32; ///< a tensor's dtype, a scalar's weak or given type
  ArrayView array;
};

/// Within ptensor.compile_only(): calls compile (or load) their kernels
/// and run nothing; operands may describe arrays that do not exist here.
thread_local bool compileOnly = false;

/// Appends "t:f32," / "s:i64," per operand.
std::string specKey(const std::vector<Operand> &operands) {
  std::string key;
  for (const Operand &op : operands) {
    key += op.isTensor ? "t:" : "s:";
    key += dtypeName(op.dtype);
    key += ',';
  }
  return key;
}

/// Whether an input with task-space sizes `shape` (see operandTaskShapes)
/// is broadcast along task dim `d`: compiled with a static 1 there.
bool isBroadcastDim(const std::vector<int64_t> &shape,
                    const std::vector<int64_t> &taskShape, size_t d) {
  return shape[d] == 1 && taskShape[d] != 1;
}

/// The options of ptensor-to-nvvm-pipeline a call's kernel is compiled
/// with: `strided-paths=0` where the call is on a GPU, writes new results
/// and reads every input row-major contiguous in the task space (after
/// coalescing: one dimension of stride 1), so that two kernels are compiled
/// instead of up to six (KernelOptions.def). A later strided call has a
/// key of its own and compiles every path.
std::string
gpuPipelineOptions(const std::string &deviceName, bool anyOut,
                   const std::vector<int64_t> &taskShape,
                   const std::vector<std::vector<int64_t>> &taskStrides) {
  if (deviceName.empty() || anyOut)
    return "";
  for (const std::vector<int64_t> &strides : taskStrides)
    if (!sem::isRowMajor(taskShape.data(), strides.data(), taskShape.size()))
      return "";
  using mlir::ptensor::KernelOption;
  unsigned paths = static_cast<unsigned>(KernelOption::stridedPaths);
  return std::string(mlir::ptensor::kernelOptions()[paths].flag) + "=0";
}

/// Per operand ("t" or "s", dtype name, sizes): a tensor's sizes in the
/// task space ("?" or 1 each, see operandTaskShapes), () for a scalar.
nb::list specList(const std::vector<Operand> &operands,
                  const std::vector<std::vector<int64_t>> &taskShapes,
                  const std::vector<int64_t> &taskShape) {
  nb::list specs;
  size_t t = 0;
  for (const Operand &op : operands) {
    nb::list dims;
    if (op.isTensor) {
      const std::vector<int64_t> &shape = taskShapes[t++];
      for (size_t d = 0; d < shape.size(); ++d)
        if (isBroadcastDim(shape, taskShape, d))
          dims.append(1);
        else
          dims.append("?");
    }
    specs.append(nb::make_tuple(op.isTensor ? "t" : "s", dtypeName(op.dtype),
                                nb::tuple(dims)));
  }
  return specs;
}

/// Each tensor input's sizes in the task space: the task's, with 1 where the
/// input is broadcast (a zero stride along more than one element) and
/// another input is not. Host kernels are compiled for these shapes: a
/// static `1` is a broadcast the CPU pipeline sees at compile time (the
/// operand then reads no memory along that loop, and `m * v` of a matrix and
/// a row runs rows of unit-stride, vectorized columns; with `?` dims the
/// zero stride is known only at run time and the loop nest stays strided).
/// GPU kernels keep the task's sizes for every input.
std::vector<std::vector<int64_t>>
operandTaskShapes(const std::vector<int64_t> &taskShape,
                  const std::vector<std::vector<int64_t>> &taskStrides,
                  bool host) {
  std::vector<std::vector<int64_t>> shapes(taskStrides.size(), taskShape);
  if (!host)
    return shapes;
  for (size_t d = 0; d < taskShape.size(); ++d) {
    if (taskShape[d] <= 1)
      continue;
    bool someReads = false;
    for (const std::vector<int64_t> &strides : taskStrides)
      someReads |= strides[d] != 0;
    if (!someReads)
      continue; // every input broadcast: the task's size stays
    for (size_t i = 0; i < taskStrides.size(); ++i)
      if (taskStrides[i][d] == 0)
        shapes[i][d] = 1;
  }
  return shapes;
}

/// A tensor's strides in the broadcast shape (0 where broadcast).
std::vector<int64_t> expandedStrides(const ArrayView &a,
                                     const std::vector<int64_t> &shape) {
  size_t rank = shape.size(), pad = rank - a.shape.size();
  std::vector<int64_t> out(rank, 0);
  for (size_t d = pad; d < rank; ++d)
    out[d] = a.shape[d - pad] == 1 ? 0 : a.strides[d - pad];
  return out;
}

/// How a call maps onto a kernel: the task shape and, per kernel
/// dimension, the broadcast dimensions it merges.
struct Plan {
  std::vector<int64_t> shape; ///< broadcast shape
  std::vector<int64_t> taskShape;
  std::vector<std::vector<size_t>> groups;
  bool empty = false;

  Plan() = default;
  Plan(std::vector<int64_t> broadcast,
       const std::vector<std::vector<int64_t>> &strides, bool coalesce)
      : shape(std::move(broadcast)) {
    size_t rank = shape.size();
    if (!coalesce) {
      for (size_t d = 0; d < rank; ++d)
        groups.push_back({d});
      taskShape = shape;
      return;
    }
    for (int64_t s : shape)
      empty |= s == 0;
    if (empty) {
      taskShape = {0};
      return;
    }
    std::vector<size_t> order = sem::orderDimensions(shape, strides);
    groups = sem::coalesceDimensions(shape, strides, order);
    for (const std::vector<size_t> &g : groups) {
      int64_t n = 1;
      for (size_t d : g)
        n *= shape[d];
      taskShape.push_back(n);
    }
    if (groups.empty()) // rank 0, or only size-1 dims: one element
      taskShape = {1};
  }

  /// An operand's strides in the task space.
  std::vector<int64_t> taskStrides(const std::vector<int64_t> &strides) const {
    if (empty)
      return {1};
    if (groups.empty())
      return std::vector<int64_t>(taskShape.size(), 0);
    std::vector<int64_t> out;
    for (const std::vector<size_t> &g : groups)
      out.push_back(strides[g.back()]);
    return out;
  }

  /// A task-space result as a view of the broadcast shape: each group's
  /// dimensions are contiguous inside the kernel dimension they merged.
  void restore(ResultBuffer &r) const {
    std::vector<int64_t> strides(shape.size(), 0);
    if (!empty)
      for (size_t k = 0; k < groups.size(); ++k) {
        int64_t inner = r.strides[k];
        for (auto it = groups[k].rbegin(); it != groups[k].rend(); ++it) {
          strides[*it] = inner;
          inner *= shape[*it];
        }
      }
    r.shape = shape;
    r.strides = std::move(strides);
  }
};

/// What a call derives from its operands' dtypes, shapes, strides and
/// placement before it runs: reused by the next call with the same
/// signature, which then skips placement, broadcasting, dimension
/// coalescing and the kernel lookup.
struct CallPlan {
  nb::object kernel; ///< a Kernel
  Plan plan;
  std::vector<std::vector<int64_t>> taskStrides; ///< per tensor operand
  std::vector<std::vector<int64_t>> taskShapes;  ///< per tensor operand
  ResultFramework result;
};

/// Compiled kernels of one op, by the key of a call, and the plans of its
/// last few call signatures (calls without out=).
struct KernelTable {
  /// Shared with the calls using it: another thread may replace the memo
  /// while a call runs with the GIL released.
  struct Memo {
    std::vector<int64_t> signature;
    std::shared_ptr<const CallPlan> plan;
  };
  static constexpr size_t kMemos = 4;

  std::unordered_map<std::string, nb::object> kernels;
  std::array<std::optional<Memo>, kMemos> memos;
  size_t nextMemo = 0; ///< replaced next (round robin)

  std::shared_ptr<const CallPlan>
  find(const std::vector<int64_t> &signature) const {
    for (const std::optional<Memo> &m : memos)
      if (m && m->signature == signature)
        return m->plan;
    return nullptr;
  }
  std::shared_ptr<const CallPlan> remember(std::vector<int64_t> signature,
                                           CallPlan plan) {
    std::optional<Memo> &m = memos[nextMemo];
    nextMemo = (nextMemo + 1) % kMemos;
    m = Memo{std::move(signature),
             std::make_shared<const CallPlan>(std::move(plan))};
    return m->plan;
  }
  void clear() {
    kernels.clear();
    for (std::optional<Memo> &m : memos)
      m.reset();
  }
};

/// Everything a call's plan depends on: per operand tensor-or-scalar and
/// dtype, and for tensors the device, framework, rank, sizes and strides;
/// then the result dtypes and whether dimensions are coalesced.
void callSignature(const std::vector<Operand> &operands,
                   const std::vector<DType> &resultDTypes, bool coalesce,
                   std::vector<int64_t> &signature) {
  signature.clear();
  for (const Operand &op : operands) {
    signature.push_back(op.isTensor);
    signature.push_back(static_cast<int64_t>(op.dtype));
    if (!op.isTensor)
      continue;
    const ArrayView &a = op.array;
    signature.push_back(a.device);
    signature.push_back(static_cast<int64_t>(a.framework));
    signature.push_back(a.isPTensorArray);
    signature.push_back(static_cast<int64_t>(a.shape.size()));
    signature.insert(signature.end(), a.shape.begin(), a.shape.end());
    signature.insert(signature.end(), a.strides.begin(), a.strides.end());
  }
  signature.push_back(-1);
  for (DType d : resultDTypes)
    signature.push_back(static_cast<int64_t>(d));
  signature.push_back(coalesce);
}

/// The kernel call's operands for `operands`, in order: the i-th tensor
/// with `taskShapes[i]` and `taskStrides[i]` (which the call points into),
/// scalars as they are.
std::vector<CallOperand>
callOperands(std::vector<Operand> &operands,
             const std::vector<std::vector<int64_t>> &taskShapes,
             const std::vector<std::vector<int64_t>> &taskStrides) {
  std::vector<CallOperand> call;
  call.reserve(operands.size());
  size_t t = 0;
  for (Operand &op : operands) {
    if (op.isTensor) {
      call.push_back(CallOperand::tensor(&op.array, op.array.data,
                                         taskShapes[t], taskStrides[t]));
      ++t;
    } else {
      CallOperand c;
      c.scalar = op.object;
      call.push_back(c);
    }
  }
  return call;
}

/// Whether `outs` (None, or per result an array or None) gives an array to
/// write one of the first `numResults` results into.
bool givesOutArray(nb::handle outs, size_t numResults) {
  if (outs.is_none())
    return false;
  size_t i = 0;
  for (nb::handle o : outs)
    if (i++ < numResults && !o.is_none())
      return true;
  return false;
}

/// Runs `p` on `operands` (whose signature made `p`) and returns the
/// results as new arrays.
nb::object runPlan(const CallPlan &p, std::vector<Operand> &operands,
                   size_t numResults) {
  std::vector<CallOperand> call =
      callOperands(operands, p.taskShapes, p.taskStrides);
  Kernel &kernel = nb::cast<Kernel &>(p.kernel);
  std::vector<ResultBuffer> results = kernel.invoke(call);
  if (numResults == 1) {
    p.plan.restore(results[0]);
    return exportArray(results[0], p.result.framework, p.result.wrap);
  }
  nb::list out;
  for (ResultBuffer &r : results) {
    p.plan.restore(r);
    out.append(exportArray(r, p.result.framework, p.result.wrap));
  }
  return nb::tuple(out);
}

std::vector<sem::Placement> placements(const std::vector<const ArrayView *> &arrays) {
  std::vector<sem::Placement> out;
  for (const ArrayView *a : arrays)
    out.push_back({a->onGPU() ? std::optional(a->deviceName()) : std::nullopt,
                   std::nullopt});
  return out;
}

/// Runs one elementwise call (see the file comment). `outs`: per result,
/// an array to write into or None. `build(rank, device, specs,
/// result_dtypes, out_dtypes, gpu_options)` returns the Kernel for a key
/// not in `table` (None when it is compiled but not loaded: CUDA kernels in
/// compile-only mode).
nb::object execute(KernelTable &table, std::vector<Operand> &operands,
                   const std::vector<DType> &resultDTypes, nb::handle outs,
                   nb::handle build, bool coalesce) {
  size_t numResults = resultDTypes.size();
  // New results only: out= operands are checked (shapes, casts, overlap) on
  // every call.
  bool memoize = !givesOutArray(outs, numResults) && !compileOnly;
  std::vector<int64_t> signature;
  if (memoize) {
    callSignature(operands, resultDTypes, coalesce, signature);
    if (std::shared_ptr<const CallPlan> p = table.find(signature))
      return runPlan(*p, operands, numResults);
  }
  std::vector<const ArrayView *> tensors;
  for (Operand &op : operands)
    if (op.isTensor)
      tensors.push_back(&op.array);
  std::vector<nb::object> outObjects(numResults);
  std::vector<ArrayView> outArrays(numResults);
  bool anyOut = false;
  if (!outs.is_none()) {
    size_t i = 0;
    for (nb::handle o : outs) {
      if (i < numResults && !o.is_none()) {
        outObjects[i] = nb::borrow(o);
        outArrays[i] = importArray(o);
        anyOut = true;
      }
      ++i;
    }
  }
  std::vector<const ArrayView *> placed = tensors;
  for (size_t i = 0; i < numResults; ++i)
    if (outObjects[i].is_valid())
      placed.push_back(&outArrays[i]);
  std::optional<std::string> device =
      unwrap(sem::commonPlacement(placements(placed))).device;
  std::string deviceName = device.value_or("");
  auto [framework, wrap] = getResultFramework(tensors);

  std::vector<sem::Shape> shapes;
  for (const ArrayView *t : tensors)
    shapes.push_back(t->shape);
  sem::Shape shape = unwrap(sem::broadcastShapes(shapes));

  if (anyOut) {
    for (size_t i = 0; i < numResults; ++i) {
      if (!outObjects[i].is_valid()) { // some outputs given: allocate the rest
        outObjects[i] = emptyArray(framework, shape, resultDTypes[i], deviceName);
        outArrays[i] = importArray(outObjects[i]);
      }
      const ArrayView &o = outArrays[i];
      std::string which = "out= operand #" + std::to_string(i);
      if (o.shape != shape)
        throwRule(sem::ErrorKind::Broadcast,
                  which + " has shape " + sem::formatShape(o.shape) +
                      ", but the broadcast shape of the inputs is " +
                      sem::formatShape(shape));
      if (!sem::canCastToOut(resultDTypes[i], o.dtype))
        throwRule(sem::ErrorKind::DType,
                  std::string("result dtype ") + dtypeName(resultDTypes[i]) +
                      " can't be cast to the dtype " + dtypeName(o.dtype) +
                      " of " + which);
      if (o.readOnly)
        throw nb::value_error((which + " is a read-only array").c_str());
    }
  }

  std::vector<std::vector<int64_t>> inStrides, allStrides;
  for (const ArrayView *t : tensors)
    inStrides.push_back(expandedStrides(*t, shape));
  if (anyOut)
    for (const ArrayView &o : outArrays)
      allStrides.push_back(o.strides);
  allStrides.insert(allStrides.end(), inStrides.begin(), inStrides.end());
  Plan plan(shape, allStrides, coalesce);
  // The sizes and strides each input is passed with (the call points into
  // them).
  std::vector<std::vector<int64_t>> taskStrides;
  for (const std::vector<int64_t> &strides : inStrides)
    taskStrides.push_back(plan.taskStrides(strides));
  std::vector<std::vector<int64_t>> taskShapes =
      operandTaskShapes(plan.taskShape, taskStrides, deviceName.empty());

  std::string key = std::to_string(plan.taskShape.size()) + "|" + deviceName +
                    "|" + specKey(operands) + "|";
  for (const std::vector<int64_t> &inputShape : taskShapes)
    for (size_t d = 0; d < inputShape.size(); ++d)
      key += isBroadcastDim(inputShape, plan.taskShape, d) ? '1' : '?';
  key += "|";
  for (DType d : resultDTypes)
    key += std::string(dtypeName(d)) + ",";
  key += "|";
  if (anyOut)
    for (const ArrayView &o : outArrays)
      key += std::string(dtypeName(o.dtype)) + ",";
  else
    key += "-";
  std::string gpuOptions =
      gpuPipelineOptions(deviceName, anyOut, plan.taskShape, taskStrides);
  key += "|" + gpuOptions;
  auto it = compileOnly ? table.kernels.end() : table.kernels.find(key);
  if (it == table.kernels.end()) {
    nb::object outDTypes = nb::none();
    if (anyOut) {
      nb::list l;
      for (const ArrayView &o : outArrays)
        l.append(dtypeName(o.dtype));
      outDTypes = nb::tuple(l);
    }
    nb::list results;
    for (DType d : resultDTypes)
      results.append(dtypeName(d));
    nb::object kernel = nb::borrow(build)(
        plan.taskShape.size(), deviceName,
        nb::tuple(specList(operands, taskShapes, plan.taskShape)),
        nb::tuple(results), outDTypes, gpuOptions);
    if (compileOnly || kernel.is_none())
      return nb::none();
    it = table.kernels.emplace(key, kernel).first;
  }
  if (memoize) {
    CallPlan p;
    p.kernel = it->second;
    p.plan = plan;
    p.taskStrides = std::move(taskStrides);
    p.taskShapes = std::move(taskShapes);
    p.result = {framework, wrap};
    std::shared_ptr<const CallPlan> remembered =
        table.remember(std::move(signature), std::move(p));
    return runPlan(*remembered, operands, numResults);
  }
  // Held for the call: the GIL is released while it runs, and another thread
  // may clear the table.
  nb::object kernelObject = it->second;
  Kernel &kernel = nb::cast<Kernel &>(kernelObject);

  if (anyOut)
    for (const ArrayView &o : outArrays)
      taskStrides.push_back(plan.taskStrides(o.strides));
  std::vector<CallOperand> call =
      callOperands(operands, taskShapes, taskStrides);
  if (anyOut) {
    std::vector<size_t> written;
    for (size_t i = 0; i < numResults; ++i) {
      written.push_back(call.size());
      call.push_back(CallOperand::tensor(&outArrays[i], outArrays[i].data,
                                         plan.taskShape,
                                         taskStrides[tensors.size() + i]));
    }
    checkWrittenOperands(call, written, "operand");
  }
  std::vector<ResultBuffer> results = kernel.invoke(call);
  nb::list out;
  for (size_t i = 0; i < numResults; ++i) {
    if (anyOut) {
      out.append(outObjects[i]);
      continue;
    }
    plan.restore(results[i]);
    out.append(exportArray(results[i], framework, wrap));
  }
  if (numResults == 1)
    return out[0];
  return nb::tuple(out);
}

} // namespace

namespace {

/// Reads `args` as operands: arrays, and weak scalars (or scalars of the
/// type `scalarTypes[i]` gives, when it is a dtype name).
std::vector<Operand> readOperands(nb::handle args, nb::handle scalarTypes) {
  std::vector<Operand> operands;
  size_t i = 0;
  for (nb::handle x : args) {
    Operand op;
    op.object = x;
    if (isScalar(x)) {
      op.dtype = weakDType(x);
      if (scalarTypes.is_valid() && !scalarTypes.is_none()) {
        nb::handle given = scalarTypes[i];
        if (!given.is_none())
          op.dtype = parseDType(nb::cast<std::string>(given),
                                /*allowIndex=*/true);
      }
    } else {
      op.isTensor = true;
      op.array = importArray(x);
      op.dtype = op.array.dtype;
    }
    operands.push_back(std::move(op));
    ++i;
  }
  return operands;
}

std::vector<sem::PromotionOperand>
promotionOperands(const std::vector<Operand> &operands) {
  std::vector<sem::PromotionOperand> out;
  for (const Operand &op : operands)
    out.push_back({op.dtype, !op.isTensor});
  return out;
}

/// A Python-facing elementwise op (`ptensor.add`, `ptensor.where`,
/// `ptensor.astype`): the result dtype from the semantics library, then
/// execute with this op's kernel table.
class ElementwiseOp {
public:
  ElementwiseOp(const std::string &op, const std::string &kind,
                nb::object build, std::string scalarMessage)
      : op_(op), build_(std::move(build)),
        scalarMessage_(std::move(scalarMessage)) {
    if (op == "where") {
      arity_ = 3;
    } else if (op == "cast") {
      arity_ = 1;
    } else {
      row_ = unwrap(sem::lookupOpKind(unwrap(sem::parseOpClass(op)), kind));
      arity_ = sem::opClassArity(row_->opClass);
    }
  }

  nb::object call(nb::tuple args, nb::handle out, nb::handle dtype) {
    if (args.size() != arity_)
      throw nb::type_error(("expected " + std::to_string(arity_) +
                            " operands, got " + std::to_string(args.size()))
                               .c_str());
    if (!scalarMessage_.empty() && isScalar(args[0]))
      throw nb::type_error(scalarMessage_.c_str());
    std::vector<Operand> operands = readOperands(args, nb::handle());
    DType result;
    if (op_ == "where")
      result = unwrap(sem::inferWhereDType(promotionOperands(operands)));
    else if (op_ == "cast")
      result = parseDType(nb::cast<std::string>(dtype));
    else
      result = unwrap(
          sem::inferElementwiseDType(*row_, promotionOperands(operands)));
    nb::object outs = nb::none();
    if (!out.is_none())
      outs = nb::make_tuple(out);
    return execute(table_, operands, {result}, outs, build_, true);
  }

  /// Forgets the compiled kernels (e.g. after the cache directory changed).
  void clear() { table_.clear(); }

private:
  std::string op_;
  std::optional<sem::OpKind> row_;
  size_t arity_ = 0;
  nb::object build_;
  std::string scalarMessage_;
  KernelTable table_;
};

/// The kernel table of a Python caller of `execute` (pointwise functions).
struct KernelCache {
  KernelTable table;
};

} // namespace

void registerKernels(nb::module_ &m) {
  m.def(
      "team_join",
      [] {
        team::Membership membership = team::joinTeam();
        if (!membership.error.empty())
          raisePackageError("RuntimeUnavailableError", membership.error);
        return std::make_pair(membership.rank, membership.size);
      },
      "Joins the MPI job this process runs in through libptensor_team "
      "(docs/Teams.md); (rank, size), (0, 1) without MPI. Raises "
      "RuntimeUnavailableError when MPI cannot start.");
  nb::class_<Kernel>(m, "Kernel",
                     "One function of a compiled library (docs/ABI.md), "
                     "called through its packed entry point.")
      .def(nb::init<uint64_t, std::string, nb::list, nb::list, bool,
                    nb::object, int64_t>(),
           nb::arg("entry"), nb::arg("name"), nb::arg("args"),
           nb::arg("results"), nb::arg("cuda"), nb::arg("library"),
           nb::arg("team_size") = 1)
      .def_prop_ro("name", &Kernel::name)
      .def("__call__", &Kernel::call,
           "Calls with arrays and scalars in signature order; returns the "
           "results (None, one array, or a tuple) as arrays of the first "
           "tensor argument's framework.");

  nb::class_<ElementwiseOp>(m, "ElementwiseOp",
                            "An elementwise op's calls: meta step, kernel "
                            "table and the call, in C++.")
      .def(nb::init<const std::string &, const std::string &, nb::object,
                    std::string>(),
           nb::arg("op"), nb::arg("kind"), nb::arg("build"),
           nb::arg("scalar_message") = "")
      .def("__call__", &ElementwiseOp::call, nb::arg("args"),
           nb::arg("out") = nb::none(), nb::arg("dtype") = nb::none())
      .def("clear", &ElementwiseOp::clear);

  nb::class_<KernelCache>(m, "KernelCache", "Kernels of one op, by call key.")
      .def(nb::init<>())
      .def("clear", [](KernelCache &c) { c.table.clear(); });

  m.def(
      "set_compile_only",
      [](bool on) {
        bool old = compileOnly;
        compileOnly = on;
        return old;
      },
      nb::arg("on"),
      "Sets this thread's compile-only mode (ptensor.compile_only); returns "
      "the previous setting.");
  m.def(
      "is_compile_only", [] { return compileOnly; },
      "Whether this thread is in compile-only mode.");
  m.def(
      "execute",
      [](KernelCache &cache, nb::sequence operands, nb::object scalarTypes,
         const std::vector<std::string> &resultDTypes, nb::object outs,
         nb::object build, bool coalesce) {
        std::vector<Operand> ops = readOperands(operands, scalarTypes);
        std::vector<DType> results;
        for (const std::string &name : resultDTypes)
          results.push_back(parseDType(name));
        return execute(cache.table, ops, results, outs, build, coalesce);
      },
      nb::arg("cache"), nb::arg("operands"), nb::arg("scalar_types"),
      nb::arg("result_dtypes"), nb::arg("outs"), nb::arg("build"),
      nb::arg("coalesce") = true,
      "One elementwise call with given result dtypes (pointwise functions): "
      "operands are arrays and scalars (of scalar_types[i] when not None).");
}

} // namespace ptensor::python
