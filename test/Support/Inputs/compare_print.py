"""Compares `ptensor-support-tests print` with np.array2string.

Usage: compare_print.py DIR
Writes every case below to DIR/<name>.npy, prints it with the tool and
compares the text with numpy's (default print options). Prints "OK <name>"
per case and "ALL OK <count>" at the end; exits 1 on any mismatch.
"""
import os
import subprocess
import sys

import numpy as np

from npy_common import BF16, DTYPES, load, sample


def cases():
    rng = np.random.default_rng(42)
    c = {}
    for name, dt in DTYPES.items():
        c[f"{name}_small"] = sample(dt, (2, 3), seed=1)
        c[f"{name}_scalar"] = sample(dt, (), seed=2)
        c[f"{name}_3d"] = sample(dt, (2, 3, 4), seed=3)
        c[f"{name}_long"] = sample(dt, (57,), seed=4)
        c[f"{name}_summary"] = sample(dt, (40, 51), seed=5)
        c[f"{name}_fortran"] = np.asfortranarray(sample(dt, (3, 5), seed=6))
    c["i64_arange100"] = np.arange(100)
    c["i64_arange2000"] = np.arange(2000)
    c["i32_summary3d"] = np.arange(2400, dtype=np.int32).reshape(3, 400, 2)
    c["i16_summary4d"] = np.arange(1296, dtype=np.int16).reshape(6, 6, 6, 6)
    c["i8_edge1001"] = np.arange(1001).astype(np.int8)
    c["i64_extremes"] = np.array([np.iinfo(np.int64).min, 0,
                                  np.iinfo(np.int64).max])
    c["ui64_max"] = np.array([0, np.iinfo(np.uint64).max], np.uint64)
    c["i1_2d"] = np.array([[True, False], [False, False]])
    c["i1_alltrue"] = np.ones(4, np.bool_)
    c["i1_summary"] = rng.integers(0, 2, 1500).astype(np.bool_)
    c["f64_2x2"] = np.array([[1.0, 2.0], [3.0, 4.0]])
    c["f64_align"] = np.array([1.5, 2.25, -100.125])
    c["f64_thirds"] = np.arange(1, 10) / 3
    c["f64_exp_small"] = np.array([1e-5, 1.0])
    c["f64_exp_ratio"] = np.array([1.0, 2000.0])
    c["f64_exp_big"] = np.array([1e8, 1.0])
    c["f64_below_cutoff"] = np.array([99999999.5, 1000.0])
    c["f64_exp_huge"] = np.array([1e100, 1.0, -2.5e-300])
    c["f64_subnormal"] = np.array([5e-324, 1.0])
    c["f64_nonfinite"] = np.array([np.nan, np.inf, -np.inf, 1.5])
    c["f64_nonfinite_exp"] = np.array([np.nan, -np.inf, 1e-9, 3.0])
    c["f64_allnan"] = np.array([np.nan, np.nan])
    c["f64_neginf_only"] = np.array([-np.inf, 0.0])
    c["f64_signed_zero"] = np.array([-0.0, 0.0, 1.0])
    c["f64_tie8"] = np.array([0.001953125, 1.0])
    c["f64_round8"] = np.array([0.123456785, 1.0, 2.0 / 3.0])
    c["f64_int_valued"] = np.array([12345678.0, 1.0])
    c["f64_linspace"] = np.linspace(0, 1, 30)
    c["f64_normal"] = rng.standard_normal((6, 7)) * 100
    c["f64_tiny_normal"] = rng.standard_normal((3, 4)) * 1e-3
    c["f64_summary"] = np.linspace(-1, 1, 3000).reshape(30, 100)
    c["f64_scalar_int"] = np.array(1.0)
    c["f64_scalar_nan"] = np.array(np.nan)
    c["f32_1e-4"] = np.array([1e-4, 1.0], np.float32)
    c["f32_cutoff"] = np.array([1e6, 1.0], np.float32)
    c["f32_below_cutoff"] = np.array([999999.0, 1.0], np.float32)
    c["f32_normal"] = (rng.standard_normal((5, 9)) * 10).astype(np.float32)
    c["f32_thirds"] = (np.arange(1, 10) / 3).astype(np.float32)
    c["f16_cutoff"] = np.array([1000, 1], np.float16)
    c["f16_below_cutoff"] = np.array([999, 1.5], np.float16)
    c["f16_values"] = (np.arange(-20, 20) / 7).astype(np.float16)
    c["f16_tiny"] = np.array([6e-8, 1e-3, 0.1], np.float16)
    c["f16_all"] = np.arange(0, 65536, 37, dtype=np.uint16).view(np.float16)
    c["f32_empty"] = np.zeros((0,), np.float32)
    c["i32_empty_3d"] = np.zeros((2, 0, 3), np.int32)
    c["i64_deep"] = np.arange(64).reshape((2,) * 6)
    c["f64_wide_rows"] = rng.standard_normal((3, 20)) * 1e4
    # Random magnitudes and sizes exercise positional vs. scientific choice,
    # digit trimming, rounding and alignment.
    for i in range(150):
        dt = (np.float16, np.float32, np.float64)[i % 3]
        n = int(rng.integers(1, 9))
        scale = 10.0 ** rng.uniform(-7, 10)
        vals = rng.standard_normal(n) * scale
        if i % 5 == 0:
            vals = np.round(vals)
        with np.errstate(over="ignore"):
            c[f"random{i}_{np.dtype(dt).name}"] = vals.astype(dt)
    if BF16 is not None:
        c["bf16_values"] = (np.arange(-10, 10) / 3).astype(BF16)
        c["bf16_special"] = np.array([np.nan, -np.inf, np.inf, -0.0, 1e10,
                                      1e-10], BF16)
    return c


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    failures = 0
    all_cases = cases()
    for name, a in all_cases.items():
        path = os.path.join(d, name + ".npy")
        np.save(path, a)
        want = np.array2string(load(path))
        got = subprocess.run(["ptensor-support-tests", "print", path],
                             check=True, capture_output=True,
                             text=True).stdout
        if got.endswith("\n"):
            got = got[:-1]
        if got == want:
            print(f"OK {name}")
        else:
            failures += 1
            print(f"FAIL {name}\n--- got:\n{got}\n--- numpy:\n{want}")
    if failures:
        print(f"{failures} FAILED")
        sys.exit(1)
    print(f"ALL OK {len(all_cases)}")


if __name__ == "__main__":
    main()
