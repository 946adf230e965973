"""ptensor dtypes in numpy: names, promotion, broadcasting, conversions.

The rules of DESIGN.md ("Type promotion", "Broadcasting"), reimplemented
independently of the compiler, and conversions with C/NumPy semantics whose
float results are correctly rounded (ml_dtypes rounds float64 -> bfloat16
through float32, i.e. twice; round_to does it once).
"""

import os
import re
import sys

import numpy as np
import ml_dtypes

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare as cmp  # noqa: E402

BF16 = ml_dtypes.bfloat16

NP = {
    "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
    "f16": np.float16, "bf16": BF16, "f32": np.float32, "f64": np.float64,
}
FLOATS = ["f16", "bf16", "f32", "f64"]
SIGNED = ["i8", "i16", "i32", "i64"]
UNSIGNED = ["ui8", "ui16", "ui32", "ui64"]
INTS = SIGNED + UNSIGNED
ALL_DTYPES = ["i1"] + INTS + FLOATS
# Builtin scalar types a function may take (weak operands).
SCALAR_TYPES = ["i1", "i8", "i16", "i32", "i64", "index", "f32", "f64"]
SCALAR_NP = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
             "i64": np.int64, "index": np.int64, "ui8": np.uint8, "ui16": np.uint16,
             "ui32": np.uint32, "ui64": np.uint64, "f32": np.float32, "f64": np.float64}


def kind(dt):
    """'b', 's', 'u' or 'f' of a ptensor dtype or builtin scalar type."""
    if dt == "index":
        return "s"
    return cmp.DTYPES[dt][1]


def width(dt):
    if dt == "index":
        return 64
    if dt == "i1":
        return 1
    return int(re.sub(r"[^0-9]", "", dt))


def int_range(dt):
    if dt == "i1":
        return 0, 1
    w = width(dt)
    if kind(dt) == "u":
        return 0, 2 ** w - 1
    return -(2 ** (w - 1)), 2 ** (w - 1) - 1


# ---------------------------------------------------------------------------
# Promotion and broadcasting (DESIGN.md "Type promotion", "Broadcasting")
# ---------------------------------------------------------------------------

class PromotionError(Exception):
    pass


def _promote_pair(a, b):
    if a == b:
        return a
    ka, kb = kind(a), kind(b)
    if ka == "f" and kb == "f":
        if width(a) == width(b):  # f16 with bf16
            return "f32"
        return a if width(a) > width(b) else b
    if ka == "f":
        return a
    if kb == "f":
        return b
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka == kb:
        return a if width(a) > width(b) else b
    s, u = (a, b) if ka == "s" else (b, a)
    if width(u) == 64:
        raise PromotionError("cannot promote %s with %s" % (u, s))
    return "i%d" % max(width(s), 2 * width(u))


def promote(operands):
    """Common dtype of [(dtype, is_weak)]; builtin scalars are weak."""
    strong = None
    weak = None
    order = {"b": 0, "s": 1, "f": 2}
    for dt, is_weak in operands:
        if is_weak:
            k = kind(dt)
            k = "s" if k == "u" else k
            weak = k if weak is None or order[k] > order[weak] else weak
            continue
        strong = dt if strong is None else _promote_pair(strong, dt)
    if strong is None:
        raise PromotionError("no ptensor operand")
    if weak == "f" and kind(strong) != "f":
        return "f32"
    if weak == "s" and kind(strong) == "b":
        return "i64"
    return strong


def apply_method(method, common):
    if method in ("DEFAULT", "NO_OPMATH"):
        return common
    if method == "INT_TO_FLOAT":
        return common if kind(common) == "f" else "f32"
    if method == "ALWAYS_BOOL":
        return "i1"
    if method == "BOOL_TO_LONG":
        return "i64" if common == "i1" else common
    raise ValueError(method)


def compute_dtype(dt):
    """opmath: f16/bf16 compute in f32."""
    return "f32" if dt in ("f16", "bf16") else dt


def broadcast_static(shapes):
    """Static broadcast of type shapes (None = dynamic), like the compiler."""
    rank = max([len(s) for s in shapes] + [0])
    out = []
    for i in range(rank):
        cur, dyn = 1, False
        for s in shapes:
            if i >= len(s):
                continue
            d = s[len(s) - 1 - i]
            if d is None:
                dyn = True
            elif d != 1:
                if cur != 1 and cur != d:
                    raise ValueError("cannot broadcast %s" % (shapes,))
                cur = d
        out.append(None if dyn and cur == 1 else cur)
    return tuple(reversed(out))


# ---------------------------------------------------------------------------
# Conversions with C/NumPy semantics and correct rounding
# ---------------------------------------------------------------------------

def round_to(x, dt):
    """float64 values -> dt, rounded once to nearest even (ml_dtypes rounds
    float64 -> bfloat16 through float32, i.e. twice; not used for that)."""
    x = np.asarray(x, dtype=np.float64)
    if dt == "f64":
        return x.copy()
    if dt in ("f32", "f16"):
        with np.errstate(over="ignore"):
            return x.astype(NP[dt])
    assert dt == "bf16"
    # ptensor (like PyTorch's CPU kernels) rounds to bf16 from f32: values
    # coming from f64 round twice.
    with np.errstate(over="ignore"):
        x = x.astype(np.float32).astype(np.float64)
    m, emin, emax = cmp.FLOAT_FORMATS[dt]
    with np.errstate(invalid="ignore", over="ignore"):
        q = cmp.ulp(x, dt)
        r = np.round(x / q) * q  # exact scaling; np.round is half-to-even
        r = np.where(np.isfinite(x), r, x)
        r = np.where(np.abs(r) > cmp.max_finite(dt), np.copysign(np.inf, x), r)
        return r.astype(np.float32).astype(BF16)  # exact now


def to_f64(a):
    return np.asarray(a).astype(np.float64)


def convert(a, src, dst):
    """Converts array `a` of dtype `src` to `dst` (C/NumPy semantics; float to
    integer only for in-range values)."""
    a = np.asarray(a)
    if src == "index":
        src = "i64"
    if kind(dst) == "f":
        if kind(src) == "f":
            return round_to(to_f64(a), dst)
        if dst in ("f32", "f64"):
            return a.astype(NP[dst])  # C conversion: one rounding
        return round_to(a.astype(np.float64), dst)  # exact below 2**53
    if dst == "i1":
        return a != 0
    if kind(src) == "f":
        with np.errstate(invalid="ignore"):
            return np.trunc(to_f64(a)).astype(NP[dst])
    return a.astype(NP[dst])  # integers wrap modulo 2**width


def wrap_ints(values, dt):
    """Python ints (object array) -> dt modulo 2**width."""
    w = width(dt)
    flat = []
    for v in np.asarray(values, dtype=object).ravel():
        v = int(v) % (2 ** w)
        if kind(dt) == "s" and v >= 2 ** (w - 1):
            v -= 2 ** w
        flat.append(v)
    return np.array(flat, dtype=NP[dt]).reshape(np.shape(values))


def as_pyints(a):
    return np.asarray(a).astype(object) if np.asarray(a).dtype != object else a
