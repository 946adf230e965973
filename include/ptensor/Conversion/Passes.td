//===- Passes.td - ptensor conversion passes ---------------*- tablegen -*-===//

#ifndef PTENSOR_CONVERSION_PASSES_TD
#define PTENSOR_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertPTensorToLinalg : Pass<"convert-ptensor-to-linalg", "ModuleOp"> {
  let summary = "Lowers ptensor ops to linalg.generic on builtin tensors";
  let description = [{
    `!ptensor.ptensor<SHAPExDTYPE>` becomes `tensor<SHAPExDTYPE'>` (unsigned
    dtypes become signless integers; the ops keep unsigned semantics). Every
    elementwise op becomes one `linalg.generic` whose body converts each
    element to the computation dtype, computes with arith/math and converts
    to the result dtype; `ptensor.broadcast` becomes a generic with a
    broadcasting indexing map (no copy once fused) and run-time checks for
    dynamic dimensions; `pointwise` bodies are inlined into the generic;
    creation ops become `tensor.empty` + `linalg.fill`/`linalg.generic`.
    Views (`permute_dims`, `flip`, `extract_slice`, `expand_dims`,
    `squeeze`) become `memref.reinterpret_cast` of the source buffer with
    computed offset and strides (negative for flips and negative steps), so
    they never copy. Function signatures, calls and returns are converted.

    A `ptensor.copy` between the host and a GPU is an error unless
    `device-copies` is set (ptensor-to-nvvm-pipeline sets it): it then
    becomes a fresh row-major buffer filled by a `gpu.memcpy` marked
    `ptensor.device_copy` that reads the source's strided view, for
    ptensor-lower-device-copies to finish after the GPU conversion.

    Functions on GPU tensors are marked `ptensor.device` for
    convert-ptensor-linalg-to-gpu, or rejected with `host-only` (the CPU
    pipeline), so that GPU code never silently becomes host loops. A
    marked function's tensor work all becomes kernels, so an op in it that
    computes a host tensor, or writes into one, is an error naming the op
    (copies, calls and views of host tensors are allowed).
  }];
  let options = [
    Option<"deviceCopies", "device-copies", "bool", "false",
           "Lower copies to and from GPUs to marked gpu.memcpy ops (for the "
           "GPU pipeline) instead of rejecting them">,
    Option<"hostOnly", "host-only", "bool", "false",
           "Reject functions on GPU tensors (ptensor-to-cpu-pipeline: host "
           "code only) instead of marking them for the GPU conversion">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect", "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"];
}

def ConvertPTensorLinalgToGPU
    : Pass<"convert-ptensor-linalg-to-gpu", "ModuleOp"> {
  let summary = "Turns the fused loops of device functions into GPU kernels";
  let description = [{
    In every function marked `ptensor.device` (convert-ptensor-to-linalg marks
    the functions whose ptensors live on `cuda`), after bufferization:
    - each elementwise `linalg.generic` on memrefs becomes a chain of
      run-time tests choosing one `gpu.launch`, each a grid-stride loop of
      `block-size`-thread blocks (at most `max-blocks`):
      1. flat vector path, when every operand is row-major contiguous and
         16-byte aligned: 16-byte loads/stores of the smallest element type
         (4 x f32, 8 x bf16, 16 x i8), `unroll` vectors loaded per thread
         before any store, a scalar tail for count % width;
      2. tiled transpose path, when an input is column-major in the two
         innermost dims: `transpose-tile`-square tiles staged in shared
         memory so that reads and writes both coalesce (interior tiles
         with 16-byte accesses in one kernel where the operands allow
         them, the other tiles with scalar ones in a second);
      3. row-vector path, when outputs have unit stride along rows and row
         strides a multiple of 16 bytes (contiguous, or a box of a larger
         buffer at any column) and inputs are read along rows with unit
         stride or broadcast along rows: a thread makes 16 bytes of a row
         and stores them with one aligned vector store; each row's
         elements before its first aligned one and after its last whole
         vector go one at a time in a second loop of the same launch;
      4. general path: each linear index is split into the loop indices,
         inputs are loaded through their indexing maps (broadcast dims read
         index 0) from memrefs of any strides (zero and negative included),
         in 32-bit index math when the element count fits in 31 bits and
         64-bit otherwise;
      the generic's body is inlined in each;
    - each reduction `linalg.generic` (from convert-ptensor-to-linalg, whose
      body marks its combiner) becomes a `gpu.launch`: a 256-thread block
      per output, merging by warp shuffles and shared memory, when the
      innermost loop is reduced (each thread reading 16 bytes of the row
      with one vector load per input where the rows have unit stride and
      aligned starts, tested at run time), each thread folding in
      `reduction-lanes` interleaved accumulators (two at least where a
      block per row folds into f64); a thread per output
      (grid-stride, `block-size` threads per block) when it is kept, its
      fold unrolled by 4 over one accumulator set (4 loads in flight at the
      registers of one). Too few outputs to fill an
      H100 (fewer than 1056 rows, or 270336 columns) split the reduced range
      into chunks chosen at run time: a first launch writes each (output,
      chunk)'s partial result, a second merges them in a fixed order (no
      atomics: deterministic). A reduction whose outputs are filled with
      constants just before it (the identity fills of
      convert-ptensor-to-linalg) merges its results into those constants
      in registers, and the fills launch nothing. An elementwise generic
      right after a reduction that reads only its results, at the same
      kept position (the f64 -> f32 cast of an f32 sum, mean's division
      by the count), is computed where each result is stored and
      launches nothing either. A reduction over two loops whose inputs
      read its outer loop with the smaller strides (a row sum over a
      transposed view) takes the kernels of its loops swapped (a column
      kernel), decided at run time where the strides are dynamic;
    - a *row group* — a reduction over rows followed by generics that read
      the same rows again and its per-row results at their row only (var's
      mean then squared deviations; softmax's max, sum of exp, division;
      their per-row elementwise steps) — becomes one launch with a block per
      row that computes the members in order, the later passes reading the
      row from the block's shared memory where it fits (else from L2) and
      taking the row's results as values every thread holds (a reduction's
      total shared through one word of shared memory, per-row steps such
      as mean = sum / n computed by every thread); its folds
      use two interleaved accumulator sets at least, four where a fold
      computes a math function (where the rows fill the GPU, tested at run
      time; else each member's own kernels);
    - copies (out= writes) are generics by then (ptensor-copies-to-linalg),
      so they become such kernels too;
    - `memref.alloc`/`memref.dealloc` become `gpu.alloc`/`gpu.dealloc`
      (served by libptensor_runtime's caching allocator).
    Kernels are outlined by `gpu-kernel-outlining` afterwards.

    Options: the GPU kernel options (`block-size`, `unroll`, ...), declared
    once with their defaults, limits and help in
    `ptensor/Conversion/LinalgToGPU/KernelOptions.def` (the same for
    ptensor-to-nvvm-pipeline, ptensor-compile's `--gpu-options` and Python)
    and tabled in [KernelOptions.md](KernelOptions.md), a page printed from
    it; `ptensor-opt --help` lists them with their defaults and allowed
    values. A value outside them fails the pass with a message naming the
    option, the value and the allowed values.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"];
}

def PTensorLowerDeviceCopies
    : Pass<"ptensor-lower-device-copies", "ModuleOp"> {
  let summary = "Finishes host<->device copies: allocation side, staging, "
                "async gpu.memcpy";
  let description = [{
    Runs after convert-ptensor-linalg-to-gpu on the `gpu.memcpy` ops that
    convert-ptensor-to-linalg{device-copies=true} marked `ptensor.device_copy`:
    - the destination is allocated on its side: `gpu.alloc` on a GPU,
      `memref.alloc` on the host (a host destination in a device function
      may only be returned or freed, not read by a kernel: error otherwise);
    - a source whose layout is not row-major by its type is checked at run
      time: when contiguous with offset 0 it is copied as is, otherwise it
      is first copied into a row-major staging buffer on its own side (host
      loops, or a grid-stride GPU kernel for a device source) that is freed
      after the copy;
    - each copy runs on a fresh stream that is synchronized right after
      (`gpu.wait async` / `gpu.memcpy async` / `gpu.wait`), the form
      gpu-to-llvm lowers to `mgpuMemcpy`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"];
}

def PTensorMergeGpuModules
    : Pass<"ptensor-merge-gpu-modules", "ModuleOp"> {
  let summary = "Puts the kernels of a module into one gpu.module per target";
  let description = [{
    Runs after gpu-kernel-outlining, which gives every launch a gpu.module
    of its own: each would be compiled on its own (an LLVM backend run and
    a ptxas process per module) and loaded on its own at run time. The
    modules with the same targets and attributes become one: the first
    keeps its name, the others' symbols move into it, and `gpu.launch_func`
    ops refer to the moved kernels there.
    - Outlined kernels all carry their function's name: a moved kernel
      whose name is taken is renamed after its old module (unique among
      the modules), e.g. `@f_kernel_0::@f_kernel` becomes
      `@f_kernel::@f_kernel_0`.
    - A helper symbol that several modules hold (the functions outlining
      copies into each kernel's module, their declarations) is kept once
      when the copies are the same text; a different symbol of the same
      name gets a `_m<N>` suffix, and the uses in its old module follow.
    - A module that holds more than symbols (`llvm.module_flags`, ...)
      stays as it is.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def PTensorNativeBF16Rounding
    : Pass<"ptensor-native-bf16-rounding", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Rounds f32 to bf16 in kernels with the chip's conversion "
                "instruction instead of the portable bit form";
  let description = [{
    convert-ptensor-to-linalg rounds f32 to bf16 on the bits (ten integer
    ops: some targets' `fptrunc` to bf16 flushes subnormals or needs a
    library call) and marks the last op `ptensor.bf16_rounding`. In a
    kernel for sm_80 or later, where `fptrunc` becomes one
    `cvt.rn.bf16.f32` (round to nearest even, subnormals kept), this pass
    replaces each marked rounding with `arith.truncf` of its f32 input; the
    bit form is left dead for the canonicalizer. The rounded bits' `trunci`
    to i16 is marked too: where a fused body widens a bf16 intermediate
    again (a bias added in bf16, then GELU in f32), the bitcasts to bf16 and
    back fold away and only those bits are left; they become the bits of
    the same `arith.truncf`. The results are the same
    but for the bits of a NaN (the instruction gives the canonical NaN; the
    bit form keeps the sign and payload). ptensor-to-nvvm-pipeline runs it
    for chips from sm_80 on: bf16 kernels are often bound by these
    integer ops rather than by memory.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def PTensorSinkKernelConstants
    : Pass<"ptensor-sink-kernel-constants", "ModuleOp"> {
  let summary = "Moves the constants a gpu.launch uses into its body, so "
                "that the kernel sees them as immediates";
  let description = [{
    Runs before gpu-kernel-outlining, which passes every value a launch
    uses from outside as a kernel parameter. Like upstream
    gpu-launch-sink-index-computations, constants (and the `memref.dim`,
    `arith.cmpi` and `arith.select` ops computed from them) are copied into
    the launch's body: `tid / 32` becomes a shift and static sizes are
    known to the kernel (H200: a + b.T 0.81 -> 0.86 of copy bandwidth,
    var over rows 0.70 -> 0.86). Launches marked
    `ptensor.keep_kernel_parameters` (column reductions, sized for 2048
    resident threads per SM) are left alone: with the sizes known, LLVM
    strength-reduces the unrolled column fold into four pointers, and in
    the 32 registers that occupancy allows ptxas then spills and keeps
    fewer loads in flight (a column sum of 8192^2 f32: 0.55 of copy
    against 0.80 with its constants as parameters).
  }];
}

def PTensorKernelOccupancy
    : Pass<"ptensor-kernel-occupancy", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Gives kernels the occupancy their launches were sized for";
  let description = [{
    Runs after gpu-kernel-outlining, which keeps no attribute of a
    `gpu.launch`. A kernel whose grid is sized to be resident all at once
    (the column reductions' thread per (chunk, column): 2048 threads per SM)
    marks an op of its body `ptensor.min_blocks_per_sm = N`; this pass
    moves the largest such N of each kernel to its `gpu.func` as
    `nvvm.minctasm` (PTX `.minnctapersm`), so that ptxas keeps within the
    registers that let N blocks share an SM. Without it, a column sum whose
    kernels see their constants took 34 registers: the grid no longer fit
    in one wave and the sum ran at 0.32 of copy bandwidth on an H200.
  }];
}

def ConvertPTensorReductionsToLoops
    : Pass<"convert-ptensor-reductions-to-loops", "ModuleOp"> {
  let summary = "Lowers host reduction generics to loops with accumulators "
                "in registers, the innermost loop in interleaved lanes";
  let description = [{
    For the CPU, after bufferization and ptensor-coalesce-dims: every
    `linalg.generic` on memrefs outside `ptensor.device` functions whose
    innermost loop is a reduction and whose body marks its combiner
    (convert-ptensor-to-linalg marks them) becomes
    - an `scf.parallel` nest over the kept loops (one output element each;
      the CPU pipeline's `parallel=true` runs it on OpenMP threads) and
      chunks of the outermost reduced loop: with fewer than 64 outputs,
      enough chunks for 64 tasks but no more than one per 65536 positions
      (rounded up; whole rows of the inner reduced loops), set by the
      sizes alone; chunk 0
      merges into the outputs, the others into a partials buffer merged
      into the outputs in chunk order afterwards,
    - inside it `scf.for` loops over the reduced dims carrying the
      accumulators as loop values (not through memory),
    - the innermost loop folded into the accumulators: integer, bitwise
      and NaN-propagating max/min combines as they are, float add/mul
      combines marked `reassoc`, so that LLVM's loop vectorizer folds them
      in vector lanes of its own (the order is fixed per compiled kernel);
      select-based combines (argmax/argmin), which LLVM does not vectorize,
      in `lanes` interleaved accumulators (element i + j into lane j,
      merged in a fixed tree order, then the remainder),
    - the total merged into the output's current value.
    A full reduction (no kept loops: `sum(x)`) is folded in chunks of its
    outermost loop on threads instead: chunks of about 65536 positions
    (65536 / r rows of r inner positions each, at least one row), at most
    64 of them, of equal size, their number and sizes set by the loop
    sizes alone, each with the inner loops into a partial in a stack array
    (an `scf.parallel` over the chunks), the partials then merged in order
    into the output: the same result on any number of threads. Outputs
    that kept iterations share, or that read a reduced dim, get serial
    loops (linalg's). The second pass of a host argmax/argmin over
    every dim (a first-match search marked `ptensor.first_match`, whose
    0-d input the first pass's chunks folded) reads only the first chunk
    whose partial is the extremum (or NaN): no earlier chunk holds it. It
    runs the whole search when the chunks were split otherwise or the
    chunk has no match.
    Inputs that walk the innermost loop with a stride not known to be 1 get
    a second version for a run-time stride of 1 (a `memref.reinterpret_cast`
    to a static unit stride: consecutive loads that vectorize).
    A reduction whose innermost loop is kept (a column sum) walks its
    accumulators innermost so that LLVM vectorizes across them: an
    `scf.parallel` over the outer kept loops, blocks of 1024 columns and
    chunks of the outermost reduced loop (enough chunks for 64 tasks, at
    least 64 rows each: set by the sizes alone), inside it the reduced
    loops in order, the innermost 4 rows at a time (their elements merged
    in a tree, then into the accumulator: one load and store of it per 4
    rows), the remaining rows one by one, with the same unit-stride
    version. Chunk 0 folds into the outputs, every other chunk into its
    row of a partials buffer (from the combiner's identity); a second
    `scf.parallel` over the blocks merges the partials into the outputs in
    chunk order: the same result on any number of threads.
  }];
  let options = [
    Option<"lanes", "lanes", "unsigned", "8",
           "Interleaved accumulators of a select-based combine (argmax, "
           "argmin) in the innermost loop (1 to 64)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def ConvertPTensorContractionsToLibrary
    : Pass<"convert-ptensor-contractions-to-library", "ModuleOp"> {
  let summary = "Matrix-product generics become calls of OpenBLAS (host) "
                "or cuBLASLt (GPU) through libptensor_runtime";
  let description = [{
    After bufferization: every `linalg.generic` on memrefs whose body is
    `out + a * b` (the sum combiner marked by convert-ptensor-to-linalg,
    operands optionally extended) over reduction loops `k`, with an
    output of two or three dims `(batch?, i, j)` where `i` does not index
    the rhs and `j` not the lhs — the generics of `ptensor.matmul` and of
    a `tensordot` shaped like one — becomes a call of
    `ptensor_rt_cpu_gemm` (host functions) or `ptensor_rt_gpu_gemm`
    (functions marked `ptensor.device`) with each operand's aligned
    pointer, offset and strides along (batch, rows, cols) read from its
    memref at run time (a dim an operand does not index has stride 0).
    Several reduction loops (a tensordot over pairs of axes) are one loop
    of their sizes' product for the library, read along the innermost's
    strides, where in both operands each outer one's stride is the next
    one's size times its stride (taken in the lhs's order; tested at run
    time, the call made only where it holds: contiguous operands).
    The generic stays, under an `scf.if`, for the calls the library
    declines (a layout that is neither row- nor column-major, an empty
    size, no library); the `linalg.fill` of the output right before it
    moves there too, since the library overwrites the output. On the GPU,
    when the f32 sums of f16/bf16 operands are only rounded to the result
    (the elementwise generic convert-ptensor-to-linalg marks
    `ptensor.rounds_contraction`, unchanged by fusion), cuBLASLt writes the
    rounded result itself and the f32 buffer, the sums and the rounding
    become the declined call's: an epilogue instead of a second pass
    (ptensor-fuse-elementwise keeps that rounding out of the consumers of
    a device function's product, so they read the rounded result).
    Likewise an f32 result whose consumer computes `relu(alpha * sums +
    bias[j])` into the sums' buffer or a new one (Epilogues.cpp matches
    its body: a scale by a constant, a power of two before a bias, the
    addition of a bias vector read along the last loop, ReLU as
    `maximumf` with +0; each part optional, nothing else in the body) calls
    `ptensor_rt_gpu_gemm_epilogue` with the parts as flags, the scale and
    the bias: `relu(x @ w + b)` is one cuBLASLt call (GELU is not matched:
    cuBLASLt's is less accurate than the generated code). With dynamic
    sizes the consumer reads the sums and the bias through the broadcast
    pass's views, with size checks between: the call is made where the
    sums' view addresses the sums as they are at run time (not broadcast),
    and the bias may be a row-broadcast view (strides 0 but the last);
    the runtime declines a bias that is itself broadcast (stride 0).

    Taken: f32 and f64 on the host; f32, f64, and f16/bf16 summed in f32
    on the GPU. Integer products, matrix-vector products and dot products
    stay generated (they are bandwidth-bound reductions).
  }];
  let options = [
    Option<"host", "host", "bool", "true",
           "Convert the generics of host functions (ptensor_rt_cpu_gemm)">,
    Option<"device", "device", "bool", "true",
           "Convert the generics of ptensor.device functions "
           "(ptensor_rt_gpu_gemm)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def ConvertPTensorSortToLibrary
    : Pass<"convert-ptensor-sort-to-library", "ModuleOp"> {
  let summary = "ptensor.sort_along and the compaction steps on buffers "
                "become calls of the runtime";
  let description = [{
    After bufferization: every `ptensor.sort_along` on memrefs (the
    lowering of `ptensor.sort` and `ptensor.argsort`) becomes a call of
    `ptensor_rt_cpu_sort`, or `ptensor_rt_gpu_sort` in functions marked
    `ptensor.device` (ptensor/Runtime/Sort.h, docs/ABI.md), with the key
    type code of its `dtype`, the flags (descending, stable), the rank and
    dim, each buffer's aligned pointer and offset, and arrays of the sizes
    and strides read from the memrefs at run time (host arrays: only the
    buffers are on the device).

    Likewise `ptensor.count_true`, `ptensor.select_true` and
    `ptensor.scatter_runs` (the lowering of nonzero, extract_mask and
    unique) become calls of `ptensor_rt_cpu_<step>` or
    `ptensor_rt_gpu_<step>` (ptensor/Runtime/Compact.h) with the address of
    each 1-D buffer's first element, the inputs' strides (read at run
    time) and the size; count_true's i64 result is the index the results
    are allocated with.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect"];
}

def PTensorLowerRunTimeChecks
    : Pass<"ptensor-lower-run-time-checks", "ModuleOp"> {
  let summary = "Host `cf.assert` ops become calls of libptensor_runtime's "
                "ptensor_rt_check_failed";
  let description = [{
    Runs in the host lowering to LLVM, after the functions were converted
    and before `convert-cf-to-llvm` would turn each `cf.assert` into a
    print and `abort()`. A failing check instead calls
    `ptensor_rt_check_failed(message)` (followed by `llvm.unreachable`),
    which records the message as the thread's error and hands it to the
    caller's trap (`ptensor_rt_trap_push`): JIT, C API and Python callers
    get an error value; code with no trap prints the message and aborts as
    before. Asserts inside `gpu.module`s are left alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PTensorInvariantDivision
    : Pass<"ptensor-invariant-division", "::mlir::func::FuncOp"> {
  let summary = "Integer divisions by a loop-invariant divisor become a "
                "multiplication by a magic number computed before the loop";
  let description = [{
    x86 has no vector integer division: LLVM vectorizes a loop dividing by a
    divisor it does not know at compile time (a scalar argument: `x // k`
    from Python) with one scalar `idiv` per element, 5 to 30 times slower
    than numpy, which divides by a scalar with libdivide's method. This
    pass rewrites each `arith.divui`, `remui`, `divsi`, `remsi` and
    `floordivsi` of 8, 16, 32 or 64-bit integers inside an `scf.for` or an
    `omp.loop_nest` whose divisor is invariant in the loop (defined outside
    it, or by pure ops of such values, which are copied out; not a
    constant, which LLVM handles itself) into Granlund and Montgomery's
    round-up method: before the outermost loop the divisor is invariant in
    (before an `omp.loop_nest`'s `omp.wsloop`), `l = ceil(log2 |d|)` and
    `m = floor(2^N (2^l - |d|) / |d|) + 1` (N bits; computed in i64, and
    for N = 64 by a long division, 32 steps for each of m's halves); in
    the loop `t = mulhi(m, |n|)` (a 2N-bit product; for N = 64 four
    32 x 32-bit products of the halves, which vectorize, where an i128
    product is scalarized lane by lane: int64 `x // 7` in cache 50 to 26 us
    for 10^5, numpy 37), `q = (t + ((|n| - t) >> min(l, 1))) >>
    max(l - 1, 0)`, then the signs and the remainder or the floor's
    correction.

    A loop with floor divisions (`floordivsi`) is versioned before it on
    its divisors' signs (`scf.if` all > 0, inside the `omp.parallel` region
    on threads). The positive copy divides the dividend's one's complement
    where negative, `a = n ^ (n >> (N-1))` (below 2^(N-1)), with
    `m = floor(2^(N-1+l) / d) + 1` as `mulhi(2a, m) >> l`, and complements
    the quotient back: a third of the general form's work per element
    (10^7 elements by 7, one thread: i16 2.0 to 1.5 ms, the speed of an
    add; i64 16.5 to 14 ms). Else, where all are < 0 and none is INT_MIN
    (`x // -7`), a second copy divides `n - 1` by `p = -d` the same way and
    complements the quotient (`floor(n / d) = -ceil(n / p) =
    ~floor((n - 1) / p)`); `n = INT_MIN`, for which `n - 1` wraps, takes
    `floor(INT_MIN / d)`, computed before the loop from `floor(INT_MAX / p)`
    (10^5 elements by -7 in cache, one thread: i16 8.7-11.3 to 7.0-7.3 us,
    i32 15.1-16.6 to 12.0-12.5 us). The general form is left for a zero
    or INT_MIN divisor and mixed signs. Where a divisor is a select's
    false operand `y`, as ptensor's safe divisor `select(y == 0 || y == -1,
    1, y)` is, the copies are entered on `y` itself (`y > 0`, or `y < -1`
    and not INT_MIN, and the select having taken `y`): LLVM then knows
    `y != 0` and `y != -1` in them and folds the elementwise body's own
    selects on those, which stayed as loop-invariant branches otherwise.

    ```mlir
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xi32>
      %q = arith.floordivsi %x, %d : i32
      ...
    ```

    The magic numbers are computed with a divisor of 1 in place of 0 (the
    original division by 0 would be undefined; ptensor's lowering never
    divides by 0 or -1: it selects numpy's results for those).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def PTensorSerialInnerLoop
    : Pass<"ptensor-serial-inner-loop", "ModuleOp"> {
  let summary = "The innermost loop of a parallel host loop nest runs "
                "serially, in blocks";
  let description = [{
    Runs between `convert-linalg-to-parallel-loops` and
    `convert-scf-to-openmp`. The conversion collapses every dim of an
    `scf.parallel` into one worksharing loop, whose induction variable is
    split back into the dims by a division and a remainder per element:
    LLVM cannot vectorize that loop, so a strided, transposed or broadcast
    elementwise nest of more than one dim ran as scalar code on threads
    (its serial copy and one-dim nests were vectorized). Here an outermost
    `scf.parallel` of two or more dims without reductions, whose loads and
    stores move by a static stride of 0 or 1 along the innermost dim (the
    contiguous fast paths of `ptensor-coalesce-dims`; a strided access
    would become a gather, slower than the scalar loop), keeps all but its
    innermost dim; the innermost becomes a serial `scf.for` in the body,
    over one block of `block-size` positions of it (8192 by default; the
    CPU pipeline's `inner-block`) when it starts at 0 with step 1 (the
    block is one more parallel dim, `first = block * 8192`,
    `last = min(first + 8192, n)`: a nest of few long rows still has
    work for every thread), else whole:

    ```mlir
    scf.parallel (%i, %blk) = (%c0, %c0) to (%m, %nblocks) step (%c1, %c1) {
      %first = arith.muli %blk, %c8192 : index
      %end = arith.addi %first, %c8192 : index
      %last = arith.minsi %end, %n : index
      scf.for %j = %first to %last step %c1 { <the body> }
    }
    ```

    The parallel threshold weighs each iteration by the block's trips
    (it recognizes this block shape).

    Such a nest with another access (a dynamic stride along the innermost
    dim, as a transposed operand's column has, or an index computed in the
    body) whose last two dims run from 0 by 1 runs in 64 x 64 tiles of
    them instead: an `scf.parallel` over the outer dims and the tiles,
    whose body runs one tile as two serial `scf.for` loops (rows, then
    columns, each over `[first, min(first + 64, n))`). Collapsed, such a
    nest crossed a page of a transposed operand per element; within a tile
    its cache lines and pages are reused (`a.T + a` of 3000 x 3000 f32:
    11.5-13.8 ms on two threads before, 3.85 tiled).
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t",
           "::mlir::ptensor::kDefaultInnerBlock",
           "Innermost positions per parallel block (long enough that the "
           "block's bounds and vector remainder cost nothing beside it, "
           "short enough that a nest of a few long rows splits over every "
           "thread)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def PTensorParallelThreshold
    : Pass<"ptensor-parallel-threshold", "ModuleOp"> {
  let summary = "Parallel host loop nests run on threads only when large";
  let description = [{
    Runs after `convert-scf-to-openmp`. An outermost `omp.parallel` without
    a `num_threads` clause gets the thread count of the machine the code
    runs on: a call of libptensor_runtime's
    `ptensor_rt_host_threads(team-size)` (PTENSOR_NUM_THREADS, else the
    CPUs available shared among a team's processes). An outermost region
    that is exactly one worksharing loop nest (exclusive bounds defined
    outside it, one body block, no reductions, privatization or nested
    OpenMP ops: what the conversion makes of an elementwise `scf.parallel`)
    is then versioned on the nest's iteration count and the thread count.
    The count is the product of the nest's trip counts, each iteration
    weighed by 1 + the iterations of the `scf.for` loops in its body (a
    reduction's rows and columns): their trip counts summed over sibling
    loops and multiplied down nested ones, for loops with a positive
    constant step whose bounds are known before the region (pure ops
    computing one are copied out of it), that walk one block of a tiled
    loop (`lower` to `min(lower + size, n)`: at most `min(size, n)`), or
    else whose bounds are known in the nest's first iteration (its
    induction variables at their lower bounds: the lowerings here split
    their work in equal tasks); a loop of other bounds counts once; an
    `scf.if` counts its larger branch. The versions:

    ```mlir
    scf.if %large {        // iterations >= min-iterations and threads > 1
      omp.parallel num_threads(%threads) { omp.wsloop { omp.loop_nest ... } }
    } else {
      scf.for ... { <the body> }   // the calling thread, no runtime call
    }
    ```

    A nest whose body may leave compiled code through the caller's trap (a
    `cf.assert`, an allocation, a call of the runtime) is only the serial
    copy: traps are per thread and must not jump over OpenMP's frames.
    Other outermost regions get an `if` clause with the same condition
    (OpenMP serializes them, at the cost of a runtime call). Regions that
    already have an `if` clause, and nests with inclusive bounds (which
    convert-scf-to-openmp does not make), are left alone.
  }];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t",
           "2 * int64_t(::mlir::ptensor::kDefaultMinTaskSize)",
           "Fewest iterations of a loop nest that runs on threads">,
    Option<"teamSize", "team-size", "int64_t", "1",
           "Processes of the team the code runs in (they share the CPUs)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::omp::OpenMPDialect",
                           "::mlir::scf::SCFDialect"];
}

def PTensorUseHostAllocator
    : Pass<"ptensor-use-host-allocator", "ModuleOp"> {
  let summary = "Host buffers come from libptensor_runtime's caching host "
                "allocator";
  let description = [{
    Runs after `finalize-memref-to-llvm`: the `malloc` and `free` its
    lowering of `memref.alloc`/`memref.dealloc` calls become
    `ptensor_rt_host_alloc` and `ptensor_rt_host_free` (the declarations
    are renamed; a call of either anywhere in the module moves with them).
    The runtime keeps freed blocks for reuse by size class, so a result of
    the same size as one freed before costs no page faults, and a failed
    allocation is an error for the caller (out of memory, with the size),
    not a null pointer.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // PTENSOR_CONVERSION_PASSES_TD
