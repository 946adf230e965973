#!/usr/bin/env python3
"""Cold compile of a one-op CUDA add on the GPU machine: ptensor's AOT
driver beside CuPy's and torch.compile's first compile, each in fresh
processes with empty caches, in the same run.

    cold_compile.py pack DIR   # here: the statically linked ptensor-compile
                               # (PTENSOR_STATIC_COMPILERS) compressed, the
                               # host runtime it links against, the module
    cold_compile.py run DIR    # GPU machine (no LLVM/MLIR): prints a JSON
                               # line of medians and a Markdown table

ptensor's figure is the whole `ptensor-compile --target=cuda` process
(loading, parsing, lowering to PTX, ptxas, host code, linking the shared
library) on the 4096-element float32 add that bench/first_call.py's
Python call compiles; its stages come from `-v`. It is timed twice: with
every kernel path (five launches' worth of code for a strided call's
sake) and with the kernel option strided-paths=0 (two kernels), which
the Python package chooses for a call whose operands are contiguous; the
latter also with --mlir-disable-threading, which generates the kernels'
PTX in one part instead of a part per thread.
PTENSOR_COLD_COMPILE_GPU_OPTIONS adds variants to measure: a
`;`-separated list of --gpu-options values (e.g. "strided-paths=0
opt-level=2"), each timed as a row of its own.
CuPy's is the first `x + y` on two such arrays (NVRTC's compile and the
module's load) minus the second call; torch.compile's is the first call
of a compiled `a + b` (Inductor's Triton kernel, its own caches off)
minus the second.
"""

import json
import lzma
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
N = 4096
REPEAT = int(os.environ.get("PTENSOR_COLD_COMPILE_REPEAT", "9"))

TYPE = 'ptensor.ptensor<%dxf32, device = "cuda:0">' % N
MODULE = (
    "func.func @add(%a: !{t}, %b: !{t}) -> !{t} {{\n"
    "  %0 = ptensor.elementwise_binary add %a, %b : (!{t}, !{t}) -> !{t}\n"
    "  return %0 : !{t}\n"
    "}}\n").format(t=TYPE)

CUPY = """
import time, cupy as cp
x = cp.arange(%d, dtype=cp.float32); y = x + 0  # y: a kernel of its own
cp.cuda.Device().synchronize()
t0 = time.perf_counter(); z = x * y; cp.cuda.Device().synchronize()
t1 = time.perf_counter(); z = x * y; cp.cuda.Device().synchronize()
t2 = time.perf_counter()
assert bool((z == x * x).all())
print((t1 - t0 - (t2 - t1)) * 1e3)
""" % N

TORCH = """
import time, torch
a = torch.arange(%d, dtype=torch.float32, device="cuda"); b = a * 2
torch.cuda.synchronize()
f = torch.compile(lambda a, b: a + b)
t0 = time.perf_counter(); c = f(a, b); torch.cuda.synchronize()
t1 = time.perf_counter(); c = f(a, b); torch.cuda.synchronize()
t2 = time.perf_counter()
assert torch.equal(c, a + b)
print((t1 - t0 - (t2 - t1)) * 1e3)
""" % N


def pack(out):
    compiler = os.path.join(ROOT, "build", "bin", "ptensor-compile")
    needed = subprocess.run(["ldd", compiler], capture_output=True,
                            text=True).stdout
    if "libLLVM" in needed or "libMLIR" in needed:
        sys.exit("cold_compile.py: %s links the shared LLVM/MLIR; build "
                 "with PTENSOR_STATIC_COMPILERS=ON" % compiler)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "ptensor-compile")
        subprocess.run(["strip", "-o", stripped, compiler], check=True)
        with open(stripped, "rb") as src, \
                lzma.open(os.path.join(out, "ptensor-compile.xz"), "wb",
                          preset=6) as dst:
            shutil.copyfileobj(src, dst)
    shutil.copy(os.path.join(ROOT, "build", "lib", "libptensor_runtime.so"),
                out)
    with open(os.path.join(out, "add.mlir"), "w") as f:
        f.write(MODULE)
    print("packed into %s (%.1f MB)" % (out, sum(
        os.path.getsize(os.path.join(out, f)) for f in os.listdir(out)) / 1e6))


def timed(argv, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    t1 = time.perf_counter()
    if p.returncode:
        sys.exit("cold_compile.py: %s failed:\n%s" % (argv[0], p.stderr))
    return (t1 - t0) * 1e3, p


def fresh_cache_env(tmp, i):
    env = dict(os.environ)
    env["CUPY_CACHE_DIR"] = os.path.join(tmp, "cupy%d" % i)
    env["CUPY_CACHE_IN_MEMORY"] = "0"
    env["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(tmp, "inductor%d" % i)
    env["TRITON_CACHE_DIR"] = os.path.join(tmp, "triton%d" % i)
    env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
    env["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0"
    return env


def run(packed):
    tmp = tempfile.mkdtemp(prefix="cold-compile-")
    compiler = os.path.join(tmp, "ptensor-compile")
    with lzma.open(os.path.join(packed, "ptensor-compile.xz")) as src, \
            open(compiler, "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.chmod(compiler, 0o755)
    module = os.path.join(packed, "add.mlir")
    stage_re = re.compile(r"([A-Za-z+() ]+?) (\d+) ms")
    variants = {"ptensor-compile": [],
                "ptensor-compile strided-paths=0": [
                    "--gpu-options=strided-paths=0"],
                # The kernels' PTX in one part, as before KernelParts.cpp.
                "ptensor-compile strided-paths=0, one thread": [
                    "--gpu-options=strided-paths=0",
                    "--mlir-disable-threading"]}
    for extra in os.environ.get("PTENSOR_COLD_COMPILE_GPU_OPTIONS",
                                "").split(";"):
        if extra.strip():
            variants["ptensor-compile " + extra.strip()] = [
                "--gpu-options=" + extra.strip()]
    rows = {name: [] for name in variants}
    rows.update({"ptensor-compile --version": [], "cupy": [],
                 "torch.compile": []})
    stages = {name: {} for name in variants}
    for i in range(REPEAT):
        env = fresh_cache_env(tmp, i)
        for name, options in variants.items():
            library = os.path.join(tmp, "add%d.so" % i)
            wall, p = timed([compiler, "--target=cuda", module, "-o", library,
                             "--runtime-dir=" + packed, "-v"] + options, env)
            if os.path.getsize(library) == 0:
                sys.exit("cold_compile.py: empty %s" % library)
            os.remove(library)
            rows[name].append(wall)
            line = p.stderr.strip().splitlines()[-1].split(": ", 2)[-1]
            for stage, value in stage_re.findall(line):
                stages[name].setdefault(stage.strip(" ,("), []).append(
                    float(value))
        rows["ptensor-compile --version"].append(
            timed([compiler, "--version"])[0])
        _, p = timed([sys.executable, "-c", CUPY], env)
        rows["cupy"].append(float(p.stdout))
        if i < 3:  # seconds each
            _, p = timed([sys.executable, "-c", TORCH], env)
            rows["torch.compile"].append(float(p.stdout))
    shutil.rmtree(tmp, ignore_errors=True)
    medians = {k: round(statistics.median(v), 1) for k, v in rows.items()}
    result = {"medians_ms": medians,
              "ptensor_stages_median_ms": {
                  name: {k: statistics.median(v) for k, v in s.items()}
                  for name, s in stages.items()},
              "runs": {k: [round(x, 1) for x in v] for k, v in rows.items()},
              "cpus": os.cpu_count()}
    print(json.dumps(result))
    print()
    print("| cold compile of a %d-element f32 add (median ms) | ms |" % N)
    print("| --- | ---: |")
    for k, v in medians.items():
        print("| %s | %s |" % (k, v))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("pack", "run"):
        sys.exit(__doc__)
    sys.exit(pack(sys.argv[2]) if sys.argv[1] == "pack" else run(sys.argv[2]))
