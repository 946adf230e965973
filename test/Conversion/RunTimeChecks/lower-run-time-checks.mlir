// RUN: ptensor-opt %s --ptensor-lower-run-time-checks | FileCheck %s

// A host cf.assert becomes a branch to a block that hands its message to
// the runtime (which reports it to the caller's trap, or aborts) and never
// comes back; the code after the check runs only when it holds.
// CHECK:       llvm.func @ptensor_rt_check_failed(!llvm.ptr)
// CHECK:       llvm.mlir.global private constant @[[MSG:ptensor_check.*]](dense<[115, 105, 122, 101, 115, 32, 100, 105, 102, 102, 101, 114, 0]>
// CHECK-LABEL: llvm.func @host(
// CHECK-SAME:    %[[OK:.*]]: i1, %[[X:.*]]: i64) -> i64
// CHECK:         cf.cond_br %[[OK]], ^[[REST:bb[0-9]+]], ^[[FAIL:bb[0-9]+]]
// CHECK:       ^[[FAIL]]:
// CHECK-NEXT:    %[[ADDR:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
// CHECK-NEXT:    %[[PTR:.*]] = llvm.getelementptr %[[ADDR]][0]
// CHECK-NEXT:    llvm.call @ptensor_rt_check_failed(%[[PTR]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.unreachable
// CHECK:       ^[[REST]]:
// CHECK-NEXT:    %[[Y:.*]] = llvm.add %[[X]], %[[X]] : i64
// CHECK-NEXT:    llvm.return %[[Y]] : i64
// CHECK-NOT:     cf.assert
llvm.func @host(%ok: i1, %x: i64) -> i64 {
  cf.assert %ok, "sizes differ"
  %y = llvm.add %x, %x : i64
  llvm.return %y : i64
}

// Kernels keep theirs (device code cannot call the host runtime).
// CHECK-LABEL: gpu.module @kernels
// CHECK:         cf.assert %{{.*}}, "in a kernel"
gpu.module @kernels {
  llvm.func @kernel(%ok: i1) {
    cf.assert %ok, "in a kernel"
    llvm.return
  }
}
