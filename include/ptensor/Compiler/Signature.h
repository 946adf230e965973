//===- Signature.h - argument and result types of a ptensor function -*- C++ -*-===//

#ifndef PTENSOR_COMPILER_SIGNATURE_H
#define PTENSOR_COMPILER_SIGNATURE_H

#include "ptensor/Semantics/Broadcast.h"
#include "ptensor/Support/DType.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ptensor::jit {

/// The type of one argument or result: a ptensor (dtype, shape with
/// `mlir::ShapedType::kDynamic` for `?`, device) or a builtin scalar.
struct ValueType {
  bool isTensor = false;
  DType dtype = DType::F32;
  bool isIndex = false; ///< a scalar of type `index` (passed as int64)
  llvm::SmallVector<int64_t, 4> shape;
  std::string device; ///< "" for host memory
  int64_t team = 0;   ///< 0 for none, else the team (split along dim 0)
  /// Argument only: the function writes into it (`ptensor.write`).
  bool isWritten = false;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  /// A tensor in GPU memory ("cuda" or "cuda:N").
  bool isOnGPU() const { return semantics::isGPUDevice(device); }
  /// Whether a function takes or returns GPU tensors.
  static bool anyOnGPU(const struct FunctionSignature &sig);
  /// `!ptensor.ptensor<4x?xf32>`-like text for messages.
  std::string str() const;
};

/// The signature of a function taking and returning ptensors and scalars.
struct FunctionSignature {
  std::string name;
  std::vector<ValueType> args;
  std::vector<ValueType> results;
};

inline bool ValueType::anyOnGPU(const FunctionSignature &sig) {
  auto onGPU = [](const ValueType &t) { return t.isOnGPU(); };
  return llvm::any_of(sig.args, onGPU) || llvm::any_of(sig.results, onGPU);
}

/// Reads the signatures of every public `func.func` in `module` (before
/// lowering, while the ptensor types are still there). Fails naming the
/// function and argument of an unsupported type.
llvm::Expected<std::vector<FunctionSignature>>
readSignatures(mlir::ModuleOp module);

/// The version of the compiled-module ABI (docs/ABI.md): the calling
/// convention of the entry points and the signature JSON. Readers refuse
/// other versions.
inline constexpr int kModuleABIVersion = 3;

/// The exported symbol holding a compiled module's signature JSON.
inline constexpr const char kSignatureSymbol[] = "ptensor_module_signature";

/// The prefix of the packed entry points, `_ptensor_packed_NAME(void **)`
/// (one calling convention for every signature; docs/ABI.md).
inline constexpr const char kPackedEntryPrefix[] = "_ptensor_packed_";

/// The signature JSON of a compiled module (docs/ABI.md): its ABI version,
/// `target` ("cpu" or "cuda"), the processes its team tensors are split
/// over (`teamSize`: 1, whole) and every function's arguments and results.
std::string writeSignatureJson(llvm::ArrayRef<FunctionSignature> signatures,
                               llvm::StringRef target, int64_t teamSize);

/// Whether any function takes or returns a team tensor.
bool usesTeams(llvm::ArrayRef<FunctionSignature> signatures);

} // namespace ptensor::jit

#endif // PTENSOR_COMPILER_SIGNATURE_H
