//===- DeviceArrays.cpp - ptensor-runner's host<->GPU transfers -----------===//

#include "DeviceArrays.h"

#include "ptensor/Runtime/PTensorRuntime.h"

using namespace ::ptensor;
using namespace ::ptensor::runner;

/// The runtime's last error as an llvm::Error.
static llvm::Error runtimeError() {
  return llvm::createStringError(ptensor_rt_last_error());
}

llvm::Error runner::checkCudaAvailable() {
  if (ptensor_rt_cuda_available())
    return llvm::Error::success();
  return runtimeError();
}

llvm::Error runner::synchronizeDevice() {
  if (ptensor_rt_synchronize() != PTENSOR_RT_SUCCESS)
    return runtimeError();
  return llvm::Error::success();
}

/// The first element a view reaches and the number of elements of the
/// span up to the last one (0 for an empty view).
static std::pair<int64_t, int64_t> getSpan(const jit::StridedBuffer &b) {
  int64_t first = b.offset, last = b.offset;
  for (auto [size, stride] : llvm::zip(b.sizes, b.strides)) {
    if (size == 0)
      return {b.offset, 0};
    (stride < 0 ? first : last) += (size - 1) * stride;
  }
  return {first, last - first + 1};
}

/// A synchronous copy through the runtime's legacy-stream memcpy.
static llvm::Error copyBytes(void *dst, void *src, size_t bytes) {
  if (bytes == 0)
    return llvm::Error::success();
  ptensor_rt_clear_last_error();
  mgpuMemcpy(dst, src, bytes, /*stream=*/nullptr);
  if (ptensor_rt_synchronize() != PTENSOR_RT_SUCCESS)
    return runtimeError();
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<DeviceCopy>>
DeviceCopy::upload(const jit::StridedBuffer &host) {
  auto [first, count] = getSpan(host);
  size_t es = dtypeByteSize(host.dtype);
  auto copy = std::unique_ptr<DeviceCopy>(new DeviceCopy());
  if (ptensor_rt_alloc(/*device=*/0, count * es, /*stream=*/nullptr,
                       &copy->allocation_) != PTENSOR_RT_SUCCESS)
    return runtimeError();
  auto *src = static_cast<std::byte *>(host.data) + first * es;
  if (llvm::Error e = copyBytes(copy->allocation_, src, count * es))
    return std::move(e);
  copy->view_ = host;
  copy->view_.data = copy->allocation_;
  copy->view_.offset = host.offset - first;
  return copy;
}

DeviceCopy::~DeviceCopy() { ptensor_rt_free(allocation_, /*stream=*/nullptr); }

llvm::Expected<jit::StridedBuffer>
runner::download(const jit::StridedBuffer &device,
                 std::vector<std::byte> &storage) {
  auto [first, count] = getSpan(device);
  size_t es = dtypeByteSize(device.dtype);
  storage.resize(count * es);
  auto *src = static_cast<std::byte *>(device.data) + first * es;
  if (llvm::Error e = copyBytes(storage.data(), src, count * es))
    return std::move(e);
  jit::StridedBuffer host = device;
  host.data = storage.data();
  host.offset = device.offset - first;
  return host;
}
