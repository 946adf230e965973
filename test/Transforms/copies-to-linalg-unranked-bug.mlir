// RUN: ptensor-opt %s --ptensor-copies-to-linalg | FileCheck %s

// Regression test (fixed). Was BUG: CopiesToLinalg.cpp does cast<MemRefType>(copy.getTarget().getType()),
// but memref.copy also takes unranked memrefs. In a release build the cast
// silently reads garbage: the output is a rank-0 linalg.generic whose block
// arguments and yield are whole memref<*xf32> values (verifies, but copies
// nothing meaningful). Expected: unranked copies are left as memref.copy
// (or rejected with a diagnostic).

// CHECK-LABEL: func.func @unranked(
// CHECK:         memref.copy %arg0, %arg1 : memref<*xf32> to memref<*xf32>
// CHECK-NOT:     linalg.generic
func.func @unranked(%a: memref<*xf32>, %b: memref<*xf32>) {
  memref.copy %a, %b : memref<*xf32> to memref<*xf32>
  return
}
