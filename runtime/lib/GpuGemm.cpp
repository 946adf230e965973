//===- GpuGemm.cpp - matrix products on the GPU through cuBLASLt ----------===//
///
/// \file
/// ptensor_rt_gpu_gemm (see Gemm.h). cuBLASLt is dlopen'ed on first use, like
/// the driver (CudaDriver.cpp): the runtime builds and loads without CUDA,
/// and a machine without cuBLASLt, a driver or a device gets "not taken"
/// (false), never an error. A product cuBLASLt is given runs on the thread's
/// compute stream (ptensor_rt_get_stream, where compiled kernels run) of the
/// runtime's current device, in its primary context.
///
/// Costs per call: the cuBLASLt handle is made once per device; the
/// descriptors and the heuristic's algorithm once per shape (PlanCache); the
/// workspace comes from the caching allocator. A repeated product costs a
/// cache lookup, a cached allocation and cublasLtMatmul.
///
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/Gemm.h"
#include "ptensor/Runtime/PTensorRuntime.h"

#include "DeviceAllocator.h"
#include "DeviceContext.h"
#include "ElementExtent.h"
#include "Errors.h"
#include "GemmLayout.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>

//===----------------------------------------------------------------------===//
// cuBLASLt types
//===----------------------------------------------------------------------===//

#if !defined(PTENSOR_RT_NO_CUDA_H) && defined(__has_include)
#if __has_include(<cublasLt.h>)
#include <cublasLt.h>
#define PTENSOR_RT_HAVE_CUBLASLT_H 1
#endif
#endif

/// The few cuBLASLt types and values used here, with the names, values and
/// layouts of cublasLt.h, cublas_api.h and library_types.h (CUDA 12 and 13).
/// Used when the toolkit's headers are not available; checked against them
/// when they are.
namespace ptensor::rt::cublaslt_fallback {
extern "C" {
typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
} cublasStatus_t;

typedef enum cudaDataType_t {
  CUDA_R_32F = 0,
  CUDA_R_64F = 1,
  CUDA_R_16F = 2,
  CUDA_R_16BF = 14,
} cudaDataType;

typedef enum {
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  CUBLAS_COMPUTE_64F = 70,
} cublasComputeType_t;

typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;

typedef enum {
  CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6,
} cublasLtMatrixLayoutAttribute_t;

typedef enum {
  CUBLASLT_MATMUL_DESC_TRANSA = 3,
  CUBLASLT_MATMUL_DESC_TRANSB = 4,
  CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
  CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,
  CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE = 10,
} cublasLtMatmulDescAttributes_t;

typedef enum {
  CUBLASLT_EPILOGUE_DEFAULT = 1,
  CUBLASLT_EPILOGUE_RELU = 2,
  CUBLASLT_EPILOGUE_BIAS = 4,
  CUBLASLT_EPILOGUE_RELU_BIAS = 6,
  CUBLASLT_EPILOGUE_GELU = 32,
  CUBLASLT_EPILOGUE_GELU_BIAS = 36,
} cublasLtEpilogue_t;

typedef enum {
  CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8,
} cublasLtMatmulPreferenceAttributes_t;

typedef struct cublasLtContext *cublasLtHandle_t;
typedef struct {
  uint64_t data[32];
} cublasLtMatmulDescOpaque_t;
typedef cublasLtMatmulDescOpaque_t *cublasLtMatmulDesc_t;
typedef struct {
  uint64_t data[8];
} cublasLtMatrixLayoutOpaque_t;
typedef cublasLtMatrixLayoutOpaque_t *cublasLtMatrixLayout_t;
typedef struct {
  uint64_t data[8];
} cublasLtMatmulPreferenceOpaque_t;
typedef cublasLtMatmulPreferenceOpaque_t *cublasLtMatmulPreference_t;

typedef struct {
  uint64_t data[8];
} cublasLtMatmulAlgo_t;

typedef struct {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
} cublasLtMatmulHeuristicResult_t;

typedef CUstream cudaStream_t;
} // extern "C"
} // namespace ptensor::rt::cublaslt_fallback

/// X(name): the enum values of the fallback, checked against the header.
#define PTENSOR_RT_CUBLASLT_CONSTANTS(X)                                       \
  X(CUBLAS_STATUS_SUCCESS)                                                     \
  X(CUBLAS_STATUS_ARCH_MISMATCH)                                               \
  X(CUBLAS_STATUS_NOT_SUPPORTED)                                               \
  X(CUDA_R_32F)                                                                \
  X(CUDA_R_64F)                                                                \
  X(CUDA_R_16F)                                                                \
  X(CUDA_R_16BF)                                                               \
  X(CUBLAS_COMPUTE_32F)                                                        \
  X(CUBLAS_COMPUTE_32F_FAST_TF32)                                              \
  X(CUBLAS_COMPUTE_64F)                                                        \
  X(CUBLAS_OP_N)                                                               \
  X(CUBLAS_OP_T)                                                               \
  X(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT)                                        \
  X(CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET)                               \
  X(CUBLASLT_MATMUL_DESC_TRANSA)                                               \
  X(CUBLASLT_MATMUL_DESC_TRANSB)                                               \
  X(CUBLASLT_MATMUL_DESC_EPILOGUE)                                             \
  X(CUBLASLT_MATMUL_DESC_BIAS_POINTER)                                         \
  X(CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE)                                    \
  X(CUBLASLT_EPILOGUE_DEFAULT)                                                 \
  X(CUBLASLT_EPILOGUE_RELU)                                                    \
  X(CUBLASLT_EPILOGUE_BIAS)                                                    \
  X(CUBLASLT_EPILOGUE_RELU_BIAS)                                               \
  X(CUBLASLT_EPILOGUE_GELU)                                                    \
  X(CUBLASLT_EPILOGUE_GELU_BIAS)                                               \
  X(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES)                                  \
  X(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES)                                \
  X(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES)                                \
  X(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES)                                \
  X(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES)

#ifdef PTENSOR_RT_HAVE_CUBLASLT_H
namespace ptensor::rt::cublaslt_fallback {
#define PTENSOR_RT_CHECK_CONSTANT(name)                                        \
  static_assert(static_cast<long>(name) == static_cast<long>(::name), #name);
PTENSOR_RT_CUBLASLT_CONSTANTS(PTENSOR_RT_CHECK_CONSTANT)
#undef PTENSOR_RT_CHECK_CONSTANT
#define PTENSOR_RT_CHECK_SIZE(type)                                            \
  static_assert(sizeof(type) == sizeof(::type), #type);
PTENSOR_RT_CHECK_SIZE(cublasStatus_t)
PTENSOR_RT_CHECK_SIZE(cudaDataType)
PTENSOR_RT_CHECK_SIZE(cublasComputeType_t)
PTENSOR_RT_CHECK_SIZE(cublasLtMatmulDescOpaque_t)
PTENSOR_RT_CHECK_SIZE(cublasLtMatrixLayoutOpaque_t)
PTENSOR_RT_CHECK_SIZE(cublasLtMatmulPreferenceOpaque_t)
PTENSOR_RT_CHECK_SIZE(cublasLtMatmulAlgo_t)
PTENSOR_RT_CHECK_SIZE(cublasLtMatmulHeuristicResult_t)
#undef PTENSOR_RT_CHECK_SIZE
static_assert(offsetof(cublasLtMatmulHeuristicResult_t, state) ==
                  offsetof(::cublasLtMatmulHeuristicResult_t, state),
              "cublasLtMatmulHeuristicResult_t::state");
} // namespace ptensor::rt::cublaslt_fallback
#else
namespace ptensor::rt {
using namespace cublaslt_fallback;
} // namespace ptensor::rt
#endif

namespace ptensor::rt {
namespace {

//===----------------------------------------------------------------------===//
// Loading cuBLASLt
//===----------------------------------------------------------------------===//

/// X(member, symbol, return type, parameter list): the functions used, all
/// in every cuBLASLt since CUDA 11. A library without one is not used.
#define PTENSOR_RT_CUBLASLT_FUNCTIONS(X)                                       \
  X(Create, cublasLtCreate, cublasStatus_t, (cublasLtHandle_t *))              \
  X(GetStatusName, cublasLtGetStatusName, const char *, (cublasStatus_t))      \
  X(MatmulDescCreate, cublasLtMatmulDescCreate, cublasStatus_t,                \
    (cublasLtMatmulDesc_t *, cublasComputeType_t, cudaDataType_t))             \
  X(MatmulDescDestroy, cublasLtMatmulDescDestroy, cublasStatus_t,              \
    (cublasLtMatmulDesc_t))                                                    \
  X(MatmulDescSetAttribute, cublasLtMatmulDescSetAttribute, cublasStatus_t,    \
    (cublasLtMatmulDesc_t, cublasLtMatmulDescAttributes_t, const void *,       \
     size_t))                                                                  \
  X(MatrixLayoutCreate, cublasLtMatrixLayoutCreate, cublasStatus_t,            \
    (cublasLtMatrixLayout_t *, cudaDataType, uint64_t, uint64_t, int64_t))     \
  X(MatrixLayoutDestroy, cublasLtMatrixLayoutDestroy, cublasStatus_t,          \
    (cublasLtMatrixLayout_t))                                                  \
  X(MatrixLayoutSetAttribute, cublasLtMatrixLayoutSetAttribute,                \
    cublasStatus_t,                                                            \
    (cublasLtMatrixLayout_t, cublasLtMatrixLayoutAttribute_t, const void *,    \
     size_t))                                                                  \
  X(MatmulPreferenceCreate, cublasLtMatmulPreferenceCreate, cublasStatus_t,    \
    (cublasLtMatmulPreference_t *))                                            \
  X(MatmulPreferenceDestroy, cublasLtMatmulPreferenceDestroy, cublasStatus_t,  \
    (cublasLtMatmulPreference_t))                                              \
  X(MatmulPreferenceSetAttribute, cublasLtMatmulPreferenceSetAttribute,        \
    cublasStatus_t,                                                            \
    (cublasLtMatmulPreference_t, cublasLtMatmulPreferenceAttributes_t,         \
     const void *, size_t))                                                    \
  X(MatmulAlgoGetHeuristic, cublasLtMatmulAlgoGetHeuristic, cublasStatus_t,    \
    (cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,           \
     cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,   \
     cublasLtMatmulPreference_t, int, cublasLtMatmulHeuristicResult_t *,       \
     int *))                                                                   \
  X(Matmul, cublasLtMatmul, cublasStatus_t,                                    \
    (cublasLtHandle_t, cublasLtMatmulDesc_t, const void *, const void *,       \
     cublasLtMatrixLayout_t, const void *, cublasLtMatrixLayout_t,             \
     const void *, const void *, cublasLtMatrixLayout_t, void *,               \
     cublasLtMatrixLayout_t, const cublasLtMatmulAlgo_t *, void *, size_t,     \
     cudaStream_t))

#ifdef PTENSOR_RT_HAVE_CUBLASLT_H
#define PTENSOR_RT_CHECK_SIGNATURE(member, symbol, ret, params)                \
  static_assert(std::is_same_v<decltype(&::symbol), ret(*) params>, #symbol);
PTENSOR_RT_CUBLASLT_FUNCTIONS(PTENSOR_RT_CHECK_SIGNATURE)
#undef PTENSOR_RT_CHECK_SIGNATURE
#endif

/// Resolved cuBLASLt entry points.
struct CublasLtApi {
#define PTENSOR_RT_DECLARE_MEMBER(member, symbol, ret, params)                 \
  ret(*member) params = nullptr;
  PTENSOR_RT_CUBLASLT_FUNCTIONS(PTENSOR_RT_DECLARE_MEMBER)
#undef PTENSOR_RT_DECLARE_MEMBER
};

/// Overrides the library searched for (a path, or a missing file to do
/// without cuBLASLt).
constexpr const char *kCublasLtLibraryEnv = "PTENSOR_CUBLASLT_LIBRARY";

/// Searched in order: the loader's path first, then the toolkit's lib dir,
/// which is often not on it.
constexpr const char *kCublasLtCandidates[] = {
    "libcublasLt.so.13",
    "libcublasLt.so.12",
    "libcublasLt.so",
    "/usr/local/cuda/lib64/libcublasLt.so.13",
    "/usr/local/cuda/lib64/libcublasLt.so.12",
};

/// `path` opened, with every function resolved, or nullptr.
CublasLtApi *openCublasLt(const char *path) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return nullptr;
  auto *api = new CublasLtApi();
  bool complete = true;
#define PTENSOR_RT_RESOLVE(member, symbol, ret, params)                        \
  api->member = reinterpret_cast<ret(*) params>(dlsym(handle, #symbol));       \
  complete = complete && api->member;
  PTENSOR_RT_CUBLASLT_FUNCTIONS(PTENSOR_RT_RESOLVE)
#undef PTENSOR_RT_RESOLVE
  if (complete)
    return api;
  delete api;
  dlclose(handle);
  return nullptr;
}

/// cuBLASLt, loaded on the first call (thread-safe); nullptr if there is
/// none. Records no error: without it the compiled loops run.
const CublasLtApi *cublasLt() {
  // Leaked, like the driver table: static destructors may still multiply.
  static const CublasLtApi *const api = []() -> CublasLtApi * {
    const char *override = std::getenv(kCublasLtLibraryEnv);
    if (override && *override)
      return openCublasLt(override);
    for (const char *candidate : kCublasLtCandidates)
      if (CublasLtApi *found = openCublasLt(candidate))
        return found;
    return nullptr;
  }();
  return api;
}

/// Records a failed call ("cuBLASLt: <function> failed with status N
/// (NAME)") unless `status` is success.
bool checkLt(const CublasLtApi &lt, cublasStatus_t status,
             const char *function) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return true;
  const char *name = lt.GetStatusName(status);
  return setErrorf(ErrorKind::Cuda, "cuBLASLt: %s failed with status %d (%s)",
                   function, static_cast<int>(status),
                   name ? name : "unknown status");
}

/// Sets one attribute of a descriptor with its typed `value`.
template <typename Object, typename Attribute, typename Value>
bool setAttribute(const CublasLtApi &lt,
                  cublasStatus_t (*set)(Object, Attribute, const void *,
                                        size_t),
                  const char *function, Object object, Attribute attribute,
                  const Value &value) {
  return checkLt(lt, set(object, attribute, &value, sizeof(value)), function);
}

/// A cuBLASLt descriptor, destroyed with its destroy function.
template <typename Handle>
using Owned =
    std::unique_ptr<std::remove_pointer_t<Handle>, cublasStatus_t (*)(Handle)>;

//===----------------------------------------------------------------------===//
// Mapping the operands onto cuBLASLt's column-major matrices
//===----------------------------------------------------------------------===//

/// Element types as cuBLASLt takes them.
struct GemmTypes {
  cudaDataType ab, c, scale;
  cublasComputeType_t compute;
  int64_t abSize, cSize; // Bytes per element.
};

struct ElementType {
  cudaDataType type;
  int64_t size;
};

std::optional<ElementType> elementType(int64_t code) {
  switch (code) {
  case PTENSOR_RT_GEMM_F32:
    return ElementType{CUDA_R_32F, 4};
  case PTENSOR_RT_GEMM_F64:
    return ElementType{CUDA_R_64F, 8};
  case PTENSOR_RT_GEMM_F16:
    return ElementType{CUDA_R_16F, 2};
  case PTENSOR_RT_GEMM_BF16:
    return ElementType{CUDA_R_16BF, 2};
  }
  return std::nullopt;
}

/// Whether f32 products may use TF32 tensor cores (ptensor_rt_set_allow_tf32;
/// initially PTENSOR_ALLOW_TF32=1 or not).
std::atomic<bool> &allowTf32() {
  static std::atomic<bool> allow{[] {
    const char *v = std::getenv("PTENSOR_ALLOW_TF32");
    return v && std::string(v) == "1";
  }()};
  return allow;
}

/// The supported combinations: C of the operands' type, or f32 for f16 and
/// bf16 operands. Everything but f64 is summed in true f32, and f32
/// operands in TF32 only when the user allowed it (like torch's
/// `torch.backends.cuda.matmul.allow_tf32`).
std::optional<GemmTypes> gemmTypes(int64_t abType, int64_t cType) {
  std::optional<ElementType> ab = elementType(abType), c = elementType(cType);
  if (!ab || !c)
    return std::nullopt;
  bool halfOperands =
      abType == PTENSOR_RT_GEMM_F16 || abType == PTENSOR_RT_GEMM_BF16;
  if (cType != abType && !(halfOperands && cType == PTENSOR_RT_GEMM_F32))
    return std::nullopt;
  bool f64 = abType == PTENSOR_RT_GEMM_F64;
  bool tf32 = abType == PTENSOR_RT_GEMM_F32 && allowTf32().load();
  return GemmTypes{ab->type,
                   c->type,
                   f64 ? CUDA_R_64F : CUDA_R_32F,
                   f64    ? CUBLAS_COMPUTE_64F
                   : tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                          : CUBLAS_COMPUTE_32F,
                   ab->size,
                   c->size};
}

/// An operand as cuBLASLt takes it: a column-major stored matrix (its
/// layout descriptor), read as is or transposed (CUBLAS_OP_T).
struct LtOperand {
  uintptr_t data;
  int64_t rows, cols, ld, batchStride;
  bool transposed;
  /// Bytes every batch's matrix is aligned to, at most cuBLASLt's default
  /// assumption (256): tells the heuristic which kernels may load it.
  uint32_t alignment;
};

/// x as a column-major matrix, or as the transpose of one (x row-major);
/// false if it is neither or misaligned for its elements.
bool toLtOperand(const Matrix &x, int64_t elementSize, int64_t batch,
                 LtOperand *out) {
  bool readTransposed = !isColumnMajor(x);
  Matrix stored = readTransposed ? transposed(x) : x;
  uintptr_t data = x.base + uintptr_t(x.offset * elementSize);
  if (!isColumnMajor(stored) || data % uint64_t(elementSize) != 0)
    return false;
  int64_t batchBytes = batch > 1 ? stored.batchStride * elementSize : 0;
  uint64_t bits = data | uint64_t(batchBytes) | 256;
  *out = LtOperand{data,
                   stored.rows,
                   stored.cols,
                   leadingDimension(stored),
                   stored.batchStride,
                   readTransposed,
                   static_cast<uint32_t>(bits & (~bits + 1))};
  return true;
}

/// cuBLASLt's D = op(A) op(B), all column-major.
struct LtProblem {
  LtOperand a, b, d;
  /// True when computed as C^T = B^T A^T (C row-major): cuBLASLt's rows are
  /// then C's columns.
  bool transposedC = false;
};

/// C = A B as cuBLASLt's D = op(A) op(B), in place and without copies: as
/// is when C is column-major; as C^T = B^T A^T when C is row-major (C^T is
/// then column-major, and a row-major A or B a column-major A^T or B^T).
/// False if C, A or B is neither row- nor column-major.
bool toLtProblem(const Matrix &a, const Matrix &b, const Matrix &c,
                 const GemmTypes &types, int64_t batch, LtProblem *out) {
  bool rowMajorC = !isColumnMajor(c);
  out->transposedC = rowMajorC;
  Matrix d = rowMajorC ? transposed(c) : c;
  Matrix left = rowMajorC ? transposed(b) : a;
  Matrix right = rowMajorC ? transposed(a) : b;
  return isColumnMajor(d) && toLtOperand(left, types.abSize, batch, &out->a) &&
         toLtOperand(right, types.abSize, batch, &out->b) &&
         toLtOperand(d, types.cSize, batch, &out->d);
}

/// Sizes and strides cuBLASLt takes: non-empty (the compiled code handles
/// empty products), a batch count that fits its int32, no negative stride,
/// and distinct output matrices.
bool supportedSizes(int64_t batch, int64_t m, int64_t n, int64_t k,
                    const Matrix &a, const Matrix &b, const Matrix &c) {
  if (batch <= 0 || m <= 0 || n <= 0 || k <= 0 || batch > INT32_MAX)
    return false;
  for (const Matrix *x : {&a, &b, &c})
    if (x->rowStride < 0 || x->colStride < 0 || x->batchStride < 0)
      return false;
  return batch == 1 || c.batchStride > 0;
}

//===----------------------------------------------------------------------===//
// Per-device state and cached plans
//===----------------------------------------------------------------------===//

/// Workspace offered to cuBLASLt's kernels (split-k and the like).
constexpr uint64_t kWorkspaceBytes = 32ull << 20;

/// A device's cuBLASLt handle, made once and kept until exit. (Workspaces
/// are per call, from the caching allocator in the order of the compute
/// stream, so products on different threads' streams never share one.)
struct DeviceState {
  cublasLtHandle_t handle;
};

std::atomic<const DeviceState *> deviceStates[kMaxDevices];
std::mutex deviceStateMutex;

/// The state of `device` (an ordinal with a primary context, current),
/// made on first use; nullptr with the error recorded on failure.
const DeviceState *deviceState(const CublasLtApi &lt, int device) {
  const DeviceState *state =
      deviceStates[device].load(std::memory_order_acquire);
  if (state)
    return state;
  std::lock_guard<std::mutex> lock(deviceStateMutex);
  state = deviceStates[device].load(std::memory_order_acquire);
  if (state)
    return state;
  cublasLtHandle_t handle = nullptr;
  cublasStatus_t status = lt.Create(&handle);
  if (status != CUBLAS_STATUS_SUCCESS) {
    checkLt(lt, status, "cublasLtCreate");
    return nullptr;
  }
  state = new DeviceState{handle};
  deviceStates[device].store(state, std::memory_order_release);
  return state;
}

/// A product's descriptors and algorithm.
struct Plan {
  Owned<cublasLtMatmulDesc_t> desc{nullptr, nullptr};
  Owned<cublasLtMatrixLayout_t> a{nullptr, nullptr}, b{nullptr, nullptr},
      d{nullptr, nullptr};
  cublasLtMatmulAlgo_t algo{};
  /// False if the heuristic found no algorithm (cached too: the compiled
  /// loops then run at once).
  bool hasAlgo = false;
  /// With a bias: the bias pointer is an attribute of the shared
  /// descriptor, set per call under this lock until the product is
  /// enqueued.
  std::unique_ptr<std::mutex> biasMutex;
};

/// Everything a plan is made from.
using PlanKey = std::array<int64_t, 24>;

PlanKey planKey(int device, int64_t abType, int64_t cType, int64_t batch,
                cublasComputeType_t compute, int64_t epilogue,
                const LtProblem &p) {
  PlanKey key{device, abType, cType, batch, int64_t(compute), epilogue};
  size_t i = 6;
  for (const LtOperand *x : {&p.a, &p.b, &p.d})
    for (int64_t value : {x->rows, x->cols, x->ld, x->batchStride,
                          int64_t(x->transposed), int64_t(x->alignment)})
      key[i++] = value;
  return key;
}

struct PlanKeyHash {
  size_t operator()(const PlanKey &key) const {
    uint64_t hash = 14695981039346656037ull; // FNV-1a over the words.
    for (int64_t value : key)
      hash = (hash ^ uint64_t(value)) * 1099511628211ull;
    return size_t(hash ^ (hash >> 32));
  }
};

/// Plans of the most recently used shapes, shared with the threads using
/// them (an evicted plan lives until its last product is enqueued).
class PlanCache {
public:
  std::shared_ptr<const Plan> find(const PlanKey &key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it == index_.end())
      return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }

  /// Keeps `plan` unless another thread cached one for `key` first.
  void insert(const PlanKey &key, std::shared_ptr<const Plan> plan) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (index_.count(key))
      return;
    order_.emplace_front(key, std::move(plan));
    index_.emplace(key, order_.begin());
    if (order_.size() > kCapacity) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

private:
  static constexpr size_t kCapacity = 512;
  using Entry = std::pair<PlanKey, std::shared_ptr<const Plan>>;
  std::mutex mutex_;
  std::list<Entry> order_; // Most recently used first.
  std::unordered_map<PlanKey, std::list<Entry>::iterator, PlanKeyHash> index_;
};

PlanCache &planCache() {
  static PlanCache *cache = new PlanCache(); // Leaked: see cublasLt().
  return *cache;
}

bool createLayout(const CublasLtApi &lt, const LtOperand &x, cudaDataType type,
                  int64_t batch, Owned<cublasLtMatrixLayout_t> *out) {
  cublasLtMatrixLayout_t layout = nullptr;
  if (!checkLt(lt,
               lt.MatrixLayoutCreate(&layout, type, uint64_t(x.rows),
                                     uint64_t(x.cols), x.ld),
               "cublasLtMatrixLayoutCreate"))
    return false;
  *out = Owned<cublasLtMatrixLayout_t>(layout, lt.MatrixLayoutDestroy);
  if (batch == 1)
    return true;
  const char *function = "cublasLtMatrixLayoutSetAttribute";
  return setAttribute(lt, lt.MatrixLayoutSetAttribute, function, layout,
                      CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, int32_t(batch)) &&
         setAttribute(lt, lt.MatrixLayoutSetAttribute, function, layout,
                      CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                      x.batchStride);
}

/// cuBLASLt's epilogue for ptensor_rt_gemm_epilogue flags (valid ones:
/// gpuGemm checked them).
cublasLtEpilogue_t ltEpilogue(int64_t epilogue) {
  bool bias = epilogue & PTENSOR_RT_GEMM_EPILOGUE_BIAS;
  if (epilogue & PTENSOR_RT_GEMM_EPILOGUE_RELU)
    return bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
  if (epilogue & PTENSOR_RT_GEMM_EPILOGUE_GELU)
    return bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
  return bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
}

/// Whether `epilogue` is a combination ptensor_rt_gemm_epilogue allows.
bool validEpilogue(int64_t epilogue) {
  constexpr int64_t all = PTENSOR_RT_GEMM_EPILOGUE_BIAS |
                          PTENSOR_RT_GEMM_EPILOGUE_RELU |
                          PTENSOR_RT_GEMM_EPILOGUE_GELU;
  constexpr int64_t activations =
      PTENSOR_RT_GEMM_EPILOGUE_RELU | PTENSOR_RT_GEMM_EPILOGUE_GELU;
  return (epilogue & ~all) == 0 && (epilogue & activations) != activations;
}

bool createDescriptors(const CublasLtApi &lt, const GemmTypes &types,
                       int64_t batch, int64_t epilogue, const LtProblem &p,
                       Plan *plan) {
  cublasLtMatmulDesc_t desc = nullptr;
  if (!checkLt(lt, lt.MatmulDescCreate(&desc, types.compute, types.scale),
               "cublasLtMatmulDescCreate"))
    return false;
  plan->desc = Owned<cublasLtMatmulDesc_t>(desc, lt.MatmulDescDestroy);
  const char *function = "cublasLtMatmulDescSetAttribute";
  auto op = [](const LtOperand &x) {
    return int32_t(x.transposed ? CUBLAS_OP_T : CUBLAS_OP_N);
  };
  if (epilogue != PTENSOR_RT_GEMM_EPILOGUE_NONE &&
      !setAttribute(lt, lt.MatmulDescSetAttribute, function, desc,
                    CUBLASLT_MATMUL_DESC_EPILOGUE,
                    int32_t(ltEpilogue(epilogue))))
    return false;
  if (epilogue & PTENSOR_RT_GEMM_EPILOGUE_BIAS) {
    // One bias vector for every batch (its type is D's).
    plan->biasMutex = std::make_unique<std::mutex>();
    if (!setAttribute(lt, lt.MatmulDescSetAttribute, function, desc,
                      CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, int64_t(0)))
      return false;
  }
  return setAttribute(lt, lt.MatmulDescSetAttribute, function, desc,
                      CUBLASLT_MATMUL_DESC_TRANSA, op(p.a)) &&
         setAttribute(lt, lt.MatmulDescSetAttribute, function, desc,
                      CUBLASLT_MATMUL_DESC_TRANSB, op(p.b)) &&
         createLayout(lt, p.a, types.ab, batch, &plan->a) &&
         createLayout(lt, p.b, types.ab, batch, &plan->b) &&
         createLayout(lt, p.d, types.c, batch, &plan->d);
}

/// Asks the heuristic for the best algorithm within the workspace and the
/// operands' alignments; none found is not an error (plan->hasAlgo false).
bool chooseAlgorithm(const CublasLtApi &lt, cublasLtHandle_t handle,
                     const LtProblem &p, Plan *plan) {
  cublasLtMatmulPreference_t raw = nullptr;
  if (!checkLt(lt, lt.MatmulPreferenceCreate(&raw),
               "cublasLtMatmulPreferenceCreate"))
    return false;
  Owned<cublasLtMatmulPreference_t> preference(raw, lt.MatmulPreferenceDestroy);
  const char *function = "cublasLtMatmulPreferenceSetAttribute";
  auto set = [&](cublasLtMatmulPreferenceAttributes_t attribute, auto value) {
    return setAttribute(lt, lt.MatmulPreferenceSetAttribute, function, raw,
                        attribute, value);
  };
  if (!set(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, kWorkspaceBytes) ||
      !set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, p.a.alignment) ||
      !set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, p.b.alignment) ||
      !set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, p.d.alignment) ||
      !set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, p.d.alignment))
    return false;
  cublasLtMatmulHeuristicResult_t result{};
  int count = 0;
  cublasStatus_t status = lt.MatmulAlgoGetHeuristic(
      handle, plan->desc.get(), plan->a.get(), plan->b.get(), plan->d.get(),
      plan->d.get(), raw, /*requestedAlgoCount=*/1, &result, &count);
  if (status == CUBLAS_STATUS_NOT_SUPPORTED ||
      status == CUBLAS_STATUS_ARCH_MISMATCH)
    return true; // No algorithm for this device, types or layout.
  if (!checkLt(lt, status, "cublasLtMatmulAlgoGetHeuristic"))
    return false;
  plan->hasAlgo = count > 0 && result.state == CUBLAS_STATUS_SUCCESS;
  plan->algo = result.algo;
  return true;
}

/// The cached plan of the product, made on a miss; nullptr with the error
/// recorded if a cuBLASLt call failed.
std::shared_ptr<const Plan> planFor(const CublasLtApi &lt,
                                    cublasLtHandle_t handle, int device,
                                    int64_t abType, int64_t cType,
                                    const GemmTypes &types, int64_t batch,
                                    int64_t epilogue, const LtProblem &p) {
  PlanKey key =
      planKey(device, abType, cType, batch, types.compute, epilogue, p);
  if (std::shared_ptr<const Plan> cached = planCache().find(key))
    return cached;
  auto plan = std::make_shared<Plan>();
  if (!createDescriptors(lt, types, batch, epilogue, p, plan.get()) ||
      !chooseAlgorithm(lt, handle, p, plan.get()))
    return nullptr;
  planCache().insert(key, plan);
  return plan;
}

//===----------------------------------------------------------------------===//
// The product
//===----------------------------------------------------------------------===//

/// The arguments of ptensor_rt_gpu_gemm_epilogue (the flags, the scale of
/// the sums, the bias vector's aligned address, offset and stride, in
/// elements of C's type).
struct GemmCall {
  int64_t abType, cType, batch, m, n, k;
  Matrix a, b, c;
  int64_t epilogue = PTENSOR_RT_GEMM_EPILOGUE_NONE;
  double alpha = 1.0;
  uintptr_t bias = 0;
  int64_t biasOffset = 0, biasStride = 1;
};

/// The address of the bias vector when cuBLASLt's bias epilogue can add it:
/// one value per column of C (cuBLASLt adds one per row of its D, which is
/// C^T here), contiguous and 16-byte aligned; 0 otherwise.
uintptr_t biasAddress(const GemmCall &call, const GemmTypes &types,
                      const LtProblem &p) {
  uintptr_t address = call.bias + uintptr_t(call.biasOffset * types.cSize);
  bool contiguous = call.biasStride == 1 || call.n == 1;
  return p.transposedC && contiguous && address % 16 == 0 ? address : 0;
}

/// The first and last byte `batch` matrices of `x` (elements of `size`
/// bytes; supportedSizes has ruled out empty sizes and negative strides)
/// span; the whole address space where the span overflows, so that nothing
/// is taken for disjoint.
std::pair<uintptr_t, uintptr_t> byteSpan(const Matrix &x, int64_t size,
                                         int64_t batch) {
  const int64_t sizes[] = {batch, x.rows, x.cols};
  const int64_t strides[] = {x.batchStride, x.rowStride, x.colStride};
  ElementExtent extent = furthestElement(sizes, strides, 3);
  uintptr_t first = x.base + uintptr_t(x.offset * size);
  uint64_t bytes = 0;
  if (extent.status != ElementExtent::Ok ||
      __builtin_mul_overflow(extent.furthest + 1, uint64_t(size), &bytes) ||
      first + bytes - 1 < first)
    return {0, UINTPTR_MAX};
  return {first, first + uintptr_t(bytes) - 1};
}

/// Whether the spans of C and of A, B or the bias (`biasSpan`, if any)
/// share a byte: cuBLASLt would read what it writes (in-place products are
/// not defined), so such calls are declined (conservatively, on the spans).
bool outputOverlapsInputs(const GemmCall &call, const GemmTypes &types,
                          std::optional<std::pair<uintptr_t, uintptr_t>>
                              biasSpan) {
  auto c = byteSpan(call.c, types.cSize, call.batch);
  auto overlaps = [&](std::pair<uintptr_t, uintptr_t> x) {
    return x.first <= c.second && c.first <= x.second;
  };
  return overlaps(byteSpan(call.a, types.abSize, call.batch)) ||
         overlaps(byteSpan(call.b, types.abSize, call.batch)) ||
         (biasSpan && overlaps(*biasSpan));
}

enum class Outcome { Done, NotTaken, Failed };

/// True if `device` has a primary context. A missing driver or device only
/// means "not taken": the thread's last error is left as it was.
bool deviceAvailable(int device) {
  ErrorKind kind = lastErrorKind();
  std::string message = lastErrorMessage();
  CUcontext context = nullptr;
  if (primaryContext(device, &context))
    return true;
  if (kind == ErrorKind::None) {
    clearError();
  } else {
    size_t prefix = std::strlen(kMessagePrefix);
    setError(kind, message.compare(0, prefix, kMessagePrefix) == 0
                       ? message.substr(prefix)
                       : message);
  }
  return false;
}

/// The cublasLtMatmul call of `enqueue`.
bool launch(const CublasLtApi &lt, const DeviceState &state, const Plan &plan,
            const GemmTypes &types, const LtProblem &p, double alpha,
            uintptr_t bias, void *workspace, cudaStream_t stream) {
  std::unique_lock<std::mutex> lock;
  if (plan.biasMutex) {
    lock = std::unique_lock<std::mutex>(*plan.biasMutex);
    auto pointer = reinterpret_cast<const void *>(bias);
    if (!setAttribute(lt, lt.MatmulDescSetAttribute,
                      "cublasLtMatmulDescSetAttribute", plan.desc.get(),
                      CUBLASLT_MATMUL_DESC_BIAS_POINTER, pointer))
      return false;
  }
  // alpha in the scale type (an f32 scale is exact: the compiler passes
  // f32 constants); beta = 0.
  const float alphaF = float(alpha), zeroF = 0.0f;
  const double zeroD = 0.0;
  bool f64 = types.scale == CUDA_R_64F;
  const void *scale = f64 ? static_cast<const void *>(&alpha) : &alphaF;
  const void *zero = f64 ? static_cast<const void *>(&zeroD) : &zeroF;
  auto *d = reinterpret_cast<void *>(p.d.data);
  return checkLt(
      lt,
      lt.Matmul(state.handle, plan.desc.get(), scale,
                reinterpret_cast<const void *>(p.a.data), plan.a.get(),
                reinterpret_cast<const void *>(p.b.data), plan.b.get(), zero, d,
                plan.d.get(), d, plan.d.get(), &plan.algo, workspace,
                kWorkspaceBytes, stream),
      "cublasLtMatmul");
}

/// Enqueues D = act(alpha op(A) op(B) + bias) on the thread's compute stream
/// (ptensor_rt_get_stream: the stream compiled kernels run on) with a
/// workspace from the caching allocator, freed in the stream's order. When
/// every launch has a stream of its own (syncLaunches), waits for it.
bool enqueue(const CublasLtApi &lt, int device, const DeviceState &state,
             const Plan &plan, const GemmTypes &types, const LtProblem &p,
             double alpha, uintptr_t bias) {
  void *stream = ptensor_rt_get_stream();
  void *workspace = nullptr;
  if (!deviceAllocate(device, kWorkspaceBytes, stream, &workspace))
    return false;
  bool ok = launch(lt, state, plan, types, p, alpha, bias, workspace,
                   static_cast<cudaStream_t>(stream));
  // Freed after the enqueue: the allocator reuses it only in stream order.
  ok = deviceFree(workspace, stream) && ok;
  if (ok && syncLaunches())
    ok = ptensor_rt_synchronize() == PTENSOR_RT_SUCCESS;
  return ok;
}

Outcome gpuGemm(const GemmCall &call) {
  std::optional<GemmTypes> types = gemmTypes(call.abType, call.cType);
  LtProblem problem;
  if (!types || !validEpilogue(call.epilogue) ||
      !supportedSizes(call.batch, call.m, call.n, call.k, call.a, call.b,
                      call.c) ||
      !toLtProblem(call.a, call.b, call.c, *types, call.batch, &problem))
    return Outcome::NotTaken;
  bool withBias = call.epilogue & PTENSOR_RT_GEMM_EPILOGUE_BIAS;
  uintptr_t bias = withBias ? biasAddress(call, *types, problem) : 0;
  if (withBias && !bias)
    return Outcome::NotTaken;
  std::optional<std::pair<uintptr_t, uintptr_t>> biasSpan;
  if (withBias)
    biasSpan =
        std::make_pair(bias, bias + uintptr_t(call.n * types->cSize) - 1);
  if (outputOverlapsInputs(call, *types, biasSpan))
    return Outcome::NotTaken;
  int device = defaultDevice();
  if (!deviceAvailable(device))
    return Outcome::NotTaken;
  const CublasLtApi *lt = cublasLt();
  if (!lt)
    return Outcome::NotTaken;

  ScopedContext scope(device);
  if (!scope.ok())
    return Outcome::Failed;
  const DeviceState *state = deviceState(*lt, device);
  if (!state)
    return Outcome::Failed;
  std::shared_ptr<const Plan> plan =
      planFor(*lt, state->handle, device, call.abType, call.cType, *types,
              call.batch, call.epilogue, problem);
  if (!plan)
    return Outcome::Failed;
  if (!plan->hasAlgo)
    return Outcome::NotTaken;
  return enqueue(*lt, device, *state, *plan, *types, problem, call.alpha,
                 bias)
             ? Outcome::Done
                                                      : Outcome::Failed;
}

} // namespace
} // namespace ptensor::rt

extern "C" {
PTENSOR_RT_EXPORT bool ptensor_rt_gpu_gemm_epilogue(
    int64_t abType, int64_t cType, int64_t batch, int64_t m, int64_t n,
    int64_t k, intptr_t a, int64_t aOffset, int64_t aBatchStride,
    int64_t aRowStride, int64_t aColStride, intptr_t b, int64_t bOffset,
    int64_t bBatchStride, int64_t bRowStride, int64_t bColStride, intptr_t c,
    int64_t cOffset, int64_t cBatchStride, int64_t cRowStride,
    int64_t cColStride, int64_t epilogue, double alpha, intptr_t bias,
    int64_t biasOffset, int64_t biasStride) {
  using namespace ptensor::rt;
  GemmCall call{
      abType,
      cType,
      batch,
      m,
      n,
      k,
      {uintptr_t(a), aOffset, m, k, aRowStride, aColStride, aBatchStride},
      {uintptr_t(b), bOffset, k, n, bRowStride, bColStride, bBatchStride},
      {uintptr_t(c), cOffset, m, n, cRowStride, cColStride, cBatchStride},
      epilogue,
      alpha,
      uintptr_t(bias),
      biasOffset,
      biasStride,
  };
  Outcome outcome = gpuGemm(call);
  // Only trivially destructible objects are alive here: the jump may skip
  // this frame.
  if (outcome == Outcome::Failed)
    leaveCompiledCode();
  return outcome == Outcome::Done;
}

PTENSOR_RT_EXPORT bool ptensor_rt_gpu_gemm(
    int64_t abType, int64_t cType, int64_t batch, int64_t m, int64_t n,
    int64_t k, intptr_t a, int64_t aOffset, int64_t aBatchStride,
    int64_t aRowStride, int64_t aColStride, intptr_t b, int64_t bOffset,
    int64_t bBatchStride, int64_t bRowStride, int64_t bColStride, intptr_t c,
    int64_t cOffset, int64_t cBatchStride, int64_t cRowStride,
    int64_t cColStride) {
  return ptensor_rt_gpu_gemm_epilogue(
      abType, cType, batch, m, n, k, a, aOffset, aBatchStride, aRowStride,
      aColStride, b, bOffset, bBatchStride, bRowStride, bColStride, c,
      cOffset, cBatchStride, cRowStride, cColStride,
      PTENSOR_RT_GEMM_EPILOGUE_NONE, /*alpha=*/1.0, /*bias=*/0, 0, 1);
}

PTENSOR_RT_EXPORT void ptensor_rt_set_allow_tf32(bool allow) {
  ptensor::rt::allowTf32().store(allow);
}

PTENSOR_RT_EXPORT bool ptensor_rt_get_allow_tf32(void) {
  return ptensor::rt::allowTf32().load();
}
} // extern "C"
