#!/usr/bin/env bash
# Builds libptensor_runtime_cuda.so (the CUB code: GPU sorts and compaction)
# with the CUDA toolkit's nvcc in a standalone runtime build (build-cuda)
# and prints its path. libptensor_runtime loads it from beside itself; the
# GPU carries (scripts/gpu-check.sh, scripts/gpu-runner-pack.sh) ship it.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S runtime -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DPTENSOR_RUNTIME_CUDA_KERNELS=ON \
  -DPTENSOR_RUNTIME_BUILD_TESTS=OFF >/dev/null
ninja -C build-cuda ptensor_runtime_cuda >&2
echo "$(pwd)/build-cuda/lib/libptensor_runtime_cuda.so"
