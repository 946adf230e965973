"""The array API namespace (ptensor.Array, dtype objects, creation and data
type functions), compared with numpy."""

import math
import operator

import numpy as np
import pytest

import ptensor as pt
from ptensor import _dtypes as D
from ptensor._array import positive_step_key
from conftest import assert_matches, needs_kernels, rand

STANDARD = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
            "uint64", "float32", "float64"]
NUMERIC = STANDARD[1:]


def np_of(name):
    return np.dtype(name)


# ---------------------------------------------------------------------------
# dtype objects
# ---------------------------------------------------------------------------

def test_dtype_objects():
    for name in STANDARD + ["float16", "bfloat16"]:
        d = getattr(pt, name)
        assert isinstance(d, pt.DType)
        assert repr(d) == "ptensor." + name
        assert d == getattr(pt, name) and hash(d) == hash(getattr(pt, name))
        assert {d: 1}[getattr(pt, name)] == 1
        if name != "bfloat16":
            assert np.dtype(d) == np.dtype(name)
            assert D.from_numpy(np.dtype(name)) == d.name
    assert pt.float32 != pt.float64 and pt.int8 != pt.uint8
    assert pt.float32 != "float32" and pt.float32 != np.float32
    assert [pt.float32.name, pt.bool.name, pt.uint16.name, pt.bfloat16.name] == \
        ["f32", "i1", "ui16", "bf16"]
    assert len({getattr(pt, n) for n in STANDARD}) == len(STANDARD)
    assert np.zeros(2, dtype=pt.int16).dtype == np.int16
    with pytest.raises(AttributeError):
        pt.float32.name = "f64"


@needs_kernels
@pytest.mark.parametrize("dtype", [pt.int16, "i16", "int16", np.int16])
def test_astype_takes_dtype_objects_and_names(rng, dtype):
    a = rand(rng, (3, 4), "f32") * 10
    r = pt.astype(pt.asarray(a), dtype)
    assert isinstance(r, pt.Array) and r.dtype == pt.int16
    assert_matches(r, a.astype(np.int16), "i16")


@needs_kernels
def test_astype_copy_false_keeps_the_array(rng):
    x = pt.asarray(rand(rng, (3,), "f32"))
    assert pt.astype(x, pt.float32, copy=False) is x
    y = pt.astype(x, pt.float32)
    assert y is not x and not np.shares_memory(np.asarray(y), np.asarray(x))
    # `device` (2023.12): where x is already, the same rules.
    assert pt.astype(x, pt.float32, copy=False, device="cpu") is x
    z = pt.astype(x, pt.int32, device="cpu")
    assert z.device == "cpu" and z.dtype == pt.int32
    assert_matches(z, np.asarray(x).astype(np.int32), "i32")
    with pytest.raises(pt.DeviceError, match="unknown device"):
        pt.astype(x, pt.int32, device="tpu")
    listed = pt.astype([1.5, -2.5], pt.int32, device="cpu")
    np.testing.assert_array_equal(np.asarray(listed), np.array([1, -2], np.int32))


# ---------------------------------------------------------------------------
# Data type functions: the semantics library's rules, checked against numpy
# where the two agree
# ---------------------------------------------------------------------------

def category(name):
    if name == "bool":
        return "b"
    return "f" if name.startswith("float") else "i"


@pytest.mark.parametrize("a", NUMERIC)
def test_result_type_matches_numpy_within_a_category(a):
    for b in NUMERIC:
        if category(a) != category(b) or "uint64" in (a, b) and a != b and \
                not (a.startswith("uint") and b.startswith("uint")):
            continue
        assert pt.result_type(getattr(pt, a), getattr(pt, b)) == \
            getattr(pt, str(np.result_type(np_of(a), np_of(b)))), (a, b)


def test_result_type_mixed_kinds_and_scalars():
    # PyTorch's rules (docs/Semantics.md), where numpy differs.
    assert pt.result_type(pt.int64, pt.float32) == pt.float32
    assert pt.result_type(pt.uint8, pt.float16, pt.int8) == pt.float16
    assert pt.result_type(pt.bool, pt.int8) == pt.int8
    assert pt.result_type(pt.int16, 1.5) == pt.float32   # weak float scalar
    assert pt.result_type(pt.uint8, 300) == pt.uint8     # weak int scalar
    assert pt.result_type(pt.bool, 1) == pt.int64
    assert pt.result_type(pt.float16, pt.bfloat16) == pt.float32
    assert pt.result_type(pt.asarray(np.zeros(2, np.int8)), pt.int32) == pt.int32
    assert pt.result_type(np.zeros(2, np.float64), pt.float32) == pt.float64
    assert pt.result_type("f16") == pt.float16
    with pytest.raises(pt.DTypeError, match="ui64"):
        pt.result_type(pt.uint64, pt.int8)
    with pytest.raises(pt.DTypeError):
        pt.result_type(1, 2.0)
    with pytest.raises(ValueError):
        pt.result_type()


@needs_kernels
def test_result_type_is_what_add_gives(rng):
    for a, b in [("i8", "ui8"), ("ui16", "i32"), ("i1", "f16"), ("i64", "f32"),
                 ("bf16", "f16")]:
        x, y = pt.asarray(rand(rng, (2,), a)), pt.asarray(rand(rng, (2,), b))
        assert (x + y).dtype == pt.result_type(x, y) == pt.result_type(x.dtype, y.dtype)


@pytest.mark.parametrize("a", STANDARD)
def test_can_cast_matches_numpy_safe_casting_within_a_category(a):
    for b in STANDARD:
        expected = category(a) == category(b) and np.can_cast(np_of(a), np_of(b), "safe")
        assert pt.can_cast(getattr(pt, a), getattr(pt, b)) == expected, (a, b)
    x = pt.zeros(2, dtype=getattr(pt, a))
    assert pt.can_cast(x, getattr(pt, a))


def test_can_cast_extensions():
    assert pt.can_cast(pt.float16, pt.float32) and pt.can_cast(pt.bfloat16, pt.float32)
    assert not pt.can_cast(pt.float16, pt.bfloat16)
    assert not pt.can_cast(pt.bfloat16, pt.float16)
    assert not pt.can_cast(pt.float32, pt.float16)


KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]


@pytest.mark.parametrize("kind", KINDS)
def test_isdtype_matches_numpy(kind):
    for name in STANDARD:
        assert pt.isdtype(getattr(pt, name), kind) == np.isdtype(np_of(name), kind), \
            (name, kind)
    assert pt.isdtype(pt.float16, "real floating") and pt.isdtype(pt.bfloat16, "numeric")


def test_isdtype_dtypes_and_tuples():
    assert pt.isdtype(pt.int8, pt.int8) and not pt.isdtype(pt.int8, pt.int16)
    assert pt.isdtype(pt.uint8, ("bool", "unsigned integer"))
    assert not pt.isdtype(pt.float32, ("integral", pt.float64))
    with pytest.raises(ValueError):
        pt.isdtype(pt.int8, "integer")
    with pytest.raises(TypeError):
        pt.isdtype("int8", "integral")


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_matches_numpy(name):
    f, n = pt.finfo(getattr(pt, name)), np.finfo(np_of(name))
    assert (f.bits, f.eps, f.max, f.min, f.smallest_normal) == \
        (n.bits, float(n.eps), float(n.max), float(n.min), float(n.smallest_normal))
    assert f.dtype == getattr(pt, name) and isinstance(f.eps, float)
    assert pt.finfo(pt.zeros(1, dtype=getattr(pt, name))).bits == n.bits


def test_finfo_bfloat16_and_errors():
    f = pt.finfo(pt.bfloat16)
    assert (f.bits, f.eps, f.smallest_normal) == (16, 2.0 ** -7, 2.0 ** -126)
    with pytest.raises(ValueError):
        pt.finfo(pt.int32)
    with pytest.raises(ValueError):
        pt.iinfo(pt.float32)
    with pytest.raises(ValueError):
        pt.iinfo(pt.bool)


@pytest.mark.parametrize("name", NUMERIC[:8])
def test_iinfo_matches_numpy(name):
    i, n = pt.iinfo(getattr(pt, name)), np.iinfo(np_of(name))
    assert (i.bits, i.max, i.min, i.dtype) == (n.bits, int(n.max), int(n.min),
                                               getattr(pt, name))
    assert type(i.max) is int


def test_constants_and_version():
    assert pt.__array_api_version__ == "2023.12"
    assert (pt.e, pt.pi) == (math.e, math.pi)
    assert math.isinf(pt.inf) and pt.inf > 0 and math.isnan(pt.nan)
    assert pt.newaxis is None


def test_namespace_info():
    info = pt.__array_namespace_info__()
    assert info.default_device() == "cpu"
    d = info.default_dtypes()
    assert (d["real floating"], d["integral"], d["indexing"]) == \
        (pt.float64, pt.int64, pt.int64)
    assert pt.asarray(1.0).dtype == d["real floating"]
    assert pt.asarray(1).dtype == d["integral"]
    assert list(info.dtypes()) == ["bool", "int8", "int16", "int32", "int64", "uint8",
                                   "uint16", "uint32", "uint64", "float32", "float64"]
    assert list(info.dtypes(kind="real floating").values()) == [pt.float32, pt.float64]
    assert list(info.dtypes(kind=("bool", "unsigned integer"))) == \
        ["bool", "uint8", "uint16", "uint32", "uint64"]
    assert info.devices()[0] == "cpu"
    assert info.capabilities()["boolean indexing"] is True


# ---------------------------------------------------------------------------
# The array object
# ---------------------------------------------------------------------------

def test_array_attributes(rng):
    a = rand(rng, (2, 3, 4), "f32")
    x = pt.asarray(a)
    assert isinstance(x, pt.Array) and x._array is a
    assert (x.shape, x.dtype, x.device, x.ndim, x.size) == ((2, 3, 4), pt.float32, "cpu",
                                                            3, 24)
    assert type(x.shape[0]) is int
    np.testing.assert_array_equal(np.asarray(x.mT), np.swapaxes(a, -1, -2))
    with pytest.raises(ValueError):
        x.T
    m = pt.asarray(a[0])
    np.testing.assert_array_equal(np.asarray(m.T), a[0].T)
    assert np.shares_memory(np.asarray(m.T), a)
    with pytest.raises(TypeError):
        pt.Array(a)
    with pytest.raises(AttributeError):
        x.other = 1
    assert x.__array_namespace__() is pt
    assert x.__array_namespace__(api_version="2022.12") is pt
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="2049.12")


def test_repr():
    x = pt.asarray(np.array([[1, 2], [3, 4]], np.int16))
    assert repr(x) == ("ptensor.Array([[1, 2],\n               [3, 4]], "
                       "dtype=ptensor.int16, device='cpu')")


ARITH = [
    ("+", operator.add, operator.iadd), ("-", operator.sub, operator.isub),
    ("*", operator.mul, operator.imul), ("/", operator.truediv, operator.itruediv),
    ("//", operator.floordiv, operator.ifloordiv), ("%", operator.mod, operator.imod),
    ("**", operator.pow, operator.ipow),
]
BITWISE = [
    ("&", operator.and_, operator.iand), ("|", operator.or_, operator.ior),
    ("^", operator.xor, operator.ixor), ("<<", operator.lshift, operator.ilshift),
    (">>", operator.rshift, operator.irshift),
]
COMPARE = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]


@needs_kernels
@pytest.mark.parametrize("sym,op,iop", ARITH, ids=[s for s, _, _ in ARITH])
def test_arithmetic_operators_f32(rng, sym, op, iop):
    a, b = rand(rng, (4, 5), "f32"), rand(rng, (5,), "f32")
    x, y = pt.asarray(a), pt.asarray(b)
    with np.errstate(all="ignore"):
        for got, want in [(op(x, y), op(a.astype(np.float64), b)),
                          (op(x, 2.5), op(a.astype(np.float64), 2.5)),
                          (op(3.0, x), op(3.0, a.astype(np.float64))),
                          (op(a, y), op(a.astype(np.float64), b)),   # numpy on the left
                          (op(x, b), op(a.astype(np.float64), b))]:
            assert isinstance(got, pt.Array)
            assert_matches(np.asarray(got), want.astype(np.float32), "f32", rtol=1e-5)
        x2 = pt.asarray(a.copy())
        r = iop(x2, y)
        assert r is x2
        assert_matches(np.asarray(x2), op(a.astype(np.float64), b).astype(np.float32),
                       "f32", rtol=1e-5)


@needs_kernels
@pytest.mark.parametrize("sym,op,iop", ARITH[:3] + ARITH[4:6] + BITWISE,
                         ids=[s for s, _, _ in ARITH[:3] + ARITH[4:6] + BITWISE])
def test_integer_operators_i32(rng, sym, op, iop):
    a = rand(rng, (3, 4), "i32")
    b = rng.integers(1, 5, size=(4,)).astype(np.int32)
    x, y = pt.asarray(a), pt.asarray(b)
    for got, want in [(op(x, y), op(a, b)), (op(x, 3), op(a, np.int32(3))),
                      (op(7, y), op(np.int32(7), b))]:
        assert isinstance(got, pt.Array) and got.dtype == pt.int32
        np.testing.assert_array_equal(np.asarray(got), want)
    x2 = pt.asarray(a.copy())
    assert iop(x2, y) is x2
    np.testing.assert_array_equal(np.asarray(x2), op(a, b))


@needs_kernels
def test_comparisons_and_unary(rng):
    a, b = rand(rng, (3, 4), "f32"), rand(rng, (3, 4), "f32")
    a[0, 0] = b[0, 0]
    x, y = pt.asarray(a), pt.asarray(b)
    for op in COMPARE:
        for got, want in [(op(x, y), op(a, b)), (op(x, 0.5), op(a, 0.5)),
                          (op(0.5, x), op(0.5, a))]:
            assert isinstance(got, pt.Array) and got.dtype == pt.bool
            np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(-x), -a)
    np.testing.assert_array_equal(np.asarray(+x), a)
    np.testing.assert_array_equal(np.asarray(abs(x)), np.abs(a))
    i = rand(rng, (5,), "i16")
    np.testing.assert_array_equal(np.asarray(~pt.asarray(i)), ~i)
    m = rand(rng, (5,), "i1")
    np.testing.assert_array_equal(np.asarray(~pt.asarray(m)), ~m)
    assert (x == None) is False and (x != "a") is True  # noqa: E711
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        hash(x)


@needs_kernels
def test_operator_errors_are_the_compilers(rng):
    x = pt.asarray(rand(rng, (3,), "f32"))
    with pytest.raises(pt.DTypeError):
        x & x
    with pytest.raises(pt.BroadcastError):
        x + pt.zeros((4,), dtype=pt.float32)
    u = pt.asarray(rand(rng, (3,), "ui64"))
    with pytest.raises(pt.DTypeError):
        u + pt.asarray(rand(rng, (3,), "i8"))


@needs_kernels
def test_elementwise_functions_take_and_give_arrays(rng):
    a, b = rand(rng, (4, 6), "f32"), rand(rng, (4, 6), "f32")
    x = pt.asarray(a)
    r = pt.exp(x)
    assert isinstance(r, pt.Array) and r.dtype == pt.float32
    assert_matches(np.asarray(r), np.exp(a.astype(np.float64)), "f32", rtol=4e-6)
    r = pt.maximum(b, x)  # an Array anywhere among the operands
    assert isinstance(r, pt.Array)
    np.testing.assert_array_equal(np.asarray(r), np.maximum(a, b))
    r = pt.where(x > 0, x, pt.asarray(b))
    assert isinstance(r, pt.Array)
    np.testing.assert_array_equal(np.asarray(r), np.where(a > 0, a, b))
    assert type(pt.add(a, b)) is np.ndarray   # numpy in, numpy out
    out = pt.empty((4, 6), dtype=pt.float32)
    assert pt.add(a, b, out=out) is out
    np.testing.assert_array_equal(np.asarray(out), a + b)
    r = pt.add(x.mT, 1.0)  # transposed views keep their layout
    np.testing.assert_array_equal(np.asarray(r), a.T + np.float32(1))


KEYS = [0, -1, (1, 2), (slice(None), 1), (slice(1, None, 2),), (slice(None, None, -1),),
        (Ellipsis, 0), (None, 0), (0, None, slice(None, None, -2)), (1, Ellipsis, None),
        (slice(4, 0, -3), slice(None), 1), (slice(2, 2),), (slice(None, None, -1), -1, 2),
        (slice(5, 2, -1), Ellipsis), (1, 2, 3), ()]


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_basic_indexing_is_a_view(rng, key):
    a = rand(rng, (4, 3, 5), "i32")
    x = pt.asarray(a)
    y = x[key]
    assert isinstance(y, pt.Array)
    want = a[key]
    assert y.shape == np.shape(want)
    np.testing.assert_array_equal(np.asarray(y), want)
    if y.size:
        assert np.shares_memory(np.asarray(y), a)
    # The key without negative steps (torch's indexing) selects the same.
    k2, flips = positive_step_key(a.shape, key)
    np.testing.assert_array_equal(np.flip(a[k2], flips) if flips else a[k2], want)


def test_boolean_mask_and_array_indices(rng):
    a = rand(rng, (4, 3), "f64")
    x = pt.asarray(a)
    m = a > 0
    np.testing.assert_array_equal(np.asarray(x[pt.asarray(m)]), a[m])
    assert int(x[pt.asarray(np.int64(2))].shape[0]) == 3   # __index__ of a 0-d Array
    np.testing.assert_array_equal(np.asarray(x[pt.asarray(np.int64(2))]), a[2])


def test_setitem(rng):
    a = rand(rng, (4, 5), "f32")
    x = pt.asarray(a.copy())
    ref = a.copy()
    x[1] = 2.5
    ref[1] = 2.5
    x[:, ::-2] = pt.asarray(np.arange(3, dtype=np.float32))
    ref[:, ::-2] = np.arange(3, dtype=np.float32)
    x[..., 0] = pt.asarray(np.float32(-1))
    ref[..., 0] = -1
    x[pt.asarray(ref > 1)] = 0.0
    ref[ref > 1] = 0
    np.testing.assert_array_equal(np.asarray(x), ref)


def test_scalar_conversions():
    assert bool(pt.asarray(True)) is True and bool(pt.asarray(0.0)) is False
    assert int(pt.asarray(np.int8(-7))) == -7
    assert float(pt.asarray(np.float32(1.5))) == 1.5
    assert complex(pt.asarray(2.0)) == 2 + 0j
    assert [10, 20, 30][pt.asarray(np.uint8(1))] == 20
    assert operator.index(pt.asarray(np.int64(5))) == 5
    assert int(pt.asarray([[3]])) == 3
    with pytest.raises(TypeError):
        operator.index(pt.asarray(1.0))
    with pytest.raises(TypeError):
        operator.index(pt.asarray(True))
    with pytest.raises(TypeError):
        bool(pt.asarray([1, 2]))
    with pytest.raises(ValueError):
        int(pt.asarray(math.nan))
    with pytest.raises(OverflowError):
        int(pt.asarray(math.inf))


def test_numpy_and_dlpack_interop(rng):
    a = rand(rng, (3, 4), "f32")
    x = pt.asarray(a)
    assert np.shares_memory(np.asarray(x), a)
    b = np.from_dlpack(x)
    assert np.shares_memory(b, a) and b.dtype == np.float32
    assert x.__dlpack_device__() == a.__dlpack_device__()
    y = pt.from_dlpack(a[:, ::2])
    assert isinstance(y, pt.Array) and np.shares_memory(np.asarray(y), a)
    np.testing.assert_array_equal(np.asarray(y), a[:, ::2])
    z = pt.from_dlpack(x, copy=True)
    assert not np.shares_memory(np.asarray(z), a)
    np.testing.assert_array_equal(np.asarray(z), a)
    c = np.array(x, dtype=np.float64)
    np.testing.assert_array_equal(c, a.astype(np.float64))


def test_to_device_host():
    x = pt.asarray([1.0, 2.0])
    assert x.to_device("cpu") is x  # already there: itself, no new wrapper
    assert x.to_device("cpu")._array is x._array
    with pytest.raises(pt.DeviceError):
        x.to_device("tpu")


def test_to_device_cuda_without_gpu():
    if pt.cuda_available():
        pytest.skip("a GPU is available")
    with pytest.raises(pt.DeviceError, match="no CUDA device"):
        pt.asarray([1.0]).to_device("cuda:0")
    with pytest.raises(pt.DeviceError):
        pt.zeros(3, device="cuda:0")


# ---------------------------------------------------------------------------
# asarray and the creation functions
# ---------------------------------------------------------------------------

def test_asarray_values():
    cases = [(True, "i1"), (3, "i64"), (2.5, "f64"), ([1, 2, 3], "i64"),
             ([[1.0, 2], [3, 4]], "f64"), ([True, False], "i1"), ([], "f64")]
    for obj, dt in cases:
        x = pt.asarray(obj)
        assert x.dtype.name == dt, obj
        np.testing.assert_array_equal(np.asarray(x), np.asarray(obj, dtype=D.to_numpy(dt)))
    x = pt.asarray([1, 2], dtype=pt.uint8)
    assert x.dtype == pt.uint8 and np.asarray(x).tolist() == [1, 2]
    assert pt.asarray([pt.asarray(1.0), 2.0]).shape == (2,)
    with pytest.raises(pt.DTypeError):
        pt.asarray([1j])
    with pytest.raises(OverflowError):
        pt.asarray([300], dtype=pt.uint8)
    with pytest.raises(ValueError):
        pt.asarray([1, 2], copy=False)


@needs_kernels
def test_asarray_arrays_and_copies(rng):
    a = rand(rng, (3,), "f32")
    x = pt.asarray(a)
    assert x._array is a and pt.asarray(x) is not x and pt.asarray(x)._array is a
    assert pt.asarray(x, copy=False)._array is a
    c = pt.asarray(x, copy=True)
    assert not np.shares_memory(np.asarray(c), a)
    np.testing.assert_array_equal(np.asarray(c), a)
    i = pt.asarray(x, dtype=pt.int32)  # a conversion: ptensor.astype
    assert i.dtype == pt.int32
    np.testing.assert_array_equal(np.asarray(i), a.astype(np.int32))
    with pytest.raises(ValueError):
        pt.asarray(x, dtype=pt.int32, copy=False)
    assert pt.asarray(x, device="cpu")._array is a


def test_creation_functions_match_numpy():
    checks = [
        (pt.zeros((2, 3)), np.zeros((2, 3))),
        (pt.zeros(4, dtype=pt.int8), np.zeros(4, np.int8)),
        (pt.ones((2,), dtype="f32"), np.ones(2, np.float32)),
        (pt.full((2, 2), 7), np.full((2, 2), 7, np.int64)),
        (pt.full((3,), True), np.full(3, True)),
        (pt.full((3,), 0.5, dtype=pt.float16), np.full(3, 0.5, np.float16)),
        (pt.arange(5), np.arange(5)),
        (pt.arange(2, 11, 3), np.arange(2, 11, 3)),
        (pt.arange(0.0, 1.0, 0.25), np.arange(0.0, 1.0, 0.25)),
        (pt.arange(5, 0, -2, dtype=pt.int16), np.arange(5, 0, -2, dtype=np.int16)),
        (pt.linspace(0, 1, 5), np.linspace(0, 1, 5)),
        (pt.linspace(0, 1, 4, endpoint=False, dtype=pt.float32),
         np.linspace(0, 1, 4, endpoint=False, dtype=np.float32)),
    ]
    for got, want in checks:
        assert isinstance(got, pt.Array) and got.device == "cpu"
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    e = pt.empty((2, 0, 3), dtype=pt.uint16)
    assert (e.shape, e.dtype, e.size) == ((2, 0, 3), pt.uint16, 0)


def test_like_functions_match_numpy():
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    x = pt.asarray(a)
    for got, want in [(pt.zeros_like(x), np.zeros_like(a)), (pt.ones_like(x), np.ones_like(a)),
                      (pt.full_like(x, 9), np.full_like(a, 9)),
                      (pt.ones_like(x, dtype=pt.float32), np.ones_like(a, np.float32)),
                      (pt.full_like(a, 2.5, dtype=pt.float64), np.full_like(a, 2.5, np.float64))]:
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    e = pt.empty_like(x)
    assert (e.shape, e.dtype, e.device) == ((2, 3), pt.int16, "cpu")


# ---------------------------------------------------------------------------
# CUDA (skipped without a GPU)
# ---------------------------------------------------------------------------

def needs_gpu():
    if not pt.cuda_available():
        pytest.skip("no GPU")


@needs_kernels
def test_cuda_arrays(rng):
    needs_gpu()
    a = rand(rng, (3, 5), "f32")
    x = pt.asarray(a, device="cuda:0")
    assert x.device == "cuda:0" and x.dtype == pt.float32
    y = x * 2 + x
    assert isinstance(y, pt.Array) and y.device == "cuda:0"
    h = y.to_device("cpu")
    assert h.device == "cpu"
    assert_matches(np.asarray(h), a * 3, "f32", rtol=1e-6)
    with pytest.raises(pt.DeviceError):
        np.asarray(y)
    z = x[:, ::-1]  # torch has no negative strides: flipped
    np.testing.assert_array_equal(np.asarray(z.to_device("cpu")), a[:, ::-1])
    w = pt.zeros((2, 3), device="cuda:0")
    w[:, ::-1] = pt.asarray(np.arange(3.0), device="cuda:0")
    np.testing.assert_array_equal(np.asarray(w.to_device("cpu")),
                                  np.tile(np.arange(3.0)[::-1], (2, 1)))
    assert pt.arange(4, device="cuda:0").device == "cuda:0"
    np.testing.assert_array_equal(
        np.asarray(pt.linspace(0, 1, 4, endpoint=False, device="cuda:0").to_device("cpu")),
        np.linspace(0, 1, 4, endpoint=False))
