"""Shared helpers for the test/Support .npy tests."""
import numpy as np

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - bf16 cases are skipped
    ml_dtypes = None
    BF16 = None

# ptensor dtype name -> numpy dtype.
DTYPES = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "ui8": np.dtype(np.uint8),
    "ui16": np.dtype(np.uint16),
    "ui32": np.dtype(np.uint32),
    "ui64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}
if BF16 is not None:
    DTYPES["bf16"] = BF16


def sample(dtype, shape, seed=0):
    """Deterministic values covering the interesting range of `dtype`."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == np.bool_:
        flat = rng.integers(0, 2, n).astype(np.bool_)
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        flat = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        specials = np.array([info.min, info.max, 0, 1], dtype=dtype)
        flat[: min(n, 4)] = specials[: min(n, 4)]
    else:
        flat = (rng.standard_normal(n) * 100).astype(dtype)
        specials = np.array([np.nan, np.inf, -np.inf, -0.0, 1e-30, 65504],
                            dtype=np.float64).astype(dtype)
        flat[: min(n, len(specials))] = specials[: min(n, len(specials))]
    return flat.reshape(shape)


def load(path):
    """np.load, viewing the '<V2' bf16 form as ml_dtypes.bfloat16."""
    a = np.load(path)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2 and BF16 is not None:
        a = a.view(BF16)
    return a


def same(a, b):
    """Same dtype, shape and bits (NaN-safe, distinguishes -0.0)."""
    return (a.dtype == b.dtype and a.shape == b.shape and
            np.ascontiguousarray(a).tobytes() ==
            np.ascontiguousarray(b).tobytes())
