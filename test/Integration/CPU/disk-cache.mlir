// The JIT's entries of the one disk cache (ptensor/Cache/DiskCache.h):
// KEY.o, its IR (KEY.mlir) and the compiler's build id (KEY.id, written
// last, with the object's SHA-256). A second run loads the object; an entry
// recorded by another build, one whose object changed since (a flipped
// byte, a truncation), or one without its .id (a compile killed before the
// end), is compiled again.
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
// A code file changed after its .id was written (one byte flipped, then
// truncated) no longer has the recorded SHA-256: compiled again.
// RUN: %python -c "import glob; f = open(glob.glob('%t/cache/*.o')[0], 'r+b'); f.seek(200); b = f.read(1); f.seek(200); f.write(bytes([b[0] ^ 1]))"
// RUN: env PTENSOR_CACHE_DIR=%t/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: env PTENSOR_CACHE_DIR=%t/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=CACHED
// RUN: %python -c "import glob; open(glob.glob('%t/cache/*.o')[0], 'r+b').truncate(64)"
// RUN: env PTENSOR_CACHE_DIR=%t/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency --print 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: rm %t/cache/*.id
// RUN: env PTENSOR_CACHE_DIR=%t/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=FIRST
// A cache directory that cannot be written (under a regular file): the code
// runs from memory, with one warning.
// RUN: touch %t/file
// RUN: env PTENSOR_CACHE_DIR=%t/file/cache ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE-COUNT-1: ptensor: warning: cannot write the disk cache {{.*}}/file/cache (cannot create {{.*}}/file/cache: Not a directory); compiled code runs from memory
// UNWRITABLE-NOT: warning
// UNWRITABLE: compile: {{.*}} ms (compiled)
// A directory that exists but takes no files (even for root): the same one
// warning, and none of LLVM's own object-writer errors.
// RUN: env PTENSOR_CACHE_DIR=/proc/self ptensor-runner %s -e neg --input %t/a.npy --report-latency 2>&1 | FileCheck %s --check-prefix=READONLY
// READONLY-NOT: error
// READONLY-COUNT-1: ptensor: warning: cannot write the disk cache /proc/self (cannot write /proc/self/{{.*}}.tmp{{[0-9]+}}-{{[0-9]+}}: {{.*}}); compiled code runs from memory
// READONLY-NOT: error
// READONLY: compile: {{.*}} ms (compiled)
// RUN: env PTENSOR_DISABLE_CACHE=1 PTENSOR_CACHE_DIR=%t/off ptensor-runner %s -e neg --input %t/a.npy
// RUN: not ls %t/off

func.func @neg(%a: !ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32> {
  %r = ptensor.elementwise_unary negative %a : (!ptensor.ptensor<?xf32>) -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
