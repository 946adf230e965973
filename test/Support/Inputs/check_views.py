"""Checks the files written by `ptensor-support-tests write-views DIR`."""
import os
import sys

import numpy as np

from npy_common import same


def main():
    d = sys.argv[1]
    failures = 0
    for name, dtype in (("i32", np.int32), ("f64", np.float64)):
        a = np.arange(24).astype(dtype).reshape(2, 3, 4)
        expected = {
            "transposed": a.transpose(2, 0, 1),
            "reversed": a[::-1, :, ::-2],
            "broadcast": np.broadcast_to(a[1, 2][None, :], (3, 4)),
            "scalar_view": a[1, 2, 3][()],
        }
        for view, want in expected.items():
            got = np.load(os.path.join(d, f"{name}_{view}.npy"))
            want = np.asarray(want)
            if same(got, want):
                print(f"OK {name}_{view}")
            else:
                print(f"FAIL {name}_{view}: got {got!r}, want {want!r}")
                failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
