#!/usr/bin/env bash
# The sanitizer build: ptensor built by Clang 22 with AddressSanitizer and
# UndefinedBehaviorSanitizer (-DPTENSOR_SANITIZE=ON) in build-sanitize/, and
# the lit suite run on it (JIT and AOT code calls the instrumented runtime).
# Also the Clang build of the project: CI builds with GCC (setup.sh) and
# Clang (here). Run after `scripts/setup.sh test` (which installs the rest).
#
#   bash scripts/sanitize.sh          build, then run the lit suite
#
# LLVM/MLIR themselves are not instrumented. The Python suite runs in the
# GCC build only (an instrumented extension needs the ASan runtime preloaded
# into the interpreter; see docs/Reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
build="${PTENSOR_SANITIZE_BUILD_DIR:-$root/build-sanitize}"

packages=(clang-22 libclang-rt-22-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${missing[@]}" ||
    { apt-get update && apt-get install -y --no-install-recommends "${missing[@]}"; }
fi

echo "== building with Clang 22 + ASan/UBSan in $build"
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang \
  -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1" \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" \
  -DPTENSOR_SANITIZE=ON >/dev/null
ninja -C "$build"

echo "== running the lit suite under ASan/UBSan"
/usr/lib/llvm-22/bin/lit -sv "$build/test"
