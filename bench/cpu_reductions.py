"""CPU reductions beside numpy (this machine's cores): median wall time of
ptensor's compiled reductions and numpy's on the same arrays, results
compared. Prints a markdown table for bench/RESULTS.md.

    python3 bench/cpu_reductions.py [--size N]
"""

import argparse
import time

import numpy as np

import ptensor as pt
from cases import softmax_rows  # the GPU benchmark's softmax IR


def median_ms(fn, repeats=9):
    fn()  # compiles (or loads) the kernel
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2] * 1e3


def numpy_softmax(a):
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def cases(n):
    rng = np.random.default_rng(0)
    x = rng.random(n, dtype=np.float32)
    m = x.reshape(1000, n // 1000)
    tall = x.reshape(n // 1000, 1000)
    narrow = x.reshape(n // 8, 8)
    cut = m.shape[1] * 9 // 10
    long_rows = x.reshape(4, n // 4)
    # One compiled function: the row group the passes fuse into one pass
    # per row that fits in cache.
    softmax = pt.compile_module(softmax_rows("softmax", *m.shape, device=None))["softmax"]
    return [
        ("sum", lambda: pt.sum(x), lambda: x.sum()),
        ("mean", lambda: pt.mean(x), lambda: x.mean()),
        ("var", lambda: pt.var(x), lambda: x.var()),
        ("max", lambda: pt.max(x), lambda: x.max()),
        ("argmax", lambda: pt.argmax(x), lambda: x.argmax()),
        ("sum over rows (1000 x n/1000, axis=1)", lambda: pt.sum(m, axis=1), lambda: m.sum(axis=1)),
        ("argmax over rows (1000 x n/1000, axis=1)", lambda: pt.argmax(m, axis=1),
         lambda: m.argmax(axis=1)),
        ("sum over 4 long rows (4 x n/4, axis=1)", lambda: pt.sum(long_rows, axis=1),
         lambda: long_rows.sum(axis=1)),
        ("argmax of 4 long rows (axis=1)", lambda: pt.argmax(long_rows, axis=1),
         lambda: long_rows.argmax(axis=1)),
        ("sum over columns (axis=0)", lambda: pt.sum(m, axis=0), lambda: m.sum(axis=0)),
        ("sum over columns (n/1000 x 1000, axis=0)", lambda: pt.sum(tall, axis=0),
         lambda: tall.sum(axis=0)),
        # Rows that are columns in memory: run with the loops swapped.
        ("sum over rows of a transposed view (m.T, axis=1)", lambda: pt.sum(m.T, axis=1),
         lambda: m.T.sum(axis=1)),
        ("sum over columns of a transposed view (m.T, axis=0)", lambda: pt.sum(m.T, axis=0),
         lambda: m.T.sum(axis=0)),
        # numpy adds 1.25e6 float32 rows in float32 (an error of about 20
        # here): the result is compared with the float64 sum instead.
        ("sum over columns (n/8 x 8, axis=0)", lambda: pt.sum(narrow, axis=0),
         lambda: narrow.sum(axis=0), lambda: narrow.astype(np.float64).sum(axis=0)),
        # A view whose rows do not coalesce: a full reduction over two loops.
        ("sum of a view (1000 x 0.9n/1000 of 1000 x n/1000)", lambda: pt.sum(m[:, :cut]),
         lambda: m[:, :cut].sum()),
        ("sum((a-b)**2) (three calls each)", lambda: pt.sum(pt.square(pt.subtract(m, 0.5))),
         lambda: np.square(m - 0.5).sum()),
        # Issue 13's fused softmax against numpy's unfused expression.
        ("softmax over rows (1000 x n/1000; one compiled function)", lambda: softmax(m),
         lambda: numpy_softmax(m)),
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=10 ** 7)
    args = parser.parse_args()
    print("| case (%d float32) | ptensor ms | numpy ms | numpy / ptensor | same result |" % args.size)
    print("|---|---|---|---|---|")
    for name, ours, theirs, *reference in cases(args.size):
        expected = (reference[0] if reference else theirs)()
        same = np.allclose(np.asarray(ours()), np.asarray(expected), rtol=1e-5)
        t_ours, t_theirs = median_ms(ours), median_ms(theirs)
        print("| %s | %.2f | %.2f | %.2fx | %s |" % (name, t_ours, t_theirs, t_theirs / t_ours,
                                                     "yes" if same else "NO"))


if __name__ == "__main__":
    main()
