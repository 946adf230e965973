"""The meta step: promotion and broadcasting as in docs/Semantics.md (same
results and messages as the compiler), and how the C++ call path maps a
call onto a kernel (dimension reordering and coalescing, zero strides for
broadcasts, the output's order)."""

import re

import numpy as np
import pytest

import ptensor as pt
from ptensor import _dtypes as D
from ptensor import _arrays as A
from ptensor import _exec, _ir
from ptensor import BroadcastError, DeviceError, DTypeError

from conftest import needs_kernels


@pytest.mark.parametrize("a,b,want", [
    ("i8", "i32", "i32"), ("i1", "i8", "i8"), ("ui8", "ui32", "ui32"), ("f16", "f64", "f64"),
    ("bf16", "f32", "f32"), ("f16", "bf16", "f32"), ("ui8", "i8", "i16"),
    ("ui16", "i8", "i32"), ("ui16", "i16", "i32"), ("ui32", "i32", "i64"),
    ("ui8", "i32", "i32"), ("i64", "f16", "f16"), ("i1", "f32", "f32"),
])
def test_common_dtype_of_two_tensors(a, b, want):
    assert D.promote([(a, False), (b, False)]) == want
    assert D.promote([(b, False), (a, False)]) == want


def test_ui64_with_signed_is_an_error():
    with pytest.raises(DTypeError, match="cannot promote 'ui64' with signed 'i8': no integer "
                       r"type holds both \(cast one operand first\)"):
        D.promote([("ui64", False), ("i8", False)])


def test_float_tensor_decides_in_any_order():
    for order in [("f16", "ui64", "i8"), ("ui64", "i8", "f16"), ("i8", "f16", "ui64")]:
        assert D.promote([(d, False) for d in order]) == "f16"


@pytest.mark.parametrize("tensor,scalar,want", [
    ("i32", "f32", "f32"), ("i8", "f64", "f32"), ("i1", "f16", "f32"), ("i8", "i64", "i8"),
    ("ui8", "index", "ui8"), ("f16", "f64", "f16"), ("bf16", "i32", "bf16"),
    ("i1", "i32", "i64"), ("i1", "index", "i64"), ("i1", "i1", "i1"),
])
def test_weak_scalars(tensor, scalar, want):
    assert D.promote([(tensor, False), (scalar, True)]) == want


def test_all_scalars_is_an_error():
    with pytest.raises(DTypeError, match="expected at least one ptensor operand"):
        D.promote([("f64", True), ("i64", True)])


@pytest.mark.parametrize("method,common,want", [
    ("DEFAULT", "i8", "i8"), ("NO_OPMATH", "f16", "f16"), ("INT_TO_FLOAT", "i32", "f32"),
    ("INT_TO_FLOAT", "f16", "f16"), ("INT_TO_FLOAT", "i1", "f32"), ("ALWAYS_BOOL", "f32", "i1"),
    ("BOOL_TO_LONG", "i1", "i64"), ("BOOL_TO_LONG", "i8", "i8"),
])
def test_methods(method, common, want):
    assert D.apply_method(method, common) == want


def test_method_names():
    assert D.normalize_method("COMPLEX_TO_FLOAT") == "DEFAULT"
    assert D.normalize_method("int_to_float") == "INT_TO_FLOAT"
    with pytest.raises(ValueError, match="unknown promotion method 'INT_TO_LONG'"):
        D.normalize_method("INT_TO_LONG")


@pytest.mark.parametrize("shapes,want", [
    ([(4, 1), (5,)], (4, 5)), ([(3,), (2, 1, 1)], (2, 1, 3)), ([(), (4, 7)], (4, 7)),
    ([(0,), (1,)], (0,)),
])
def test_broadcast(shapes, want):
    assert D.broadcast_shapes(shapes) == want


def test_broadcast_error_message():
    with pytest.raises(BroadcastError) as e:
        D.broadcast_shapes([(2, 3), (4,)])
    assert str(e.value) == ("cannot broadcast shapes [2, 3] and [4]: sizes 3 and 4 of "
                            "dimension -1 (right-aligned) differ and neither is 1")


def test_dtype_maps():
    for dt in D.DTYPES:
        assert D.from_numpy(D.to_numpy(dt)) == dt
        assert D.canonical(D.to_numpy(dt)) == dt
    assert D.canonical(float) == "f64" and D.canonical(int) == "i64"
    assert D.canonical(bool) == "i1" and D.canonical("float16") == "f16"
    with pytest.raises(DTypeError, match="not supported"):
        D.from_numpy(np.complex64)


@pytest.fixture
def kernel_irs(monkeypatch):
    """The IR of every kernel the calls of a test compile (the op tables
    are emptied first, so each call's kernel is built): how the C++ call
    path mapped the call onto a kernel (its rank)."""
    seen = []
    real = _ir.kernel_function

    def spy(ir, name, device, gpu_options=""):
        seen.append(ir)
        return real(ir, name, device, gpu_options)

    _exec.clear_kernel_tables()
    monkeypatch.setattr(_ir, "kernel_function", spy)
    yield seen
    _exec.clear_kernel_tables()


def _ranks(irs):
    """The ranks of the first parameter of each kernel."""
    out = []
    for ir in irs:
        m = re.search(r"%a0: !ptensor\.ptensor<([^>]*)>", ir)
        out.append(m.group(1).split(",")[0].count("x"))
    return out


@needs_kernels
def test_contiguous_operands_coalesce_to_rank_1(kernel_irs):
    a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    np.testing.assert_array_equal(pt.add(a, a), a + a)
    b = np.ones((7, 2), np.float32)
    np.testing.assert_array_equal(pt.add(b, b), b + b)  # same kernel: no new compile
    assert _ranks(kernel_irs) == [1]


@needs_kernels
def test_broadcast_operand_gets_zero_strides(kernel_irs):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(pt.add(a, b), a + b)
    assert _ranks(kernel_irs) == [2]


@needs_kernels
def test_transposed_operands_are_reordered_and_coalesced(kernel_irs):
    a = np.arange(24, dtype=np.float32).reshape(4, 6).T  # F-contiguous (6, 4)
    r = pt.add(a, a)
    np.testing.assert_array_equal(r, a + a)
    assert r.shape == (6, 4) and r.flags.f_contiguous  # the inputs' order
    assert _ranks(kernel_irs) == [1]


@needs_kernels
def test_conflicting_orders_keep_row_major(kernel_irs):
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    b = np.arange(24, dtype=np.float32).reshape(6, 4).T
    r = pt.add(a, b)
    np.testing.assert_array_equal(r, a + b)
    assert r.flags.c_contiguous and _ranks(kernel_irs) == [2]


@needs_kernels
def test_negative_strides_pass_through():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)[::-1, ::-1]
    np.testing.assert_array_equal(pt.add(a, 1.0), a + 1)
    r = pt.multiply(a, 2.0, out=a)  # written through its negative strides
    assert r is a


def test_out_shape_must_match():
    a = np.zeros((3, 4), np.float32)
    with pytest.raises(BroadcastError, match=r"out= operand #0 has shape \[4\], but the "
                       r"broadcast shape of the inputs is \[3, 4\]"):
        pt.add(a, a, out=np.zeros(4, np.float32))


def test_device_mismatch_message():
    host = np.zeros(1, np.float32)
    gpu = A.Tensor("f32", "cuda:0", 1 << 40, (1,), (1,), "torch", None)
    with pytest.raises(DeviceError, match='operands must be on the same device, but got '
                       'host and "cuda:0"'):
        pt.add(host, gpu)


def test_scalars_are_weak_and_canonical():
    assert A.scalar_arg(2.5) == ("f64", 2.5)
    assert A.scalar_arg(np.float16(1.5)) == ("f64", 1.5)
    assert A.scalar_arg(3) == ("i64", 3)
    assert A.scalar_arg(np.uint8(7)) == ("i64", 7)
    assert A.scalar_arg(True) == ("i1", True)
    with pytest.raises(OverflowError):
        A.scalar_arg(2 ** 70)
    assert A.is_scalar(np.float32(1)) and not A.is_scalar(np.ones((), np.float32))
