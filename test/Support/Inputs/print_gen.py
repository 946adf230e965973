"""Writes the small arrays printed by print.test into DIR."""
import os
import sys

import numpy as np

from npy_common import BF16


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    arrays = {
        "f64_2x2": np.array([[1.0, 2.0], [3.0, 4.0]]),
        "f32_mixed": np.array([0.5, -1.25, 100.0, np.nan], np.float32),
        "f64_sci": np.array([1.5e-5, 1.0, -np.inf]),
        "i1_2x2": np.array([[True, False], [False, True]]),
        "i32_3d": np.arange(-4, 8, dtype=np.int32).reshape(2, 2, 3),
        "ui8_f": np.asfortranarray(np.arange(6, dtype=np.uint8).reshape(2, 3)),
        "i64_scalar": np.array(-7),
        "f16_empty": np.zeros((2, 0), np.float16),
        "i64_summary": np.arange(1001),
        "f64_wrap": np.arange(30) / 4,
    }
    if BF16 is not None:
        arrays["bf16"] = np.array([0.1, 1.5, -3.0, np.inf], BF16)
    for name, a in arrays.items():
        np.save(os.path.join(d, name + ".npy"), a)


if __name__ == "__main__":
    main()
