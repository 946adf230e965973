#!/usr/bin/env bash
# The GPU check, in two halves (the GPU machine has no LLVM/MLIR):
#
#   bash scripts/gpu-check.sh prepare   # here: build, compile every GPU
#                                       # kernel ahead of time into .carry/gpu
#   then, through the device tool, with carry [".carry"]:
#   bash scripts/gpu-check.sh run       # there: runtime smoke test, every
#                                       # numeric case of the CPU suite on
#                                       # cuda:0 (the CUB cases also under
#                                       # compute-sanitizer), the Python GPU
#                                       # tests and the benchmark; prints a
#                                       # summary
#   bash scripts/gpu-check.sh prepare-compile  # here, then with carry
#   bash scripts/gpu-check.sh compile   # [".carry/compiler"] there: the
#                                       # statically linked ptensor-compile's
#                                       # cold compile beside CuPy's and
#                                       # torch.compile's (bench/cold_compile.py)
#   bash scripts/gpu-check.sh prepare-profile   # here, minutes: only what
#                                       # `run profile` reads (the runtime,
#                                       # the first-call cache, nanobind)
#   bash scripts/gpu-check.sh prepare-host   # here, a minute: only what
#                                       # `run host` reads
#   bash scripts/gpu-check.sh run python,bench   # some of the steps smoke,
#                                       # cases, sanitizer, python, profile,
#                                       # kernels (torch.profiler's kernels
#                                       # of PTENSOR_BENCH_CASES beside
#                                       # torch's), teams (team scaling on
#                                       # the host's cores: needs
#                                       # gpu-runner-pack.sh pack first;
#                                       # not part of "all"), gpu-teams
#                                       # (the team tests on GPU tensors;
#                                       # likewise), gpu-teams-nccl (the
#                                       # same with a GPU per process and
#                                       # NCCL required, then the NCCL /
#                                       # host-buffer / torch collectives
#                                       # bench: nvidia-h200-x2), host
#                                       # (bench/cpu_elementwise.py on the
#                                       # host's cores, 1, 4 and 16 threads
#                                       # or PTENSOR_HOST_THREADS, beside
#                                       # numpy; not part of "all"), ncu
#                                       # (Nsight Compute's throughput,
#                                       # occupancy and stall sections for
#                                       # the kernels of PTENSOR_BENCH_CASES
#                                       # and torch's, the 4th launch of
#                                       # each name matching PTENSOR_NCU_KERNELS;
#                                       # not part of "all"), bench
#
# While working on kernels, `PTENSOR_BENCH_CASES=sum_rows,var_rows bash
# scripts/gpu-check.sh prepare-bench` recompiles only those benchmark cases
# into the existing carry (minutes less than prepare), and the same
# variable given to `run bench` times only them. `PTENSOR_CASE_TESTS=
# reductions PTENSOR_BENCH_CASES=sum_rows bash scripts/gpu-check.sh
# prepare-quick` makes a fresh carry with only those cases and benchmark
# cases, for `run cases,bench`.
set -uo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
carry="$root/.carry/gpu"

prepare() {
  set -e
  ninja -C build
  rm -rf "$carry" && mkdir -p "$carry/cases" "$carry/bench" "$carry/pycache"
  cp build/lib/libptensor_runtime.so build/lib/libptensor_runtime_vqsort.so \
    build/bin/ptensor-runtime-gpu-smoke "$carry/"
  # The CUB code (GPU sorts, compaction); loaded from beside libptensor_runtime.so.
  cp "$(bash scripts/build-cuda-kernels.sh)" "$carry/"
  # The host sort's Highway (libhwy-dev here; not on the GPU machine), and
  # the OpenMP runtime parallel host code forks on (LLVM's; no LLVM there:
  # the runtime loads it as libomp.so.5 through LD_LIBRARY_PATH).
  for lib in libhwy.so.1 libhwy_contrib.so.1; do
    cp -L "$(ldd build/lib/libptensor_runtime_vqsort.so | awk -v l="$lib" '$1 == l {print $3}')" "$carry/"
  done
  cp -L /usr/lib/llvm-22/lib/libomp.so.5 "$carry/"
  # The compaction's own count and select kernels against the host's
  # positions, and timed (the smoke step; checks under the sanitizer).
  /usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -std=c++17 -I runtime/lib \
    -I runtime/cuda bench/micro/select_flags.cu -o "$carry/select-flags"
  prepare_cases
  echo "== compiling the benchmark and the Python GPU kernels"
  prepare_bench
  # One copy of the CUDA library in the carry (8 MB of its 64 MiB): `run`
  # puts it back beside the benchmark's runtime.
  rm "$carry/bench/libptensor_runtime_cuda.so"
  # ptensor._core is built there (Python 3.12) from these nanobind sources.
  copy_nanobind
  echo "== the first-call cache"
  PTENSOR_BUILD_DIR="$root/build" python3 bench/first_call.py prepare "$carry/bench/first_call_cache"
  # With the pip-installed package (setup.sh), which has the same IR
  # builders and cache keys as the source tree the GPU machine runs.
  PTENSOR_CACHE_DIR="$carry/pycache" python3 python/tests/gpu_cases.py
  # The CPU kernels test_gpu.py's torch-CPU case reuses.
  PTENSOR_CACHE_DIR="$carry/pycache" PTENSOR_BUILD_DIR="$root/build" \
    python3 -m pytest -q python/tests/test_ops.py >/dev/null
  host_kernels
  pack_cases
  du -sh "$carry"
}

# The CPU suite's cases (PTENSOR_CASE_TESTS: only those of the named
# test/Integration/CPU scripts, comma-separated, e.g. reductions,sorting)
# exported for cuda:0 and compiled into $carry/cases.
prepare_cases() {
  local t
  echo "== exporting the CPU suite's cases for cuda:0"
  mkdir -p "$carry/cases"
  for t in test/Integration/CPU/*.py; do
    if [ -n "${PTENSOR_CASE_TESTS:-}" ] &&
      [[ ",$PTENSOR_CASE_TESTS," != *",$(basename "$t" .py),"* ]]; then
      continue
    fi
    PATH="$root/build/bin:$PATH" PTENSOR_CASE_EXPORT_DIR="$carry/cases" \
      PTENSOR_TEST_DEVICE=cuda:0 python3 "$t" >/dev/null || true
  done
  echo "== compiling $(find "$carry/cases" -name '*.mlir' | wc -l) cases for sm_90"
  find "$carry/cases" -name '*.mlir' -print0 |
    xargs -0 -P 2 -I{} sh -c 'build/bin/ptensor-compile "$1" --target=cuda -o "${1%.mlir}.so" 2>"${1%.mlir}.compile.log" || echo "compile failed: $1"' _ {} |
    tee "$carry/compile-failures.txt"
  [ -s "$carry/compile-failures.txt" ] && { echo "some cases failed to compile"; exit 1; }
  return 0
}

# The cases' cubins compress about 5x; the carry is limited to 64 MiB.
pack_cases() {
  tar -C "$carry" -cf - cases | xz -T2 -6 > "$carry/cases.tar.xz"
  rm -rf "$carry/cases"
}

# While working on kernels: a fresh carry with the runtime libraries, the
# cases of PTENSOR_CASE_TESTS and the benchmark cases of
# PTENSOR_BENCH_CASES (both required: minutes, not prepare's half hour),
# for `run cases,bench` (and kernels, ncu).
prepare_quick() {
  set -e
  : "${PTENSOR_CASE_TESTS:?name the test scripts, e.g. PTENSOR_CASE_TESTS=reductions}"
  : "${PTENSOR_BENCH_CASES:?name the benchmark cases, e.g. PTENSOR_BENCH_CASES=sum_rows}"
  fresh_carry .
  cp build/lib/libptensor_runtime_vqsort.so "$carry/"
  cp "$(bash scripts/build-cuda-kernels.sh)" "$carry/"
  prepare_cases
  pack_cases
  prepare_bench
  rm "$carry/bench/libptensor_runtime_cuda.so"
  du -sh "$carry"
}

# A fresh carry with the runtime (in the folder $1 of it), the OpenMP
# runtime host code forks on and nanobind's sources: what every step's
# `run` needs before anything else.
fresh_carry() {
  ninja -C build
  rm -rf "$carry" && mkdir -p "$carry/$1"
  cp build/lib/libptensor_runtime.so "$carry/$1"
  cp -L /usr/lib/llvm-22/lib/libomp.so.5 "$carry/"
  copy_nanobind
}

# What the profile step reads and nothing else: a fresh carry and the
# first-call cache (no cases, no benchmark kernels).
prepare_profile() {
  set -e
  fresh_carry bench
  PTENSOR_BUILD_DIR="$root/build" python3 bench/first_call.py prepare "$carry/bench/first_call_cache"
  du -sh "$carry"
}

# The host benchmark's kernels for the GPU machine's CPU (an AVX-512
# Xeon: x86-64-v4, which this machine runs too), compiled by one run here
# into the cache the `host` step reads (there is no compiler there).
host_kernels() {
  PTENSOR_HOST_CPU=x86-64-v4 PTENSOR_CACHE_DIR="$carry/hostcache" \
    python3 bench/cpu_elementwise.py --threads 2 > "$carry/host-here.md"
}

# What the host step reads and nothing else: a fresh carry and the host
# benchmark's kernels.
prepare_host() {
  set -e
  fresh_carry .
  host_kernels
  du -sh "$carry"
}

# nanobind's sources, from which `run` builds ptensor._core for the GPU
# machine's Python.
copy_nanobind() {
  cp -r "$(python3 -c 'import nanobind, os; print(os.path.dirname(nanobind.__file__))')" \
    "$carry/nanobind"
  rm -rf "$carry/nanobind/__pycache__"
}

# The benchmark's kernels (PTENSOR_BENCH_CASES: only those) and the runtime
# libraries beside them.
prepare_bench() {
  python3 bench/build.py "$carry/bench" ${PTENSOR_BENCH_CASES:+--cases "$PTENSOR_BENCH_CASES"}
  cp build/lib/libptensor_runtime.so build/lib/libptensor_runtime_vqsort.so \
    build-cuda/lib/libptensor_runtime_cuda.so "$carry/bench/"
  # The host-overhead benchmark (C) of small_add_4096 and sum_4096.
  cc -O2 -Wall -o "$carry/bench/host_overhead" bench/host_overhead.c -ldl -lm
}

# ptensor._core for this machine's Python (no LLVM needed: the semantics
# and cache libraries and the team library's finder are plain C++; every
# python/src file but the compiler's CompileModule.cpp), into the source
# tree's package (PYTHONPATH=python).
build_core() {
  local nb="$carry/nanobind" inc numpy_inc suffix
  inc="$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
  numpy_inc="$(python3 -c 'import numpy; print(numpy.get_include())')"
  suffix="$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
  g++ -O2 -std=c++17 -shared -fPIC -fvisibility=hidden -Iinclude -Iruntime/include -I"$nb/include" \
    -I"$nb/ext/robin_map/include" -I"$inc" -isystem "$numpy_inc" \
    $(ls python/src/*.cpp | grep -v CompileModule.cpp) lib/Semantics/*.cpp lib/Cache/*.cpp lib/TeamHost/*.cpp \
    "$nb/src/nb_combined.cpp" -o "python/ptensor/_core$suffix"
}

# Whether step $1 is among the ones asked for ($steps: comma-separated, or
# "all").
wants() { [[ "$steps" == all || ",$steps," == *",$1,"* ]]; }

run() {
  local out="${OUT:-/tmp/gpu-check}" status=0
  mkdir -p "$out"
  echo "== building ptensor._core for $(python3 --version)"
  build_core || { echo "ptensor._core: build FAILED"; return 1; }
  export PTENSOR_RUNTIME_DIR="$carry" LD_LIBRARY_PATH="$carry:${LD_LIBRARY_PATH:-}"
  # The benchmark's runtime loads the CUDA library from beside itself.
  if [ -f "$carry/bench/libptensor_runtime.so" ] &&
    [ ! -f "$carry/bench/libptensor_runtime_cuda.so" ]; then
    cp "$carry/libptensor_runtime_cuda.so" "$carry/bench/"
  fi
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  if wants smoke; then
  echo "== runtime smoke test"
  # Launches block here, so a kernel fault is reported at its launch.
  PTENSOR_SYNC_LAUNCHES=1 "$carry/ptensor-runtime-gpu-smoke" > "$out/smoke.log" 2>&1 && echo "smoke: passed" ||
    { echo "smoke: FAILED"; tail -5 "$out/smoke.log"; status=1; }
  local flags_status=0
  "$carry/select-flags" > "$out/select-flags.log" 2>&1 || flags_status=1
  cat "$out/select-flags.log"
  [ "$flags_status" -eq 0 ] || { echo "select-flags: FAILED"; status=1; }
  fi
  local cases="${TMPDIR:-/tmp}/ptensor-gpu-cases"
  if wants cases || wants sanitizer; then
    rm -rf "$cases" && mkdir -p "$cases" && tar -C "$cases" -xJf "$carry/cases.tar.xz"
  fi
  if wants cases; then
  echo "== CPU suite's numeric cases on cuda:0"
  PYTHONPATH="$root/python" python3 test/Integration/Inputs/check_exported.py "$cases/cases" \
    --executor "python3 -m ptensor.run" --jobs 12 > "$out/cases.log" 2>&1 ||
    status=1
  tail -15 "$out/cases.log"
  fi
  if wants sanitizer; then
  echo "== compute-sanitizer (memcheck, initcheck, racecheck, synccheck) on the CUB cases (sort, nonzero, extract_mask, unique), searchsorted (reads by position through a sorter), delete (buffers freed early: a later read would be a memcheck error) and the row-group kernels (norm_*: threads read what another thread of the block wrote)"
  local sanitizer="${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer"
  for tool in memcheck initcheck racecheck synccheck; do
    PYTHONPATH="$root/python" python3 test/Integration/Inputs/check_exported.py "$cases/cases" \
      --filter 'sorting|nonzero|extract_mask|unique|searchsorted|delete|norm_' --jobs 12 --executor \
      "$sanitizer --tool $tool --error-exitcode 66 --print-limit 5 python3 -m ptensor.run" \
      > "$out/sanitizer-$tool.log" 2>&1 && echo "$tool: clean ($(tail -1 "$out/sanitizer-$tool.log"))" ||
      { echo "$tool: FAILED"; tail -8 "$out/sanitizer-$tool.log"; status=1; }
    "$sanitizer" --tool "$tool" --error-exitcode 66 --print-limit 5 \
      "$carry/select-flags" check > "$out/sanitizer-$tool-select-flags.log" 2>&1 &&
      echo "$tool of select-flags: clean" ||
      { echo "$tool of select-flags: FAILED"; tail -8 "$out/sanitizer-$tool-select-flags.log"; status=1; }
  done
  fi
  if wants python; then
  echo "== Python GPU tests (torch, CuPy)"
  # The log, then its tail: a pipe into tail would hide pytest's status.
  PTENSOR_CACHE_DIR="$carry/pycache" PYTHONPATH=python \
    python3 -m pytest -q python/tests/test_gpu.py > "$out/python.log" 2>&1 || status=1
  tail -5 "$out/python.log"
  fi
  if wants profile; then
  echo "== where the first call's time goes (warm on-disk cache, fresh process)"
  PTENSOR_CACHE_DIR="$carry/bench/first_call_cache" \
    PTENSOR_RUNTIME_LIBRARY="$carry/bench/libptensor_runtime.so" \
    python3 bench/first_call.py profile "$carry/bench/first_call_cache" 2>&1 | head -45 || status=1
  echo "== the first call's phases, one after another (3 fresh processes)"
  for _ in 1 2 3; do
    PTENSOR_CACHE_DIR="$carry/bench/first_call_cache" \
      PTENSOR_RUNTIME_LIBRARY="$carry/bench/libptensor_runtime.so" \
      python3 bench/first_call.py phases "$carry/bench/first_call_cache" || status=1
  done
  fi
  if wants kernels; then
  echo "== the kernels of ${PTENSOR_BENCH_CASES:-mm_bias_gelu_bf16} beside torch's (torch.profiler)"
  PTENSOR_CACHE_DIR="$carry/pycache" python3 bench/profile_case.py "$carry/bench" \
    "${PTENSOR_BENCH_CASES:-mm_bias_gelu_bf16}" 2>&1 | grep -v "Warning\|warnings.warn" || status=1
  fi
  if [[ ",$steps," == *",ncu,"* ]]; then
  local pattern="${PTENSOR_NCU_KERNELS:-_kernel(_[0-9]+)?\$|triton_|SoftMax|reduce_kernel}"
  echo "== Nsight Compute: kernels of ${PTENSOR_BENCH_CASES:-mm_bias_gelu_bf16} matching $pattern"
  PTENSOR_CACHE_DIR="$carry/pycache" ncu --kernel-id "::regex:$pattern:4" \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    python3 bench/profile_case.py "$carry/bench" "${PTENSOR_BENCH_CASES:-mm_bias_gelu_bf16}" \
    > "$out/ncu.txt" 2>&1 || status=1
  grep -E "^  [A-Za-z_].*\(|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\)|Achieved Occupancy|Theoretical Occupancy|Registers Per|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Block Limit|Dynamic Shared|Threads" \
    "$out/ncu.txt" | head -150
  fi
  # Minutes of mpirun runs: only when asked for by name, not in "all".
  # The statically linked runner of scripts/gpu-runner-pack.sh (pack it
  # here first; the carry's .carry holds it) and this host's MPI: teams
  # (scaling on the host's cores), gpu-teams (the team tests with GPU
  # tensors, against numpy).
  local step
  for step in teams gpu-teams gpu-teams-nccl; do
  [[ ",$steps," == *",$step,"* ]] || continue
  if [ -f "$root/.carry/runner/ptensor-runner.xz" ]; then
    if [ "$step" = gpu-teams-nccl ]; then
      # Two processes, a GPU each: NCCL required, then the bench.
      { PTENSOR_TEAM_NCCL=1 PTENSOR_TEAM_PROCESSES=2 bash scripts/gpu-runner-pack.sh \
          gpu-teams --gpu-per-process &&
        bash scripts/gpu-runner-pack.sh gpu-teams-bench --processes 2; } 2>&1 |
        tee "$out/$step.log" | tail -22
    else
      bash scripts/gpu-runner-pack.sh "$step" 2>&1 | tee "$out/$step.log" | tail -22
    fi
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  else
    echo "$step: skipped (no .carry/runner: run 'bash scripts/gpu-runner-pack.sh pack' here first)"
  fi
  done
  if [[ ",$steps," == *",host,"* ]]; then
  echo "== CPU elementwise on this host's cores (bench/cpu_elementwise.py, numpy beside)"
  PTENSOR_HOST_CPU=x86-64-v4 PTENSOR_CACHE_DIR="$carry/hostcache" PYTHONPATH=python \
    python3 bench/cpu_elementwise.py --threads "${PTENSOR_HOST_THREADS:-1,4,16}" \
    > "$out/host.md" 2>&1 || status=1
  cat "$out/host.md"
  fi
  if wants bench; then
  echo "== benchmark"
  PTENSOR_CACHE_DIR="$carry/pycache" PYTHONUNBUFFERED=1 python3 bench/run.py "$carry/bench" --out "$out/RESULTS.md" \
    ${PTENSOR_BENCH_CASES:+--cases "$PTENSOR_BENCH_CASES"} ||
    status=1
  fi
  return $status
}

case "${1:-}" in
  prepare) prepare ;;
  prepare-bench) set -e; ninja -C build; prepare_bench ;;
  prepare-quick) prepare_quick ;;
  prepare-profile) prepare_profile ;;
  prepare-host) prepare_host ;;
  run) steps="${2:-all}"; run ;;
  prepare-compile) set -e; ninja -C build ptensor-compile ptensor_runtime
    python3 bench/cold_compile.py pack "$root/.carry/compiler" ;;
  compile) python3 bench/cold_compile.py run "$root/.carry/compiler" ;;
  *) echo "usage: $0 prepare | prepare-bench | prepare-quick | prepare-profile | prepare-host | prepare-compile | compile | run [smoke,cases,sanitizer,python,profile,kernels,ncu,teams,gpu-teams,gpu-teams-nccl,host,bench]" >&2; exit 2 ;;
esac
