"""Writes .npy files for every ptensor dtype and layout into DIR.

Usage: gen.py DIR
File names are <dtype>_<variant>.npy; see VARIANTS below.
"""
import os
import sys

import numpy as np

from npy_common import DTYPES, sample

VARIANTS = {
    "c3d": dict(shape=(3, 4, 5), order="C"),
    "f3d": dict(shape=(3, 4, 5), order="F"),
    "f2d": dict(shape=(2, 7), order="F"),
    "scalar": dict(shape=(), order="C"),
    "empty": dict(shape=(0, 3), order="C"),
    "empty_f": dict(shape=(4, 0, 2), order="F"),
    "one": dict(shape=(1,), order="C"),
    "v2": dict(shape=(2, 3), order="C", version=(2, 0)),
    "v3": dict(shape=(2, 3), order="F", version=(3, 0)),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, dtype in DTYPES.items():
        for variant, spec in VARIANTS.items():
            a = np.asarray(sample(dtype, spec["shape"]), order=spec["order"])
            path = os.path.join(out, f"{name}_{variant}.npy")
            if "version" in spec:
                with open(path, "wb") as f:
                    np.lib.format.write_array(f, a, version=spec["version"])
            else:
                np.save(path, a)


if __name__ == "__main__":
    main()
