/*===- capi-test.c - a C program embedding ptensor through its C API -------===*\
|*                                                                            *|
|* Run by capi.test (FileCheck on stdout). Each section prints what it        *|
|* observed; numeric results are checked here, against values computed in C,  *|
|* and any mismatch makes the program exit non-zero.                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "ptensor-c/PTensor.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/// Prints "<label>: <STATUS>" and the message on the next line, if any, then
/// frees the message. (Call it after the function that sets the message: the
/// order in which arguments are evaluated is unspecified.)
static void report(const char *label, PTensorStatus status, char *message) {
  printf("%s: %s\n", label, ptensorStatusGetString(status));
  if (message)
    printf("%s\n", message);
  ptensorFreeString(message);
}

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirStringRef str(const char *s) { return mlirStringRefCreateFromCString(s); }

static const char *kAddModule =
    "func.func @add(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3xf32>)"
    "    -> !ptensor.ptensor<2x3xf32> {\n"
    "  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<2x3xf32>,"
    " !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<2x3xf32>\n"
    "  return %c : !ptensor.ptensor<2x3xf32>\n"
    "}\n";

/// A device mismatch: parses, but the op's verifier rejects it.
static const char *kInvalidModule =
    "func.func @mismatch(%a: !ptensor.ptensor<4xf32>,\n"
    "                    %b: !ptensor.ptensor<4xf32, device = \"cuda:0\">) {\n"
    "  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<4xf32>,"
    " !ptensor.ptensor<4xf32, device = \"cuda:0\">) -> !ptensor.ptensor<4xf32>\n"
    "  return\n"
    "}\n";

static const char *kJITModule =
    "func.func @add(%a: !ptensor.ptensor<2x3xf32>, %b: !ptensor.ptensor<3xf32>)"
    "    -> !ptensor.ptensor<2x3xf32> {\n"
    "  %c = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<2x3xf32>,"
    " !ptensor.ptensor<3xf32>) -> !ptensor.ptensor<2x3xf32>\n"
    "  return %c : !ptensor.ptensor<2x3xf32>\n"
    "}\n"
    "func.func @axpy(%x: !ptensor.ptensor<?xf64>, %s: f64,"
    " %y: !ptensor.ptensor<?xf64>) -> !ptensor.ptensor<?xf64> {\n"
    "  %0 = ptensor.elementwise_binary multiply %x, %s : (!ptensor.ptensor<?xf64>,"
    " f64) -> !ptensor.ptensor<?xf64>\n"
    "  %1 = ptensor.elementwise_binary add %0, %y : (!ptensor.ptensor<?xf64>,"
    " !ptensor.ptensor<?xf64>) -> !ptensor.ptensor<?xf64>\n"
    "  return %1 : !ptensor.ptensor<?xf64>\n"
    "}\n"
    "func.func @isnan(%x: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xi1> {\n"
    "  %0 = ptensor.elementwise_unary_test isnan %x : (!ptensor.ptensor<?xf32>)"
    " -> !ptensor.ptensor<?xi1>\n"
    "  return %0 : !ptensor.ptensor<?xi1>\n"
    "}\n"
    "func.func @fill(%n: index) -> !ptensor.ptensor<?xf32> {\n"
    "  %v = arith.constant 2.0 : f32\n"
    "  %0 = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?xf32>\n"
    "  return %0 : !ptensor.ptensor<?xf32>\n"
    "}\n";

//===----------------------------------------------------------------------===//
// Dialect registration, parsing, verification, pipelines
//===----------------------------------------------------------------------===//

static MlirContext createContext(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  // The upstream way for one dialect: its handle.
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__ptensor__(), registry);
  // Everything ptensor's pipelines need (dialects and extensions).
  ptensorRegisterAllDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  MlirDialect dialect =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__ptensor__(), context);
  MlirStringRef ns = mlirDialectGetNamespace(dialect);
  printf("dialect: %.*s\n", (int)ns.length, ns.data);
  return context;
}

static void testTypes(MlirContext context) {
  int64_t shape[2] = {4, mlirShapedTypeGetDynamicSize()};
  MlirType f32 = mlirF32TypeGet(context);
  MlirType host = ptensorPTensorTypeGet(context, 2, shape, f32, str(""));
  MlirType gpu = ptensorPTensorTypeGet(context, 2, shape, f32, str("cuda:0"));
  CHECK(ptensorTypeIsAPTensor(host) && ptensorTypeIsAPTensor(gpu));
  CHECK(!ptensorTypeIsAPTensor(f32));
  CHECK(mlirShapedTypeGetRank(host) == 2);
  MlirStringRef device = ptensorPTensorTypeGetDevice(gpu);
  CHECK(device.length == 6 && strncmp(device.data, "cuda:0", 6) == 0);
  CHECK(ptensorPTensorTypeGetDevice(host).length == 0);
  printf("type: ");
  mlirTypePrint(gpu, printToStdout, NULL);
  printf("\n");
}

static void testParseAndPipeline(MlirContext context) {
  // Upstream parsing works on ptensor IR once the dialect is registered.
  MlirModule module = mlirModuleCreateParse(context, str(kAddModule));
  CHECK(!mlirModuleIsNull(module));
  MlirOperation op = mlirModuleGetOperation(module);
  CHECK(mlirOperationVerify(op));
  char *message = NULL;
  PTensorStatus status = ptensorOperationVerify(op, &message);
  report("verify", status, message);
  mlirOperationPrint(op, printToStdout, NULL);
  printf("\n");

  // The named pipeline, by name.
  ptensorRegisterAllPasses();
  ptensorRegisterAllPasses(); /* idempotent */
  status = ptensorRunPipeline(module, "ptensor-to-cpu-pipeline", &message);
  report("pipeline", status, message);
  mlirOperationPrint(op, printToStdout, NULL);
  printf("\n");
  mlirModuleDestroy(module);

  // The anchored form with an option.
  module = mlirModuleCreateParse(context, str(kAddModule));
  status = ptensorRunPipeline(
      module, "builtin.module(ptensor-to-cpu-pipeline{max-recompute-ops=0})",
      &message);
  report("anchored pipeline", status, message);

  // An unknown pass is an error message, not a crash.
  status = ptensorRunPipeline(module, "no-such-pass", &message);
  report("unknown pass", status, message);
  mlirModuleDestroy(module);
}

static void testErrors(MlirContext context) {
  MlirModule module = {NULL};
  char *message = NULL;
  PTensorStatus status = ptensorModuleParse(
      context, str(kInvalidModule), str("invalid.mlir"), &module, &message);
  CHECK(mlirModuleIsNull(module));
  report("invalid module", status, message);

  status = ptensorModuleParse(context, str("func.func @f( {"),
                              str("syntax.mlir"), &module, &message);
  report("syntax error", status, message);

  status = ptensorModuleParse(context, str(kAddModule), str("add.mlir"),
                              &module, &message);
  report("valid module", status, message);
  CHECK(!mlirModuleIsNull(module));

  // Break the verified module through the C API: @add now returns its
  // argument %b (ptensor<3xf32>) where ptensor<2x3xf32> is declared.
  MlirOperation func =
      mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  mlirOperationSetOperand(ret, 0, mlirBlockGetArgument(entry, 1));
  status = ptensorOperationVerify(mlirModuleGetOperation(module), &message);
  report("broken module", status, message);
  status = ptensorRunPipeline(module, "ptensor-to-cpu-pipeline", &message);
  report("pipeline on broken module", status, message);
  mlirModuleDestroy(module);
}

//===----------------------------------------------------------------------===//
// JIT with DLPack tensors
//===----------------------------------------------------------------------===//

static DLTensor makeTensor(void *data, DLDataType dtype, int32_t ndim,
                           int64_t *shape, int64_t *strides,
                           uint64_t byteOffset) {
  DLTensor t;
  t.data = data;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = ndim;
  t.dtype = dtype;
  t.shape = shape;
  t.strides = strides;
  t.byte_offset = byteOffset;
  return t;
}

static DLDataType dtype(uint8_t code, uint8_t bits) {
  DLDataType t;
  t.code = code;
  t.bits = bits;
  t.lanes = 1;
  return t;
}

/// Element `index` (a multi-index) of a strided result, as a byte pointer.
static const char *elementAt(const DLTensor *t, const int64_t *index) {
  int64_t offset = 0;
  for (int32_t d = 0; d < t->ndim; ++d)
    offset += index[d] * t->strides[d];
  return (const char *)t->data + t->byte_offset + offset * (t->dtype.bits / 8);
}

/// Checks a 2x3 f32 result against expected[i][j].
static void checkResult2x3(const char *label, DLManagedTensor *result,
                           float expected[2][3]) {
  const DLTensor *t = &result->dl_tensor;
  CHECK(t->ndim == 2 && t->shape[0] == 2 && t->shape[1] == 3);
  CHECK(t->dtype.code == kDLFloat && t->dtype.bits == 32 && t->dtype.lanes == 1);
  CHECK(t->device.device_type == kDLCPU);
  int mismatches = 0;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j) {
      int64_t index[2] = {i, j};
      float value;
      memcpy(&value, elementAt(t, index), sizeof value);
      if (value != expected[i][j]) {
        fprintf(stderr, "%s[%lld][%lld] = %g, expected %g\n", label,
                (long long)i, (long long)j, value, expected[i][j]);
        ++mismatches;
      }
    }
  CHECK(mismatches == 0);
  printf("%s: shape [%lld, %lld], %d mismatches\n", label,
         (long long)t->shape[0], (long long)t->shape[1], mismatches);
}

static void testJIT(void) {
  PTensorJITModule module = {NULL};
  char *message = NULL;
  /* "" disables the disk cache: this test always compiles. */
  PTensorStatus status = ptensorJITCompile(kJITModule, "", &module, &message);
  report("jit compile", status, message);
  if (status != PTENSOR_STATUS_OK) {
    ++failures;
    return;
  }
  intptr_t count = ptensorJITModuleGetNumFunctions(module);
  printf("functions:");
  for (intptr_t i = 0; i < count; ++i)
    printf(" @%s", ptensorJITModuleGetFunctionName(module, i));
  printf("\n");
  intptr_t numArgs = -1, numResults = -1;
  CHECK(ptensorJITModuleGetFunctionArity(module, "axpy", &numArgs,
                                         &numResults) == PTENSOR_STATUS_OK);
  CHECK(numArgs == 3 && numResults == 1);

  DLDataType f32 = dtype(kDLFloat, 32);
  float a[6] = {1, 2, 3, 4, 5, 6}; /* 2x3 row-major */
  float b[3] = {10, 20, 30};
  int64_t aShape[2] = {2, 3}, bShape[1] = {3};
  float expected[2][3];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      expected[i][j] = a[i * 3 + j] + b[j];

  /* Compact tensors (NULL strides) with a broadcast 3-vector. */
  {
    DLTensor ta = makeTensor(a, f32, 2, aShape, NULL, 0);
    DLTensor tb = makeTensor(b, f32, 1, bShape, NULL, 0);
    PTensorJITArg args[2] = {ptensorJITArgTensor(&ta), ptensorJITArgTensor(&tb)};
    DLManagedTensor *result = NULL;
    status = ptensorJITInvoke(module, "add", args, 2, &result, 1, &message);
    report("add", status, message);
    if (result) {
      checkResult2x3("add result", result, expected);
      result->deleter(result);
    }
  }

  /* A transposed view (the 2x3 operand stored as its 3x2 transpose, strides
     {1, 2}) and a reversed vector (stride -1, byte_offset at its last
     element). */
  {
    float at[6]; /* at[j][i] = a[i][j] */
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        at[j * 2 + i] = a[i * 3 + j];
    float brev[3] = {b[2], b[1], b[0]};
    int64_t atStrides[2] = {1, 2};
    int64_t brevStrides[1] = {-1};
    DLTensor ta = makeTensor(at, f32, 2, aShape, atStrides, 0);
    DLTensor tb = makeTensor(brev, f32, 1, bShape, brevStrides, 2 * sizeof(float));
    PTensorJITArg args[2] = {ptensorJITArgTensor(&ta), ptensorJITArgTensor(&tb)};
    DLManagedTensor *result = NULL;
    status = ptensorJITInvoke(module, "add", args, 2, &result, 1, &message);
    report("add strided", status, message);
    if (result) {
      checkResult2x3("add strided result", result, expected);
      result->deleter(result);
    }
  }

  /* Scalars and dynamic shapes: axpy(x, 2.5, y) = 2.5 * x + y, f64. */
  {
    double x[5] = {1, -2, 3.5, 0, 1e10}, y[5] = {0.5, 0.25, -1, 7, 1};
    int64_t shape[1] = {5};
    DLTensor tx = makeTensor(x, dtype(kDLFloat, 64), 1, shape, NULL, 0);
    DLTensor ty = makeTensor(y, dtype(kDLFloat, 64), 1, shape, NULL, 0);
    PTensorJITArg args[3] = {ptensorJITArgTensor(&tx), ptensorJITArgF64(2.5),
                             ptensorJITArgTensor(&ty)};
    DLManagedTensor *result = NULL;
    status = ptensorJITInvoke(module, "axpy", args, 3, &result, 1, &message);
    report("axpy", status, message);
    if (result) {
      const DLTensor *t = &result->dl_tensor;
      CHECK(t->ndim == 1 && t->shape[0] == 5 && t->dtype.bits == 64);
      int mismatches = 0;
      for (int64_t i = 0; i < 5; ++i) {
        double value;
        memcpy(&value, elementAt(t, &i), sizeof value);
        mismatches += value != 2.5 * x[i] + y[i];
      }
      CHECK(mismatches == 0);
      printf("axpy result: %d mismatches\n", mismatches);
      result->deleter(result);
    }
  }

  /* A bool result comes back with DLPack's bool code. */
  {
    float x[4] = {1, NAN, -INFINITY, NAN};
    int64_t shape[1] = {4};
    DLTensor tx = makeTensor(x, f32, 1, shape, NULL, 0);
    PTensorJITArg arg = ptensorJITArgTensor(&tx);
    DLManagedTensor *result = NULL;
    status = ptensorJITInvoke(module, "isnan", &arg, 1, &result, 1, &message);
    report("isnan", status, message);
    if (result) {
      const DLTensor *t = &result->dl_tensor;
      CHECK(t->dtype.code == PTENSOR_DLPACK_BOOL_CODE && t->dtype.bits == 8);
      printf("isnan result:");
      for (int64_t i = 0; i < 4; ++i)
        printf(" %d", (int)*(const unsigned char *)elementAt(t, &i));
      printf("\n");
      result->deleter(result);
    }
  }

  /* Errors: nothing runs, results stay NULL, the message says why. */
  {
    double ad[6] = {0};
    DLTensor ta = makeTensor(ad, dtype(kDLFloat, 64), 2, aShape, NULL, 0);
    DLTensor tb = makeTensor(b, f32, 1, bShape, NULL, 0);
    PTensorJITArg args[2] = {ptensorJITArgTensor(&ta), ptensorJITArgTensor(&tb)};
    DLManagedTensor *result = (DLManagedTensor *)&ta; /* must be reset */
    status = ptensorJITInvoke(module, "add", args, 2, &result, 1, &message);
    CHECK(result == NULL);
    report("wrong dtype", status, message);

    DLTensor tc = makeTensor(a, dtype(kDLComplex, 64), 2, aShape, NULL, 0);
    args[0] = ptensorJITArgTensor(&tc);
    status = ptensorJITInvoke(module, "add", args, 2, &result, 1, &message);
    report("complex dtype", status, message);

    DLTensor tg = makeTensor(a, f32, 2, aShape, NULL, 0);
    tg.device.device_type = kDLCUDA;
    args[0] = ptensorJITArgTensor(&tg);
    status = ptensorJITInvoke(module, "add", args, 2, &result, 1, &message);
    report("device tensor", status, message);

    DLTensor ts = makeTensor(a, f32, 2, aShape, NULL, 0);
    int64_t wrongShape[1] = {4};
    DLTensor tw = makeTensor(b, f32, 1, wrongShape, NULL, 0);
    args[0] = ptensorJITArgTensor(&ts);
    args[1] = ptensorJITArgTensor(&tw);
    status = ptensorJITInvoke(module, "add", args, 2, &result, 1, &message);
    report("wrong shape", status, message);

    args[1] = ptensorJITArgF64(1.0);
    status = ptensorJITInvoke(module, "add", args, 2, &result, 1, &message);
    report("scalar for tensor", status, message);

    status = ptensorJITInvoke(module, "add", args, 1, &result, 1, &message);
    report("too few arguments", status, message);

    status = ptensorJITInvoke(module, "add", args, 2, NULL, 0, &message);
    report("no room for results", status, message);

    status = ptensorJITInvoke(module, "sub", args, 2, &result, 1, &message);
    report("unknown function", status, message);

    /* Sizes known only at run time that do not broadcast: an error value
       from the compiled code's check; the module stays usable. */
    double x3[3] = {1, 2, 3}, y4[4] = {0}, y1[1] = {10};
    int64_t three[1] = {3}, four[1] = {4}, one[1] = {1};
    DLTensor tx = makeTensor(x3, dtype(kDLFloat, 64), 1, three, NULL, 0);
    DLTensor ty = makeTensor(y4, dtype(kDLFloat, 64), 1, four, NULL, 0);
    PTensorJITArg axpyArgs[3] = {ptensorJITArgTensor(&tx), ptensorJITArgF64(2.0),
                                 ptensorJITArgTensor(&ty)};
    status = ptensorJITInvoke(module, "axpy", axpyArgs, 3, &result, 1, &message);
    CHECK(result == NULL);
    report("run-time broadcast", status, message);
    DLTensor t1 = makeTensor(y1, dtype(kDLFloat, 64), 1, one, NULL, 0);
    axpyArgs[2] = ptensorJITArgTensor(&t1);
    status = ptensorJITInvoke(module, "axpy", axpyArgs, 3, &result, 1, &message);
    report("after the failure", status, message);
    if (status == PTENSOR_STATUS_OK) {
      const double *r = (const double *)result->dl_tensor.data;
      CHECK(result->dl_tensor.shape[0] == 3 && r[0] == 12 && r[2] == 16);
      result->deleter(result);
    }

    /* Failures of the compiled code's runtime calls map to their own
       statuses: a negative size is an invalid argument, a host allocation
       the machine cannot give is RESOURCE_EXHAUSTED. */
    PTensorJITArg size = ptensorJITArgI64(-3);
    status = ptensorJITInvoke(module, "fill", &size, 1, &result, 1, &message);
    CHECK(result == NULL);
    report("negative size", status, message);
    size = ptensorJITArgI64((int64_t)1 << 40);
    status = ptensorJITInvoke(module, "fill", &size, 1, &result, 1, &message);
    CHECK(result == NULL);
    report("4 TiB result", status, message);
    size = ptensorJITArgI64(5);
    status = ptensorJITInvoke(module, "fill", &size, 1, &result, 1, &message);
    report("after the failures", status, message);
    if (status == PTENSOR_STATUS_OK) {
      const float *r = (const float *)result->dl_tensor.data;
      CHECK(result->dl_tensor.shape[0] == 5 && r[0] == 2 && r[4] == 2);
      result->deleter(result);
    }
  }
  ptensorJITModuleDestroy(module);

  /* A module that does not compile. */
  status = ptensorJITCompile(kInvalidModule, "", &module, &message);
  CHECK(ptensorJITModuleIsNull(module));
  report("jit compile invalid", status, message);
}

/// The semantic rules without a context: promotion, op-kind result dtypes
/// and broadcasting, with the messages of the dialect's type inference.
static void testSemantics(void) {
  PTensorDType dt;
  char *message = NULL;
  CHECK(strcmp(ptensorDTypeGetName(PTENSOR_DTYPE_UI16), "ui16") == 0);
  CHECK(ptensorDTypeFromName("bf16", &dt) == PTENSOR_STATUS_OK &&
        dt == PTENSOR_DTYPE_BF16);
  CHECK(ptensorDTypeFromName("f128", &dt) == PTENSOR_STATUS_INVALID_ARGUMENT);

  PTensorPromotionOperand mixed[] = {{PTENSOR_DTYPE_UI8, false},
                                     {PTENSOR_DTYPE_I8, false}};
  CHECK(ptensorPromoteDTypes(mixed, 2, &dt, &message) == PTENSOR_STATUS_OK &&
        dt == PTENSOR_DTYPE_I16);
  PTensorPromotionOperand weak[] = {{PTENSOR_DTYPE_I32, false},
                                    {PTENSOR_DTYPE_F64, true}};
  CHECK(ptensorPromoteDTypes(weak, 2, &dt, &message) == PTENSOR_STATUS_OK &&
        dt == PTENSOR_DTYPE_F32);
  PTensorPromotionOperand bad[] = {{PTENSOR_DTYPE_UI64, false},
                                   {PTENSOR_DTYPE_I8, false}};
  PTensorStatus status = ptensorPromoteDTypes(bad, 2, &dt, &message);
  report("promote ui64 i8", status, message);

  PTensorPromotionOperand ints[] = {{PTENSOR_DTYPE_I32, false}};
  CHECK(ptensorElementwiseResultDType("elementwise_unary", "exp", ints, 1, &dt,
                                      &message) == PTENSOR_STATUS_OK &&
        dt == PTENSOR_DTYPE_F32);
  PTensorPromotionOperand floats[] = {{PTENSOR_DTYPE_F32, false},
                                      {PTENSOR_DTYPE_I64, true}};
  status = ptensorElementwiseResultDType("elementwise_binary", "bitwise_and",
                                         floats, 2, &dt, &message);
  report("bitwise_and f32", status, message);
  status = ptensorElementwiseResultDType("elementwise_binary", "frobnicate",
                                         floats, 2, &dt, &message);
  report("unknown kind", status, message);

  const int64_t a[] = {4, PTENSOR_DYNAMIC_SIZE}, b[] = {3, 1}, c[] = {5};
  const int64_t *shapes[] = {a, b, c};
  size_t ranks[] = {2, 2, 1}, rank = 0;
  int64_t out[4];
  status = ptensorBroadcastShapes(shapes, ranks, 2, out, 4, &rank, &message);
  report("broadcast [4, ?] [3, 1]", status, message);
  const int64_t *good[] = {a, c};
  size_t goodRanks[] = {2, 1};
  CHECK(ptensorBroadcastShapes(good, goodRanks, 2, out, 4, &rank, &message) ==
            PTENSOR_STATUS_OK &&
        rank == 2 && out[0] == 4 && out[1] == 5);
}

int main(void) {
  MlirContext context = createContext();
  testTypes(context);
  testParseAndPipeline(context);
  testErrors(context);
  mlirContextDestroy(context);
  testJIT();
  testSemantics();
  printf("failures: %d\n", failures);
  return failures == 0 ? 0 : 1;
}
