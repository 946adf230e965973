"""The host-overhead and first-call-latency part of bench/run.py (GPU
machine), for the `small_add_4096` case (and, for `sum_4096`, the per-call
cost of a small reduction, `measure_sum`):

* per call through the runtime alone: bench/host_overhead.c, built by
  gpu-check.sh's prepare_bench (every `prepare*` step with benchmark
  kernels) into DIR/host_overhead, run as a subprocess;
* per call through a loaded library's function (`ptensor.Library`, the
  packed entry point called from C++) and through the ptensor frontend
  (`ptensor.add` on torch tensors: meta step, kernel table and call in C++,
  the kernel from the warm on-disk cache DIR/first_call_cache), next to
  torch eager's `a + b`;
* first-call latency: the cold compile time measured by `first_call.py
  prepare` (where the compiler is) and, in a fresh process here,
  `first_call.py run` with the warm on-disk cache.
"""

import json
import os
import subprocess
import sys
import time

import first_call

HERE = os.path.dirname(os.path.abspath(__file__))
N = 4096


def _host_per_call_us(fn, sync, calls=2000, batches=7):
    """Median over batches of host wall time per call, the GPU drained at
    the end of each batch."""
    for _ in range(100):
        fn()
    sync()
    times = []
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        times.append((time.perf_counter() - start) / calls * 1e6)
    times.sort()
    return times[len(times) // 2]


def _run_json(cmd, env=None, timeout=300):
    """(parsed last JSON line of stdout, None) or (None, error text)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, (p.stderr or p.stdout).strip()[-800:])
    for line in reversed(p.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line), None
    return None, "no JSON in the output: " + p.stdout[-400:]


def _c_per_call(bench_dir, case, op, failures):
    """bench/host_overhead.c's JSON for `case`.so called as `op` (add or
    sum), or None with the problem appended to `failures`."""
    binary = os.path.join(bench_dir, "host_overhead")
    if not os.path.exists(binary):
        failures.append("host_overhead: %s not built (gpu-check.sh prepare-bench)" % binary)
        return None
    res, err = _run_json([binary, os.path.join(bench_dir, "libptensor_runtime.so"),
                          os.path.join(bench_dir, case + ".so"), "--op", op,
                          "--json", "/dev/stdout"])
    if err or not res.get("correct"):
        failures.append("host_overhead %s: %s" % (case, err or "result differs from the reference"))
        return None
    return res


def measure_sum(bench_dir, a, failures):
    """The small reduction: sum_4096.so per call through the runtime alone
    (C) beside torch eager's `a.sum()`, host wall time per call."""
    import torch

    out = {"torch_us": _host_per_call_us(lambda: a.sum(), torch.cuda.synchronize)}
    res = _c_per_call(bench_dir, "sum_4096", "sum", failures)
    if res:
        out["c"] = res
    return out


def measure(bench_dir, kernel, a, b, failures):
    """Every number of the small add; problems are appended to `failures`."""
    import torch

    out = {}
    sync = torch.cuda.synchronize
    out["torch_us"] = _host_per_call_us(lambda: a + b, sync)
    out["library_us"] = _host_per_call_us(lambda: kernel(a, b), sync)

    res = _c_per_call(bench_dir, "small_add_4096", "add", failures)
    if res:
        out["c"] = res

    cache = os.path.join(bench_dir, "first_call_cache")
    env = dict(os.environ, PTENSOR_CACHE_DIR=cache,
               PTENSOR_RUNTIME_LIBRARY=os.path.join(bench_dir, "libptensor_runtime.so"))
    try:
        with open(os.path.join(cache, "prepare.json")) as f:
            out["prepare"] = json.load(f)
    except OSError as e:
        failures.append("first call: no cold-compile record (%s)" % e)
    res, err = _run_json([sys.executable, os.path.join(HERE, "first_call.py"), "run", cache],
                         env=env)
    if err or not res.get("correct"):
        failures.append("first_call.py run: %s" % (err or "result differs from torch"))
    else:
        out["first"] = res

    # The frontend, in this process (run.py imported the package; the
    # kernel comes from the same warm cache, looked up at the call).
    os.environ.update(PTENSOR_CACHE_DIR=cache,
                      PTENSOR_RUNTIME_LIBRARY=os.path.join(bench_dir, "libptensor_runtime.so"))
    try:
        import ptensor as pt

        r = pt.add(a, b)
        if not torch.allclose(r, a + b, rtol=1e-6, atol=0):
            failures.append("ptensor.add: result differs from torch")
        else:
            out["frontend_us"] = _host_per_call_us(lambda: pt.add(a, b), sync, calls=1000)
            # The same calls reading torch tensors through Python attribute
            # lookups (the path without torch's DLPack C exchange table).
            from ptensor import _core

            out["exchange"] = _core.has_dlpack_exchange(torch.Tensor)
            old = _core.set_dlpack_exchange(False)
            try:
                out["frontend_attributes_us"] = _host_per_call_us(lambda: pt.add(a, b), sync,
                                                                  calls=1000)
                out["library_attributes_us"] = _host_per_call_us(lambda: kernel(a, b), sync)
            finally:
                _core.set_dlpack_exchange(old)
    except Exception as e:  # noqa: BLE001 - reported, the rest of the bench goes on
        failures.append("ptensor.add: %s: %s" % (type(e).__name__, e))
    try:  # the CPU: a 1000-element add on numpy arrays, beside numpy's own
        import numpy as np

        x = np.random.default_rng(0).standard_normal(first_call.CPU_N).astype(np.float32)
        if not np.array_equal(pt.add(x, x), x + x):
            failures.append("ptensor.add (CPU): result differs from numpy")
        else:
            out["cpu_us"] = _host_per_call_us(lambda: pt.add(x, x), lambda: None, calls=5000)
            out["numpy_us"] = _host_per_call_us(lambda: x + x, lambda: None, calls=5000)
    except Exception as e:  # noqa: BLE001
        failures.append("ptensor.add (CPU): %s: %s" % (type(e).__name__, e))
    return out


def report_sum_lines(m):
    """Markdown lines for RESULTS.md: the small reduction's per-call cost."""
    c = m.get("c", {})
    return ["", "Host overhead per call of the small reduction (sum of 4096 f32, the 0-d "
            "result allocated by the call and freed; host wall time per call, median of "
            "batches): ptensor through the runtime (C, bench/host_overhead.c --op sum) "
            "%s µs, torch eager `a.sum()` %.2f µs."
            % ("%.2f" % c["per_call_us"] if c else "n/a", m["torch_us"])]


def report_lines(m):
    """Markdown lines for RESULTS.md."""
    f = lambda v: "%.2f" % v if isinstance(v, (int, float)) else "n/a"  # noqa: E731
    c = m.get("c", {})
    lines = ["", "Host overhead per call of the small add (4096 f32, result allocated by "
             "the call and freed; host wall time per call, median of batches):", "",
             "| path | µs per call |", "|---|---|",
             "| ptensor through the runtime (C, bench/host_overhead.c) | %s |"
             % f(c.get("per_call_us")),
             "| ptensor.Library function (C++ call of the packed entry point) | %s |"
             % f(m.get("library_us")),
             "| ptensor.add (Python frontend, torch tensors in and out) | %s |"
             % f(m.get("frontend_us")),
             "| the same two, torch tensors read through Python attributes instead of "
             "torch's DLPack C exchange table (%s here) | %s, %s |"
             % ("present" if m.get("exchange") else "absent",
                f(m.get("library_attributes_us")), f(m.get("frontend_attributes_us"))),
             "| torch eager `a + b` | %s |" % f(m.get("torch_us")),
             "| CPU: ptensor.add of 1000 float32 (numpy arrays in and out) | %s |"
             % f(m.get("cpu_us")),
             "| CPU: numpy `a + b` of 1000 float32 | %s |" % f(m.get("numpy_us"))]
    if c:
        lines += ["", "C, fresh process: load runtime %.1f ms, CUDA driver init %.1f ms, "
                  "primary context %.1f ms, load the kernel library and its GPU modules "
                  "%.2f ms, first call until the result is on the host %.2f ms."
                  % (c["runtime_load_ms"], c["driver_init_ms"], c["context_ms"],
                     c["kernel_load_ms"], c["first_call_ms"])]
    first, prep = m.get("first"), m.get("prepare")
    if first:
        lines += ["", "First call of `ptensor.add` in a fresh Python process (kernel in the "
                  "warm on-disk cache): %.1f ms (import ptensor %.1f ms before it; torch's "
                  "own CUDA start-up %.0f ms and first `a + b` %.1f ms not counted); "
                  "second call %.2f ms; import + first call %.1f ms."
                  % (first["warm_first_call_ms"], first["import_ptensor_ms"],
                     first["cuda_init_ms"], first["torch_first_add_ms"],
                     first["second_call_ms"],
                     first["import_ptensor_ms"] + first["warm_first_call_ms"])]
    if prep and first:
        lines += ["Cold (empty cache), on the build machine: compile %.0f ms (IR "
                  "generation, loading the in-process compiler, which a process loads on "
                  "its first cache miss only, CUDA kernel to cubin and linked library) "
                  "+ the warm first call = %.0f ms; import + compile %.0f ms; a CPU "
                  "kernel's cold compile %.0f ms."
                  % (prep["cold_compile_ms"],
                     prep["cold_compile_ms"] + first["warm_first_call_ms"],
                     prep.get("import_and_cold_compile_ms", float("nan")),
                     prep.get("cold_compile_cpu_ms", float("nan")))]
    return lines
