"""CPU linear algebra beside numpy (this machine's cores): median wall time
of ptensor's matmul / vecdot / tensordot and numpy's on the same arrays,
results compared. Matrix products call OpenBLAS in both (ptensor through
libptensor_runtime, Debian's OpenBLAS; numpy through its bundled copy);
matrix-vector and dot products are ptensor's generated loops. The two
OpenBLAS copies each keep a thread pool that spins a while after a call, so
the timings of one side start after a pause (timing them interleaved
halves the second one's speed on a small machine). Prints a markdown table
for bench/RESULTS.md.

    python3 bench/cpu_linalg.py
"""

import time

import numpy as np

import ptensor as pt
from cpu_reductions import median_ms  # the same timing as the reductions table


def cases():
    rng = np.random.default_rng(0)
    a = rng.random((1024, 1024), dtype=np.float32)
    b = rng.random((1024, 1024), dtype=np.float32)
    d = rng.random((512, 512))
    s = rng.random((64, 128, 128), dtype=np.float32)
    m = rng.random((4000, 2500), dtype=np.float32)
    v = rng.random(2500, dtype=np.float32)
    i = rng.integers(-3, 4, (256, 256)).astype(np.int32)
    g = rng.random((2048, 2048), dtype=np.float32)
    t = rng.random((64, 256, 256), dtype=np.float32)
    return [
        ("matmul f32 2048^3", lambda: pt.matmul(g, g), lambda: g @ g, 2 * 2048 ** 3),
        ("matmul f32 1024^3", lambda: pt.matmul(a, b), lambda: a @ b, 2 * 1024 ** 3),
        ("matmul f32 1024^3, a.T @ b", lambda: pt.matmul(a.T, b), lambda: a.T @ b, 2 * 1024 ** 3),
        ("matmul f64 512^3", lambda: pt.matmul(d, d), lambda: d @ d, 2 * 512 ** 3),
        ("batched matmul f32 64 x 128^3", lambda: pt.matmul(s, s), lambda: s @ s,
         2 * 64 * 128 ** 3),
        ("matrix-vector f32 4000 x 2500", lambda: pt.matmul(m, v), lambda: m @ v, None),
        ("row dot products f32 4000 x 2500", lambda: pt.vecdot(m, m),
         lambda: np.einsum("ij,ij->i", m, m), None),
        ("matmul int32 256^3 (generated)", lambda: pt.matmul(i, i), lambda: i @ i, None),
        ("tensordot f32 over two axes, 64 x 256 x 256 pairs",
         lambda: pt.tensordot(t, t, axes=([1, 2], [1, 2])),
         lambda: np.tensordot(t, t, axes=([1, 2], [1, 2])), 2 * 64 * 64 * 256 * 256),
    ]


def main():
    print("| case | ptensor ms | numpy ms | numpy / ptensor | ptensor GFLOP/s | same result |")
    print("|---|---|---|---|---|---|")
    for name, ours, theirs, flops in cases():
        r, e = np.asarray(ours()), np.asarray(theirs())
        same = np.allclose(r, e, rtol=1e-4, atol=1e-3) if r.dtype.kind == "f" else \
            np.array_equal(r, e)
        time.sleep(0.5)
        t_ours = median_ms(ours)
        time.sleep(0.5)
        t_theirs = median_ms(theirs)
        gflops = "%.0f" % (flops / t_ours / 1e6) if flops else ""
        print("| %s | %.2f | %.2f | %.2fx | %s | %s |" % (name, t_ours, t_theirs,
                                                          t_theirs / t_ours, gflops,
                                                          "yes" if same else "NO"))


if __name__ == "__main__":
    main()
