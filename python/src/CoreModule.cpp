//===- CoreModule.cpp - ptensor._core: the semantic rules for Python -------===//
//
// A nanobind binding of the semantics library: Python asks the same C++ code
// as the dialect's type inference for result dtypes, promotion,
// broadcasting and the op-kind table, and gets the same messages. A broken
// rule raises the package's exception of its category (DTypeError,
// BroadcastError, DeviceError from ptensor._errors; ValueError otherwise).
//
//===----------------------------------------------------------------------===//

#include "Cache.h"
#include "Errors.h"
#include "Interop.h"
#include "Kernel.h"
#include "SharedLibraries.h"

#include "ptensor/Conversion/LinalgToGPU/KernelConfig.h"
#include "ptensor/Semantics/Axes.h"
#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Semantics/Casting.h"
#include "ptensor/Semantics/Contraction.h"
#include "ptensor/Semantics/Indexing.h"
#include "ptensor/Semantics/Iteration.h"
#include "ptensor/Semantics/Manipulation.h"
#include "ptensor/Semantics/OpKinds.h"
#include "ptensor/Semantics/Overlap.h"
#include "ptensor/Semantics/Reductions.h"
#include "ptensor/Semantics/Searching.h"
#include "ptensor/Semantics/Sets.h"
#include "ptensor/Semantics/Sorting.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>

namespace nb = nanobind;
using namespace ptensor;
namespace sem = ptensor::semantics;
using ptensor::python::parseDType;
using ptensor::python::RuleError;
using ptensor::python::unwrap;

namespace {
/// A shape from Python (None: dynamic).
sem::Shape toShape(const std::vector<std::optional<int64_t>> &dims) {
  sem::Shape shape;
  for (const std::optional<int64_t> &d : dims)
    shape.push_back(d ? *d : sem::kDynamicSize);
  return shape;
}

/// A kernel option's name in Python: its flag with '_' for '-'.
std::string pythonOptionName(const char *flag) {
  std::string name = flag;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

/// A shape for Python (dynamic: None).
std::vector<std::optional<int64_t>> fromShape(const sem::Shape &shape) {
  std::vector<std::optional<int64_t>> dims;
  for (int64_t d : shape)
    dims.push_back(d == sem::kDynamicSize ? std::nullopt
                                          : std::optional<int64_t>(d));
  return dims;
}
} // namespace

namespace {

[[noreturn]] void throwValue(std::string message) {
  throw RuleError{{sem::ErrorKind::Value, std::move(message)}};
}

/// The magnitude of the Python int `value` (its sign in `negative`), or
/// std::nullopt where no 64-bit integer type holds it.
std::optional<uint64_t> intMagnitude(nb::handle value, bool &negative) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  negative = overflow < 0 || (overflow == 0 && v < 0);
  if (overflow == 0)
    return v < 0 ? uint64_t(-(v + 1)) + 1 : uint64_t(v);
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(value.ptr());
    if (!PyErr_Occurred())
      return uint64_t(u);
    PyErr_Clear();
  }
  return std::nullopt;
}

/// Whether `value` is a float or converts to one (__float__: numpy's
/// longdouble, a Fraction); a complex number or a string does not.
bool isFloatLike(nb::handle value) {
  if (PyFloat_Check(value.ptr()))
    return true;
  if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr()))
    return false;
  nb::object converted = nb::steal(PyNumber_Float(value.ptr()));
  if (converted.is_valid())
    return true;
  PyErr_Clear();
  return false;
}

/// Promotion operands from (dtype name, is_weak) pairs.
std::vector<sem::PromotionOperand>
toOperands(const std::vector<std::pair<std::string, bool>> &operands) {
  std::vector<sem::PromotionOperand> ops;
  for (const auto &[name, weak] : operands)
    ops.push_back({parseDType(name, /*allowIndex=*/weak), weak});
  return ops;
}

const char *kindLetter(DTypeKind kind) {
  switch (kind) {
  case DTypeKind::Bool:
    return "b";
  case DTypeKind::Signed:
    return "s";
  case DTypeKind::Unsigned:
    return "u";
  case DTypeKind::Float:
    return "f";
  }
  return "?";
}

const char *operandRuleName(sem::OperandRule rule) {
  switch (rule) {
  case sem::OperandRule::Arithmetic:
    return "arithmetic";
  case sem::OperandRule::Bitwise:
    return "bitwise";
  case sem::OperandRule::Shift:
    return "shift";
  case sem::OperandRule::Any:
    return "any";
  }
  return "?";
}

/// Every operand has one stride per dimension of `shape`.
void checkStrides(const std::vector<int64_t> &shape,
                  const std::vector<std::vector<int64_t>> &strides) {
  for (const std::vector<int64_t> &operand : strides)
    if (operand.size() != shape.size())
      throw nb::value_error("expected one stride per dimension of the shape");
}

/// Sets the Python exception of a broken rule's category.
void translate(const std::exception_ptr &p, void *) {
  try {
    std::rethrow_exception(p);
  } catch (const RuleError &e) {
    const char *cls = nullptr;
    switch (e.error.kind) {
    case sem::ErrorKind::DType:
      cls = "DTypeError";
      break;
    case sem::ErrorKind::Broadcast:
      cls = "BroadcastError";
      break;
    case sem::ErrorKind::Device:
      cls = "DeviceError";
      break;
    case sem::ErrorKind::Overlap:
      cls = "OverlapError";
      break;
    case sem::ErrorKind::Value:
      break;
    }
    PyObject *type = PyExc_ValueError;
    nb::object holder;
    if (cls) {
      try {
        holder = nb::module_::import_("ptensor._errors").attr(cls);
        type = holder.ptr();
      } catch (nb::python_error &) {
        // Without the package's classes the category's builtin base is used.
      }
    }
    PyErr_SetString(type, e.error.message.c_str());
  }
}

} // namespace

NB_MODULE(_core, m) {
  m.doc() = "ptensor's semantic rules (dtypes, promotion, broadcasting, op "
            "kinds), the C++ library the compiler uses";
  nb::register_exception_translator(translate);
  // Kernel tables hold the package's Python callbacks (builders, loaded
  // libraries) for the life of the interpreter; nanobind would report
  // them as leaks at exit.
  nb::set_leak_warnings(false);
  ptensor::python::registerInterop(m);
  ptensor::python::registerKernels(m);
  ptensor::python::registerCache(m);
  ptensor::python::registerSharedLibraries(m);

  m.def(
      "dtype_names",
      [] {
        std::vector<std::string> names;
        for (DType d : allDTypes())
          names.push_back(dtypeName(d));
        return names;
      },
      "Every dtype's name, weakest first within each kind.");
  m.def(
      "dtype_info",
      [](const std::string &name) {
        DType d = parseDType(name, /*allowIndex=*/true);
        return std::make_tuple(std::string(kindLetter(dtypeKind(d))),
                               dtypeBitWidth(d), dtypeByteSize(d));
      },
      nb::arg("dtype"),
      "(kind, bits, itemsize) of a dtype: kind 'b' (bool), 's' (signed), "
      "'u' (unsigned) or 'f' (float); 'index' is a 64-bit signed integer.");
  m.def(
      "reduction_result",
      [](const std::string &op, const std::string &kind,
         const std::string &dtype, int64_t rank,
         std::optional<std::vector<int64_t>> axes,
         std::optional<std::string> requested, double correction) {
        sem::ReductionKind row =
            unwrap(sem::lookupReductionKind(unwrap(sem::parseReductionOp(op)),
                                            kind));
        if (std::optional<sem::Error> error =
                sem::checkCorrection(row, correction))
          throw RuleError{*error};
        if (row.op == sem::ReductionOp::FindIndex)
          if (std::optional<sem::Error> error = sem::checkFindIndexAxes(axes))
            throw RuleError{*error};
        std::vector<int64_t> dims =
            unwrap(sem::normalizeReductionAxes(axes, rank));
        std::optional<DType> requestedDType;
        if (requested)
          requestedDType = parseDType(*requested);
        DType result = unwrap(sem::reductionResultDType(
            row, parseDType(dtype), requestedDType));
        return std::make_pair(std::string(dtypeName(result)), dims);
      },
      nb::arg("op"), nb::arg("kind"), nb::arg("dtype"), nb::arg("rank"),
      nb::arg("axes").none(), nb::arg("requested").none(),
      nb::arg("correction"),
      "(result dtype, reduced dims ascending) of the reduction `kind` of op "
      "'reduce', 'test' or 'find_index' on a rank-`rank` array of `dtype` "
      "over `axes` (None: all; find_index: None or one axis), with the "
      "`requested` result dtype (sum, prod) and var/std's `correction` "
      "(Reductions.h; its errors as the package's exceptions).");
  m.def(
      "contraction_result",
      [](const std::string &op, const std::vector<std::optional<int64_t>> &lhs,
         const std::string &lhsDType,
         const std::vector<std::optional<int64_t>> &rhs,
         const std::string &rhsDType, int64_t axis,
         const std::vector<int64_t> &lhsAxes,
         const std::vector<int64_t> &rhsAxes) {
        sem::Shape l = toShape(lhs), r = toShape(rhs);
        DType ld = parseDType(lhsDType), rd = parseDType(rhsDType);
        sem::Result<sem::Contraction> c =
            op == "matmul"   ? sem::matmulContraction(l, ld, r, rd)
            : op == "vecdot" ? sem::vecdotContraction(l, ld, r, rd, axis)
            : op == "tensordot"
                ? sem::tensordotContraction(l, ld, r, rd, lhsAxes, rhsAxes)
                : sem::Result<sem::Contraction>(sem::Error{
                      sem::ErrorKind::Value,
                      "unknown contraction '" + op +
                          "'; expected matmul, vecdot or tensordot"});
        const sem::Contraction &result = unwrap(std::move(c));
        return std::make_pair(std::string(dtypeName(result.dtype)),
                              fromShape(result.result));
      },
      nb::arg("op"), nb::arg("lhs_shape"), nb::arg("lhs_dtype"),
      nb::arg("rhs_shape"), nb::arg("rhs_dtype"), nb::arg("axis") = -1,
      nb::arg("lhs_axes") = std::vector<int64_t>{},
      nb::arg("rhs_axes") = std::vector<int64_t>{},
      "(result dtype, result shape) of the contraction `op` ('matmul', "
      "'vecdot' with `axis`, 'tensordot' with the axis lists) of operands "
      "of the given shapes (None: dynamic) and dtypes (Contraction.h; its "
      "errors as the package's exceptions).");
  m.def(
      "reshape_result",
      [](const std::vector<std::optional<int64_t>> &source,
         const std::vector<std::optional<int64_t>> &requested) {
        return fromShape(unwrap(
            sem::reshapeResultShape(toShape(source), toShape(requested))));
      },
      nb::arg("source"), nb::arg("shape"),
      "The shape a reshape of `source` to `shape` gives (None: dynamic; one "
      "-1 inferred), Manipulation.h; its errors as the package's "
      "exceptions.");
  m.def(
      "combine_result",
      [](const std::string &kind,
         const std::vector<std::vector<std::optional<int64_t>>> &shapes,
         const std::vector<std::string> &dtypes, int64_t axis) {
        std::vector<sem::Shape> s;
        for (const auto &shape : shapes)
          s.push_back(toShape(shape));
        std::vector<DType> d;
        for (const std::string &name : dtypes)
          d.push_back(parseDType(name));
        if (kind != "concat" && kind != "stack")
          ptensor::python::throwRule(sem::ErrorKind::Value, "unknown combine kind '" + kind +
                                               "'; expected concat or stack");
        sem::CombineKind k =
            kind == "concat" ? sem::CombineKind::Concat : sem::CombineKind::Stack;
        sem::Combination c = unwrap(sem::combineResult(k, s, d, axis));
        return std::make_tuple(std::string(dtypeName(c.dtype)),
                               fromShape(c.result), c.axis);
      },
      nb::arg("kind"), nb::arg("shapes"), nb::arg("dtypes"), nb::arg("axis"),
      "(result dtype, result shape, normalized axis) of concat or stack "
      "(Manipulation.h; its errors as the package's exceptions).");
  m.def(
      "roll_shifts",
      [](int64_t rank, const std::vector<int64_t> &shifts,
         const std::vector<int64_t> &axes) {
        return unwrap(sem::rollShifts(rank, shifts, axes));
      },
      nb::arg("rank"), nb::arg("shifts"), nb::arg("axes"),
      "The shift of each dim of a roll (Manipulation.h).");
  m.def(
      "check_triangle",
      [](const std::vector<std::optional<int64_t>> &shape) {
        if (std::optional<sem::Error> e = sem::checkTriangle(toShape(shape)))
          throw ptensor::python::RuleError{*e};
      },
      nb::arg("shape"), "Checks that tril/triu apply to `shape`.");
  m.def(
      "check_nonzero",
      [](const std::vector<std::optional<int64_t>> &shape) {
        if (std::optional<sem::Error> e = sem::checkNonzero(toShape(shape)))
          throw ptensor::python::RuleError{*e};
      },
      nb::arg("shape"), "Checks that nonzero applies to `shape` (rank >= 1).");
  m.def(
      "take_result",
      [](const std::vector<std::optional<int64_t>> &shape,
         const std::string &dtype,
         const std::vector<std::optional<int64_t>> &indices,
         const std::string &indicesDType, std::optional<int64_t> axis) {
        const sem::Take &rule =
            unwrap(sem::take({toShape(shape), parseDType(dtype)},
                             {toShape(indices), parseDType(indicesDType)},
                             axis));
        return std::make_pair(fromShape(rule.result), rule.axis);
      },
      nb::arg("shape"), nb::arg("dtype"), nb::arg("indices_shape"),
      nb::arg("indices_dtype"), nb::arg("axis").none(),
      "(result shape, axis in [0, rank)) of take of a tensor and 1-D indices "
      "of the given shapes (None: dynamic) and dtypes along `axis` (None: "
      "a 1-D tensor's only) (Indexing.h; its errors as the package's "
      "exceptions).");
  m.def(
      "searchsorted_result",
      [](const std::vector<std::optional<int64_t>> &sorted,
         const std::string &sortedDType,
         const std::vector<std::optional<int64_t>> &values,
         const std::string &valuesDType,
         const std::optional<std::vector<std::optional<int64_t>>> &sorter,
         const std::optional<std::string> &sorterDType,
         const std::string &side) {
        (void)unwrap(sem::parseSearchSide(side));
        std::optional<sem::TypedShape> sorterOperand;
        if (sorter)
          sorterOperand = sem::TypedShape{
              toShape(*sorter), parseDType(sorterDType.value_or("i64"))};
        const sem::Searchsorted &rule = unwrap(sem::searchsorted(
            {toShape(sorted), parseDType(sortedDType)},
            {toShape(values), parseDType(valuesDType)}, sorterOperand));
        return std::make_pair(std::string(dtypeName(rule.resultDType)),
                              fromShape(rule.result));
      },
      nb::arg("sorted_shape"), nb::arg("sorted_dtype"), nb::arg("values_shape"),
      nb::arg("values_dtype"), nb::arg("sorter_shape").none(),
      nb::arg("sorter_dtype").none(), nb::arg("side"),
      "(result dtype, result shape) of searchsorted of operands of the given "
      "shapes (None: dynamic) and dtypes, with a sorter or None, on `side` "
      "('left' or 'right') (Searching.h; its errors as the package's "
      "exceptions).");
  m.def(
      "searchsorted_scalar_type",
      [](const std::string &sortedDType, nb::handle value) {
        sem::SearchedScalar scalar{sem::SearchedScalar::Kind::Float};
        if (PyBool_Check(value.ptr())) {
          scalar.kind = sem::SearchedScalar::Kind::Bool;
        } else if (PyIndex_Check(value.ptr())) {
          // An int, or what has __index__ (an integral number type).
          nb::object integer = nb::steal(PyNumber_Index(value.ptr()));
          if (!integer.is_valid())
            throw nb::python_error();
          scalar.kind = sem::SearchedScalar::Kind::Int;
          scalar.magnitude = intMagnitude(integer, scalar.negative);
        } else if (!isFloatLike(value)) {
          ptensor::python::throwRule(
              sem::ErrorKind::DType,
              "searchsorted: unsupported scalar value (expected bool, int or "
              "float)");
        }
        const sem::SearchedScalarType &type =
            unwrap(sem::searchsortedScalarType(parseDType(sortedDType), scalar));
        return std::make_pair(std::string(dtypeName(type.value)),
                              std::string(dtypeName(type.argument)));
      },
      nb::arg("sorted_dtype"), nb::arg("value"),
      "(dtype, kernel argument dtype) of a Python bool, int or float searched "
      "for in a sorted tensor of `sorted_dtype` (Searching.h).");
  m.def(
      "normalize_axes",
      [](const std::vector<int64_t> &axes, int64_t rank) {
        return unwrap(sem::normalizeAxes(axes, rank));
      },
      nb::arg("axes"), nb::arg("rank"),
      "`axes` of a rank-`rank` tensor, negative ones counted from the end; "
      "errors for an axis out of range or given twice.");
  auto uniqueKind = [](const std::string &kind) {
    std::optional<sem::UniqueKind> parsed = sem::uniqueKindFromName(kind);
    if (!parsed)
      throwValue("unknown kind of unique '" + kind +
                 "' (expected all, counts, inverse or values)");
    return *parsed;
  };
  m.def(
      "unique_results",
      [uniqueKind](const std::string &kind) {
        std::vector<std::string> names;
        for (sem::UniqueResult result : sem::uniqueResults(uniqueKind(kind)))
          names.push_back(sem::uniqueResultName(result));
        return names;
      },
      nb::arg("kind"),
      "The field names of unique_<kind>'s results, in the order of "
      "ptensor.unique's results.");
  m.def(
      "unique_result_types",
      [uniqueKind](const std::string &kind,
                   const std::vector<std::optional<int64_t>> &shape,
                   const std::string &dtype) {
        sem::UniqueKind parsed = uniqueKind(kind);
        DType input = parseDType(dtype, /*allowIndex=*/false);
        sem::Shape inputShape = toShape(shape);
        std::vector<
            std::pair<std::vector<std::optional<int64_t>>, std::string>>
            types;
        for (sem::UniqueResult result : sem::uniqueResults(parsed)) {
          auto [resultShape, resultDType] =
              sem::uniqueResultType(result, inputShape, input);
          types.emplace_back(fromShape(resultShape), dtypeName(resultDType));
        }
        return types;
      },
      nb::arg("kind"), nb::arg("shape"), nb::arg("dtype"),
      "(shape, dtype) of each of unique_<kind>'s results for an input of "
      "`shape` (None: a dynamic size) and `dtype` (the dialect's types).");
  m.def(
      "sort_axis",
      [](bool indices, int64_t axis, int64_t rank) {
        auto kind = indices ? sem::SortKind::Indices : sem::SortKind::Values;
        return unwrap(sem::sortAxis(kind, axis, rank));
      },
      nb::arg("indices"), nb::arg("axis"), nb::arg("rank"),
      "The dim sort (argsort with `indices`) of a rank-`rank` tensor works "
      "along: `axis` normalized; errors for 0-d and out-of-range axes.");
  m.def(
      "tensordot_axes",
      [](int64_t n, int64_t lhsRank, int64_t rhsRank) {
        return unwrap(sem::tensordotAxes(n, lhsRank, rhsRank));
      },
      nb::arg("n"), nb::arg("lhs_rank"), nb::arg("rhs_rank"),
      "tensordot's `axes=n` as (lhs axes, rhs axes): the last n dims of the "
      "lhs with the first n of the rhs.");
  m.def(
      "promote",
      [](const std::vector<std::pair<std::string, bool>> &operands) {
        return std::string(
            dtypeName(unwrap(sem::promoteDTypes(toOperands(operands)))));
      },
      nb::arg("operands"),
      "Common dtype of (dtype, is_weak) operands; weak operands are builtin "
      "scalars. Raises DTypeError.");
  m.def(
      "normalize_method",
      [](const std::string &name) {
        return std::string(
            sem::promotionMethodName(unwrap(sem::parsePromotionMethod(name))));
      },
      nb::arg("method"),
      "The dialect's name of a promotion method (COMPLEX_TO_FLOAT is "
      "DEFAULT); ValueError for an unknown one.");
  m.def(
      "apply_method",
      [](const std::string &method, const std::string &common) {
        return std::string(dtypeName(sem::applyPromotionMethod(
            unwrap(sem::parsePromotionMethod(method)), parseDType(common))));
      },
      nb::arg("method"), nb::arg("common"),
      "Result dtype of a promotion method applied to the common dtype.");
  m.def(
      "compute_dtype",
      [](const std::string &dtype) {
        return std::string(dtypeName(sem::computeDType(parseDType(dtype))));
      },
      nb::arg("dtype"), "The dtype arithmetic is done in (f32 for f16/bf16).");
  m.def(
      "can_cast_to_out",
      [](const std::string &from, const std::string &to) {
        return sem::canCastToOut(parseDType(from), parseDType(to));
      },
      nb::arg("from_dtype"), nb::arg("to_dtype"),
      "Whether a result of dtype `from_dtype` may be written into an out= "
      "array of dtype `to_dtype` (the kind is not weaker).");
  m.def(
      "broadcast_shapes",
      [](const std::vector<std::vector<int64_t>> &shapes) {
        for (const auto &s : shapes)
          for (int64_t d : s)
            if (d < 0)
              throwValue("shape " + sem::formatShape(s) +
                         " has a negative size");
        return unwrap(sem::broadcastShapes(shapes));
      },
      nb::arg("shapes"),
      "NumPy broadcast of concrete shapes. Raises BroadcastError naming "
      "every shape.");
  m.def(
      "format_shape",
      [](const std::vector<int64_t> &shape) { return sem::formatShape(shape); },
      nb::arg("shape"), "A shape as the compiler's messages print it.");
  m.def(
      "op_kinds",
      [] {
        std::vector<std::tuple<std::string, std::string, std::string,
                               std::string>>
            rows;
        for (const sem::OpKind &k : sem::allOpKinds())
          rows.emplace_back(sem::opClassName(k.opClass), k.name,
                            sem::promotionMethodName(k.method),
                            operandRuleName(k.operands));
        return rows;
      },
      "The op-kind table: (op, kind, promotion method, operand rule) rows.");
  m.def(
      "elementwise_result",
      [](const std::string &op, const std::string &kind,
         const std::vector<std::pair<std::string, bool>> &operands) {
        sem::OpKind row =
            unwrap(sem::lookupOpKind(unwrap(sem::parseOpClass(op)), kind));
        return std::string(dtypeName(
            unwrap(sem::inferElementwiseDType(row, toOperands(operands)))));
      },
      nb::arg("op"), nb::arg("kind"), nb::arg("operands"),
      "Result dtype of ptensor.<op> <kind> on (dtype, is_weak) operands. "
      "Raises DTypeError like the compiler.");
  m.def(
      "check_operand_dtypes",
      [](const std::string &op, const std::string &kind,
         const std::vector<std::string> &dtypes) {
        sem::OpKind row =
            unwrap(sem::lookupOpKind(unwrap(sem::parseOpClass(op)), kind));
        std::vector<DType> ds;
        for (const std::string &d : dtypes)
          ds.push_back(parseDType(d, /*allowIndex=*/true));
        if (std::optional<sem::Error> e = sem::checkOperandDTypes(row, ds))
          throw ptensor::python::RuleError{*e};
      },
      nb::arg("op"), nb::arg("kind"), nb::arg("dtypes"),
      "Checks operand dtypes against the kind's operand rule (bool for "
      "arithmetic, float for bitwise ops ...); raises DTypeError.");
  m.def(
      "where_result",
      [](const std::vector<std::pair<std::string, bool>> &operands) {
        return std::string(
            dtypeName(unwrap(sem::inferWhereDType(toOperands(operands)))));
      },
      nb::arg("operands"),
      "Result dtype of where(condition, x, y) on (dtype, is_weak) operands.");
  m.def(
      "common_placement",
      [](const std::vector<std::optional<std::string>> &devices) {
        std::vector<sem::Placement> placements;
        for (const auto &d : devices)
          placements.push_back({d, std::nullopt});
        return unwrap(sem::commonPlacement(placements)).device;
      },
      nb::arg("devices"),
      "The common device of operands (None = host). Raises DeviceError "
      "naming the two that differ.");
  m.attr("DEFAULT_CHIP") = mlir::ptensor::kDefaultChip;
  m.attr("DEFAULT_PTX_FEATURES") = mlir::ptensor::kDefaultPTXFeatures;
  // The kernel options by their Python names (the flag with '_' for '-'):
  // {name: (default, allowed values in words, help)}.
  nb::dict kernelOptions;
  for (const mlir::ptensor::KernelOptionInfo &info :
       mlir::ptensor::kernelOptions())
    kernelOptions[nb::str(pythonOptionName(info.flag).c_str())] =
        nb::make_tuple(info.defaultValue, info.expected(), info.help);
  m.attr("KERNEL_OPTIONS") = kernelOptions;
  m.def(
      "check_kernel_config",
      [](nb::kwargs options) {
        mlir::ptensor::KernelConfig config;
        for (auto [key, value] : options) {
          std::string name = nb::cast<std::string>(key);
          const mlir::ptensor::KernelOptionInfo *found = nullptr;
          for (const mlir::ptensor::KernelOptionInfo &info :
               mlir::ptensor::kernelOptions())
            if (pythonOptionName(info.flag) == name)
              found = &info;
          if (!found)
            throw nb::type_error(("unknown kernel option '" + name +
                                  "'; expected one of KERNEL_OPTIONS")
                                     .c_str());
          config.set(found->option, nb::cast<unsigned>(value));
        }
        std::string problems;
        config.verify([&](const char *option, unsigned value,
                          const std::string &expected) {
          if (problems.empty())
            problems = "kernel option '" + std::string(option) + "' is '" +
                       std::to_string(value) + "'; expected " + expected;
        });
        if (!problems.empty())
          throw nb::value_error(problems.c_str());
      },
      "Checks GPU kernel options (keywords named as in KERNEL_OPTIONS; the "
      "others keep their defaults) against the compiler's limits (the same "
      "KernelConfig::verify as the passes); raises ValueError naming the "
      "first option out of range, TypeError for an unknown one.");
  m.def(
      "check_written_overlap",
      [](const std::vector<std::optional<std::tuple<
             uintptr_t, unsigned, std::vector<int64_t>, std::vector<int64_t>,
             std::string>>> &operands,
         const std::vector<size_t> &written, const std::string &noun) {
        std::vector<sem::MemoryView> views;
        for (const auto &operand : operands) {
          sem::MemoryView view;
          if (operand)
            std::tie(view.address, view.itemSize, view.sizes, view.strides,
                     view.device) = *operand;
          view.isScalar = !operand;
          views.push_back(std::move(view));
        }
        for (size_t i : written)
          if (i >= views.size())
            throw nb::index_error("written operand index out of range");
        if (std::optional<sem::Error> error =
                sem::checkWrittenOverlap(views, written, noun.c_str()))
          throw RuleError{*error};
      },
      nb::arg("operands"), nb::arg("written"), nb::arg("noun") = "argument",
      "TensorIterator's memory-overlap rule for the operands a call writes "
      "(operands: (address of element 0, item size, shape, strides in "
      "elements, device) or None for scalars). Raises OverlapError.");
  m.def(
      "order_dimensions",
      [](const std::vector<int64_t> &shape,
         const std::vector<std::vector<int64_t>> &strides) {
        checkStrides(shape, strides);
        return sem::orderDimensions(shape, strides);
      },
      nb::arg("shape"), nb::arg("strides"),
      "Outer-to-inner order of the dimensions of `shape` for operands with "
      "these strides (in elements, 0 where broadcast): TensorIterator's "
      "reorder_dimensions.");
  m.def(
      "coalesce_dimensions",
      [](const std::vector<int64_t> &shape,
         const std::vector<std::vector<int64_t>> &strides,
         const std::vector<size_t> &order) {
        checkStrides(shape, strides);
        for (size_t d : order)
          if (d >= shape.size())
            throw nb::index_error("dimension out of range");
        return sem::coalesceDimensions(shape, strides, order);
      },
      nb::arg("shape"), nb::arg("strides"), nb::arg("order"),
      "The dimensions of `order` (size-1 ones left out) grouped into runs "
      "that every operand walks contiguously: one kernel dimension each.");
  m.def(
      "can_cast_by_promotion",
      [](const std::string &from, const std::string &to) {
        return sem::canCastByPromotion(parseDType(from), parseDType(to));
      },
      nb::arg("from_dtype"), nb::arg("to_dtype"),
      "The array API's can_cast: `from_dtype` and `to_dtype` are of one "
      "category (bool, integers, floats) and promote to `to_dtype`.");
}
