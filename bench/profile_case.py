#!/usr/bin/env python3
"""The GPU kernels of benchmark cases, beside torch eager's and
torch.compile's for the same expression: names and device times from
torch.profiler (after warm-up), to see where a case's time goes.

    python3 bench/profile_case.py DIR CASE[,CASE...]

DIR holds the cases compiled by build.py (as for run.py).
"""

import argparse
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (the package path and the kernel loader)
from cases import CASES  # noqa: E402

CALLS = 5


def kernels(fn):
    """(name, device µs per call) of the kernels `fn` launches, largest
    first, from CALLS calls after warm-up."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(CALLS):
            fn()
        torch.cuda.synchronize()
    rows = [(e.key, e.device_time_total / CALLS) for e in prof.key_averages()
            if e.device_time_total > 0]
    return sorted(rows, key=lambda r: -r[1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("cases")
    args = p.parse_args()
    gen = torch.Generator(device="cuda").manual_seed(0)
    for name in args.cases.split(","):
        # NAME@VARIANT: that build of the case (the sweep's, or `@before`),
        # profiled alone.
        case, _, variant = name.partition("@")
        _ir, specs, expr, _bytes = CASES[case]
        kernel = run.load_kernel(os.path.join(args.dir, name + ".so"), case)
        inputs = run.make_inputs(specs, gen)
        names = "abc"[:len(inputs)]
        env = dict(zip(names, inputs), torch=torch)
        eager = eval(f"lambda {', '.join(names)}: " + expr, env)
        torch._dynamo.reset()
        compiled = torch.compile(eager)
        systems = [("ptensor", lambda: kernel(*inputs))]
        if not variant:
            systems += [("torch eager", lambda: eager(*inputs)),
                        ("torch.compile", lambda: compiled(*inputs))]
        for system, fn in systems:
            rows = kernels(fn)
            total = sum(us for _, us in rows)
            print(f"{name} / {system}: {total:.1f} µs of kernels per call")
            for key, us in rows:
                print(f"  {us:9.1f} µs  {key[:110]}")


if __name__ == "__main__":
    main()
