"""CPU sorts, nonzero, searchsorted and unique beside numpy (this machine's cores): median wall
time of ptensor's sort/argsort (the runtime's sort) and unique_* (a sort,
then the count → select steps) and numpy's on the same arrays, results
compared exactly. Prints a markdown table for
bench/RESULTS.md.

    python3 bench/cpu_sort.py [--size N] [--only TEXT]

(--only: the cases whose name contains TEXT.)
"""

import argparse

import numpy as np

import ptensor as pt
from cpu_reductions import median_ms


def cases(n):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    rows = x.reshape(n // 1000, 1000)
    ints = rng.integers(0, 2 ** 16, n).astype(np.int64)
    flags = rng.random(n) < 0.5
    line = np.sort(rng.standard_normal(2 ** 20).astype(np.float32))
    order = np.argsort(x[: 2 ** 20], kind="stable")
    return [
        ("sort float32", lambda: pt.sort(x), lambda: np.sort(x)),
        ("argsort float32 (stable)", lambda: pt.argsort(x),
         lambda: np.argsort(x, kind="stable")),
        ("sort of rows (n/1000 x 1000)", lambda: pt.sort(rows), lambda: np.sort(rows)),
        ("sort int64 in [0, 2^16)", lambda: pt.sort(ints), lambda: np.sort(ints)),
        ("sort float64", lambda: pt.sort(x.astype(np.float64)),
         lambda: np.sort(x.astype(np.float64))),
        ("nonzero of bools, half true", lambda: pt.nonzero(flags), lambda: np.nonzero(flags)),
        ("searchsorted of n float32 in 2^20 sorted", lambda: pt.searchsorted(line, x),
         lambda: np.searchsorted(line, x)),
        ("searchsorted of n float32, 2^20 through a sorter",
         lambda: pt.searchsorted(x[: 2 ** 20], x, sorter=order),
         lambda: np.searchsorted(x[: 2 ** 20], x, sorter=order)),
        ("unique_values int64 in [0, 2^16)", lambda: pt.unique_values(ints),
         lambda: np.unique(ints)),
        ("unique_counts int64 in [0, 2^16)", lambda: pt.unique_counts(ints),
         lambda: np.unique(ints, return_counts=True)),
        ("unique_inverse float32", lambda: pt.unique_inverse(x),
         lambda: np.unique(x, return_inverse=True)),
        ("unique_all int64 in [0, 2^16)", lambda: pt.unique_all(ints),
         lambda: np.unique(ints, return_index=True, return_inverse=True,
                           return_counts=True)),
    ]


def same_result(ours, theirs):
    """Exact equality of one array or of tuples of arrays."""
    if isinstance(theirs, tuple):
        return len(ours) == len(theirs) and all(
            np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(ours, theirs))
    return np.array_equal(np.asarray(ours), np.asarray(theirs))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=10 ** 7)
    parser.add_argument("--only", default="", help="cases whose name contains this")
    args = parser.parse_args()
    print("| case (%d elements) | ptensor ms | numpy ms | numpy / ptensor | same result |"
          % args.size)
    print("|---|---|---|---|---|")
    for name, ours, theirs in cases(args.size):
        if args.only not in name:
            continue
        same = same_result(ours(), theirs())
        t_ours, t_theirs = median_ms(ours, 5), median_ms(theirs, 5)
        print("| %s | %.1f | %.1f | %.2fx | %s |" % (name, t_ours, t_theirs, t_theirs / t_ours,
                                                     "yes" if same else "NO"))


if __name__ == "__main__":
    main()
