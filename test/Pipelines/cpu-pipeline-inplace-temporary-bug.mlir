// XFAIL: *
// RUN: ptensor-opt %s --ptensor-to-cpu-pipeline | FileCheck %s

// BUG (performance, results are right): an out= / in-place write
// (ptensor.write) always goes through a temporary. The elementwise generic
// writes into a fresh tensor.empty, which one-shot bufferization allocates
// (malloc), and bufferization.materialize_in_destination then copies it into
// the destination (a second loop) and frees it: two passes over memory and
// an allocation of the full size, even for `a += s` where reading and
// writing the same element is safe. (The write is lowered to
// materialize_in_destination into a *memref* from to_buffer, so
// eliminate-empty-tensors cannot fold the tensor.empty into it; building it
// on the tensor destination, or using the destination as the generic's init
// when the value's only use is the write, would.) Expected: no allocation
// and a single loop nest.
// Not a one-line fix: views (flip, slices) are lowered to
// `bufferization.to_tensor ... restrict` of a reinterpret_cast of the source
// buffer, so One-Shot Bufferize cannot see that `flip(a)` aliases `a`; with
// the tensor destination it would write `a = flip(a) + b` in place, wrong
// (cpu-pipeline.mlir @write_flipped_into_source). The write lowering needs
// to know that no input of the value is a view of the destination first.

// CHECK-LABEL: llvm.func @add_scalar_in_place(
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.fadd
// CHECK-NOT:     llvm.call @malloc
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.return
func.func @add_scalar_in_place(%a: !ptensor.ptensor<?xf32>, %s: f32) {
  %0 = ptensor.elementwise_binary add %a, %s : (!ptensor.ptensor<?xf32>, f32) -> !ptensor.ptensor<?xf32>
  ptensor.write %0 into %a : !ptensor.ptensor<?xf32>
  return
}
