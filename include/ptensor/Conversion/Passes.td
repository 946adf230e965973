//===- Passes.td - ptensor conversion passes ---------------*- tablegen -*-===//

#ifndef PTENSOR_CONVERSION_PASSES_TD
#define PTENSOR_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertPTensorToLinalg : Pass<"convert-ptensor-to-linalg", "ModuleOp"> {
  let summary = "Lowers ptensor ops to linalg.generic on builtin tensors";
  let description = [{
    `!ptensor.ptensor<SHAPExDTYPE>` becomes `tensor<SHAPExDTYPE'>` (unsigned
    dtypes become signless integers; the ops keep unsigned semantics). Every
    elementwise op becomes one `linalg.generic` whose body converts each
    element to the computation dtype, computes with arith/math and converts
    to the result dtype; `ptensor.broadcast` becomes a generic with a
    broadcasting indexing map (no copy once fused) and run-time checks for
    dynamic dimensions; `pointwise` bodies are inlined into the generic;
    creation ops become `tensor.empty` + `linalg.fill`/`linalg.generic`.
    Views (`permute_dims`, `flip`, `extract_slice`, `expand_dims`,
    `squeeze`) become `memref.reinterpret_cast` of the source buffer with
    computed offset and strides (negative for flips and negative steps), so
    they never copy. Function signatures, calls and returns are converted.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"];
}

#endif // PTENSOR_CONVERSION_PASSES_TD
