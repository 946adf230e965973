"""take on the GPU beside torch and CuPy (the Python call path, kernels
from the carried cache: python/tests/gpu_cases.py's case_take compiles
them): a row gather of a 2-D f32 matrix by int32 indices (axis 0) and a
1-D f16 gather by int64 indices, against torch.index_select, torch.compile
of it, cupy.take and a device copy of the result's bytes (the bandwidth
floor: a gather reads and writes the result once). CUDA events around
batches after warm-up, medians (bench/run.py's time_interleaved).

    PTENSOR_CACHE_DIR=.carry/gpu/pycache PYTHONPATH=python python3 bench/take_gpu.py
"""

import os
import sys

import cupy as cp
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptensor as pt  # noqa: E402
from run import time_interleaved  # noqa: E402


def row_gather(rows, cols, picks):
    rng = np.random.default_rng(1)
    x = torch.randn(rows, cols, device="cuda")
    i = torch.from_numpy(rng.integers(-rows, rows, picks).astype(np.int32)).cuda()
    i64 = torch.where(i < 0, i + rows, i).long()
    compiled = torch.compile(lambda a, b: torch.index_select(a, 0, b))
    xc, ic = cp.asarray(x), cp.asarray(i)
    out = torch.empty(picks, cols, device="cuda")
    src = torch.empty_like(out)
    got = torch.as_tensor(pt.take(x, i, axis=0))
    assert torch.equal(got, torch.index_select(x, 0, i64))
    return time_interleaved({
        "ptensor": lambda: pt.take(x, i, axis=0),
        "torch": lambda: torch.index_select(x, 0, i64),
        "torch.compile": lambda: compiled(x, i64),
        "cupy": lambda: cp.take(xc, ic, axis=0),
        "copy": lambda: out.copy_(src),
    })


def line_gather(n, picks):
    rng = np.random.default_rng(2)
    x = torch.randn(n, device="cuda").half()
    i = torch.from_numpy(rng.integers(-n, n, picks)).cuda()
    wrapped = torch.where(i < 0, i + n, i)
    compiled = torch.compile(lambda a, b: torch.index_select(a, 0, b))
    xc, ic = cp.asarray(x), cp.asarray(i)
    out = torch.empty(picks, device="cuda").half()
    src = torch.empty_like(out)
    got = torch.as_tensor(pt.take(x, i))
    assert torch.equal(got, x[wrapped])
    return time_interleaved({
        "ptensor": lambda: pt.take(x, i),
        "torch": lambda: torch.index_select(x, 0, wrapped),
        "torch.compile": lambda: compiled(x, wrapped),
        "cupy": lambda: cp.take(xc, ic),
        "copy": lambda: out.copy_(src),
    })


def main():
    rows = [("rows 1M x 64 f32 <- 1M i32 (256 MB out)", row_gather(1 << 20, 64, 1 << 20)),
            ("rows 64K x 256 f32 <- 256K i32", row_gather(1 << 16, 256, 1 << 18)),
            ("line 16M f16 <- 16M i64", line_gather(1 << 24, 1 << 24))]
    columns = ["ptensor", "torch", "torch.compile", "cupy", "copy"]
    print("| case | " + " | ".join(columns) + " | ptensor / torch |")
    print("|---|" + "---|" * (len(columns) + 1))
    for name, t in rows:
        print("| %s | %s | %.2f |" % (name, " | ".join("%.3f ms" % t[c] for c in columns),
                                      t["torch"] / t["ptensor"]))


if __name__ == "__main__":
    main()
