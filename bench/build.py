#!/usr/bin/env python3
"""Compiles every benchmark case with `ptensor-compile --target=cuda` into
DIR/NAME.so (and records the cold compile time of each in DIR/compile.json),
and the configuration sweep's variants into DIR/NAME@CONFIG.so.
Runs here, where LLVM/MLIR are; run.py then runs on the GPU machine."""

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES, SWEEP_CASES, SWEEP_CONFIGS, selected_cases  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--cases", help="comma-separated case names (default: all, and the sweep)")
    args = p.parse_args()
    out = os.path.abspath(args.dir)
    chosen = selected_cases(args.cases)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    compiler = os.path.join(os.environ.get("PTENSOR_BUILD_DIR", os.path.join(root, "build")),
                            "bin", "ptensor-compile")
    os.makedirs(out, exist_ok=True)
    times = {}
    for name in chosen:
        ir = CASES[name][0]
        src = os.path.join(out, name + ".mlir")
        with open(src, "w") as f:
            f.write(ir)
        start = time.perf_counter()
        subprocess.run([compiler, src, "--target=cuda", "-o",
                        os.path.join(out, name + ".so")], check=True)
        times[name] = time.perf_counter() - start
    for name in [n for n in SWEEP_CASES if n in chosen]:
        for tag, options in SWEEP_CONFIGS.items():
            subprocess.run([compiler, os.path.join(out, name + ".mlir"),
                            "--target=cuda", "--gpu-options=" + options, "-o",
                            os.path.join(out, f"{name}@{tag}.so")], check=True)
    with open(os.path.join(out, "compile.json"), "w") as f:
        json.dump(times, f, indent=1)
    print(f"compiled {len(chosen)} cases into {out}")


if __name__ == "__main__":
    main()
