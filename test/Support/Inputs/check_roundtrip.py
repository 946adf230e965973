"""Round-trips every DIR/*.npy through `ptensor-support-tests roundtrip` and
checks the result with numpy.

Usage: check_roundtrip.py DIR
For each input X.npy writes X.out.npy and checks that
  * np.load gives the same dtype, shape and bits (bf16 via ml_dtypes),
  * the output file is byte-identical to np.save of the input array.
Prints one "OK <name>" line per file and "ALL OK <count>" at the end.
"""
import glob
import io
import os
import subprocess
import sys

import numpy as np

from npy_common import load, same


def main():
    d = sys.argv[1]
    inputs = sorted(p for p in glob.glob(os.path.join(d, "*.npy"))
                    if not p.endswith(".out.npy"))
    failures = 0
    for src in inputs:
        dst = src[:-4] + ".out.npy"
        subprocess.run(["ptensor-support-tests", "roundtrip", src, dst],
                       check=True)
        a, b = load(src), load(dst)
        ref = io.BytesIO()
        np.save(ref, np.array(a, order="C"))  # ascontiguousarray makes 0-d 1-d
        with open(dst, "rb") as f:
            written = f.read()
        name = os.path.basename(src)
        if not same(a, b):
            print(f"FAIL {name}: contents differ: {a.dtype}{a.shape} vs "
                  f"{b.dtype}{b.shape}")
            failures += 1
        elif written != ref.getvalue():
            print(f"FAIL {name}: bytes differ from np.save")
            failures += 1
        else:
            print(f"OK {name} {a.dtype} {a.shape}")
    if failures:
        sys.exit(1)
    print(f"ALL OK {len(inputs)}")


if __name__ == "__main__":
    main()
