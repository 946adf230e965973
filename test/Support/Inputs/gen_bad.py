"""Writes malformed or unsupported .npy files into DIR.

Usage: gen_bad.py DIR
"""
import os
import sys

import numpy as np


def valid_bytes(a):
    import io
    f = io.BytesIO()
    np.save(f, a)
    return f.getvalue()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)

    def write(name, data):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)

    good = valid_bytes(np.arange(6, dtype=np.float32).reshape(2, 3))
    write("good.npy", good)
    write("empty_file.npy", b"")
    write("bad_magic.npy", b"PK\x03\x04" + good[4:])
    write("truncated_magic.npy", good[:4])
    write("truncated_header.npy", good[:40])
    write("truncated_data.npy", good[:-4])
    write("bad_version.npy", good[:6] + b"\x09\x00" + good[8:])
    hdr_end = good.index(b"\n") + 1
    garbage = b"{'descr': '<f4', 'fortran_order': Nope, 'shape': (2, 3), }"
    write("bad_dict.npy", good[:10] + garbage.ljust(hdr_end - 11) + b"\n" +
          good[hdr_end:])
    write("big_endian.npy",
          valid_bytes(np.arange(3, dtype=">f4")))
    write("complex64.npy", valid_bytes(np.zeros(3, np.complex64)))
    write("structured.npy",
          valid_bytes(np.zeros(2, dtype=[("a", "<i4"), ("b", "<f4")])))
    write("datetime.npy",
          valid_bytes(np.zeros(2, dtype="datetime64[D]")))
    write("void4.npy", valid_bytes(np.zeros(2, dtype="V4")))


if __name__ == "__main__":
    main()
