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

    A `ptensor.copy` between the host and a GPU is an error unless
    `device-copies` is set (ptensor-to-nvvm-pipeline sets it): it then
    becomes a fresh row-major buffer filled by a `gpu.memcpy` marked
    `ptensor.device_copy` that reads the source's strided view, for
    ptensor-lower-device-copies to finish after the GPU conversion.
  }];
  let options = [
    Option<"deviceCopies", "device-copies", "bool", "false",
           "Lower copies to and from GPUs to marked gpu.memcpy ops (for the "
           "GPU pipeline) instead of rejecting them">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
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
           "Largest grid (H100: 132 SMs x 8 resident 256-thread blocks)">,
    Option<"unroll", "unroll", "unsigned", "1",
           "16-byte vectors each thread loads before storing (flat path)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"];
}

def PTensorLowerDeviceCopies
    : Pass<"ptensor-lower-device-copies", "ModuleOp"> {
  let summary = "Finishes host<->device copies: allocation side, staging, "
                "async gpu.memcpy";
  let description = [{
    Runs after convert-ptensor-linalg-to-gpu on the `gpu.memcpy` ops that
    convert-ptensor-to-linalg{device-copies=true} marked `ptensor.device_copy`:
    - the destination is allocated on its side: `gpu.alloc` on a GPU,
      `memref.alloc` on the host (a host destination in a device function
      may only be returned or freed, not read by a kernel: error otherwise);
    - a source whose layout is not row-major by its type is checked at run
      time: when contiguous with offset 0 it is copied as is, otherwise it
      is first copied into a row-major staging buffer on its own side (host
      loops, or a grid-stride GPU kernel for a device source) that is freed
      after the copy;
    - each copy runs on a fresh stream that is synchronized right after
      (`gpu.wait async` / `gpu.memcpy async` / `gpu.wait`), the form
      gpu-to-llvm lowers to `mgpuMemcpy`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"];
}

#endif // PTENSOR_CONVERSION_PASSES_TD
