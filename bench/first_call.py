#!/usr/bin/env python3
"""First-call latency of `ptensor.add` on two 4096-element float32 CUDA
tensors, each phase timed in a fresh process.

    first_call.py prepare CACHE_DIR   # here: cold compile into an empty cache
    first_call.py run CACHE_DIR       # GPU machine: warm on-disk cache
    first_call.py profile CACHE_DIR   # GPU machine: the first call's profile
    first_call.py phases CACHE_DIR    # GPU machine: the first call's phases

`prepare` (where the compiler is) empties CACHE_DIR and times the cold
path up to the compiled kernel: import, IR generation, cache miss, loading
the compiler and compiling, in `ptensor.compile_only()` mode on descriptions of the
CUDA tensors (no GPU needed). It also compiles (and runs) the CPU kernel of a 1000-element float32 add
into the same cache. It writes CACHE_DIR/prepare.json.

`run` (GPU machine, no compiler) times: torch's CUDA start-up (context and
inputs), torch's own first `a + b`, `import ptensor`, and ptensor's first
call with the kernel found in the on-disk cache (cache lookup, loading the
runtime and the library, the GPU module loads, the result's block from
torch's allocator, the launch, until the result is ready), then checks the
result against torch. Prints one JSON line (with where the runtime's
device memory came from: "torch").

`phases` (GPU machine) times the first call's parts one after another in
a fresh process beside torch (loading the runtime, asking for the device,
the host-CPU feature check, the entry's currency check, loading the kernel
library with its GPU module, the
Python hooks the C++ call asks once, torch's first DLPack import, then the
add, which loads the library again from the cache) and prints one JSON
line of milliseconds.
"""

import glob
import json
import os
import shutil
import sys
import time

T_START = time.perf_counter()
HERE = os.path.dirname(os.path.abspath(__file__))
# The source tree's package when it has its binding (the GPU check builds
# ptensor._core there), else the installed one.
if glob.glob(os.path.join(HERE, "..", "python", "ptensor", "_core*.so")):
    sys.path.insert(0, os.path.join(HERE, "..", "python"))
N = 4096
#: Elements of the CPU add whose per-call time host_latency.py measures.
CPU_N = 1000


def ms(t0, t1):
    return round((t1 - t0) * 1e3, 3)


def prepare(cache):
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(cache)
    os.environ["PTENSOR_CACHE_DIR"] = cache
    t0 = time.perf_counter()
    import ptensor as pt
    t1 = time.perf_counter()
    a = pt.Tensor("f32", "cuda:0", 1 << 40, (N,), (1,), "torch", None)
    b = pt.Tensor("f32", "cuda:0", 1 << 41, (N,), (1,), "torch", None)
    with pt.compile_only():
        pt.add(a, b)
    t2 = time.perf_counter()
    libs = [f for f in os.listdir(cache) if f.endswith(".so")]
    if len(libs) != 1:
        sys.exit("first_call.py: expected one compiled library in %s, found %s" % (cache, libs))
    # The CPU kernel of the host per-call measurement (host_latency.py).
    import numpy as np

    x = np.ones(CPU_N, np.float32)
    t3 = time.perf_counter()
    pt.add(x, x)
    t4 = time.perf_counter()
    # The compiler (LLVM) is loaded on the first cache miss, so the first
    # compile includes loading it: import + compile is the comparable sum.
    result = {"import_ms": ms(t0, t1), "cold_compile_ms": ms(t1, t2),
              "import_and_cold_compile_ms": ms(t0, t2), "library": libs[0],
              "cold_compile_cpu_ms": ms(t3, t4)}
    with open(os.path.join(cache, "prepare.json"), "w") as f:
        json.dump(result, f)
    print(json.dumps(result))


def run(cache):
    os.environ["PTENSOR_CACHE_DIR"] = cache
    t0 = time.perf_counter()
    import torch
    t1 = time.perf_counter()
    gen = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(N, device="cuda", generator=gen)
    b = torch.randn(N, device="cuda", generator=gen)
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    ref = a + b
    torch.cuda.synchronize()
    t3 = time.perf_counter()
    import ptensor as pt
    t4 = time.perf_counter()
    r = pt.add(a, b)
    torch.cuda.synchronize()
    t5 = time.perf_counter()
    r2 = pt.add(a, b)
    torch.cuda.synchronize()
    t6 = time.perf_counter()
    correct = bool(torch.allclose(r, ref, rtol=1e-6, atol=0) and torch.equal(r, r2))
    from ptensor import _core

    print(json.dumps({
        "process_start_ms": ms(T_START, t0), "import_torch_ms": ms(t0, t1),
        "cuda_init_ms": ms(t1, t2), "torch_first_add_ms": ms(t2, t3),
        "import_ptensor_ms": ms(t3, t4), "warm_first_call_ms": ms(t4, t5),
        "second_call_ms": ms(t5, t6), "device_memory": _core.device_memory(),
        "correct": correct}))
    return 0 if correct else 1


def profile(cache):
    """`run`'s first ptensor call under cProfile: where its time goes (the
    20 entries of most cumulative time)."""
    import cProfile
    import pstats

    os.environ["PTENSOR_CACHE_DIR"] = cache
    import torch

    a = torch.ones(N, device="cuda")
    torch.cuda.synchronize()
    import ptensor as pt

    profiler = cProfile.Profile()
    profiler.enable()
    pt.add(a, a)
    torch.cuda.synchronize()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(20)
    return 0


def call_interop_hooks(interop):
    """The hooks of ptensor/_interop.py that the first GPU call with torch
    tensors calls from C++ (each once per process)."""
    interop.torch_dtypes()
    interop.torch_raw_stream()
    interop.torch_from_capsule()
    interop.runtime_functions()


def torch_capsule_round_trip(torch, a):
    """A DLPack capsule of `a`, imported back by torch's C-level import
    (the path of ptensor's GPU results)."""
    from_capsule = getattr(torch._C, "_from_dlpack", None) or torch.utils.dlpack.from_dlpack
    from_capsule(torch.utils.dlpack.to_dlpack(a))


def phases(cache):
    os.environ["PTENSOR_CACHE_DIR"] = cache
    import torch

    a = torch.ones(N, device="cuda")
    torch.cuda.synchronize()
    import ptensor as pt
    from ptensor import _compiler, _core, _ffi, _interop, _runtime

    with open(os.path.join(cache, "prepare.json")) as f:
        library = os.path.join(cache, json.load(f)["library"])  # the CUDA add's
    steps = [("runtime_load", _runtime.runtime),
             ("cuda_available", _runtime.cuda_available),
             ("cpu_features", _core.host_cpu_features),
             ("is_current", lambda: _compiler._is_current(library)),
             ("library_load", lambda: _ffi.Library(library, "cuda")),
             # (No step of its own for the allocator's first block: the add
             # takes it from torch's allocator, which the first GPU call
             # makes the runtime's memory source; a block taken here through
             # the runtime's C API would come from cuMemAlloc instead.)
             # The Python hooks the C++ call asks once (torch's dtype
             # table, stream and capsule functions, the runtime's entry
             # points), then torch's first import of a DLPack capsule,
             # which a GPU result goes through.
             ("interop_hooks", lambda: call_interop_hooks(_interop)),
             ("first_from_dlpack", lambda: torch_capsule_round_trip(torch, a)),
             ("first_add", lambda: (pt.add(a, a), torch.cuda.synchronize())),
             ("second_add", lambda: (pt.add(a, a), torch.cuda.synchronize()))]
    times = {}
    for name, step in steps:
        t0 = time.perf_counter()
        step()
        times[name + "_ms"] = ms(t0, time.perf_counter())
    print(json.dumps(times))
    return 0


if __name__ == "__main__":
    modes = {"prepare": prepare, "run": run, "profile": profile, "phases": phases}
    if len(sys.argv) != 3 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    sys.exit(modes[sys.argv[1]](sys.argv[2]))
