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

def ConvertPTensorLinalgToGPU
    : Pass<"convert-ptensor-linalg-to-gpu", "ModuleOp"> {
  let summary = "Turns the fused loops of device functions into GPU kernels";
  let description = [{
    In every function marked `ptensor.device` (convert-ptensor-to-linalg marks
    the functions whose ptensors live on `cuda`), after bufferization:
    - each elementwise `linalg.generic` on memrefs becomes one `gpu.launch`
      over the flattened iteration space: a 1-D grid of `block-size`-thread
      blocks (at most `max-blocks`, so that the grid fits the device in one
      or two waves) runs a grid-stride loop; each linear index is split into
      the loop indices, inputs are loaded through their indexing maps
      (broadcast dims read index 0) from memrefs of any strides (zero and
      negative included), the generic's body is inlined and the results are
      stored. Index math is 32-bit when the element count and every
      operand's extent fit in 31 bits (checked at run time; a 64-bit kernel
      handles larger tensors);
    - copies (out= writes) are generics by then (ptensor-copies-to-linalg),
      so they become such kernels too;
    - `memref.alloc`/`memref.dealloc` become `gpu.alloc`/`gpu.dealloc`
      (served by libptensor_runtime's caching allocator).
    Kernels are outlined by `gpu-kernel-outlining` afterwards.
  }];
  let options = [
    Option<"blockSize", "block-size", "unsigned", "256",
           "Threads per block">,
    Option<"maxBlocks", "max-blocks", "unsigned", "1056",
           "Largest grid (H100: 132 SMs x 8 resident 256-thread blocks)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"];
}

#endif // PTENSOR_CONVERSION_PASSES_TD
