"""GPU cases, shared by test_gpu.py (run on a GPU machine with torch/CuPy)
and by the cache filler (run here, where the compiler is):

    PTENSOR_CACHE_DIR=DIR python python/tests/gpu_cases.py

runs every case in `ptensor.compile_only()` mode on `ptensor.Tensor`
descriptions of CUDA arrays with the same shapes, dtypes and strides as the
real ones, so exactly the kernels the GPU run needs are compiled (target
cuda) into DIR. Copy DIR to the GPU machine and point PTENSOR_CACHE_DIR at it.

Each case takes an `xp` (FakeGPU or a real backend) and returns a list of
(result, expected numpy array, ptensor dtype) to compare, and SIGNED_ZEROS
after them where the signs of zeros must match too.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ptensor as pt  # noqa: E402
from ptensor import _dtypes as D  # noqa: E402
from ptensor import math as tm  # noqa: E402
from conftest import rand, to64  # noqa: E402


#: The fourth item of a case's result whose zeros' signs are compared.
SIGNED_ZEROS = "signed zeros"


@pt.pointwise(is_tensor=[True, True, False], dtypes=[None, None, float],
              promotion_methods=[(0, 1, "DEFAULT")])
def add_func(x, y, alpha):
    return x + y * alpha


@pt.pointwise(promotion_methods=[((0, 1), "DEFAULT"), ((0, 1), "DEFAULT")], num_outputs=2)
def polar_kernel(abs, angle):
    return abs * tm.cos(angle), abs * tm.sin(angle)


@pt.pointwise(is_tensor=[True], promotion_methods=[(0, "DEFAULT")])
def copy_func(x):
    return x


def _row_major(shape):
    st, acc = [0] * len(shape), 1
    for i in reversed(range(len(shape))):
        st[i] = acc
        acc *= shape[i]
    return st


class FakeGPU:
    """Descriptions of CUDA arrays (no memory) for compile-only runs."""

    real = False
    framework = "torch"

    def __init__(self):
        self.rng = np.random.default_rng(7)
        self.next = 1 << 40

    def wrap(self, a):
        ptr, self.next = self.next, self.next + (1 << 32)
        return pt.Tensor(D.from_numpy(a.dtype), "cuda:0", ptr, a.shape, _row_major(a.shape),
                         self.framework, None)

    def rand(self, shape, dt):
        a = rand(self.rng, shape, dt)
        return self.wrap(a), a

    def empty(self, shape, dt):
        return self.wrap(np.empty(shape, D.to_numpy(dt)))

    def t(self, a):
        return pt.Tensor(a.dtype, a.device, a.ptr, a.shape[::-1], a.strides[::-1], a.framework,
                         None)

    def tail(self, a, k):
        """`a[k:]` of a 1-D array: contiguous, its start k elements on."""
        return pt.Tensor(a.dtype, a.device, a.ptr + k * D.itemsize(a.dtype), (a.shape[0] - k,),
                         a.strides, a.framework, None)

    def numpy(self, a):
        return None


class TorchGPU(FakeGPU):
    real = True
    framework = "torch"

    def wrap(self, a):
        import torch

        if D.is_bfloat16(a.dtype):
            return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16).cuda()
        return torch.from_numpy(a).cuda()

    def empty(self, shape, dt):
        import torch

        return torch.empty(shape, dtype=D.to_torch(dt), device="cuda:0")

    def t(self, a):
        return a.t()

    def tail(self, a, k):
        return a[k:]

    def numpy(self, a):
        import torch

        if a.dtype == torch.bfloat16:
            return a.cpu().view(torch.int16).numpy().view(D.bfloat16())
        return a.cpu().numpy()


class CupyGPU(FakeGPU):
    real = True
    framework = "cupy"

    def wrap(self, a):
        import cupy

        return cupy.asarray(a)

    def empty(self, shape, dt):
        import cupy

        return cupy.empty(shape, dtype=D.to_numpy(dt))

    def t(self, a):
        return a.T

    def tail(self, a, k):
        return a[k:]

    def numpy(self, a):
        return a.get()


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

def case_binary_broadcast(xp):
    a, an = xp.rand((64, 33), "f32")
    b, bn = xp.rand((33,), "f32")
    return [(pt.add(a, b), an + bn, "f32"), (pt.less(a, b), an < bn, "i1")]


def case_unary_transposed(xp):
    a, an = xp.rand((33, 64), "f32")
    return [(pt.exp(xp.t(a)), np.exp(to64(an.T)), "f32")]


def case_mixed_dtypes(xp):
    h, hn = xp.rand((40,), "f16")
    g, gn = xp.rand((40,), "bf16")
    i, i_n = xp.rand((40,), "i32")
    j, jn = xp.rand((40,), "i32")
    f, fn = xp.rand((40,), "f32")
    return [(pt.multiply(h, 3.0), to64(hn) * 3.0, "f16"),
            (pt.add(h, g), to64(hn) + to64(gn), "f32"),
            (pt.floor_divide(i, j), i_n // jn, "i32"),
            (pt.less(f, i), to64(fn) < i_n, "i1")]


def case_where(xp):
    c, cn = xp.rand((8, 1), "i1")
    x, xn = xp.rand((8, 16), "f32")
    return [(pt.where(c, x, 0.5), np.where(cn, xn, np.float32(0.5)), "f32")]


def case_pointwise(xp):
    a, an = xp.rand((128, 256), "f32")
    b, bn = xp.rand((256,), "f32")
    r, rn = xp.rand((50, 3), "f32")
    t, tn = xp.rand((3,), "f32")
    re, im = polar_kernel(r, t) or (None, None)  # None in compile-only mode
    return [(add_func(a, b, 0.2), an + bn * np.float32(0.2), "f32"),
            (re, to64(rn) * np.cos(to64(tn)), "f32"),
            (im, to64(rn) * np.sin(to64(tn)), "f32")]


def case_flip_instantiate(xp):
    """A flip as a StridedBuffer with a negative stride (torch has none)."""
    a, an = xp.rand((4, 6), "f32")
    out = xp.empty((4, 6), "f32")
    flipped = pt.StridedBuffer(a, shape=(4, 6), strides=(6, -1), offset=5)
    copy_func.instantiate(2)(flipped, out0=out)
    return [(out, an[:, ::-1], "f32")]


def case_out_in_place(xp):
    a, an = xp.rand((32, 8), "f32")
    b, bn = xp.rand((8,), "f32")
    expected = an + bn * np.float32(2.0)
    add_func(a, b, 2.0, out0=a)
    o = xp.empty((32, 8), "f32")
    pt.multiply(a, b, out=o)
    return [(a, expected, "f32"), (o, expected * bn, "f32")]


def case_reductions(xp):
    a, an = xp.rand((67, 1030), "f32")
    h, hn = xp.rand((300, 5), "f16")
    i, i_n = xp.rand((40, 9), "i32")
    return [(pt.sum(a, axis=1), to64(an).sum(axis=1), "f32"),
            (pt.max(xp.t(a), axis=0), an.max(axis=1), "f32"),
            (pt.argmax(xp.t(a), axis=1), an.argmax(axis=0), "i64"),
            (pt.mean(h, axis=0, keepdims=True), to64(hn).mean(axis=0, keepdims=True), "f16"),
            (pt.var(a, correction=1), to64(an).var(ddof=1), "f32"),
            (pt.sum(i, axis=0), i_n.sum(axis=0, dtype=np.int64), "i64"),
            (pt.any(i, axis=1), (i_n != 0).any(axis=1), "i1")]


def case_linalg(xp):
    """Matrix products through cuBLASLt (f32 row- and column-major, a batch
    against one matrix, f16 and bf16 summed in f32) and generated ones
    (matrix-vector, row dot products, int32). Small integers: every result
    is exact, so any layout or accumulation mistake shows."""
    rng = np.random.default_rng(11)

    def ints(shape, dt):
        a = rng.integers(-3, 4, shape).astype(np.float64)
        a = a.astype(D.to_numpy(dt)) if dt != "bf16" else a.astype(np.float32).astype(D.bfloat16())
        return xp.wrap(a), a.astype(np.float64) if dt != "i32" else a.astype(np.int64)

    a, an = ints((64, 96), "f32")
    b, bn = ints((96, 80), "f32")
    at, atn = ints((96, 64), "f32")
    p, pn = ints((4, 16, 24), "f32")
    q, qn = ints((24, 8), "f32")
    h, hn = ints((40, 32), "f16")
    hb, hbn = ints((32, 24), "f16")
    w, wn = ints((24, 16), "bf16")
    wb, wbn = ints((16, 20), "bf16")
    v, vn = ints((96,), "f32")
    i, i_n = ints((12, 10), "i32")
    j, jn = ints((10, 6), "i32")
    return [(pt.matmul(a, b), an @ bn, "f32"),
            (pt.matmul(xp.t(at), b), atn.T @ bn, "f32"),
            (pt.matmul(p, q), pn @ qn, "f32"),
            (pt.matmul(h, hb), hn @ hbn, "f16"),
            (pt.matmul(w, wb), wn @ wbn, "bf16"),
            (pt.matmul(a, v), an @ vn, "f32"),
            (pt.vecdot(a, a), (an * an).sum(-1), "f32"),
            (pt.matmul(i, j), i_n @ jn, "i32")]


def case_manipulation(xp):
    """Data movement on the GPU: reshape as a view and of a transposed
    view (a copy), concat of mixed dtypes and layouts, stack, roll on two
    axes, tril/triu with batch dims, meshgrid, and eye on the device."""
    from ptensor._manipulation import eye_kernel

    a, an = xp.rand((6, 8), "f32")
    h, hn = xp.rand((4, 8), "f16")
    t, tn = xp.t(a), an.T
    b, bn = xp.rand((2, 5, 7), "f64")
    x, xn = xp.rand((3,), "f32")
    y, yn = xp.rand((5,), "f32")
    gx, gy = pt.meshgrid(x, y)
    mx, my = np.meshgrid(xn, yn)
    return [(pt.reshape(a, (4, -1)), an.reshape(4, -1), "f32"),
            (pt.reshape(t, (-1,)), tn.reshape(-1), "f32"),
            (pt.concat([a, h]), np.concatenate([an, hn.astype(np.float32)]), "f32"),
            (pt.concat([t, t], axis=1), np.concatenate([tn, tn], 1), "f32"),
            (pt.stack([a, a], axis=-1), np.stack([an, an], -1), "f32"),
            (pt.roll(a, (2, -3), axis=(0, 1)), np.roll(an, (2, -3), (0, 1)), "f32"),
            (pt.tril(b, k=-1), np.tril(bn, -1), "f64"),
            (pt.triu(t), np.triu(tn), "f32"),
            (gx, mx, "f32"), (gy, my, "f32"),
            (eye_kernel(5, 6, 1, "f32", "cuda:0"), np.eye(5, 6, 1), "f32")]


def case_sorting(xp):
    """sort and argsort on the GPU (CUB): one line (radix sort) and rows
    (segmented sort), ascending and descending, a transposed input, ties
    (argsort: stable, so the indices are numpy's stable ones)."""
    a, an = xp.rand((2000,), "f32")
    m, mn = xp.rand((6, 300), "f64")
    t, tn = xp.t(m), mn.T
    # Ties: rounded to a few values (the wrapped array is a copy of these).
    r, rn = xp.rand((5, 40), "f32")
    ties = xp.wrap(np.round(rn * 4).astype(np.float32))
    tiesn = np.round(rn * 4).astype(np.float32)
    # Long integer lines of narrow ranges (the radix sort over the bits
    # where the keys differ): positive, across zero, all equal.
    rng = np.random.default_rng(9)
    narrow = (1000 + rng.integers(0, 100, 1 << 17)).astype(np.int16)
    signed = rng.integers(-5, 5, 1 << 17).astype(np.int32)
    same = np.full(1 << 17, 7, np.int64)
    # Rows of floats (sorted as keys that keep every bit): -0.0 and 0.0 in
    # input order both ways (their signs compared through signbit), NaNs
    # last (first descending); rows with a -0.0 and rows without.
    zeros = np.array([[0.0, -0.0, 1.0, -0.0, np.nan, 0.0, -1.0, -0.0, 0.0],
                      [-0.0, 0.0, 0.0, -np.inf, -0.0, np.nan, 2.0, 0.0, -0.0],
                      [3.0, 0.0, -2.0, 0.0, np.inf, 0.5, 0.0, -7.0, 1.0]])
    zs = [xp.wrap(zeros.astype(d)) for d in (np.float32, np.float64)]
    ups = [np.sort(zeros.astype(d), axis=-1, kind="stable") for d in (np.float32, np.float64)]
    # Descending: the stable order of the flipped rows, flipped back.
    downs = [np.flip(np.sort(np.flip(zeros.astype(d), -1), axis=-1, kind="stable"), -1)
             for d in (np.float32, np.float64)]
    signed_zeros = []
    for z, up, down, dt in zip(zs, ups, downs, ("f32", "f64")):
        signed_zeros += [(pt.sort(z), up, dt, SIGNED_ZEROS),
                         (pt.sort(z, descending=True), down, dt, SIGNED_ZEROS)]
    return signed_zeros + [(pt.sort(xp.wrap(narrow)), np.sort(narrow), "i16"),
            (pt.argsort(xp.wrap(narrow)), np.argsort(narrow, kind="stable"), "i64"),
            (pt.sort(xp.wrap(signed), descending=True), -np.sort(-signed), "i32"),
            (pt.argsort(xp.wrap(signed)), np.argsort(signed, kind="stable"), "i64"),
            (pt.argsort(xp.wrap(same)), np.arange(1 << 17), "i64"),
            (pt.sort(a), np.sort(an), "f32"),
            (pt.argsort(a), np.argsort(an, kind="stable"), "i64"),
            (pt.sort(m, descending=True), -np.sort(-mn, axis=-1), "f64"),
            (pt.sort(t, axis=0), np.sort(tn, axis=0), "f64"),
            (pt.argsort(ties), np.argsort(tiesn, axis=-1, kind="stable"), "i64"),
            (pt.argsort(ties, axis=0, descending=True),
             4 - np.flip(np.argsort(np.flip(tiesn, 0), axis=0, kind="stable"), 0), "i64")]


def _part(results, i):
    """Result i of a function with several, or None in compile-only mode
    (the call gives None)."""
    return None if results is None else results[i]


def case_compaction(xp):
    """nonzero, extract_mask and unique_* on the GPU (CUB's count, select
    and scan): NaN non-zero, -0.0 zero; a row mask; unique of integers with
    every result and of floats with NaNs (each distinct) and ±0."""
    x = np.array([[0.0, 1.5, 0.0], [np.nan, 0.0, -0.0]], np.float32)
    nz = pt.nonzero(xp.wrap(x))
    ints = np.random.default_rng(5).integers(0, 50, 3000).astype(np.int64)
    mask = ints % 3 == 0
    picked = pt.extract_mask(xp.wrap(ints), xp.wrap(mask))
    m, mn = xp.rand((40, 7), "f32")
    row_mask = mn[:, 0] > 0.5
    some_rows = pt.extract_mask(m, xp.wrap(row_mask))
    u = pt.unique_all(xp.wrap(ints))
    values, index, inverse, counts = np.unique(ints, return_index=True,
                                               return_inverse=True, return_counts=True)
    f = np.array([2.0, np.nan, -0.0, 0.0, np.nan, 2.0, -1.0], np.float32)
    fu = pt.unique_counts(xp.wrap(f))
    # The count reads contiguous flags 16 bytes at a time: masks starting
    # 3 and 5 bytes past a 16-byte boundary (partial words at both ends;
    # fewer flags than the first partial word).
    long_ints = np.random.default_rng(6).integers(0, 50, 100003).astype(np.int64)
    long_mask = long_ints % 7 < 3
    off_start = pt.extract_mask(xp.tail(xp.wrap(long_ints), 3), xp.tail(xp.wrap(long_mask), 3))
    short_mask = np.arange(14) % 3 != 1
    short = pt.extract_mask(xp.tail(xp.wrap(ints[:14]), 5), xp.tail(xp.wrap(short_mask), 5))
    nz_long = pt.nonzero(xp.tail(xp.wrap(long_mask), 3))
    return [(_part(nz, 0), np.nonzero(x)[0], "i64"), (_part(nz, 1), np.nonzero(x)[1], "i64"),
            (picked, ints[mask], "i64"), (some_rows, mn[row_mask], "f32"),
            (_part(u, 0), values, "i64"), (_part(u, 1), index, "i64"),
            (_part(u, 2), inverse, "i64"), (_part(u, 3), counts, "i64"),
            (_part(fu, 0), np.array([-1.0, 0.0, 2.0, np.nan, np.nan]), "f32"),
            (_part(fu, 1), np.array([1, 2, 2, 1, 1]), "i64"),
            (off_start, long_ints[3:][long_mask[3:]], "i64"),
            (short, ints[5:14][short_mask[5:]], "i64"),
            (_part(nz_long, 0), np.nonzero(long_mask[3:])[0], "i64")]


def case_searchsorted(xp):
    """searchsorted on the GPU (a binary search per value): a sorted f32
    line with NaNs last against 2-D values with exact hits and NaNs, both
    sides; an unsorted int32 line through its argsort against int64
    values (compared in int64); Python scalars (0-d results, the value
    made on the device)."""
    rng = np.random.default_rng(11)
    line = np.sort(np.round(rng.standard_normal(5000) * 8).astype(np.float32) / 8)
    line[-3:] = np.nan
    values = np.concatenate([line[::37], rng.standard_normal(100).astype(np.float32),
                             [np.nan, np.inf, -np.inf, -0.0]]).astype(np.float32)
    values = values[: (values.size // 5) * 5].reshape(-1, 5)
    raw = rng.integers(-50, 50, 3001).astype(np.int32)
    order = np.argsort(raw, kind="stable").astype(np.int64)
    wanted = rng.integers(-60, 60, (40, 3)).astype(np.int64)
    tenth = np.array([0.0, np.float32(0.1), 1.0], np.float32)
    s, v = xp.wrap(line), xp.wrap(values)
    u, p, w = xp.wrap(raw), xp.wrap(order), xp.wrap(wanted)
    return [(pt.searchsorted(s, v), np.searchsorted(line, values), "i64"),
            (pt.searchsorted(s, v, side="right"), np.searchsorted(line, values, side="right"), "i64"),
            (pt.searchsorted(u, w, side="right", sorter=p),
             np.searchsorted(raw, wanted, side="right", sorter=order), "i64"),
            (pt.searchsorted(s, 0.5, side="right"),
             np.searchsorted(line, np.float32(0.5), side="right"), "i64"),
            # Weak: 0.1 is float32's 0.1 (in float64 it would come before it).
            (pt.searchsorted(xp.wrap(tenth), 0.1, side="right"), np.int64(2), "i64"),
            (pt.searchsorted(u, 7, sorter=p), np.searchsorted(raw, 7, sorter=order), "i64")]


def case_take(xp):
    """take on the GPU (one thread per result element reading the source by
    position, after the indices are counted in range): a row gather of a
    2-D f32 source with negative and repeated int32 indices, a column
    gather of its transpose, a 1-D f16 line through int64 indices."""
    rng = np.random.default_rng(13)
    m = rng.standard_normal((300, 70)).astype(np.float32)
    rows = rng.integers(-300, 300, 1000).astype(np.int32)
    cols = rng.integers(0, 300, 50).astype(np.int64)
    line = rng.standard_normal(4097).astype(np.float16)
    picks = rng.integers(-4097, 4097, 5000).astype(np.int64)
    x = xp.wrap(m)
    return [(pt.take(x, xp.wrap(rows), axis=0), np.take(m, rows, axis=0), "f32"),
            (pt.take(xp.t(x), xp.wrap(cols), axis=-1),
             np.take(m.T, cols, axis=-1), "f32"),
            (pt.take(xp.wrap(line), xp.wrap(picks)), np.take(line, picks), "f16")]


def case_contiguous_add_and_reshape_view(xp):
    """A compact 1-D add and a reshape that is a view of its operand (the
    kernels of test_gpu.py's stream and lifetime tests)."""
    a, an = xp.rand((1 << 12,), "f32")
    b, bn = xp.rand((12,), "f32")
    return [(pt.add(a, a), an + an, "f32"), (pt.reshape(b, (3, 4)), bn.reshape(3, 4), "f32")]


def case_contiguous_unaligned(xp):
    """Contiguous operands whose start is not 16-byte aligned (`a[1:]`):
    the call is compiled as a contiguous one (strided-paths=0), whose flat
    vector path refuses them at run time, so the one general kernel (64-bit
    indices) computes it; also an aligned and an unaligned operand mixed."""
    a, an = xp.rand((1 << 12,), "f32")
    b, bn = xp.rand((1 << 12,), "f32")
    tail_a, tail_b = xp.tail(a, 1), xp.tail(b, 1)
    head, headn = xp.rand(((1 << 12) - 1,), "f32")
    return [(pt.multiply(tail_a, tail_b), an[1:] * bn[1:], "f32"),
            (pt.add(head, tail_a), headn + an[1:], "f32")]


FUNCTIONAL_CASES = [case_contiguous_add_and_reshape_view, case_contiguous_unaligned,
                    case_binary_broadcast, case_unary_transposed, case_mixed_dtypes,
                    case_where, case_pointwise, case_flip_instantiate, case_reductions,
                    case_linalg, case_manipulation, case_sorting, case_compaction,
                    case_searchsorted, case_take]
OUT_CASES = [case_out_in_place]
ALL_CASES = FUNCTIONAL_CASES + OUT_CASES


#: A module whose function allocates a device tensor of a size it is given
#: (test_gpu.py: running out of device memory is an exception, not an abort).
FILL_IR = """
func.func @fill(%n: index) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %v = arith.constant 1.0 : f32
  %t = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %t : !ptensor.ptensor<?xf32, device = "cuda:0">
}
"""


def precompile(cases=ALL_CASES):
    """Compiles the CUDA kernels of `cases` (and FILL_IR) into
    PTENSOR_CACHE_DIR; returns the failures as (case name, exception)
    pairs."""
    failures = []
    with pt.compile_only():
        pt.compile_module(FILL_IR, target="cuda")
        for case in cases:
            try:
                case(FakeGPU())
            except pt.PTensorError as e:
                failures.append((case.__name__, e))
    return failures


if __name__ == "__main__":
    fails = precompile()
    for name, e in fails:
        print("%s: %s" % (name, e), file=sys.stderr)
    print("cuda kernels in %s; %d case(s) failed to compile" % (pt.cache_dir(), len(fails)))
    sys.exit(1 if fails else 0)
