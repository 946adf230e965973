"""Host execution: the caching host allocator (results reuse freed blocks,
counted by allocator_stats("cpu")), failed host allocations as exceptions,
and parallel code giving the serial answer."""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import ptensor as pt

CREATE = """
func.func @big(%n: index) -> !ptensor.ptensor<?xf32> {
  %z = arith.constant 0.0 : f32
  %r = ptensor.create (%n) fill %z : f32 -> !ptensor.ptensor<?xf32>
  return %r : !ptensor.ptensor<?xf32>
}
"""


def test_results_reuse_freed_blocks():
    x = pt.asarray(np.linspace(-5, 5, 300_000, dtype=np.float32))
    for _ in range(3):
        y = pt.exp(x)
    del y
    before = pt.allocator_stats("cpu")
    for _ in range(20):
        y = pt.exp(x)
        del y
    after = pt.allocator_stats("cpu")
    # Every result of the loop came from the cache: no new block.
    assert after["reuse_count"] - before["reuse_count"] == 20
    assert after["alloc_count"] == before["alloc_count"]
    np.testing.assert_allclose(np.asarray(pt.exp(x)), np.exp(np.linspace(-5, 5, 300_000, dtype=np.float32)),
                               rtol=4e-7)


def test_host_stats_accept_cpu_and_host_device():
    assert pt.allocator_stats("cpu") == pt.allocator_stats(-1)
    assert set(pt.allocator_stats("cpu")) == {"bytes_in_use", "bytes_cached", "peak_bytes_in_use",
                                              "alloc_count", "reuse_count"}


def test_failed_host_allocation_raises():
    lib = pt.compile_module(CREATE)
    with pytest.raises(pt.OutOfMemoryError, match=r"out of memory allocating 43980465111[0-9]{2} bytes "
                                                  r"on the host \(free \d+ bytes of \d+\)"):
        lib["big"](2**40)
    # The process goes on: a small one works.
    np.testing.assert_array_equal(np.asarray(lib["big"](5)), np.zeros(5, np.float32))


FAULTS = """
import numpy as np, ptensor as pt
x = np.linspace(-3, 3, 5000, dtype=np.float32)
for i in range(6):
    try:
        r = np.asarray(pt.exp(x) * 2)
        np.testing.assert_allclose(r, np.exp(x) * 2, rtol=1e-6)
        print(i, "ok")
    except pt.OutOfMemoryError as e:
        print(i, "OutOfMemoryError", e)
"""


def test_injected_host_allocation_failure_is_reported_and_the_next_call_works():
    """PTENSOR_RT_FAULT=host-alloc:N fails the N-th buffer compiled host code
    asks for: that call raises OutOfMemoryError naming the injected fault;
    every other call gives numpy's result (the runtime and its allocator
    cache are intact after the jump out of the compiled code)."""
    env = dict(os.environ, PTENSOR_RT_FAULT="host-alloc:3")
    out = subprocess.run([sys.executable, "-c", FAULTS], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    failed = [l for l in lines if "OutOfMemoryError" in l]
    assert len(failed) == 1, out.stdout
    assert "injected fault: host-alloc #3 (host allocation) fails (PTENSOR_RT_FAULT=host-alloc:3)" \
        in failed[0]
    assert sum(l.endswith(" ok") for l in lines) == 5, out.stdout


SIZED = """
func.func @grid(%n: index, %m: index) -> !ptensor.ptensor<?x?xf32> {
  %v = arith.constant 2.0 : f32
  %t = ptensor.create (%n, %m) fill %v : f32 -> !ptensor.ptensor<?x?xf32>
  return %t : !ptensor.ptensor<?x?xf32>
}
func.func @regrid(%a: !ptensor.ptensor<?xf32>, %n: index, %m: index) -> !ptensor.ptensor<?x?xf32> {
  %t = ptensor.reshape %a [%n, %m] : !ptensor.ptensor<?xf32> -> !ptensor.ptensor<?x?xf32>
  return %t : !ptensor.ptensor<?x?xf32>
}
"""


@pytest.mark.parametrize("n, m, dim", [(-3, 2, 0), (2, -3, 1), (-3, -2, 0)])
def test_negative_run_time_sizes_raise(n, m, dim):
    """A negative size given at run time is a CheckError naming it and the
    shape; before, (-3, -2) made a 6-element buffer and reached numpy as a
    (-3, -2) array. reshape's element count (6 = -3 * -2) is checked too."""
    lib = pt.compile_module(SIZED)
    bad = n if dim == 0 else m
    with pytest.raises(pt.CheckError, match=r"create: invalid size %d at dimension %d of shape \[%d, %d\]"
                       % (bad, dim, n, m)):
        lib["grid"](n, m)
    with pytest.raises(pt.CheckError, match=r"reshape: invalid size %d at dimension %d" % (bad, dim)):
        lib["regrid"](np.arange(abs(n * m), dtype=np.float32), n, m)
    np.testing.assert_array_equal(np.asarray(lib["grid"](2, 3)), np.full((2, 3), 2, np.float32))


PARALLEL = """
import numpy as np, ptensor as pt
r = np.random.default_rng(5)
x = r.standard_normal((700, 1500)).astype(np.float32)
ax = pt.asarray(x)
out = [pt.exp(ax) * 2 - ax, pt.sum(ax, axis=1), pt.max(ax, axis=0), pt.mean(ax)]
np.savez(%r, *[np.asarray(o) for o in out])
"""


def test_one_and_several_threads_agree(tmp_path):
    results = {}
    for threads in ("1", "2", "3"):
        path = str(tmp_path / ("t%s.npz" % threads))
        env = dict(os.environ, PTENSOR_NUM_THREADS=threads)
        subprocess.run([sys.executable, "-c", PARALLEL % path], env=env, check=True)
        results[threads] = np.load(path)
    for threads in ("2", "3"):
        for key in results["1"].files:
            np.testing.assert_array_equal(results[threads][key], results["1"][key])


STALE_RUNTIME = """
import ctypes, os, sys
ctypes.CDLL(sys.argv[1], mode=os.RTLD_GLOBAL)
import ptensor as pt
from ptensor import _runtime
try:
    _runtime.runtime()
except pt.RuntimeUnavailableError as e:
    print("refused:", e)
else:
    print("loaded:", _runtime.runtime())
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler (cc)")
def test_a_stale_runtime_already_loaded_is_named_not_doubled(tmp_path):
    """Another version of libptensor_runtime.so in the process (loaded first,
    by some other code) is an error naming it, never the reason to load a
    second runtime beside it."""
    src = tmp_path / "stale.c"
    src.write_text("int ptensor_rt_version_of_an_old_build(void) { return 1; }\n")
    stale = tmp_path / "libptensor_runtime.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-Wl,-soname,libptensor_runtime.so", "-o",
                    str(stale), str(src)], check=True)
    out = subprocess.run([sys.executable, "-c", STALE_RUNTIME, str(stale)],
                         capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(pt.__file__))).stdout
    assert out.startswith("refused:"), out
    assert str(stale) in out and "another version" in out and "lacks" in out, out
