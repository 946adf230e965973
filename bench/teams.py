"""Teams on this machine's cores (docs/Teams.md): weak and strong scaling of
an elementwise chain, a sum and a 1-D sort (a sample sort across the team)
over 1, 2, ... processes under mpirun,
with the communication each process did, beside numpy on one process.
Each point is the slowest rank's median of repeated calls
(`ptensor-runner --repeat`); results are checked against numpy once. Beside
them, the memory system's own scaling: numpy adding each process's block
into a preallocated third array on every process at once (the chain's
three streams).
Prints a markdown table for bench/RESULTS.md.

    PATH=build/bin:$PATH python3 bench/teams.py [--block 2**24] [--processes 1,2]
        [--threads 1] [--mpirun-args "--bind-to core"]

Each process computes on `--threads` threads (PTENSOR_NUM_THREADS; default
1, so that the processes are the parallelism measured). On the GPU machine's
host (Open MPI, no LLVM) `bash scripts/gpu-runner-pack.sh teams` runs this
with the statically linked runner.
"""

import argparse
import os
import re
import subprocess
import tempfile
import time

import numpy as np

MODULE = """
func.func @chain(%a: !ptensor.ptensor<?xf32, team = 1>, %b: !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1> {
  %0 = ptensor.elementwise_binary multiply %a, %b : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %1 = ptensor.elementwise_binary add %0, %a : (!ptensor.ptensor<?xf32, team = 1>, !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  %2 = ptensor.elementwise_unary sqrt %1 : (!ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1>
  return %2 : !ptensor.ptensor<?xf32, team = 1>
}
func.func @sorted(%a: !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<?xf32, team = 1> {
  %0 = ptensor.sort %a : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<?xf32, team = 1>
  return %0 : !ptensor.ptensor<?xf32, team = 1>
}
func.func @total(%a: !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<f32, team = 1> {
  %0 = ptensor.reduce sum %a : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  return %0 : !ptensor.ptensor<f32, team = 1>
}
"""


# The memory system's own scaling, for comparison: every process adds its
# block of two arrays into a third with numpy (the chain's three streams)
# at the same moment (a start time given to all), the slowest rank's
# median.
STREAM = """
import sys, time, numpy as np
n, repeat, start = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
a, b, c = np.ones(n, np.float32), np.ones(n, np.float32), np.empty(n, np.float32)
np.add(a, b, out=c)
while time.time() < start:
    pass
times = []
for _ in range(repeat):
    begin = time.perf_counter()
    np.add(a, b, out=c)
    times.append(time.perf_counter() - begin)
print("median", sorted(times)[len(times) // 2] * 1e3)
"""


def stream_ms(processes, n, args):
    start = time.time() + 3 + 0.2 * processes  # every process started
    command = ["mpirun", "-np", str(processes), *args.mpirun_args.split(),
               "python3", "-c", STREAM, str(n), str(args.repeat), str(start)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the memory reference under mpirun -np {processes} "
                           f"failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return max(float(m) for m in re.findall(r"median ([\d.]+)", done.stdout))


def numpy_ms(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2]


def run(tmp, processes, entry, inputs, args):
    """The slowest rank's median call time and rank 0's traffic."""
    out = os.path.join(tmp, f"{entry}-{processes}")
    command = ["mpirun", "-np", str(processes), *args.mpirun_args.split(),
               "ptensor-runner",
               os.path.join(tmp, "teams.mlir"), "-e", entry, "--output-dir",
               out, "--repeat", str(args.repeat), "--report-latency"]
    for path in inputs:
        command += ["--input", path]
    env = dict(os.environ, PTENSOR_NUM_THREADS=str(args.threads))
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n"
                           f"{done.stdout}{done.stderr}")
    medians = [float(m) for m in re.findall(r"median of \d+ calls: ([\d.]+) ms",
                                            done.stderr)]
    if not medians:
        raise RuntimeError(f"no timing from {' '.join(command)}:\n{done.stderr}")
    traffic = re.search(r"rank 0 of \d+: (\d+) collectives, (\d+) bytes",
                        done.stderr)
    sent = (f"{traffic.group(1)} / {traffic.group(2)} B" if traffic
            else "0 / 0 B")
    return max(medians), sent, np.load(os.path.join(out, "out0.npy"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--block", type=lambda s: int(eval(s)), default=2**24,
                        help="elements per process (weak scaling) and in all "
                             "(strong scaling: times the largest count)")
    parser.add_argument("--processes", default="1,2")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1,
                        help="threads of each process (PTENSOR_NUM_THREADS)")
    parser.add_argument("--mpirun-args", default="",
                        help="more arguments of mpirun (e.g. --bind-to core)")
    args = parser.parse_args()
    counts = [int(p) for p in args.processes.split(",")]
    rng = np.random.default_rng(0)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "teams.mlir"), "w") as f:
            f.write(MODULE)
        for scaling in ("weak", "strong"):
            base = {}
            for p in counts:
                n = args.block * (p if scaling == "weak" else max(counts))
                stream = stream_ms(p, n // p, args)
                base.setdefault("stream", stream)
                stream_ideal = (base["stream"] if scaling == "weak"
                                else base["stream"] / p)
                a = rng.random(n, dtype=np.float32)
                b = rng.random(n, dtype=np.float32)
                pa, pb = os.path.join(tmp, "a.npy"), os.path.join(tmp, "b.npy")
                np.save(pa, a)
                np.save(pb, b)
                for entry, inputs, reference in (
                        ("chain", [pa, pb], lambda: np.sqrt(a * b + a)),
                        ("total", [pa], lambda: a.sum(dtype=np.float64)),
                        ("sorted", [pa], lambda: np.sort(a))):
                    ms, sent, got = run(tmp, p, entry, inputs, args)
                    expected = reference()
                    np.testing.assert_allclose(got, expected, rtol=1e-5)
                    base.setdefault(entry, ms)
                    ideal = base[entry] if scaling == "weak" else base[entry] / p
                    rows.append((scaling, entry, p, n, ms, ideal / ms,
                                 numpy_ms(reference, args.repeat), sent,
                                 stream, stream_ideal / stream))
    print("| scaling | program | processes | elements | ptensor ms | efficiency "
          "| numpy (1 process) ms | collectives / bytes per rank "
          "| memory: numpy a+b (out=) on every process, ms | its efficiency |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for scaling, entry, p, n, ms, eff, np_ms, sent, stream, stream_eff in rows:
        print(f"| {scaling} | {entry} | {p} | 2^{int(np.log2(n))} | {ms:.2f} | "
              f"{eff:.2f} | {np_ms:.2f} | {sent} | {stream:.2f} | {stream_eff:.2f} |")


if __name__ == "__main__":
    main()
