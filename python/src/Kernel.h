//===- Kernel.h - calling a compiled function from Python -----------------===//
//
// A function of a compiled library (docs/ABI.md), called through its packed
// entry point `_ptensor_packed_NAME(void **)` with memref descriptors built
// here from array views: no ctypes, no Python-level packing.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_PYTHON_KERNEL_H
#define PTENSOR_PYTHON_KERNEL_H

#include "Interop.h"

#include "ptensor/Runtime/Status.h"
#include "ptensor/Semantics/Arguments.h"

#include <memory>

namespace ptensor::python {

/// One parameter of a compiled function.
struct Parameter {
  bool isTensor = false;
  semantics::TensorParameter tensor; ///< dtype, shape, device of a tensor
  DType dtype = DType::F32;          ///< a scalar's type
  bool isIndex = false;              ///< a scalar of type index
  bool isWritten = false;
  int64_t team = 0; ///< a tensor's team (0: none; split along dim 0)
};

/// An operand of one call: a tensor view (in the function's iteration
/// space) or a Python scalar converted to the parameter's type.
struct CallOperand {
  const ArrayView *array = nullptr; ///< null for scalars
  char *data = nullptr;
  /// The sizes and strides (in elements) passed, `rank` of each: the
  /// caller's storage, alive for the call.
  const int64_t *shape = nullptr;
  const int64_t *strides = nullptr;
  size_t rank = 0;
  nb::handle scalar;

  static CallOperand tensor(const ArrayView *array, char *data,
                            const std::vector<int64_t> &shape,
                            const std::vector<int64_t> &strides) {
    return {array, data, shape.data(), strides.data(), shape.size(), {}};
  }
};

/// Raises OverlapError when a written operand (`written`, indices into
/// `operands`) overlaps another operand in a way that changes results (the
/// semantics library's rule); `what` names operands in the message.
void checkWrittenOperands(const std::vector<CallOperand> &operands,
                          const std::vector<size_t> &written,
                          const char *what);

/// The kind of array a call's results are: the first tensor operand's
/// framework or, when any operand is a ptensor.Array, Arrays (`wrap`) over
/// the first Array's backing framework; numpy for host DLPack operands and
/// calls without tensors.
struct ResultFramework {
  Framework framework = Framework::NumPy;
  bool wrap = false;
};
ResultFramework getResultFramework(const std::vector<const ArrayView *> &tensors);

class TeamCall;

/// One compiled function.
class Kernel {
public:
  /// `teamSize`: the processes the library's team tensors are split over
  /// (its signature's "team_size"); above 1 the process joins the MPI job.
  Kernel(uint64_t entry, std::string name, nb::list args, nb::list results,
         bool cuda, nb::object library, int64_t teamSize = 1);

  const std::string &name() const { return name_; }
  const std::vector<Parameter> &parameters() const { return params_; }

  /// Calls with `operands` (checked by the caller: ranks, dtypes, devices)
  /// and returns the result buffers (ownership decided: a result whose
  /// memory is an operand's is a view of it).
  std::vector<ResultBuffer> invoke(const std::vector<CallOperand> &operands);

  /// The high-level call: arrays and scalars in signature order, checked
  /// against the signature; results as arrays of the first tensor
  /// argument's framework (None, one, or a tuple).
  nb::object call(nb::args args);

private:
  using PackedEntry = void (*)(void **);
  PackedEntry entry_;
  /// libptensor_runtime's ptensor_rt_call_checked and ptensor_rt_last_error
  /// when the runtime is loaded (code whose run-time checks can fail links
  /// it); null otherwise, and entry_ is called directly.
  ptensor_rt_status (*callChecked_)(PackedEntry, void **) = nullptr;
  const char *(*lastError_)() = nullptr;
  std::string name_;
  std::vector<Parameter> params_;
  std::vector<semantics::TensorParameter> results_;
  /// Per result: a team tensor of rank >= 1 (gathered when split).
  std::vector<bool> splitResults_;
  /// This process's place when the library is split over processes; null
  /// otherwise.
  std::shared_ptr<TeamCall> team_;
  bool cuda_;
  nb::object library_; ///< keeps the code loaded
};

/// Registers Kernel and the calls built on it (execute, ElementwiseOp).
void registerKernels(nb::module_ &m);

} // namespace ptensor::python

#endif // PTENSOR_PYTHON_KERNEL_H
