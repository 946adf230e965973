"""Writes .npy files for the error tests of ptensor-runner.

  make_npy.py OUT DTYPE SHAPE [F]   random array (SHAPE like 3x4, or 'scalar')
  make_npy.py OUT --truncated       a valid header whose data is cut short
  make_npy.py OUT --garbage         not an .npy file at all
"""
import sys

import numpy as np

out, what = sys.argv[1], sys.argv[2]
if what == "--truncated":
    np.save(out, np.arange(12, dtype=np.float32).reshape(3, 4))
    data = open(out, "rb").read()
    open(out, "wb").write(data[:-10])
elif what == "--garbage":
    open(out, "wb").write(b"this is not a numpy file\n")
else:
    shape = () if sys.argv[3] == "scalar" else tuple(int(d) for d in sys.argv[3].split("x"))
    if what == "bf16":
        import ml_dtypes
        a = np.ones(shape, dtype=ml_dtypes.bfloat16)
    else:
        a = (np.arange(int(np.prod(shape))) % 5).astype(what).reshape(shape)
    if len(sys.argv) > 4 and sys.argv[4] == "F":
        a = np.asfortranarray(a)
    np.save(out, a)
