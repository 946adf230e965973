"""Writes a format-2.0 .npy file whose header exceeds 64 KiB (rank 25001).

Usage: bigheader.py FILE
numpy refuses arrays of rank > 64, so the header is built by hand.
"""
import sys

import numpy as np

SHAPE = (1,) * 25000 + (3,)


def main():
    header = ("{'descr': '<i2', 'fortran_order': False, 'shape': %r, }"
              % (SHAPE,)).encode("latin1")
    pad = 64 - ((6 + 2 + 4 + len(header) + 1) % 64)
    header += b" " * pad + b"\n"
    with open(sys.argv[1], "wb") as f:
        f.write(b"\x93NUMPY\x02\x00" + len(header).to_bytes(4, "little"))
        f.write(header)
        f.write(np.array([1, -2, 3], "<i2").tobytes())


if __name__ == "__main__":
    main()
