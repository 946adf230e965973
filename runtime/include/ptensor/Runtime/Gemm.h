/*===- Gemm.h - matrix products through the vendor libraries -----*- C -*-===*\
|*                                                                            *|
|* Compiled code (the pass convert-ptensor-contractions-to-library) calls     *|
|* these for the matrix-product generics of ptensor.matmul / tensordot:       *|
|* OpenBLAS (CBLAS) on the host, cuBLASLt on the GPU. Each returns whether    *|
|* the library did the product; when it returns false (a layout or dtype the  *|
|* library does not take, a library that is not there) nothing was written    *|
|* and the compiled code runs its own loops.                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PTENSOR_RUNTIME_GEMM_H
#define PTENSOR_RUNTIME_GEMM_H

#include "ptensor/Runtime/Status.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types of the products (the values are ABI).
typedef enum ptensor_rt_gemm_type {
  PTENSOR_RT_GEMM_F32 = 0,
  PTENSOR_RT_GEMM_F64 = 1,
  PTENSOR_RT_GEMM_F16 = 2,
  PTENSOR_RT_GEMM_BF16 = 3,
} ptensor_rt_gemm_type;

/// C[p, i, j] = sum over l < k of A[p, i, l] * B[p, l, j], for p < batch,
/// i < m, j < n: A and B of element type `abType`, C of `cType` (equal to
/// abType, or F32 for F16/BF16 operands summed in f32). Each operand is its
/// buffer's aligned address, the offset of element (0, 0, 0) and the
/// strides along batch, rows and columns, all in elements (a stride may be
/// 0: a broadcast batch). C is overwritten (beta = 0). Host buffers for the
/// cpu function, device buffers of the runtime's current device for the gpu
/// one, which runs on the thread's compute stream (ptensor_rt_get_stream)
/// like compiled kernels.
/// A failure inside the library (an error status) is not hidden by the
/// fallback: it is recorded and leaves through the caller's trap
/// (ptensor_rt_call_checked), like a failed run-time check.
PTENSOR_RT_EXPORT bool ptensor_rt_cpu_gemm(
    int64_t abType, int64_t cType, int64_t batch, int64_t m, int64_t n,
    int64_t k, intptr_t a, int64_t aOffset, int64_t aBatchStride,
    int64_t aRowStride, int64_t aColStride, intptr_t b, int64_t bOffset,
    int64_t bBatchStride, int64_t bRowStride, int64_t bColStride, intptr_t c,
    int64_t cOffset, int64_t cBatchStride, int64_t cRowStride,
    int64_t cColStride);

/// The same on the GPU through cuBLASLt (see ptensor_rt_cpu_gemm).
PTENSOR_RT_EXPORT bool ptensor_rt_gpu_gemm(
    int64_t abType, int64_t cType, int64_t batch, int64_t m, int64_t n,
    int64_t k, intptr_t a, int64_t aOffset, int64_t aBatchStride,
    int64_t aRowStride, int64_t aColStride, intptr_t b, int64_t bOffset,
    int64_t bBatchStride, int64_t bRowStride, int64_t bColStride, intptr_t c,
    int64_t cOffset, int64_t cBatchStride, int64_t cRowStride,
    int64_t cColStride);

/// Epilogues cuBLASLt applies to the sums in the product, before C is
/// written (flags; the values are ABI). With all of them C[p, i, j] =
/// act(alpha * sum + bias[j]), act being RELU's max(x, 0) or GELU's tanh
/// approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); at most
/// one of RELU and GELU. ReLU keeps a NaN. cuBLASLt's GELU is approximate:
/// measured on the H100 up to 25 times 0.5 |x| ulp(1) + ulp(result) (what
/// evaluating the formula in f32 may lose), which is why the compiler does
/// not use it.
typedef enum ptensor_rt_gemm_epilogue {
  PTENSOR_RT_GEMM_EPILOGUE_NONE = 0,
  PTENSOR_RT_GEMM_EPILOGUE_BIAS = 1,
  PTENSOR_RT_GEMM_EPILOGUE_RELU = 2,
  PTENSOR_RT_GEMM_EPILOGUE_GELU = 4,
} ptensor_rt_gemm_epilogue;

/// ptensor_rt_gpu_gemm with cuBLASLt's epilogues: C[p, i, j] = act(alpha *
/// sum ... + bias[j]) (ptensor_rt_gemm_epilogue says which parts apply;
/// alpha scales the sums, 1 for none). The bias vector (C's element type)
/// is given like an operand (address, offset, stride in elements) and is
/// the same for every batch. Taken only when cuBLASLt can apply the
/// epilogue in the product (with a bias: a row-major C, a contiguous
/// 16-byte aligned bias); otherwise false, nothing written.
PTENSOR_RT_EXPORT bool ptensor_rt_gpu_gemm_epilogue(
    int64_t abType, int64_t cType, int64_t batch, int64_t m, int64_t n,
    int64_t k, intptr_t a, int64_t aOffset, int64_t aBatchStride,
    int64_t aRowStride, int64_t aColStride, intptr_t b, int64_t bOffset,
    int64_t bBatchStride, int64_t bRowStride, int64_t bColStride, intptr_t c,
    int64_t cOffset, int64_t cBatchStride, int64_t cRowStride,
    int64_t cColStride, int64_t epilogue, double alpha, intptr_t bias,
    int64_t biasOffset, int64_t biasStride);

/// Whether f32 products on the GPU may round their operands to TF32 (10-bit
/// mantissas, tensor cores: several times faster, about 3 decimal digits).
/// Off unless the environment has PTENSOR_ALLOW_TF32=1 or this enables it
/// (like torch.backends.cuda.matmul.allow_tf32); f16/bf16/f64 products are
/// not affected. Process-wide.
PTENSOR_RT_EXPORT void ptensor_rt_set_allow_tf32(bool allow);
PTENSOR_RT_EXPORT bool ptensor_rt_get_allow_tf32(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // PTENSOR_RUNTIME_GEMM_H
