//===- ContractionsToLibrary.h - matrix products as library calls -*- C++ -*-===//
//
// The matrix-product generics of ptensor.matmul and ptensor.tensordot
// become calls of libptensor_runtime's ptensor_rt_cpu_gemm (OpenBLAS) or
// ptensor_rt_gpu_gemm (cuBLASLt), with the generated loops kept for what
// the library does not take.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CONVERSION_CONTRACTIONSTOLIBRARY_CONTRACTIONSTOLIBRARY_H
#define PTENSOR_CONVERSION_CONTRACTIONSTOLIBRARY_CONTRACTIONSTOLIBRARY_H

#include "mlir/Pass/Pass.h"

namespace mlir::ptensor {

#define GEN_PASS_DECL_CONVERTPTENSORCONTRACTIONSTOLIBRARY
#include "ptensor/Conversion/Passes.h.inc"

} // namespace mlir::ptensor

#endif // PTENSOR_CONVERSION_CONTRACTIONSTOLIBRARY_CONTRACTIONSTOLIBRARY_H
