"""Operand generation for the elementwise_binary tests (per-kind domains)."""

from harness import *  # noqa: F401,F403
from harness import Func, Gen, NP, PromotionError, kind, int_range, promote, width


def legal(k, da, db):
    """Whether kind k is defined on dtypes da, db (builtin scalars included)."""
    fa, fb = kind(da) == "f", kind(db) == "f"
    if k.startswith("bitwise"):
        if fa or fb:
            return False
        if k in ("bitwise_left_shift", "bitwise_right_shift") and "i1" in (da, db):
            return False
        return True
    return not (da == "i1" and db == "i1")


def result_width(da, db, weak_a=False, weak_b=False):
    common = promote([("i64" if da == "index" else da, weak_a),
                      ("i64" if db == "index" else db, weak_b)])
    return common, (width(common) if kind(common) != "f" else 32)


def _clip_pairs(pairs, da, db):
    lo_a, hi_a = int_range(da) if kind(da) != "f" else (-1e300, 1e300)
    lo_b, hi_b = int_range(db) if kind(db) != "f" else (-1e300, 1e300)
    return [(x, y) for x, y in pairs if lo_a <= x <= hi_a and lo_b <= y <= hi_b]


def operands(gen, k, da, db, n, mixed_float=False):
    """Two arrays (dtypes da, db) of equal length for kind k.

    mixed_float: an integer operand meets a float one, so integers stay small
    (their conversion to f16/bf16 is exact)."""
    fa, fb = kind(da) == "f", kind(db) == "f"
    any_float = fa or fb
    small = mixed_float or (any_float and not (fa and fb))
    common, w = result_width(da, db)

    def side(dt, flo, fhi, ilo=None, ihi=None, **kw):
        if kind(dt) == "f":
            return gen.floats(dt, n, flo, fhi, **kw)
        if small and ilo is None:
            ilo, ihi = -100, 100
        kw.pop("loguniform", None)
        return gen.values(dt, n, ilo=ilo, ihi=ihi, nonzero=kw.get("nonzero", False))

    pairs = []
    if k in ("floor_divide", "remainder"):
        a = side(da, -100, 100)
        b = side(db, -20, 20, -20, 20, nonzero=any_float)
        if not any_float:
            lo = int_range(common)[0]
            pairs = _clip_pairs([(lo, -1), (lo, 1), (7, 0), (-7, 0), (0, 0), (7, 2),
                                 (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (6, -3),
                                 (int_range(da)[1], 7)], da, db)
    elif k == "divide":
        a = side(da, -100, 100)
        b = side(db, -10, 10, -10, 10, nonzero=fb)
        if not any_float:
            pairs = _clip_pairs([(1, 0), (-1, 0), (0, 0), (7, 2), (-7, 2)], da, db)
    elif k == "pow":
        if any_float:
            a = side(da, 0.1, 10, 0, 6, loguniform=True)
            b = side(db, -3, 3, 0, 4)
        else:
            a = side(da, 0, 0, -4, 4)
            b = side(db, 0, 0, 0, 7)
            pairs = _clip_pairs([(0, 0), (-1, 3), (-1, 4), (2, 7), (3, 5)], da, db)
    elif k in ("bitwise_left_shift", "bitwise_right_shift"):
        a = side(da, 0, 0)
        b = side(db, 0, 0, 0, w - 1)
        pairs = _clip_pairs([(1, w - 1), (-1, w - 1), (-5, w), (5, w), (-5, w + 3),
                             (5, w + 3), (int_range(da)[0], 1), (int_range(da)[1], 1)],
                            da, db)
    elif k == "logaddexp":
        a, b = side(da, -20, 20), side(db, -20, 20)
        if fa and fb:
            pairs = [(1.0, 1.0), (-3.0, -3.0), (0.0, 0.0)]
    else:
        a, b = side(da, -100, 100), side(db, -100, 100)
    if pairs:
        pa = np.array([p[0] for p in pairs]).astype(NP[da]) if kind(da) == "f" else \
            np.array([p[0] for p in pairs], dtype=object).astype(NP[da])
        pb = np.array([p[1] for p in pairs]).astype(NP[db]) if kind(db) == "f" else \
            np.array([p[1] for p in pairs], dtype=object).astype(NP[db])
        a = np.concatenate([pa, a])[:len(a)]
        b = np.concatenate([pb, b])[:len(b)]
    return a, b


def binary_func(name, gen, da, db, n=40, dynamic=(False, False), kinds=None):
    """One function applying every legal binary kind to (da, db) tensors."""
    fn = Func(name)
    outs = []
    try:
        promote([(da, False), (db, False)])
    except PromotionError:
        return None
    mixed = (kind(da) == "f") != (kind(db) == "f")
    for k in kinds or BINARY_KINDS:
        if not legal(k, da, db):
            continue
        a, b = operands(gen, k, da, db, n, mixed_float=mixed)
        x = fn.tensor(a, da, dynamic=dynamic[0])
        y = fn.tensor(b, db, dynamic=dynamic[1])
        outs.append(fn.binary(k, x, y))
    fn.ret(*outs)
    return fn
