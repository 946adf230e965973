"""The meta step in Python: promotion and broadcasting as in
docs/Semantics.md (same results and messages as the compiler), and the
iterator's dimension reordering and coalescing. No compiler needed."""

import numpy as np
import pytest

from ptensor import _dtypes as D
from ptensor import _arrays as A
from ptensor._iterator import Plan, common_device
from ptensor import BroadcastError, DeviceError, DTypeError


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


def _t(a):
    return A.as_tensor(a)


def test_contiguous_operands_coalesce_to_rank_1():
    a = np.zeros((3, 4, 5), np.float32)
    p = Plan([_t(a), _t(a)], [None])
    assert p.rank == 1 and p.task_shape == [60]
    assert p.input(0).strides == (1,)


def test_broadcast_operand_gets_zero_strides():
    a = np.zeros((3, 4), np.float32)
    b = np.zeros((4,), np.float32)
    p = Plan([_t(a), _t(b)], [None])
    assert p.shape == (3, 4) and p.task_shape == [3, 4]
    assert p.input(1).strides == (0, 1)


def test_transposed_operands_are_reordered_and_coalesced():
    a = np.zeros((4, 6), np.float32).T  # F-contiguous (6, 4)
    p = Plan([_t(a), _t(a)], [None])
    assert p.perm == [1, 0] and p.task_shape == [24]
    r = p.restore(np.arange(24, dtype=np.float32))
    assert r.shape == (6, 4) and r.flags.f_contiguous  # output follows the inputs' order


def test_conflicting_orders_keep_row_major():
    a = np.zeros((4, 6), np.float32)
    b = np.zeros((6, 4), np.float32).T
    p = Plan([_t(a), _t(b)], [None])
    assert p.perm == [0, 1] and p.task_shape == [4, 6]


def test_negative_strides_pass_through():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)[::-1]
    t = _t(a)
    assert t.strides == (-4, 1)
    base, off = t.base_and_offset()
    assert off == 8 and base == a.__array_interface__["data"][0] - 8 * 4


def test_out_shape_must_match():
    a = np.zeros((3, 4), np.float32)
    with pytest.raises(BroadcastError, match=r"out= operand #0 has shape \[4\], but the "
                       r"broadcast shape of the inputs is \[3, 4\]"):
        Plan([_t(a)], [_t(np.zeros(4, np.float32))])


def test_device_mismatch_message():
    host = A.Tensor("f32", "", 0, (1,), (1,), "numpy", None)
    gpu = A.Tensor("f32", "cuda:0", 0, (1,), (1,), "torch", None)
    with pytest.raises(DeviceError, match='operands must be on the same device, but got '
                       'host and "cuda:0"'):
        common_device([host, gpu])


def test_scalars_are_weak_and_canonical():
    assert A.scalar_arg(2.5) == ("f64", 2.5)
    assert A.scalar_arg(np.float16(1.5)) == ("f64", 1.5)
    assert A.scalar_arg(3) == ("i64", 3)
    assert A.scalar_arg(np.uint8(7)) == ("i64", 7)
    assert A.scalar_arg(True) == ("i1", True)
    with pytest.raises(OverflowError):
        A.scalar_arg(2 ** 70)
    assert A.is_scalar(np.float32(1)) and not A.is_scalar(np.ones((), np.float32))
