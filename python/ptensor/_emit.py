"""Multi-op scalar emitters of the tracer (ports of the compiler's
ScalarOps.cpp: NumPy's integer division/remainder/shift results, float
remainder with the divisor's sign, overflow-free hypot, logaddexp). Each
takes the Body `b` and converted operands and returns a Scalar."""

import math as _pymath

from . import _dtypes as D


def _sel(b, c, x, y, dt, weak=False):
    return b.op("arith.select %s, %s, %s : %s" % (c.name, x.name, y.name, D.storage_type(dt)),
                dt, weak)


def _cmpi(b, pred, x, y):
    return b.op("arith.cmpi %s, %s, %s : %s" % (pred, x.name, y.name, x.type), "i1")


def _cmpf(b, pred, x, y):
    return b.op("arith.cmpf %s, %s, %s : %s" % (pred, x.name, y.name, x.type), "i1")


def _is_negative(b, v):
    k = D.kind(v.dt)
    if k == "f":
        return _cmpf(b, "olt", v, b.const(0.0, v.dt))
    if k in ("u", "b"):
        return b.const(False, "i1")
    return _cmpi(b, "slt", v, b.const(0, v.dt))


def _float_remainder(b, x, y, dt, weak):
    t = D.storage_type(dt)
    r = b.op("arith.remf %s, %s : %s" % (x.name, y.name, t), dt)
    nonzero = _cmpf(b, "one", r, b.const(0.0, dt))
    differ = b.op("arith.xori %s, %s : i1" % (_is_negative(b, r).name,
                                              _is_negative(b, y).name), "i1")
    fix = b.op("arith.andi %s, %s : i1" % (nonzero.name, differ.name), "i1")
    fixed = b.op("arith.addf %s, %s : %s" % (r.name, y.name, t), dt)
    return _sel(b, fix, fixed, r, dt, weak)


def _int_division(b, remainder, x, y, dt, weak):
    t = D.storage_type(dt)
    uns = D.kind(dt) in ("u", "b")
    zero, one = b.const(0, dt), b.const(1, dt)
    is0 = _cmpi(b, "eq", y, zero)
    bad = is0
    if not uns:
        ism1 = _cmpi(b, "eq", y, b.const(-1, dt))
        bad = b.op("arith.ori %s, %s : i1" % (is0.name, ism1.name), "i1")
    safe = _sel(b, bad, one, y, dt)
    if uns:
        r = b.op("arith.%s %s, %s : %s" % ("remui" if remainder else "divui", x.name,
                                           safe.name, t), dt)
        return _sel(b, is0, zero, r, dt, weak)
    if remainder:
        rem = b.op("arith.remsi %s, %s : %s" % (x.name, safe.name, t), dt)
        nonzero = _cmpi(b, "ne", rem, zero)
        differ = b.op("arith.xori %s, %s : i1" % (_is_negative(b, rem).name,
                                                  _is_negative(b, y).name), "i1")
        fix = b.op("arith.andi %s, %s : i1" % (nonzero.name, differ.name), "i1")
        added = b.op("arith.addi %s, %s : %s" % (rem.name, y.name, t), dt)
        r = _sel(b, fix, added, rem, dt)
        by_m1 = zero
    else:
        r = b.op("arith.floordivsi %s, %s : %s" % (x.name, safe.name, t), dt)
        by_m1 = b.op("arith.subi %s, %s : %s" % (zero.name, x.name, t), dt)
    inner = _sel(b, ism1, by_m1, r, dt)
    return _sel(b, is0, zero, inner, dt, weak)


def _shift(b, left, x, y, dt, weak):
    t = D.storage_type(dt)
    w = D.width(dt)
    width = b.const(w, dt)
    too_far = _cmpi(b, "uge", y, width)
    zero = b.const(0, dt)
    amount = _sel(b, too_far, zero, y, dt)
    if left:
        s = b.op("arith.shli %s, %s : %s" % (x.name, amount.name, t), dt)
        return _sel(b, too_far, zero, s, dt, weak)
    if D.kind(dt) in ("u", "b"):
        s = b.op("arith.shrui %s, %s : %s" % (x.name, amount.name, t), dt)
        return _sel(b, too_far, zero, s, dt, weak)
    sat = b.op("arith.shrsi %s, %s : %s" % (x.name, b.const(w - 1, dt).name, t), dt)
    s = b.op("arith.shrsi %s, %s : %s" % (x.name, amount.name, t), dt)
    return _sel(b, too_far, sat, s, dt, weak)


def _hypot(b, x, y, dt, weak):
    t = D.storage_type(dt)
    ax = b.op("math.absf %s : %s" % (x.name, t), dt)
    ay = b.op("math.absf %s : %s" % (y.name, t), dt)
    m = b.op("arith.maximumf %s, %s : %s" % (ax.name, ay.name, t), dt)
    n = b.op("arith.minimumf %s, %s : %s" % (ax.name, ay.name, t), dt)
    q = b.op("arith.divf %s, %s : %s" % (n.name, m.name, t), dt)
    qq = b.op("arith.mulf %s, %s : %s" % (q.name, q.name, t), dt)
    s = b.op("arith.addf %s, %s : %s" % (b.const(1.0, dt).name, qq.name, t), dt)
    r = b.op("arith.mulf %s, %s : %s" % (m.name, b.op("math.sqrt %s : %s" % (s.name, t),
                                                       dt).name, t), dt)
    is0 = _cmpf(b, "oeq", m, b.const(0.0, dt))
    inf = b.op("math.isinf %s : %s" % (m.name, t), "i1")
    inner = _sel(b, inf, m, r, dt)
    return _sel(b, is0, b.const(0.0, dt), inner, dt, weak)


def _logaddexp(b, x, y, dt, weak):
    t = D.storage_type(dt)
    m = b.op("arith.maximumf %s, %s : %s" % (x.name, y.name, t), dt)
    d = b.op("arith.subf %s, %s : %s" % (x.name, y.name, t), dt)
    ad = b.op("math.absf %s : %s" % (d.name, t), dt)
    nd = b.op("arith.negf %s : %s" % (ad.name, t), dt)
    e = b.op("math.exp %s : %s" % (nd.name, t), dt)
    lp = b.op("math.log1p %s : %s" % (e.name, t), dt)
    r = b.op("arith.addf %s, %s : %s" % (m.name, lp.name, t), dt)
    same = _cmpf(b, "oeq", x, y)
    sv = b.op("arith.addf %s, %s : %s" % (x.name, b.const(_pymath.log(2.0), dt).name, t), dt)
    return _sel(b, same, sv, r, dt, weak)
