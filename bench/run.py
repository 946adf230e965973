#!/usr/bin/env python3
"""Times the compiled cases (build.py) on the GPU against PyTorch eager,
torch.compile, CuPy and a device-to-device copy of the same bytes, in one
process: CUDA events, warm-up, medians of many runs, random non-zero
inputs. Checks every ptensor result against PyTorch first. Prints a table
and writes RESULTS.md.

    python3 bench/run.py DIR [--out RESULTS.md] [--no-compile]
"""

import argparse
import datetime
import glob
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# The source tree's package when the GPU check built its binding there.
if glob.glob(os.path.join(HERE, "..", "python", "ptensor", "_core*.so")):
    sys.path.insert(0, os.path.join(HERE, "..", "python"))
from cases import (CASES, FLOPS, SWEEP_CASES, SWEEP_CONFIGS, TF32_CASES,  # noqa: E402
                   selected_cases)
import ptensor as pt  # noqa: E402
import host_latency  # noqa: E402

REPS, WARMUP = 30, 5
# Calls between two events: the host enqueues the next launch while the
# GPU runs the current one, so per-call host time (ctypes, launch) does not
# sit between the start event and the kernel as idle GPU time.
BATCH = 10


def load_kernel(path, name):
    """Function `name` of the compiled library at `path`, called like a
    ptensor function: torch CUDA tensors in, a torch tensor out (its memory
    freed when it is collected). The package's own call path (C++,
    docs/ABI.md's packed entry point), the one users get from Python."""
    return pt.Library(path, "cuda")[name]


def time_events(fn, reps=REPS, warmup=WARMUP, batch=BATCH):
    """Median milliseconds per call of `fn`, from CUDA events around
    batches of `batch` back-to-back calls."""
    return time_interleaved({"fn": fn}, reps, warmup, batch)["fn"]


def time_interleaved(fns, reps=REPS, warmup=WARMUP, batch=BATCH):
    """Median milliseconds per call of each function of `fns` (column ->
    function), from CUDA events around batches of `batch` back-to-back
    calls, in rounds that take one batch of each in turn: the GPU's clock
    and temperature then drift alike for all
    (compute-bound products are power-limited on the H100, and timing one
    system after the other gave the same cuBLAS kernel 0.87x of itself)."""
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    times = {column: [] for column in fns}
    for _ in range(reps):
        for column, fn in fns.items():
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(batch):
                fn()
            end.record()
            end.synchronize()
            times[column].append(start.elapsed_time(end) / batch)
    return {column: statistics.median(t) for column, t in times.items()}


def host_per_call_us(fn, calls=2000):
    """Host wall time per call for a tiny op (launch overhead), synchronized."""
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / calls * 1e6


def mismatch(kernel, inputs, ref, tol=None):
    """Why `kernel`'s result differs from `ref`, or None: the relative
    error of the norm within `tol` (default by dtype) for floats."""
    got = kernel(*inputs)
    torch.cuda.synchronize()
    if ref.dtype.is_floating_point:
        err = ((got.double() - ref.double()).norm() / ref.double().norm()).item()
        if tol is None:
            tol = 2e-2 if ref.dtype in (torch.bfloat16, torch.float16) else 1e-5
        return None if err < tol else f"relative error {err:.3g} >= {tol}"
    if not torch.equal(got, ref):
        return f"{(got != ref).sum().item()} elements differ"
    return None


def variant_tags(directory):
    """The sweep's configuration tags, then any other tag of a
    `<case>@<tag>.so` in `directory`: a build by another compiler put there
    by hand (e.g. `@before`), timed in the same run for an A/B."""
    found = {os.path.basename(p).split("@", 1)[1][:-3]
             for p in glob.glob(os.path.join(directory, "*@*.so"))}
    return list(SWEEP_CONFIGS) + sorted(found - set(SWEEP_CONFIGS))


def time_sweep(directory, tags, name, inputs, ref, failures, tol=None):
    """Checks and times every variant `tags` of case `name` in `directory`
    (variant_tags: the configurations build.py compiled and builds put
    there by hand)."""
    times = {}
    for tag in tags:
        path = os.path.join(directory, f"{name}@{tag}.so")
        if not os.path.exists(path):
            continue
        kernel = load_kernel(path, name)
        problem = mismatch(kernel, inputs, ref, tol)
        if problem:
            failures.append(f"{name}@{tag}: {problem}")
            continue
        times[tag] = time_events(lambda: kernel(*inputs))
    return times


def make_inputs(specs, gen):
    out = []
    for shape, dtype in specs:
        if dtype == "bool":  # half true
            out.append(torch.rand(shape, generator=gen, device="cuda") < 0.5)
            continue
        if dtype == "int64_u16":  # uniform in [0, 2^16)
            out.append(torch.randint(0, 2 ** 16, shape, generator=gen, device="cuda",
                                     dtype=torch.int64))
            continue
        if dtype == "float32_sorted":  # ascending, for searchsorted
            out.append(torch.sort(torch.randn(shape, generator=gen, device="cuda")).values)
            continue
        if dtype.startswith("int"):
            out.append(torch.randint(-100, 100, shape, generator=gen, device="cuda",
                                     dtype=getattr(torch, dtype)))
            continue
        t = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32) + 0.25
        out.append(t.to(getattr(torch, dtype)))
    return out


#: Cases also timed with torch.compile.
COMPILED = ("chain", "transposed_add", "contiguous_add", "outer_add", "chain_dynamic",
            "sum_rows", "sum_cols", "var_rows", "softmax_rows", "standardize_rows",
            "sum_sq_diff", "concat_cols", "roll_last",
            "tril", "reshape_t", "mm_bias_relu_f32", "mm_bias_gelu_bf16",
            "sum_4096", "sum_rows_1000x3", "sum_rows_3x1e6", "sum_rows_transposed")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--out", default=os.path.join(HERE, "RESULTS.md"))
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--cases", help="comma-separated case names (default: all)")
    args = p.parse_args()
    tags = variant_tags(args.dir)
    chosen = selected_cases(args.cases)
    try:
        import cupy
    except ImportError:
        cupy = None
    gen = torch.Generator(device="cuda").manual_seed(0)
    props = torch.cuda.get_device_properties(0)
    rows, failures = [], []
    copy_src = torch.randn(8192 * 8192, device="cuda")
    copy_dst = torch.empty_like(copy_src)
    copy_ms = time_events(lambda: copy_dst.copy_(copy_src))
    copy_gbs = 2 * copy_src.numel() * 4 / copy_ms / 1e6
    print(f"device: {props.name}; device-to-device copy of 256 MiB: "
          f"{copy_ms * 1e3:.0f} us = {copy_gbs:.0f} GB/s")
    for name in chosen:
        _ir, specs, expr, nbytes = CASES[name]
        kernel = load_kernel(os.path.join(args.dir, name + ".so"), name)
        inputs = make_inputs(specs, gen)
        a = inputs[0]
        b = inputs[1] if len(inputs) > 1 else None
        names = "abc"[:len(inputs)]
        env = {"torch": torch, "a": a, "b": b, "c": inputs[2] if len(inputs) > 2 else None}
        torch.backends.cuda.matmul.allow_tf32 = False  # the reference: no TF32
        ref = eval(expr, env)
        tol = None
        if name in FLOPS and ref.dtype == torch.float32:
            # f32 products against the f64 product, within what sums of up
            # to 262144 products (tensordot_f32) round to: torch's and
            # ptensor's differ by 1.1e-5 there.
            wide = {k: v.double() if torch.is_tensor(v) else v for k, v in env.items()}
            ref = eval(expr, wide).float()
            tol = 5e-5
        # TF32 from here to the case's end, on both sides (the reference
        # above is the full-precision product).
        tf32 = name in TF32_CASES
        pt.set_allow_tf32(tf32)
        torch.backends.cuda.matmul.allow_tf32 = tf32
        if tf32:
            tol = 2e-3
        problem = mismatch(kernel, inputs, ref, tol)
        if problem:
            failures.append(f"{name}: {problem}")

        def run_ptensor():
            kernel(*inputs)

        row = {"case": name, "bytes": nbytes}
        if name == "small_add_4096":
            row["small"] = host_latency.measure(args.dir, kernel, a, b, failures)
            row["pt_us"] = row["small"].get("c", {}).get("per_call_us", float("nan"))
            row["torch_us"] = row["small"]["torch_us"]
            rows.append(row)
            continue
        peers = {"pt_ms": run_ptensor, "torch_ms": lambda: eval(expr, env)}
        if not args.no_compile and name in COMPILED:
            # Each case's lambda comes from the same "<string>" frame: without
            # a reset, dynamo's per-frame recompile limit (8) made the later
            # cases run eagerly while timed as torch.compile.
            torch._dynamo.reset()
            fn = torch.compile(eval(f"lambda {', '.join(names)}: " + expr, env),
                               dynamic=name.endswith("dynamic"))
            fn(*inputs)
            peers["compile_ms"] = lambda: fn(*inputs)
        if cupy is not None and "bfloat16" not in str(a.dtype) and not tf32:
            ca = cupy.asarray(a)
            cb = cupy.asarray(b) if b is not None else None
            cexpr = {"a + b": lambda: ca + cb, "a + b.T": lambda: ca + cb.T,
                     "a.sum()": lambda: ca.sum(), "a.sum(-1)": lambda: ca.sum(-1),
                     "a.sum(0)": lambda: ca.sum(0), "a.amax(-1)": lambda: ca.max(-1),
                     "a.mean(-1)": lambda: ca.mean(-1), "a.var(-1, correction=0)":
                     lambda: ca.var(-1), "a.argmax(-1)": lambda: ca.argmax(-1),
                     "((a - b) ** 2).sum()": lambda: ((ca - cb) ** 2).sum(),
                     "a @ b": lambda: ca @ cb, "a.T @ b": lambda: ca.T @ cb,
                     "torch.tensordot(a, b, dims=([1, 2], [1, 2]))":
                     lambda: cupy.tensordot(ca, cb, axes=([1, 2], [1, 2])),
                     "(a * b).sum(-1)": lambda: (ca * cb).sum(-1),
                     "torch.cat([a, b], 0)": lambda: cupy.concatenate([ca, cb], 0),
                     "torch.cat([a, b], 1)": lambda: cupy.concatenate([ca, cb], 1),
                     "torch.stack([a, b])": lambda: cupy.stack([ca, cb]),
                     "torch.roll(a, 1, -1)": lambda: cupy.roll(ca, 1, -1),
                     "torch.tril(a)": lambda: cupy.tril(ca),
                     "a.T.reshape(-1)": lambda: ca.T.reshape(-1),
                     "torch.sort(a).values": lambda: cupy.sort(ca),
                     "torch.argsort(a, stable=True)": lambda: cupy.argsort(ca),
                     "torch.sort(a, -1).values": lambda: cupy.sort(ca, -1),
                     "torch.nonzero(a, as_tuple=True)[0]": lambda: cupy.nonzero(ca)[0],
                     "torch.unique(a)": lambda: cupy.unique(ca),
                     "a[b]": lambda: ca[cb],
                     "torch.searchsorted(a, b)": lambda: cupy.searchsorted(ca, cb),
                     "torch.unique(a, return_counts=True)[1]":
                     lambda: cupy.unique(ca, return_counts=True)[1]}.get(expr)
            if name.startswith("chain"):
                def chain_kernel(x, y):
                    return cupy.exp(-((x * y + 1.5) ** 2)) * 0.5 + x
                fused = cupy.fuse(chain_kernel)
                cexpr = lambda: fused(ca, cb)  # noqa: E731
            if cexpr:
                peers["cupy_ms"] = cexpr
        row.update(time_interleaved(peers))
        if name == "sum_4096":
            row["small_sum"] = host_latency.measure_sum(args.dir, a, failures)
        sweep = time_sweep(args.dir, tags, name, inputs, ref, failures, tol)
        if name in SWEEP_CASES or sweep:
            row["sweep"] = sweep
        rows.append(row)
        del inputs, a, b, env, ref
        torch.cuda.empty_cache()

    # Table.
    lines = [f"Device: {props.name}, date {datetime.date.today()}, "
             f"copy bandwidth (D2D, same process) {copy_gbs:.0f} GB/s.",
             "",
             "| case | ptensor µs | GB/s | of copy | vs torch eager | vs torch.compile | vs CuPy |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["case"] in FLOPS:
            continue
        if "pt_us" in r:
            lines.append(f"| {r['case']} (host µs per call, C) | {r['pt_us']:.2f} | | | "
                         f"torch {r['torch_us']:.1f} µs | | |")
            continue
        gbs = r["bytes"] / r["pt_ms"] / 1e6
        sp = lambda k: f"{r[k] / r['pt_ms']:.2f}x" if k in r else ""  # noqa: E731
        lines.append(f"| {r['case']} | {r['pt_ms'] * 1e3:.0f} | {gbs:.0f} | {gbs / copy_gbs:.2f} | "
                     f"{sp('torch_ms')} | {sp('compile_ms')} | {sp('cupy_ms')} |")
    lines += ["", "Matrix products (cuBLASLt through the runtime; torch and CuPy call "
              "cuBLAS; no TF32):", "",
              "| case | ptensor µs | TFLOP/s | vs torch eager | vs torch.compile | vs CuPy |",
              "|---|---|---|---|---|---|"]
    for r in rows:
        if r["case"] in FLOPS:
            sp = lambda k: f"{r[k] / r['pt_ms']:.2f}x" if k in r else ""  # noqa: E731
            lines.append(f"| {r['case']} | {r['pt_ms'] * 1e3:.0f} | "
                         f"{FLOPS[r['case']] / r['pt_ms'] / 1e9:.0f} | {sp('torch_ms')} | "
                         f"{sp('compile_ms')} | {sp('cupy_ms')} |")
    lines.append("")
    lines.append("Speedups are peer time / ptensor time (>1: ptensor faster). Times are "
                 "medians of %d rounds; each round times %d back-to-back calls of ptensor "
                 "and then of each peer, between CUDA events (interleaved, so clock and "
                 "temperature drift reach all alike)." % (REPS, BATCH))
    for r in rows:
        if "small" in r:
            lines += host_latency.report_lines(r["small"])
        if "small_sum" in r:
            lines += host_latency.report_sum_lines(r["small_sum"])
    lines += ["", "Kernel configuration sweep (fraction of copy bandwidth; "
              "options of ptensor-to-nvvm-pipeline in bench/cases.py):", "",
              "| case | " + " | ".join(tags) + " |",
              "|---|" + "---|" * len(tags)]
    for r in rows:
        if "sweep" in r:
            cells = [f"{r['bytes'] / r['sweep'][t] / 1e6 / copy_gbs:.2f}"
                     if t in r["sweep"] else "-" for t in tags]
            lines.append(f"| {r['case']} | " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print(table)
    with open(args.out, "w") as f:
        f.write("# Benchmark results\n\n" + table + "\n")
    if failures:
        print("CORRECTNESS FAILURES:\n  " + "\n  ".join(failures))
        return 1
    print("all benchmark results match PyTorch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
