//===- PTensorTypes.td - ptensor type definitions ----------*- tablegen -*-===//

#ifndef PTENSOR_TYPES_TD
#define PTENSOR_TYPES_TD

include "ptensor/Dialect/PTensor/IR/PTensorDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def PTensor_PTensorType : TypeDef<PTensor_Dialect, "PTensor",
                                  [ShapedTypeInterface]> {
  let mnemonic = "ptensor";
  let summary = "a tensor with shape, dtype, device and team";
  let description = [{
    `!ptensor.ptensor<SHAPE x DTYPE [, device = "STR"] [, team = INT]>`.

    The shape is a list of static or dynamic (`?`) dimensions; rank 0 is
    written with no dimensions (`!ptensor.ptensor<f32>`). The dtype is one of
    `i1` (bool), `i8` `i16` `i32` `i64`, `ui8` `ui16` `ui32` `ui64`, `f16`,
    `bf16`, `f32`, `f64`. A missing `device` means host memory; a missing
    `team` means the tensor is local to the process.

    Examples:
    ```mlir
    !ptensor.ptensor<4x?xf32>
    !ptensor.ptensor<4x?xf32, device = "cuda:0">
    !ptensor.ptensor<?xi64, team = 1>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "sizes, ShapedType::kDynamic for `?`">:$shape,
    AttrOrTypeParameter<"::mlir::Type", "the dtype">:$elementType,
    OptionalParameter<"::mlir::StringAttr", "device; null for host memory">:$device,
    OptionalParameter<"::mlir::IntegerAttr", "team (i64 >= 0); null for none">:$team);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 0;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType, nullptr,
                   nullptr);
    }]>
  ];
  let extraClassDeclaration = [{
    /// ptensor types are always ranked.
    bool hasRank() const { return true; }
    /// Clones with a new shape and/or dtype, keeping device and team.
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const;
    /// Clones with a new shape and dtype, keeping device and team.
    PTensorType cloneWithShapeAndType(::llvm::ArrayRef<int64_t> shape,
                                      ::mlir::Type elementType) const;
    /// Returns the device string, or "" for host memory.
    ::llvm::StringRef getDeviceName() const {
      return getDevice() ? getDevice().getValue() : ::llvm::StringRef();
    }
    /// True when the tensor lives in GPU memory ("cuda" or "cuda:N"; the
    /// rule is semantics::isGPUDevice's).
    bool isOnGPU() const;
    /// True when `dtype` is one of the element types ptensor supports.
    static bool isSupportedDType(::mlir::Type dtype);
  }];
}

#endif // PTENSOR_TYPES_TD
