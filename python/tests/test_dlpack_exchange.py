"""Arrays read through DLPack's C exchange API (`__dlpack_c_exchange_api__`,
python/src/DLPackExchange.cpp): torch has it (tested on the GPU machine,
test_gpu.py); here a producer made with ctypes stands in for a framework."""

import ctypes

import numpy as np
import pytest

import ptensor as pt
from ptensor import _core


class Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", Device), ("ndim", ctypes.c_int32),
                ("dtype", DataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class Version(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


FROM_PY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(DLTensor))


class ExchangeAPI(ctypes.Structure):
    _fields_ = [("version", Version), ("prev_api", ctypes.c_void_p),
                ("managed_tensor_allocator", ctypes.c_void_p),
                ("managed_tensor_from_py_object_no_sync", ctypes.c_void_p),
                ("managed_tensor_to_py_object_no_sync", ctypes.c_void_p),
                ("dltensor_from_py_object_no_sync", FROM_PY),
                ("current_work_stream", ctypes.c_void_p)]


_CODES = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}


@FROM_PY
def _dltensor_from_py_object(address, out):
    t = ctypes.cast(address, ctypes.py_object).value
    if t.fail:  # ctypes cannot leave a Python exception set: none is
        return -1
    a = t.base
    d = out.contents
    d.data = a.ctypes.data - t.byte_offset
    d.byte_offset = t.byte_offset
    d.device = Device(t.device_type, 0)
    d.ndim = a.ndim
    d.dtype = DataType(_CODES[a.dtype.kind], a.dtype.itemsize * 8, 1)
    d.shape = t.shape
    d.strides = t.strides
    return 0


def _api(major):
    api = ExchangeAPI()
    api.version = Version(major, 3)
    api.dltensor_from_py_object_no_sync = _dltensor_from_py_object
    api.managed_tensor_to_py_object_no_sync = 1  # present; never called for this framework
    return api


_API = _api(1)
_FUTURE_API = _api(2)  # a major version ptensor does not know, with no older table
#: The capsule keeps a pointer to its name, not a copy.
_NAME = ctypes.create_string_buffer(b"dlpack_exchange_api")
_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]


class Producer:
    """A tensor of a framework with a C exchange table over numpy array
    `base` (strides given, or null for a compact array)."""

    __dlpack_c_exchange_api__ = _new_capsule(ctypes.addressof(_API), ctypes.addressof(_NAME), None)

    def __init__(self, base, null_strides=False, byte_offset=0, device_type=1, fail=False):
        self.base = base
        self.byte_offset = byte_offset
        self.device_type = device_type
        self.fail = fail
        self._shape = (ctypes.c_int64 * max(base.ndim, 1))(*base.shape)
        self.shape = ctypes.cast(self._shape, ctypes.POINTER(ctypes.c_int64))
        if null_strides:
            assert base.flags.c_contiguous
            self.strides = ctypes.POINTER(ctypes.c_int64)()
        else:
            self._strides = (ctypes.c_int64 * max(base.ndim, 1))(
                *[s // base.itemsize for s in base.strides])
            self.strides = ctypes.cast(self._strides, ctypes.POINTER(ctypes.c_int64))

    def __dlpack__(self, **kwargs):  # the Python protocol, for the comparison
        return self.base.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.base.__dlpack_device__()


class FutureProducer(Producer):
    __dlpack_c_exchange_api__ = _new_capsule(ctypes.addressof(_FUTURE_API),
                                             ctypes.addressof(_NAME), None)


def test_the_table_is_found_by_type():
    x = Producer(np.ones(3, np.float32))
    assert _core.has_dlpack_exchange(x)
    assert _core.has_dlpack_exchange(Producer)
    assert not _core.has_dlpack_exchange(FutureProducer)
    assert not _core.has_dlpack_exchange(np.ones(3))


@pytest.mark.parametrize("null_strides", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.uint8, np.float64])
def test_compact_tensors(dtype, null_strides):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((4, 5)) * 20).astype(dtype)
    y = (rng.standard_normal((4, 5)) * 20).astype(dtype)
    r = pt.add(Producer(x, null_strides), Producer(y, null_strides))
    assert isinstance(r, np.ndarray)
    np.testing.assert_array_equal(r, x + y)


def test_strided_and_offset_tensors():
    base = np.arange(60, dtype=np.float32).reshape(6, 10)
    view = base[1:5, 2::3]  # element 0 is 12 elements past the buffer
    x = Producer(view, byte_offset=48)
    np.testing.assert_array_equal(pt.multiply(x, 2.0), view * 2)
    np.testing.assert_array_equal(pt.add(x, Producer(view.T.copy().T)), view + view)


def test_same_results_as_the_python_protocol():
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(2, 3, 4)[:, ::2]
    fast = pt.tanh(Producer(x))
    old = _core.set_dlpack_exchange(False)
    try:
        slow = pt.tanh(Producer(x))  # through __dlpack__
    finally:
        _core.set_dlpack_exchange(old)
    np.testing.assert_array_equal(fast, slow)
    np.testing.assert_allclose(fast, np.tanh(x), rtol=1e-6)


def test_bool_tensors_and_where():
    c = np.array([True, False, True])
    r = pt.where(Producer(c), 1.0, Producer(np.array([5.0, 6.0, 7.0])))
    np.testing.assert_array_equal(r, [1.0, 6.0, 1.0])


def test_unsupported_dtype_and_device_are_named():
    with pytest.raises(pt.DTypeError, match=r"DLPack dtype \(code 5, 128 bits, 1 lanes\)"):
        pt.negative(Producer(np.ones(2, np.complex128)))
    with pytest.raises(pt.DeviceError, match="DLPack device type 4 is not supported"):
        pt.negative(Producer(np.ones(2, np.float32), device_type=4))


def test_a_failing_export_is_an_error_not_a_crash():
    with pytest.raises(RuntimeError, match="dltensor_from_py_object_no_sync failed for a "
                       "test_dlpack_exchange.Producer without saying why"):
        pt.negative(Producer(np.ones(2, np.float32), fail=True))
    np.testing.assert_array_equal(pt.negative(Producer(np.ones(2, np.float32))), [-1, -1])
