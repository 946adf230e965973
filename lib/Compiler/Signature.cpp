//===- Signature.cpp - function signatures before lowering ----------------===//

#include "ptensor/Compiler/Signature.h"

#include "ptensor/Dialect/PTensor/IR/PTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ::ptensor;
using namespace ::ptensor::jit;

std::string ValueType::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (!isTensor) {
    os << (isIndex ? "index" : dtypeName(dtype));
    return s;
  }
  os << "!ptensor.ptensor<";
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d))
      os << "?";
    else
      os << d;
    os << "x";
  }
  os << dtypeName(dtype);
  if (!device.empty())
    os << ", device = \"" << device << "\"";
  if (team)
    os << ", team = " << team;
  os << ">";
  return s;
}

/// Maps an MLIR dtype to the runtime's DType.
static std::optional<DType> toDType(Type t) {
  if (t.isIndex())
    return DType::I64;
  return parseDTypeName([&] {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    return s;
  }());
}

static llvm::Expected<ValueType> toValueType(Type t, func::FuncOp f,
                                             StringRef what) {
  ValueType v;
  Type dtype = t;
  if (auto pt = dyn_cast<mlir::ptensor::PTensorType>(t)) {
    v.isTensor = true;
    v.shape.assign(pt.getShape().begin(), pt.getShape().end());
    v.device = pt.getDeviceName().str();
    if (pt.getTeam())
      v.team = pt.getTeam().getInt();
    dtype = pt.getElementType();
  }
  v.isIndex = dtype.isIndex();
  std::optional<DType> d = toDType(dtype);
  if (!d) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    return llvm::createStringError(
        "function @%s: %s has type %s; expected a !ptensor.ptensor or a "
        "scalar of type i1, i8..i64, f16, bf16, f32, f64 or index",
        f.getName().str().c_str(), what.str().c_str(), s.c_str());
  }
  v.dtype = *d;
  return v;
}

llvm::Expected<std::vector<FunctionSignature>>
(::ptensor::jit::readSignatures)(ModuleOp module) {
  std::vector<FunctionSignature> result;
  for (auto f : module.getOps<func::FuncOp>()) {
    if (f.isPrivate() || f.isExternal())
      continue;
    FunctionSignature sig;
    sig.name = f.getName().str();
    for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
      auto v = toValueType(t, f, "argument #" + std::to_string(i));
      if (!v)
        return v.takeError();
      sig.args.push_back(*v);
    }
    for (auto [i, t] : llvm::enumerate(f.getResultTypes())) {
      auto v = toValueType(t, f, "result #" + std::to_string(i));
      if (!v)
        return v.takeError();
      if (!v->isTensor)
        return llvm::createStringError(
            "function @%s: result #%zu is a scalar; return a rank-0 ptensor "
            "instead",
            sig.name.c_str(), i);
      sig.results.push_back(*v);
    }
    // Arguments written through `ptensor.write`, into them or into a view
    // of them, are outputs (out=).
    f.walk([&](mlir::ptensor::WriteOp w) {
      if (BlockArgument arg = mlir::ptensor::getWrittenArgument(w, f))
        sig.args[arg.getArgNumber()].isWritten = true;
    });
    result.push_back(std::move(sig));
  }
  return result;
}

std::string
(::ptensor::jit::writeSignatureJson)(llvm::ArrayRef<FunctionSignature> sigs,
                                     llvm::StringRef target, int64_t teamSize) {
  auto valueJson = [](const ValueType &v) {
    llvm::json::Object o;
    o["kind"] = v.isTensor ? "tensor" : "scalar";
    o["dtype"] = v.isIndex ? "index" : std::string(dtypeName(v.dtype));
    if (v.isTensor) {
      llvm::json::Array shape;
      for (int64_t d : v.shape)
        shape.push_back(ShapedType::isDynamic(d) ? int64_t(-1) : d);
      o["shape"] = std::move(shape);
      o["device"] = v.device;
      o["team"] = v.team;
      o["written"] = v.isWritten;
    }
    return o;
  };
  llvm::json::Array functions;
  for (const FunctionSignature &s : sigs) {
    llvm::json::Array args, results;
    for (const ValueType &a : s.args)
      args.push_back(valueJson(a));
    for (const ValueType &r : s.results)
      results.push_back(valueJson(r));
    functions.push_back(llvm::json::Object{{"name", s.name},
                                           {"args", std::move(args)},
                                           {"results", std::move(results)}});
  }
  llvm::json::Object root{{"abi", kModuleABIVersion},
                          {"target", target.str()},
                          {"team_size", teamSize},
                          {"functions", std::move(functions)}};
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::json::Value(std::move(root));
  return out;
}

bool (::ptensor::jit::usesTeams)(llvm::ArrayRef<FunctionSignature> signatures) {
  auto hasTeam = [](const ValueType &v) { return v.team != 0; };
  return llvm::any_of(signatures, [&](const FunctionSignature &s) {
    return llvm::any_of(s.args, hasTeam) || llvm::any_of(s.results, hasTeam);
  });
}
