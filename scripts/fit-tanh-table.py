#!/usr/bin/env python3
"""The table of ptensor's AVX-512 tanhf (lib/Compiler/InlineVectorMath.cpp,
buildTanhFromTable): |x| split into 29 intervals, a quarter of an octave
each from 1/16 on ([0, 5/64) first, [8, 9.010914) last), and on each
tanh(b + t) = c0 + c1 t + ... + c5 t^5 for t = |x| - b, b the interval's
start: a minimax fit of the error relative to tanh (Lawson's iteration on
weighted least squares, in float64), c0 = 0 on the first. Prints the C++
arrays; `--check STRIDE` instead evaluates the table as the code does
(float operations, fused multiply-adds) on every STRIDE-th float up to 9.5
and prints the largest error in ulps.

    python3 scripts/fit-tanh-table.py [--check 1]
"""
import argparse

import numpy as np

SHIFT = 21                              # 2 significand bits: quarter octaves
FIRST = np.float32(1 / 16)              # where interval 1 starts, less 1/4
SATURATED = np.float32(9.010914)        # tanh rounds to 1 from here
INTERVALS, DEGREE = 29, 5
BASE = int(FIRST.view(np.uint32)) >> SHIFT


def interval(i):
    lo = np.uint32((BASE + i) << SHIFT).view(np.float32)
    hi = np.uint32((BASE + i + 1) << SHIFT).view(np.float32)
    return (0.0 if i == 0 else float(lo)), min(float(hi), float(SATURATED))


def fit(lo, hi, b):
    k = np.arange(2000)
    x = (lo + hi) / 2 + (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / k.size)
    y, t = np.tanh(x), x - b
    columns = np.vander(t, DEGREE + 1, increasing=True)
    if b == 0:
        columns = columns[:, 1:]        # tanh(0) = 0: no constant term
    weights = np.ones_like(x)
    for _ in range(30):
        w = np.sqrt(weights) / np.abs(y)
        c = np.linalg.lstsq(columns * w[:, None], y * w, rcond=None)[0]
        weights *= np.abs(columns @ c - y) / np.abs(y)
        weights /= weights.sum()
    return np.concatenate([[0.0], c]) if b == 0 else c


def table():
    starts = [interval(i)[0] for i in range(INTERVALS)]
    rows = [fit(*interval(i), starts[i]) for i in range(INTERVALS)]
    return (np.array(starts, np.float32),
            np.array(rows, np.float64).astype(np.float32).T)


def evaluate(x, starts, c):
    a = np.abs(x)
    i = np.clip((a.view(np.uint32) >> SHIFT).astype(np.int64) - BASE, 0,
                INTERVALS - 1)
    t = a - starts[i]
    p = c[DEGREE][i]
    for k in range(DEGREE - 1, -1, -1):  # fma: one rounding (float64 product)
        p = (p.astype(np.float64) * t + c[k][i]).astype(np.float32)
    return np.copysign(np.where(a >= SATURATED, np.float32(1), p), x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", type=int, metavar="STRIDE")
    args = parser.parse_args()
    starts, c = table()
    if args.check:
        worst = 0.0
        top = int(np.float32(9.5).view(np.uint32))
        for first in range(0, top, 1 << 24):
            bits = np.arange(first, min(first + (1 << 24), top), args.check,
                             dtype=np.uint32)
            x = bits.view(np.float32)
            exact = np.tanh(x.astype(np.float64))
            ulp = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
            err = np.abs(evaluate(x, starts, c) - exact) / ulp
            worst = max(worst, float(err.max()))
        print(f"largest error {worst:.3f} ulp")
        return
    def hexf(v):
        significand, exponent = float(v).hex().split("p")
        return f"{significand.rstrip('0').rstrip('.')}p{exponent}f"

    print("constexpr float kTanhStarts[32] = {" +
          ", ".join(hexf(v) for v in starts) + "};")
    print(f"constexpr float kTanhTable[{DEGREE + 1}][32] = {{")
    for row in c:
        print("    {" + ", ".join(hexf(v) for v in row) + "},")
    print("};")


if __name__ == "__main__":
    main()
