"""Teams on this machine's cores (docs/Teams.md): weak and strong scaling of
an elementwise chain and of a sum over 1, 2, ... processes under mpirun,
with the communication each process did, beside numpy on one process.
Each point is the slowest rank's median of repeated calls
(`ptensor-runner --repeat`); results are checked against numpy once.
Prints a markdown table for bench/RESULTS.md.

    PATH=build/bin:$PATH python3 bench/teams.py [--block 2**24] [--processes 1,2]
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
func.func @total(%a: !ptensor.ptensor<?xf32, team = 1>) -> !ptensor.ptensor<f32, team = 1> {
  %0 = ptensor.reduce sum %a : !ptensor.ptensor<?xf32, team = 1> -> !ptensor.ptensor<f32, team = 1>
  return %0 : !ptensor.ptensor<f32, team = 1>
}
"""


def numpy_ms(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2]


def run(tmp, processes, entry, inputs, repeat):
    """The slowest rank's median call time and rank 0's traffic."""
    out = os.path.join(tmp, f"{entry}-{processes}")
    command = ["mpirun", "-np", str(processes), "ptensor-runner",
               os.path.join(tmp, "teams.mlir"), "-e", entry, "--output-dir",
               out, "--repeat", str(repeat), "--report-latency"]
    for path in inputs:
        command += ["--input", path]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
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
                a = rng.random(n, dtype=np.float32)
                b = rng.random(n, dtype=np.float32)
                pa, pb = os.path.join(tmp, "a.npy"), os.path.join(tmp, "b.npy")
                np.save(pa, a)
                np.save(pb, b)
                for entry, inputs, reference in (
                        ("chain", [pa, pb], lambda: np.sqrt(a * b + a)),
                        ("total", [pa], lambda: a.sum(dtype=np.float64))):
                    ms, sent, got = run(tmp, p, entry, inputs, args.repeat)
                    expected = reference()
                    np.testing.assert_allclose(got, expected, rtol=1e-5)
                    base.setdefault(entry, ms)
                    ideal = base[entry] if scaling == "weak" else base[entry] / p
                    rows.append((scaling, entry, p, n, ms, ideal / ms,
                                 numpy_ms(reference, args.repeat), sent))
    print("| scaling | program | processes | elements | ptensor ms | efficiency "
          "| numpy (1 process) ms | collectives / bytes per rank |")
    print("|---|---|---|---|---|---|---|---|")
    for scaling, entry, p, n, ms, eff, np_ms, sent in rows:
        print(f"| {scaling} | {entry} | {p} | 2^{int(np.log2(n))} | {ms:.2f} | "
              f"{eff:.2f} | {np_ms:.2f} | {sent} |")


if __name__ == "__main__":
    main()
