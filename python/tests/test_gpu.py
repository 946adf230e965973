"""GPU: torch and CuPy CUDA arrays in and out without copies, compared with
numpy. Skipped without a CUDA device, the runtime library, or torch/CuPy.

The kernels come from PTENSOR_CACHE_DIR where there is no compiler: fill it
with `python python/tests/gpu_cases.py` on a machine that has one.
"""

import gc

import numpy as np
import pytest

import ptensor as pt
from conftest import assert_matches

try:
    import torch
except ImportError:
    torch = None
try:
    import cupy
except ImportError:
    cupy = None

import gpu_cases as G

HAVE_GPU = pt.cuda_available()
needs_torch = pytest.mark.skipif(not (HAVE_GPU and torch is not None and
                                      torch.cuda.is_available()),
                                 reason="needs a CUDA device, libptensor_runtime.so and torch")
needs_cupy = pytest.mark.skipif(not (HAVE_GPU and cupy is not None),
                                reason="needs a CUDA device, libptensor_runtime.so and CuPy")


def _check(xp, case):
    for result, expected, dt, *signed_zeros in case(xp):
        assert_matches(xp.numpy(result), expected, dt, signed_zeros=bool(signed_zeros))


@needs_torch
@pytest.mark.parametrize("case", G.FUNCTIONAL_CASES, ids=lambda c: c.__name__)
def test_torch_cases(case):
    _check(G.TorchGPU(), case)


@needs_torch
@pytest.mark.parametrize("case", G.OUT_CASES, ids=lambda c: c.__name__)
def test_torch_out_cases(case):
    _check(G.TorchGPU(), case)


@needs_cupy
@pytest.mark.parametrize("case", [G.case_binary_broadcast, G.case_pointwise, G.case_sorting],
                         ids=lambda c: c.__name__)
def test_cupy_cases(case):
    _check(G.CupyGPU(), case)


@needs_torch
def test_results_are_torch_cuda_tensors_without_copies():
    xp = G.TorchGPU()
    a, _ = xp.rand((64, 33), "f32")
    b, _ = xp.rand((33,), "f32")
    r = pt.add(a, b)
    assert isinstance(r, torch.Tensor) and r.device.type == "cuda"
    assert r.shape == (64, 33) and r.dtype == torch.float32
    assert torch.equal(r, a + b)  # the same f32 additions
    assert torch.equal(r * 2, (a + b) * 2)  # torch computes on it in place


@needs_torch
def test_result_memory_is_released(exchange):
    xp = G.TorchGPU()
    a, _ = xp.rand((64, 33), "f32")
    b, _ = xp.rand((33,), "f32")
    pt.add(a, b)  # warm up (module load, first allocation)
    gc.collect()
    before = pt.allocator_stats(0)["bytes_in_use"]
    r = pt.add(a, b)
    assert pt.allocator_stats(0)["bytes_in_use"] > before
    del r
    gc.collect()
    assert pt.allocator_stats(0)["bytes_in_use"] == before


@needs_torch
def test_torch_has_a_dlpack_c_exchange_table():
    """torch >= 2.10 publishes DLPack's C exchange table: tensors are read
    and results made through it (python/src/DLPackExchange.cpp)."""
    version = tuple(int(p) for p in torch.__version__.split(".")[:2])
    if version < (2, 10):
        pytest.skip("torch %s predates the DLPack C exchange API" % torch.__version__)
    from ptensor import _core

    assert _core.has_dlpack_exchange(torch.Tensor)


@pytest.fixture(params=[True, False], ids=["exchange", "attributes"])
def exchange(request):
    """Both ways of reading torch tensors: the C exchange table and the
    attribute lookups used where torch has no table."""
    from ptensor import _core

    old = _core.set_dlpack_exchange(request.param)
    yield request.param
    _core.set_dlpack_exchange(old)


@needs_torch
@pytest.mark.parametrize("case", [G.case_binary_broadcast, G.case_unary_transposed,
                                  G.case_flip_instantiate, G.case_mixed_dtypes],
                         ids=lambda c: c.__name__)
def test_torch_cases_both_ways(case, exchange):
    _check(G.TorchGPU(), case)


@needs_torch
def test_work_on_torchs_current_stream_is_waited_for(exchange):
    """Inputs written on a non-default torch stream, read by compiled code
    (CUDA's legacy default stream) while that stream is current: ptensor
    waits for it (the table's current_work_stream, or torch's raw stream)."""
    a = torch.zeros(1 << 22, device="cuda")
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.cuda._sleep(200_000_000)  # ~0.1 s of GPU time before the fill
        a.fill_(3.0)
        r = pt.add(a, a)
    torch.cuda.synchronize()
    assert torch.equal(r, torch.full_like(a, 6.0))


@needs_torch
def test_torch_results_outlive_their_inputs(exchange):
    """A result that views an operand (a reshape) keeps it alive; owned
    results free their memory (test_result_memory_is_released)."""
    a = torch.arange(12, dtype=torch.float32, device="cuda")
    v = pt.reshape(a, (3, 4))
    del a
    gc.collect()
    assert torch.equal(v, torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4))
    # (the kernel of test_torch_cpu_tensors_give_torch_tensors)
    h = pt.add(torch.arange(12, dtype=torch.float32), torch.ones(12))
    assert h.device.type == "cpu" and torch.equal(h, torch.arange(1, 13, dtype=torch.float32))
    # A host bfloat16 result is a torch bfloat16 tensor (numpy's are viewed
    # as ml_dtypes'); the kernel of test_ops.py's half-precision multiply.
    b = torch.linspace(-2, 2, 12, dtype=torch.bfloat16)
    m = pt.multiply(b, b)
    assert m.dtype == torch.bfloat16 and m.device.type == "cpu"
    assert torch.equal(m, b * b)


_TORCH_MEMORY_CHILD = """
import torch, ptensor as pt
from ptensor import _core
a = torch.arange(4096, dtype=torch.float32, device="cuda")
torch.cuda.synchronize()
before = torch.cuda.memory_allocated()
r = pt.add(a, a)
torch.cuda.synchronize()
held = torch.cuda.memory_allocated() - before
print("memory", _core.device_memory())
print("held", held)
print("correct", bool(torch.equal(r, a + a)))
del r
r = pt.add(a, a)  # the cached block again: nothing new from torch
torch.cuda.synchronize()
print("again", torch.cuda.memory_allocated() - before)
del r
pt.empty_cache()
print("after empty_cache", torch.cuda.memory_allocated() - before)
print("allocs", pt.allocator_stats(0)["alloc_count"])
print("reuses", pt.allocator_stats(0)["reuse_count"])
"""


@needs_torch
def test_device_memory_comes_from_torch():
    """With torch in use the runtime's device blocks come from torch's
    caching allocator (no cuMemAlloc of its own on the first call): torch
    counts ptensor's result block, the cached block is reused, and
    empty_cache gives it back to torch. In a fresh process: the memory
    source is chosen on the process's first GPU call."""
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    env.pop("PTENSOR_DEVICE_MEMORY", None)
    out = subprocess.run([sys.executable, "-c", _TORCH_MEMORY_CHILD],
                         env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = dict(line.rsplit(" ", 1) for line in out.stdout.splitlines())
    assert lines["memory"] == "torch", out.stdout
    assert int(lines["held"]) >= 4096 * 4, out.stdout
    assert lines["correct"] == "True", out.stdout
    assert lines["again"] == lines["held"], out.stdout
    assert int(lines["after empty_cache"]) == 0, out.stdout
    assert (lines["allocs"], lines["reuses"]) == ("1", "1"), out.stdout


_FAULT_CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
import torch, ptensor as pt, gpu_cases as G
fill = pt.compile_module(G.FILL_IR, target="cuda")["fill"]
for i in range(3):
    try:
        r = fill(1000)
        torch.cuda.synchronize()
        print(i, "ok" if tuple(r.shape) == (1000,) and bool((r == 1).all()) else "wrong")
    except pt.PTensorError as e:
        print(i, type(e).__name__, e)
"""


@needs_torch
@pytest.mark.parametrize("fault, cls, message, failures", [
    ("device-alloc:2", "OutOfMemoryError", "injected fault: device-alloc #2 (device allocation)", 1),
    ("launch:1", "ExecutionError", "injected fault: launch #1 (kernel launch)", 1),
    ("module-load:1", "ExecutionError", "the GPU kernels of this code were not loaded when it was "
                                        "loaded: injected fault: module-load #1", 3),
])
def test_injected_faults_on_the_gpu(fault, cls, message, failures):
    """PTENSOR_RT_FAULT on a real GPU: the failing call raises, the others
    give right results (a failed module load is kept and raised by every
    call of that library); the process goes on."""
    import os
    import subprocess
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([sys.executable, "-c", _FAULT_CHILD, here],
                         env=dict(os.environ, PTENSOR_RT_FAULT=fault), capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 3, out.stdout + out.stderr
    failing = [l for l in lines if not l.endswith(" ok")]
    assert len(failing) == failures, out.stdout
    for line in failing:
        assert cls in line and message in line, line


@needs_torch
def test_device_out_of_memory_is_an_exception():
    """A device allocation the GPU cannot hold raises (the runtime leaves the
    compiled code through the call's trap); the process and the GPU go on."""
    fill = pt.compile_module(G.FILL_IR, target="cuda")["fill"]
    with pytest.raises(pt.OutOfMemoryError, match="out of memory allocating 4398046511104 bytes"):
        fill(2 ** 40)
    with pytest.raises(pt.CheckError, match=r"create: invalid size -3 at dimension 0 of shape \[-3\]"):
        fill(-3)
    r = fill(1000)
    assert tuple(r.shape) == (1000,)
    if isinstance(r, torch.Tensor):
        assert bool((r == 1).all())


@needs_torch
def test_device_mismatch_is_an_error():
    a = torch.ones(4, device="cuda")
    with pytest.raises(pt.DeviceError, match='operands must be on the same device, but got '
                       '"cuda:0" and host'):
        pt.add(a, np.ones(4, np.float32))


@needs_torch
def test_to_device_keeps_0d_arrays_0d():
    for x in (np.float32(2.5)[()], np.arange(6, dtype=np.int32).reshape(2, 3).T):
        a = pt.asarray(np.asarray(x)).to_device("cuda:0")
        assert a.shape == np.shape(x) and str(a.device).startswith("cuda")
        np.testing.assert_array_equal(np.asarray(a.to_device("cpu")), x)


@needs_cupy
def test_cupy_results_are_cupy_arrays():
    xp = G.CupyGPU()
    a, _ = xp.rand((64, 33), "f32")
    b, _ = xp.rand((33,), "f32")
    r = pt.add(a, b)
    assert isinstance(r, cupy.ndarray) and r.shape == (64, 33)
    assert_matches(r.get(), a.get() + b.get(), "f32")


def test_cases_compile_for_cuda_here(tmp_path, monkeypatch):
    """The cache filler works where the compiler is (no GPU needed)."""
    if pt.find_compiler() is None:
        pytest.skip("no ptensor-compile")
    monkeypatch.setenv("PTENSOR_CACHE_DIR", str(tmp_path))
    assert G.precompile([G.case_where]) == []
    assert any(p.name.endswith(".so") for p in tmp_path.iterdir())


@pytest.mark.skipif(torch is None, reason="needs torch")
def test_torch_cpu_tensors_give_torch_tensors():
    # (the kernels of test_ops.py: the cache holds them on a GPU machine)
    a = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    r = pt.add(a, a)
    assert isinstance(r, torch.Tensor) and r.device.type == "cpu"
    assert torch.equal(r, 2 * a)
    e = pt.exp(a.t())
    assert e.stride() == (1, 4)  # follows the input's layout
    assert torch.allclose(e, torch.exp(a.t()))


@needs_torch
def test_torch_compaction():
    """nonzero, extract_mask and unique_* of torch CUDA tensors (compiled:
    CUB's count, select and scan) against numpy, results on the device."""
    x = np.array([[0.0, 1.5, 0.0], [np.nan, 0.0, -0.0]], np.float32)
    t = torch.from_numpy(x).cuda()
    rows, cols = pt.nonzero(t)
    assert rows.is_cuda and rows.dtype == torch.int64
    np.testing.assert_array_equal(rows.cpu().numpy(), np.nonzero(x)[0])
    np.testing.assert_array_equal(cols.cpu().numpy(), np.nonzero(x)[1])
    big = np.random.default_rng(0).integers(0, 1000, 1 << 20).astype(np.int64)
    r = pt.unique_all(torch.from_numpy(big).cuda())
    values, index, inverse, counts = np.unique(big, return_index=True,
                                               return_inverse=True, return_counts=True)
    for got, want in zip(r, (values, index, inverse, counts)):
        assert got.is_cuda
        np.testing.assert_array_equal(got.cpu().numpy(), want)
    mask = big % 3 == 0
    picked = pt.extract_mask(torch.from_numpy(big).cuda(), torch.from_numpy(mask).cuda())
    np.testing.assert_array_equal(picked.cpu().numpy(), big[mask])
    empty = pt.nonzero(torch.zeros(0, 4, device="cuda"))
    assert [e.numel() for e in empty] == [0, 0]


@needs_torch
def test_torch_views():
    """The view functions use the framework on CUDA arrays (_views.py),
    against numpy."""
    x = np.array([[0.0, 1.5, 0.0], [np.nan, 0.0, -0.0]], np.float32)
    t = torch.from_numpy(x).cuda()
    for got, want in [(pt.permute_dims(t, (1, 0)), x.T),
                      (pt.flip(t, axis=1), np.flip(x, 1)),
                      (pt.expand_dims(t, axis=0), x[None]),
                      (pt.squeeze(pt.expand_dims(t, axis=1), 1), x),
                      (pt.broadcast_to(t[0], (4, 3)), np.broadcast_to(x[0], (4, 3))),
                      (pt.moveaxis(t, 0, 1), np.moveaxis(x, 0, 1))]:
        assert got.is_cuda
        np.testing.assert_array_equal(got.cpu().numpy(), want)
    parts = pt.unstack(t, axis=1)
    assert len(parts) == 3
    np.testing.assert_array_equal(parts[2].cpu().numpy(), x[:, 2])
    with pytest.raises(ValueError, match="cannot squeeze dimension 0 of size 2"):
        pt.squeeze(t, 0)
