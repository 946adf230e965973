#!/usr/bin/env bash
# ptensor-runner on a GPU machine without LLVM/MLIR, in two halves:
#
#   bash scripts/gpu-runner-pack.sh pack   # here: builds the statically
#                                          # linked ptensor-runner in
#                                          # build-static (PTENSOR_STATIC_TOOLS)
#                                          # and writes .carry/runner
#   then, through the device tool, with carry [".carry/runner"]:
#   bash scripts/gpu-runner-pack.sh run    # there: unpacks the runner into
#                                          # $TMPDIR, runs the cases on cuda:0
#                                          # and compares with numpy
#   bash scripts/gpu-runner-pack.sh teams [ARGS]  # there: team scaling on
#                                          # the host's cores under mpirun
#                                          # (bench/teams.py ARGS)
#   bash scripts/gpu-runner-pack.sh gpu-teams     # there: the team tests
#                                          # with GPU tensors under mpirun
#                                          # (test/Integration/Teams/teams.py)
#   bash scripts/gpu-runner-pack.sh gpu-teams-bench  # there: GPU team
#                                          # collectives, NCCL and host
#                                          # buffers beside torch
#                                          # (bench/gpu_teams.py)
#
# .carry/runner holds ptensor-runner.xz (stripped, xz -9), the stripped
# libptensor_runtime.so (found next to the runner) with its host sort and
# CUB libraries, cases.mlir, the .npy
# inputs and the expected outputs computed with numpy. The GPU machine needs
# glibc, libstdc++, python3 + numpy, a CUDA driver, and the CUDA toolkit's
# ptxas and libdevice under $CUDA_HOME (default /usr/local/cuda).
set -uo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
pack_dir="$root/.carry/runner"
build="$root/build-static"

# The cases: name, function, inputs (files in $pack_dir/inputs).
cases=(
  "add_small add a23 b23"
  "add_large add a_big b_big"
  "chain chain a_big b_big"
  "roundtrip roundtrip a_big"
  "add_i32 add_i32 i_a i_b"
)

write_module() {
  cat > "$1" <<'EOF'
// Cases of scripts/gpu-runner-pack.sh: device add, a fused chain on the
// device, and a host -> device -> host round trip.
func.func @add(%a: !ptensor.ptensor<?x?xf32, device = "cuda:0">, %b: !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?x?xf32, device = "cuda:0">
}

// exp((a + b) * a - b)
func.func @chain(%a: !ptensor.ptensor<?x?xf32, device = "cuda:0">, %b: !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0"> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %1 = ptensor.elementwise_binary multiply %0, %a : (!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %2 = ptensor.elementwise_binary subtract %1, %b : (!ptensor.ptensor<?x?xf32, device = "cuda:0">, !ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %3 = ptensor.elementwise_unary exp %2 : (!ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  return %3 : !ptensor.ptensor<?x?xf32, device = "cuda:0">
}

func.func @roundtrip(%a: !ptensor.ptensor<?x?xf32>) -> !ptensor.ptensor<?x?xf32> {
  %d = ptensor.copy %a : !ptensor.ptensor<?x?xf32> -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %e = ptensor.elementwise_unary exp %d : (!ptensor.ptensor<?x?xf32, device = "cuda:0">) -> !ptensor.ptensor<?x?xf32, device = "cuda:0">
  %h = ptensor.copy %e : !ptensor.ptensor<?x?xf32, device = "cuda:0"> -> !ptensor.ptensor<?x?xf32>
  return %h : !ptensor.ptensor<?x?xf32>
}

func.func @add_i32(%a: !ptensor.ptensor<?xi32, device = "cuda:0">, %b: !ptensor.ptensor<?xi32, device = "cuda:0">) -> !ptensor.ptensor<?xi32, device = "cuda:0"> {
  %0 = ptensor.elementwise_binary add %a, %b : (!ptensor.ptensor<?xi32, device = "cuda:0">, !ptensor.ptensor<?xi32, device = "cuda:0">) -> !ptensor.ptensor<?xi32, device = "cuda:0">
  return %0 : !ptensor.ptensor<?xi32, device = "cuda:0">
}
EOF
}

write_data() {
  python3 - "$1" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(0)
def save(name, a):
    np.save(f"{d}/inputs/{name}.npy", a)
    return a
a23 = save("a23", np.arange(6, dtype=np.float32).reshape(2, 3))
b23 = save("b23", np.full((2, 3), 0.5, np.float32))
# Not a multiple of any block size; several blocks (small: the carry is limited).
a = save("a_big", rng.uniform(-1, 1, (300, 517)).astype(np.float32))
b = save("b_big", rng.uniform(-1, 1, (300, 517)).astype(np.float32))
ia = save("i_a", rng.integers(-2**30, 2**30, 50003, dtype=np.int32))
ib = save("i_b", rng.integers(-2**30, 2**30, 50003, dtype=np.int32))
expected = {
    "add_small": a23 + b23,
    "add_large": a + b,
    "chain": np.exp((a + b) * a - b),
    "roundtrip": np.exp(a),
    "add_i32": ia + ib,
}
for name, e in expected.items():
    np.save(f"{d}/expected/{name}.npy", e)
EOF
}

pack() {
  set -e
  if [ ! -f "$build/build.ninja" ]; then
    local ld=()
    command -v ld.lld >/dev/null && ld=(-DLLVM_USE_LINKER=lld)
    cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DPTENSOR_STATIC_TOOLS=ON "${ld[@]}"
  fi
  ninja -C "$build" ptensor-runner ptensor_runtime ptensor_runtime_vqsort
  rm -rf "$pack_dir" && mkdir -p "$pack_dir/inputs" "$pack_dir/expected"
  strip -o "$pack_dir/ptensor-runner" "$build/bin/ptensor-runner"
  strip --strip-unneeded -o "$pack_dir/libptensor_runtime.so" "$build/lib/libptensor_runtime.so"
  # The host sort's library (loaded beside the runtime) and its Highway.
  strip --strip-unneeded -o "$pack_dir/libptensor_runtime_vqsort.so" \
    "$build/lib/libptensor_runtime_vqsort.so"
  for lib in libhwy.so.1 libhwy_contrib.so.1; do
    cp -L "$(ldd "$build/lib/libptensor_runtime_vqsort.so" | awk -v l="$lib" '$1 == l {print $3}')" "$pack_dir/"
  done
  # The CUB code (GPU sorts and compaction), loaded beside the runtime too.
  strip --strip-unneeded -o "$pack_dir/libptensor_runtime_cuda.so" \
    "$(bash scripts/build-cuda-kernels.sh)"
  echo "== ptensor-runner: $(stat -c %s "$build/bin/ptensor-runner") bytes," \
    "stripped $(stat -c %s "$pack_dir/ptensor-runner")"
  ldd "$pack_dir/ptensor-runner"
  write_module "$pack_dir/cases.mlir"
  write_data "$pack_dir"
  echo "== compiling the cases here (--compile-only)"
  local c name fn ins args
  for c in "${cases[@]}"; do
    read -r name fn ins <<<"$c"
    args=()
    for i in $ins; do args+=(--input "$pack_dir/inputs/$i.npy"); done
    "$pack_dir/ptensor-runner" "$pack_dir/cases.mlir" -e "$fn" --compile-only "${args[@]}"
  done
  xz -9 -T2 -f "$pack_dir/ptensor-runner"
  echo "== ptensor-runner.xz: $(stat -c %s "$pack_dir/ptensor-runner.xz") bytes"
  du -sh "$pack_dir"
}

# The runner and its libraries, unpacked into $tmp.
unpack() {
  rm -rf "$tmp" && mkdir -p "$tmp/out"
  xz -dc "$pack_dir/ptensor-runner.xz" > "$tmp/ptensor-runner" && chmod +x "$tmp/ptensor-runner"
  cp "$pack_dir"/lib*.so* "$tmp/"
}

run() {
  local tmp="${TMPDIR:-/tmp}/ptensor-gpu-runner" status=0 passed=0 failed=0
  unpack
  export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
  command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  if [ -x "$CUDA_HOME/bin/ptxas" ]; then
    echo "ptxas: $("$CUDA_HOME/bin/ptxas" --version | tail -1)"
  else
    echo "warning: no $CUDA_HOME/bin/ptxas (set CUDA_HOME to the CUDA toolkit)"
  fi
  [ -f "$CUDA_HOME/nvvm/libdevice/libdevice.10.bc" ] ||
    echo "warning: no $CUDA_HOME/nvvm/libdevice/libdevice.10.bc"
  if ldd "$tmp/ptensor-runner" | grep -q "not found"; then
    echo "FAIL: missing shared libraries:"; ldd "$tmp/ptensor-runner" | grep "not found"
    return 1
  fi
  local c name fn ins args log
  for c in "${cases[@]}"; do
    read -r name fn ins <<<"$c"
    args=()
    for i in $ins; do args+=(--input "$pack_dir/inputs/$i.npy"); done
    log="$tmp/out/$name.log"
    if ! "$tmp/ptensor-runner" "$pack_dir/cases.mlir" -e "$fn" "${args[@]}" \
         --output-dir "$tmp/out/$name" --report-latency > "$log" 2>&1; then
      echo "FAIL $name: ptensor-runner failed; its output ends with:"
      tail -n 8 "$log" | sed 's/^/    /'
      [ -n "${OUT:-}" ] && cp "$log" "$OUT/"
      failed=$((failed + 1)); continue
    fi
    if python3 - "$tmp/out/$name/out0.npy" "$pack_dir/expected/$name.npy" <<'EOF'
import sys, numpy as np
got, want = np.load(sys.argv[1]), np.load(sys.argv[2])
if got.dtype != want.dtype or got.shape != want.shape:
    sys.exit(f"got {got.dtype}{got.shape}, expected {want.dtype}{want.shape}")
if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
    err = np.abs(got.astype(np.float64) - want)
    sys.exit(f"max abs error {err.max()} at {np.unravel_index(err.argmax(), err.shape)}")
EOF
    then
      echo "PASS $name ($(grep -m1 '^compile:' "$log" || true))"
      passed=$((passed + 1))
    else
      echo "FAIL $name: wrong result"
      failed=$((failed + 1))
    fi
  done
  echo "== $passed passed, $failed failed (logs in $tmp/out)"
  [ "$failed" -eq 0 ]
}

# libptensor_team for the unpacked runner in $tmp, built here against this
# machine's MPI (its mpicxx: Open MPI on the GPU machine; the pack's runner
# has no MPI of its own and loads the library from beside itself).
build_team_library() {
  # The semantics library whole (plain C++17), as CMake links it.
  mpicxx -O2 -std=c++17 -fPIC -shared -fvisibility=hidden -Iruntime/include -Iruntime/lib -Iinclude \
    runtime/lib/Team.cpp runtime/lib/TeamDevice.cpp lib/Semantics/*.cpp -L"$tmp" -lptensor_runtime \
    -Wl,-rpath,'$ORIGIN' -o "$tmp/libptensor_team.so" || return 1
  echo "== teams: $(mpirun --version 2>&1 | head -1), $(nproc) cores"
}

# Runs "$@" with the unpacked runner and its libraries found, under an
# Open MPI that refuses root unless told (the GPU machine's jobs run as
# root). The host sort's libptensor_runtime_vqsort.so finds libhwy beside it.
with_runner() {
  # NCCL for GPU teams (loaded by libptensor_team at its first GPU
  # collective): the toolkit's, else the one PyTorch's wheels bring.
  if [ -z "${PTENSOR_NCCL_LIBRARY:-}" ]; then
    local nccl
    for nccl in "${CUDA_HOME:-/usr/local/cuda}"/lib64/libnccl.so.2 \
                "${CUDA_HOME:-/usr/local/cuda}"/lib/libnccl.so.2 \
                "$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib", "libnccl.so.2"))' 2>/dev/null)"; do
      if [ -f "$nccl" ]; then export PTENSOR_NCCL_LIBRARY="$nccl"; break; fi
    done
  fi
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PATH="$tmp:$PATH" \
    LD_LIBRARY_PATH="$tmp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
}

# Teams on this machine's cores (bench/teams.py: weak and strong scaling
# over PTENSOR_TEAM_PROCESSES, default 1,2,4,8, one thread each).
teams() {
  local tmp="${TMPDIR:-/tmp}/ptensor-teams-runner"
  unpack
  build_team_library || return 1
  with_runner python3 bench/teams.py --processes "${PTENSOR_TEAM_PROCESSES:-1,2,4,8}" \
    --mpirun-args "--bind-to core" "$@"
}

# GPU teams: test/Integration/Teams/teams.py with every tensor on the GPU
# (the processes share this machine's GPU; collectives staged through host
# copies), each result against numpy, on PTENSOR_TEAM_PROCESSES (default
# 1,2,3: uneven blocks and processes without rows); ARGS go to teams.py
# (`--entries sorts,lines`).
gpu_teams() {
  local tmp="${TMPDIR:-/tmp}/ptensor-gpu-teams-runner"
  unpack
  build_team_library || return 1
  export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
  with_runner python3 test/Integration/Teams/teams.py --device cuda \
    --keep-going --processes "${PTENSOR_TEAM_PROCESSES:-1,2,3}" "$@"
}

# GPU team collectives on a machine with a GPU per process
# (nvidia-h200-x2): bench/gpu_teams.py, ptensor's all-reduce and gather of
# GPU blocks through NCCL and through host buffers beside torch.distributed;
# ARGS go to it (`--processes 2 --rows 8192 --cols 4096`).
gpu_teams_bench() {
  local tmp="${TMPDIR:-/tmp}/ptensor-gpu-teams-bench"
  unpack
  build_team_library || return 1
  export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
  with_runner python3 bench/gpu_teams.py "$@"
}

case "${1:-}" in
  pack) pack ;;
  run) run ;;
  teams) shift; teams "$@" ;;
  gpu-teams) shift; gpu_teams "$@" ;;
  gpu-teams-bench) shift; gpu_teams_bench "$@" ;;
  *) echo "usage: $0 pack|run|teams|gpu-teams|gpu-teams-bench" >&2; exit 2 ;;
esac
