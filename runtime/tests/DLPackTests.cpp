//===- DLPackTests.cpp - DLPack export/import round trips -----------------===//

#include "TestUtil.h"

#include "ptensor/Runtime/PTensorRuntime.h"

#include <cstring>
#include <string>

using namespace ptensor::rt::test;

namespace {

ptensor_rt_strided_desc makeDesc() {
  ptensor_rt_strided_desc d;
  std::memset(&d, 0, sizeof(d));
  d.data = reinterpret_cast<void *>(0x10000);
  d.offset_elems = 5;
  d.rank = 3;
  const int64_t sizes[] = {2, 3, 4};
  const int64_t strides[] = {12, 1, 3}; // Non-contiguous on purpose.
  for (int i = 0; i < 3; ++i) {
    d.sizes[i] = sizes[i];
    d.strides[i] = strides[i];
  }
  d.dtype_code = kDLFloat;
  d.dtype_bits = 32;
  d.dtype_lanes = 1;
  d.device_type = kDLCUDA;
  d.device_id = 1;
  return d;
}

int releaseCalls = 0;
void *releasedContext = nullptr;
void countRelease(void *context) {
  ++releaseCalls;
  releasedContext = context;
}

void testRoundTrip() {
  ptensor_rt_strided_desc desc = makeDesc();
  int owner = 0;
  DLManagedTensor *managed = ptensor_rt_dlpack_export(&desc, countRelease, &owner);
  EXPECT_TRUE(managed != nullptr);
  if (!managed)
    return;
  const DLTensor &t = managed->dl_tensor;
  std::printf("exported: ndim=%d shape=[%lld,%lld,%lld] strides=[%lld,%lld,"
              "%lld] byte_offset=%llu dtype=(%u,%u,%u) device=(%d,%d)\n",
              t.ndim, (long long)t.shape[0], (long long)t.shape[1],
              (long long)t.shape[2], (long long)t.strides[0],
              (long long)t.strides[1], (long long)t.strides[2],
              (unsigned long long)t.byte_offset, t.dtype.code, t.dtype.bits,
              t.dtype.lanes, int(t.device.device_type), t.device.device_id);
  EXPECT_EQ(t.byte_offset, 20u);
  EXPECT_TRUE(t.data == desc.data);
  EXPECT_TRUE(t.shape != desc.sizes); // Copied, not aliased.

  ptensor_rt_strided_desc back;
  std::memset(&back, 0xff, sizeof(back));
  EXPECT_EQ(ptensor_rt_dlpack_import(managed, &back), PTENSOR_RT_SUCCESS);
  std::printf("round trip identical: %s\n",
              std::memcmp(&back, &desc, sizeof(desc)) == 0 ? "yes" : "no");
  EXPECT_TRUE(std::memcmp(&back, &desc, sizeof(desc)) == 0);

  managed->deleter(managed);
  std::printf("deleter released the owner: %d call(s)\n", releaseCalls);
  EXPECT_EQ(releaseCalls, 1);
  EXPECT_TRUE(releasedContext == &owner);

  // No release callback: the buffer is borrowed.
  managed = ptensor_rt_dlpack_export(&desc, nullptr, nullptr);
  EXPECT_TRUE(managed != nullptr);
  if (managed)
    managed->deleter(managed);
  EXPECT_EQ(releaseCalls, 1);
}

void testScalarBoolBfloatAndDescribe() {
  ptensor_rt_strided_desc scalar;
  std::memset(&scalar, 0, sizeof(scalar));
  scalar.data = &scalar;
  scalar.dtype_code = 6; // kDLBool
  scalar.dtype_bits = 8;
  scalar.dtype_lanes = 1;
  scalar.device_type = kDLCPU;
  DLTensor view;
  EXPECT_EQ(ptensor_rt_dlpack_describe(&scalar, &view), PTENSOR_RT_SUCCESS);
  ptensor_rt_strided_desc back;
  EXPECT_EQ(ptensor_rt_dltensor_import(&view, &back), PTENSOR_RT_SUCCESS);
  EXPECT_TRUE(std::memcmp(&back, &scalar, sizeof(back)) == 0);

  ptensor_rt_strided_desc bf16 = makeDesc();
  bf16.dtype_code = kDLBfloat;
  bf16.dtype_bits = 16;
  EXPECT_EQ(ptensor_rt_dlpack_describe(&bf16, &view), PTENSOR_RT_SUCCESS);
  EXPECT_TRUE(view.shape == bf16.sizes); // describe aliases the descriptor.
  EXPECT_EQ(view.byte_offset, 10u);
  std::printf("rank-0 bool and bfloat16 views: ok\n");
}

void testNullStridesAreRowMajor() {
  int64_t shape[] = {2, 3, 4};
  float storage[24];
  DLTensor t;
  std::memset(&t, 0, sizeof(t));
  t.data = storage;
  t.device = {kDLCPU, 0};
  t.ndim = 3;
  t.dtype = {kDLFloat, 32, 1};
  t.shape = shape;
  t.strides = nullptr;
  ptensor_rt_strided_desc d;
  EXPECT_EQ(ptensor_rt_dltensor_import(&t, &d), PTENSOR_RT_SUCCESS);
  std::printf("NULL strides -> [%lld,%lld,%lld]\n", (long long)d.strides[0],
              (long long)d.strides[1], (long long)d.strides[2]);
  EXPECT_EQ(d.strides[0], 12);
  EXPECT_EQ(d.strides[1], 4);
  EXPECT_EQ(d.strides[2], 1);
  EXPECT_EQ(d.sizes[3], 0);
}

/// Imports `t`, expecting failure with `status`, and that `out` is untouched.
void expectRejected(const char *label, const DLTensor &t,
                    ptensor_rt_status expected) {
  ptensor_rt_strided_desc out;
  std::memset(&out, 0xab, sizeof(out));
  ptensor_rt_strided_desc before = out;
  ptensor_rt_status status = ptensor_rt_dltensor_import(&t, &out);
  std::printf("%s: %s\n", label, ptensor_rt_last_error());
  EXPECT_EQ(status, expected);
  EXPECT_TRUE(std::memcmp(&out, &before, sizeof(out)) == 0);
}

void testRejections() {
  int64_t shape[] = {4, 4};
  float storage[16];
  DLTensor good;
  std::memset(&good, 0, sizeof(good));
  good.data = storage;
  good.device = {kDLCUDA, 0};
  good.ndim = 2;
  good.dtype = {kDLFloat, 32, 1};
  good.shape = shape;

  DLTensor t = good;
  t.dtype = {kDLComplex, 64, 1};
  expectRejected("complex64", t, PTENSOR_RT_ERROR_UNSUPPORTED);
  t = good;
  t.dtype = {kDLFloat, 8, 1};
  expectRejected("float8", t, PTENSOR_RT_ERROR_UNSUPPORTED);
  t = good;
  t.dtype = {kDLFloat, 32, 4};
  expectRejected("float32x4", t, PTENSOR_RT_ERROR_UNSUPPORTED);
  t = good;
  t.byte_offset = 6;
  expectRejected("byte_offset 6", t, PTENSOR_RT_ERROR_UNSUPPORTED);
  t = good;
  t.ndim = 9;
  expectRejected("rank 9", t, PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  t = good;
  int64_t negative[] = {4, -1};
  t.shape = negative;
  expectRejected("negative size", t, PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  t = good;
  t.device = {kDLROCM, 0};
  expectRejected("ROCm device", t, PTENSOR_RT_ERROR_UNSUPPORTED);
  t = good;
  t.data = nullptr;
  expectRejected("NULL data", t, PTENSOR_RT_ERROR_INVALID_ARGUMENT);
  t = good;
  t.shape = nullptr;
  expectRejected("NULL shape", t, PTENSOR_RT_ERROR_INVALID_ARGUMENT);

  ptensor_rt_strided_desc out;
  EXPECT_EQ(ptensor_rt_dlpack_import(nullptr, &out),
            PTENSOR_RT_ERROR_INVALID_ARGUMENT);

  // Empty tensors may have a NULL data pointer.
  t = good;
  int64_t empty[] = {0, 4};
  t.shape = empty;
  t.data = nullptr;
  EXPECT_EQ(ptensor_rt_dltensor_import(&t, &out), PTENSOR_RT_SUCCESS);

  ptensor_rt_strided_desc desc = makeDesc();
  desc.offset_elems = -1;
  EXPECT_TRUE(ptensor_rt_dlpack_export(&desc, countRelease, nullptr) == nullptr);
  std::printf("export of offset -1: %s\n", ptensor_rt_last_error());
  desc = makeDesc();
  desc.rank = 9;
  EXPECT_TRUE(ptensor_rt_dlpack_export(&desc, nullptr, nullptr) == nullptr);
  std::printf("export of rank 9: %s\n", ptensor_rt_last_error());
  EXPECT_TRUE(ptensor_rt_dlpack_export(nullptr, nullptr, nullptr) == nullptr);
  std::printf("export of NULL: %s\n", ptensor_rt_last_error());
  EXPECT_EQ(releaseCalls, 1); // Failed exports never call release.
}

} // namespace

int ptensor::rt::test::runDLPackTests() {
  testRoundTrip();
  testScalarBoolBfloatAndDescribe();
  testNullStridesAreRowMajor();
  testRejections();
  return failureCount();
}
