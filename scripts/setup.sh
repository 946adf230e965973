#!/usr/bin/env bash
# The README's two set-up commands (Debian 12, as root):
#   bash scripts/setup.sh example   install, build, run the main job on an example
#   bash scripts/setup.sh test      install, build, run every test
# and, for CI (after `test`):
#   bash scripts/setup.sh sanitize  the Clang 22 build with AddressSanitizer
#                                   and UndefinedBehaviorSanitizer
#                                   (build-sanitize/) and the lit suite on it,
#                                   then the runtime with ThreadSanitizer
#                                   (build-tsan/) and its suites, and the C
#                                   API's threads test on the whole stack
#                                   with ThreadSanitizer (build-tsan-capi/)
set -euo pipefail
mode="${1:-test}"
cd "$(dirname "$0")/.."
root="$(pwd)"
build="${PTENSOR_BUILD_DIR:-$root/build}"

apt_packages=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools liblld-22-dev libomp-22-dev
              cmake ninja-build g++ libdlpack-dev libopenblas0 libhwy-dev
              mpich libmpich-dev)
[ "$mode" = sanitize ] && apt_packages+=(clang-22 libclang-rt-22-dev)
python_packages=(numpy ml_dtypes pytest nanobind scikit-build-core numexpr scipy)

install() {
  local missing=()
  for p in "${apt_packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "== installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends "${missing[@]}" ||
      { apt-get update && apt-get install -y --no-install-recommends "${missing[@]}"; }
  fi
  # The Python binding is built against python3's headers.
  if ! python3 -c 'import os, sysconfig, sys
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    missing=(python3-dev python3-pip)
    echo "== installing ${missing[*]}"
    apt-get install -y --no-install-recommends "${missing[@]}" ||
      { apt-get update && apt-get install -y --no-install-recommends "${missing[@]}"; }
  fi
  if ! python3 -c 'import numpy, ml_dtypes, pytest, nanobind, scikit_build_core, numexpr, scipy' 2>/dev/null; then
    echo "== installing ${python_packages[*]} (pip)"
    python3 -m pip install --quiet "${python_packages[@]}" ||
      python3 -m pip install --quiet --break-system-packages "${python_packages[@]}"
  fi
}

build() {
  echo "== building in $build"
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build"
  # The Python package, from this build tree (nothing is rebuilt): the
  # tests import the installed package.
  echo "== pip install . (the ptensor Python package)"
  local pip=(python3 -m pip install --quiet --no-build-isolation
             "-Cbuild-dir=$build" "$root")
  "${pip[@]}" 2>/dev/null || "${pip[@]}" --break-system-packages
}

example() {
  local out; out="$(mktemp -d)"
  echo "== ptensor-opt: examples/chain.mlir through the passes (fused linalg)"
  "$build/bin/ptensor-opt" examples/chain.mlir --ptensor-promote-types \
    --ptensor-layout --ptensor-broadcast --convert-ptensor-to-linalg \
    --ptensor-fuse-elementwise --canonicalize
  echo "== ptensor-runner: JIT-executes @chain on random inputs"
  python3 -c "import numpy as np; r=np.random.default_rng(0);
np.save('$out/x.npy', r.standard_normal((4, 8), dtype=np.float32));
np.save('$out/y.npy', r.standard_normal(8, dtype=np.float32))"
  "$build/bin/ptensor-runner" examples/chain.mlir -e chain \
    --input "$out/x.npy" --input "$out/y.npy" --output-dir "$out" --print
  python3 -c "import numpy as np; x=np.load('$out/x.npy'); y=np.load('$out/y.npy');
ref=np.exp(-((x*y+1.5)**2))*0.5+x; got=np.load('$out/out0.npy');
assert np.allclose(got, ref, rtol=1e-5, atol=1e-6), 'mismatch with numpy';
print('matches numpy: max abs error', float(np.abs(got-ref).max()))"
  rm -rf "$out"
}

run_tests() {
  echo "== running the test suite (lit)"
  local log; log="$(mktemp)"
  set +e
  /usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  set -e
  python3 - "$log" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
count = lambda k: sum(int(n) for n in re.findall(rf"^\s*{k}\s*:\s*(\d+)", text, re.M))
passed = count("Passed") + count("Expectedly Failed")
failed = count("Failed") + count("Unexpectedly Passed") + count("Unresolved") + count("Timed Out")
print(f"{passed} passed, {failed} failed")
PY
  rm -f "$log"
  return "$rc"
}

# Configures build directory $2 from source directory $1 with Clang 22
# (RelWithDebInfo, Ninja) and the further cmake arguments given.
clang_configure() {
  local src="$1" dir="$2"
  shift 2
  cmake -G Ninja -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang \
    -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ "$@" >/dev/null
}

# The whole stack's sanitizer builds: optimized a little, light debug info.
light_debug=("-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1"
             "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1")

# ptensor built by Clang 22 with ASan + UBSan (-DPTENSOR_SANITIZE=ON), and
# the lit suite on it: JIT and AOT code calls the instrumented runtime, and
# any finding fails its test. This is also the project's Clang build (the
# main build is GCC's). LLVM/MLIR are not instrumented; the Python suite
# runs on the GCC build only (test/Python/pytest.test says why).
sanitize() {
  local dir="${PTENSOR_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
  echo "== building with Clang 22 + ASan/UBSan in $dir"
  clang_configure "$root" "$dir" "${light_debug[@]}" -DPTENSOR_SANITIZE=ON
  ninja -C "$dir"
  echo "== running the lit suite under ASan/UBSan"
  /usr/lib/llvm-22/bin/lit -sv "$dir/test"
  # ThreadSanitizer cannot share a build with ASan; the runtime (plain C++,
  # the code compiled kernels share between threads) builds alone.
  local tsan="${PTENSOR_TSAN_BUILD_DIR:-$root/build-tsan}"
  echo "== building the runtime with Clang 22 + ThreadSanitizer in $tsan"
  clang_configure "$root/runtime" "$tsan" \
    -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS=-fsanitize=thread \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
    -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread
  ninja -C "$tsan" ptensor-runtime-tests
  echo "== runtime suites under ThreadSanitizer"
  for suite in threads allocator checks sort compact; do
    TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$tsan/bin/ptensor-runtime-tests" "$suite"
  done
  # The whole stack under ThreadSanitizer for the C API's threads test
  # (test/Embedding/capi-threads.c: four threads call one compiled function
  # while four compile and call modules of their own): ptensor's compiler,
  # JIT, C API and runtime instrumented, LLVM/MLIR not.
  local tsan_capi="${PTENSOR_TSAN_CAPI_BUILD_DIR:-$root/build-tsan-capi}"
  echo "== building the C API with Clang 22 + ThreadSanitizer in $tsan_capi"
  clang_configure "$root" "$tsan_capi" "${light_debug[@]}" -DPTENSOR_SANITIZE_THREAD=ON
  ninja -C "$tsan_capi" ptensor-capi-threads-test ptensor_runtime
  echo "== the C API's threads test under ThreadSanitizer"
  TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$tsan_capi/bin/ptensor-capi-threads-test"
}

install
case "$mode" in
  example) build; example ;;
  test) build; run_tests ;;
  sanitize) sanitize ;;
  *) echo "usage: $0 example|test|sanitize" >&2; exit 2 ;;
esac
