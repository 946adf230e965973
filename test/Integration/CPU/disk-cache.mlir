// The JIT's entries of the one disk cache (ptensor/Cache/DiskCache.h):
// KEY.o, its IR (KEY.mlir) and the compiler's build id (KEY.id, written
// last). A second run loads the object; an entry recorded by another build,
// or without its .id (a compile killed before the end), is compiled again.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Inputs/make_npy.py %t/a.npy float32 4
// RUN: env PTENSOR_CACHE_DIR=%t/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: compile: {{.*}} ms (compiled)
// RUN: ls %t/cache | FileCheck %s --check-prefix=FILES
// FILES:      {{^[0-9a-f]{64}\.id$}}
// FILES-NEXT: {{^[0-9a-f]{64}\.mlir$}}
// FILES-NEXT: {{^[0-9a-f]{64}\.o$}}
// RUN: cat %t/cache/*.mlir | FileCheck %s --check-prefix=IR
// IR: func.func @neg(
// RUN: env PTENSOR_CACHE_DIR=%t/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=CACHED
// CACHED: compile: {{.*}} ms (disk cache)
// RUN: %python -c "import glob; [open(f, 'w').write('another-build\\n') for f in glob.glob('%t/cache/*.id')]"
// RUN: env PTENSOR_CACHE_DIR=%t/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: env PTENSOR_CACHE_DIR=%t/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=CACHED
// RUN: rm %t/cache/*.id
// RUN: env PTENSOR_CACHE_DIR=%t/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: env PTENSOR_DISABLE_CACHE=1 PTENSOR_CACHE_DIR=%t/off ptensor-runner %s -e neg --input %t/a.npy
// RUN: not ls %t/off

func.func @neg(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %r = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
