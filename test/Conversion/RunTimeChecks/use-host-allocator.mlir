// RUN: ptensor-opt %s --split-input-file --ptensor-use-host-allocator | FileCheck %s

// The malloc and free that finalize-memref-to-llvm's alloc/dealloc lowering
// calls become the runtime's caching host allocator (declarations renamed,
// calls following them); other functions are left alone.
// CHECK-NOT:   @malloc
// CHECK-NOT:   @free
// CHECK-DAG:   llvm.func @ptensor_rt_host_alloc(i64) -> !llvm.ptr
// CHECK-DAG:   llvm.func @ptensor_rt_host_free(!llvm.ptr)
// CHECK-DAG:   llvm.func @calloc(i64, i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @buffer(
// CHECK:         %[[P:.*]] = llvm.call @ptensor_rt_host_alloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:         llvm.call @ptensor_rt_host_free(%[[P]]) : (!llvm.ptr) -> ()
// CHECK:         llvm.call @calloc
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func @calloc(i64, i64) -> !llvm.ptr
llvm.func @buffer(%n: i64) -> !llvm.ptr {
  %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  llvm.call @free(%p) : (!llvm.ptr) -> ()
  %q = llvm.call @calloc(%n, %n) : (i64, i64) -> !llvm.ptr
  llvm.return %q : !llvm.ptr
}

// -----

// A module that already declares the runtime's functions (the pass ran
// before, or the code calls them itself) keeps one declaration of each.
// RUN: ptensor-opt %s --split-input-file --ptensor-use-host-allocator | FileCheck %s --check-prefix=TWICE
// TWICE-LABEL: llvm.func @both(
// TWICE:         llvm.call @ptensor_rt_host_alloc
// TWICE:         llvm.call @ptensor_rt_host_alloc
// TWICE-NOT:     @malloc
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @ptensor_rt_host_alloc(i64) -> !llvm.ptr
llvm.func @both(%n: i64) -> !llvm.ptr {
  %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  %q = llvm.call @ptensor_rt_host_alloc(%n) : (i64) -> !llvm.ptr
  llvm.return %p : !llvm.ptr
}
