"""The compiler in process: the on-disk cache (machine-independent keys,
atomic writes, loading without a compiler), compiler errors as exceptions,
and calling a hand-written module through the library ABI."""

import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import ptensor as pt
from ptensor import _compiler, _core
from conftest import HAVE_COMPILER, assert_matches, rand

needs_compiler = pytest.mark.skipif(not HAVE_COMPILER, reason="no compiler")

MODULE = textwrap.dedent("""\
    func.func @axpy(%x: !ptensor.ptensor<?xf32>, %y: !ptensor.ptensor<?xf32>, %a: f32) -> !ptensor.ptensor<?xf32> {
      %r = ptensor.pointwise (%x, %y, %a) promotion [DEFAULT] : (!ptensor.ptensor<?xf32>, !ptensor.ptensor<?xf32>, f32) -> (!ptensor.ptensor<?xf32>) {
      ^bb0(%p: f32, %q: f32, %s: f32):
        %m = arith.mulf %p, %s : f32
        %t = arith.addf %m, %q : f32
        ptensor.yield %t : f32
      }
      return %r : !ptensor.ptensor<?xf32>
    }
    func.func @split(%x: !ptensor.ptensor<4x?xi32>) -> (!ptensor.ptensor<4x?xi32>, !ptensor.ptensor<4x?xi1>) {
      %n = ptensor.elementwise_unary negative %x : (!ptensor.ptensor<4x?xi32>) -> !ptensor.ptensor<4x?xi32>
      %c = ptensor.elementwise_binary_test less %x, %n : (!ptensor.ptensor<4x?xi32>, !ptensor.ptensor<4x?xi32>) -> !ptensor.ptensor<4x?xi1>
      return %n, %c : !ptensor.ptensor<4x?xi32>, !ptensor.ptensor<4x?xi1>
    }
    """)


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty cache directory and empty in-memory caches."""
    monkeypatch.setenv("PTENSOR_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_compiler, "_loaded", {})
    from ptensor import _exec
    _exec.clear_kernel_tables()
    yield tmp_path
    _exec.clear_kernel_tables()


@needs_compiler
def test_compile_module_carries_its_llvm():
    """ptensor._compile built with PTENSOR_STATIC_COMPILERS (the
    default) loads no shared libLLVM or libMLIR: a fresh process that
    imports it and compiles maps neither."""
    from ptensor import _compile
    if not _compile.static_llvm:
        pytest.skip("ptensor._compile links the shared LLVM/MLIR")
    script = textwrap.dedent("""\
        import numpy as np, ptensor as pt
        from ptensor import _compile
        x = np.arange(5, dtype=np.float32)
        assert (pt.add(x, x) == 2 * x).all()
        maps = open("/proc/self/maps").read()
        print(sorted({line.split("/")[-1] for line in maps.splitlines()
                      if "libLLVM" in line or "libMLIR" in line}))
        """)
    env = dict(os.environ, PTENSOR_DISABLE_CACHE="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == "[]", out


def test_cache_key_is_machine_independent(monkeypatch):
    k = _compiler.cache_key("ir", "cpu")
    monkeypatch.setenv("PTENSOR_NO_COMPILER", "1")
    assert _compiler.cache_key("ir", "cpu") == k  # no compiler version in it
    assert _compiler.cache_key("ir", "cuda") != k
    assert _compiler.cache_key("ir2", "cpu") != k
    monkeypatch.setenv("PTENSOR_CUDA_CHIP", "sm_80")
    assert _compiler.cache_key("ir", "cuda", "sm_80") != _compiler.cache_key("ir", "cuda",
                                                                           "sm_90")
    assert _compiler.cache_key("ir", "cpu") == k  # the chip matters for cuda only


def test_no_compiler_and_no_cache_is_a_clear_error(fresh_cache, monkeypatch):
    monkeypatch.setenv("PTENSOR_NO_COMPILER", "1")
    assert pt.find_compiler() is None
    with pytest.raises(pt.CompileError, match="this ptensor has no compiler"):
        pt.add(np.ones(3, np.float32), 1.0)


def _exp_in_a_fresh_process(values, cache, compiler=True):
    """pt.exp of float32 `values` in a new process on the cache directory
    `cache` (without a compiler at all, like the GPU machine, unless
    `compiler`): the finished process (its stdout: the result's list)."""
    env = dict(os.environ, PTENSOR_CACHE_DIR=str(cache))
    if not compiler:
        env["PTENSOR_NO_COMPILER"] = "1"
    code = ("import numpy as np, ptensor as pt; "
            "a = np.array(%r, np.float32); print(repr(pt.exp(a).tolist()))" % list(values))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, cwd=os.path.dirname(os.path.dirname(pt.__file__)))


@needs_compiler
def test_cache_entry_for_another_cpu(fresh_cache, rng):
    """An entry records the CPU features of the machine that compiled it; a
    CPU that lacks one of them rebuilds it where a compiler is and names
    what it lacks where none is, instead of running illegal instructions."""
    a = rand(rng, (5,), "f32")
    expected = pt.exp(a)
    (entry,) = [os.path.join(fresh_cache, f) for f in os.listdir(fresh_cache)
                if f.endswith(".so")]
    id_path = entry[:-len(".so")] + ".id"
    lines = open(id_path).read().splitlines()
    assert lines[-1] == " ".join(["cpu"] + list(_core.host_cpu_features()))
    # As if a CPU with an instruction set this one lacks had compiled it.
    with open(id_path, "w") as f:
        f.write("\n".join(lines[:-1] + [lines[-1] + " avx10.9-imaginary"]) + "\n")
    assert _core.cache_why_not_current(entry, "").endswith(
        "was compiled for a CPU with avx10.9-imaginary, which this CPU lacks")
    out = _exp_in_a_fresh_process(a.tolist(), fresh_cache, compiler=False)
    assert out.returncode != 0
    assert "has no usable kernel" in out.stderr and "avx10.9-imaginary" in out.stderr, out.stderr
    # With the compiler (a fresh process: not the in-memory library) it is rebuilt.
    out = _exp_in_a_fresh_process(a.tolist(), fresh_cache)
    assert out.returncode == 0, out.stderr
    assert eval(out.stdout) == expected.tolist()
    assert "avx10.9-imaginary" not in open(id_path).read()


@needs_compiler
@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86-64 CPU names")
def test_cache_entries_for_a_named_cpu(fresh_cache, rng, monkeypatch):
    """PTENSOR_HOST_CPU compiles host code for a named CPU (a fleet's, for a
    cache filled on a build machine): the key tells it from this CPU's
    entry, KEY.id records that CPU's features only, and the code runs here.
    An unknown name, or a CPU with features this one lacks (its code would
    be loaded here), is a CompileError naming it, and nothing is written."""
    a = rand(rng, (1000,), "f32")
    expected = np.exp(a)
    native = _compiler.cache_key("ir", "cpu")
    monkeypatch.setenv("PTENSOR_HOST_CPU", "x86-64-v2")
    assert _core.requested_host_cpu() == "x86-64-v2"
    assert _compiler.cache_key("ir", "cpu") != native
    assert_matches(pt.exp(a), expected, "f32")
    (entry,) = [f for f in os.listdir(fresh_cache) if f.endswith(".so")]
    lines = open(os.path.join(fresh_cache, entry[:-len(".so")] + ".id")).read().splitlines()
    # x86-64-v2: SSE3 to SSE4.2, POPCNT, CMPXCHG16B and LAHF/SAHF, no AVX.
    assert lines[-1] == "cpu sse3 ssse3 cx16 sse4.1 sse4.2 popcnt sahf"
    assert _core.cache_is_current(os.path.join(fresh_cache, entry), _compiler.compiler_build_id())
    from ptensor import _exec

    def forget_loaded_kernels():  # the variable is read when a kernel is compiled
        monkeypatch.setattr(_compiler, "_loaded", {})
        _exec.clear_kernel_tables()

    forget_loaded_kernels()
    monkeypatch.setenv("PTENSOR_HOST_CPU", "pentium-9000")
    with pytest.raises(pt.CompileError, match="unknown host CPU 'pentium-9000'"):
        pt.exp(a)
    # A CPU with features this one lacks (AMD's Excavator: XOP, FMA4, TBM,
    # which later CPUs dropped): its code is not loaded here.
    lacking = _core.missing_cpu_features(pt.find_compiler().host_code_cpu_features("bdver4"))
    if lacking:
        forget_loaded_kernels()
        monkeypatch.setenv("PTENSOR_HOST_CPU", "bdver4")
        with pytest.raises(pt.CompileError, match="PTENSOR_HOST_CPU=bdver4 names a CPU with "
                                                  + ", ".join(lacking) + ", which this CPU lacks"):
            pt.exp(a)
    assert len([f for f in os.listdir(fresh_cache) if f.endswith(".so")]) == 1
    assert not [f for f in os.listdir(fresh_cache) if f.endswith(".mlir") and
                not f.startswith(entry[:-len(".so")])]


@needs_compiler
def test_module_functions_through_the_abi(fresh_cache, rng):
    lib = pt.compile_module(MODULE)
    assert set(lib.functions) == {"axpy", "split"}
    assert lib.signature["target"] == "cpu"
    x, y = rand(rng, (9,), "f32"), rand(rng, (9,), "f32")
    assert_matches(lib["axpy"](x, y, 2.0), 2 * x + y, "f32", rtol=0, atol=0)
    v = rand(rng, (4, 3), "i32")
    n, c = lib.split(v)
    assert_matches(n, -v, "i32")
    assert_matches(c, v < -v, "i1")
    with pytest.raises(pt.BroadcastError, match=r"expected shape \[4, \?\], got \[3, 3\]"):
        lib.split(rand(rng, (3, 3), "i32"))
    with pytest.raises(pt.DTypeError, match="expected dtype f32, got f64"):
        lib.axpy(x.astype(np.float64), y, 1.0)
    with pytest.raises(TypeError, match="expected 3 arguments"):
        lib.axpy(x, y)


@needs_compiler
@pytest.mark.skipif(shutil.which("readelf") is None, reason="needs binutils' readelf")
def test_libraries_record_the_compiler_support_library(fresh_cache):
    # f64 -> f16 (a float16 sum, accumulated in f64) is a call of libgcc's
    # __truncdfhf2 on x86: the library must name libgcc_s as needed, or it
    # loads only in processes that happen to have loaded libgcc_s already.
    x = np.arange(6, dtype=np.float16)
    assert float(pt.sum(x)) == 15.0
    libraries = [os.path.join(fresh_cache, f) for f in os.listdir(fresh_cache)
                 if f.endswith(".so")]
    assert libraries
    needed = subprocess.run(["readelf", "-d"] + libraries, capture_output=True,
                            text=True, check=True).stdout
    assert "libgcc_s.so" in needed


@needs_compiler
def test_disk_cache_serves_a_machine_without_compiler(fresh_cache, rng):
    a = rand(rng, (5,), "f32")
    first = pt.exp(a)
    files = sorted(os.listdir(fresh_cache))
    assert any(f.endswith(".so") for f in files) and any(f.endswith(".mlir") for f in files)
    assert not any(f.startswith(".ptensor-") for f in files)  # no temporaries left
    # A new process with no compiler at all (like the GPU machine) loads it.
    out = _exp_in_a_fresh_process(a.tolist(), fresh_cache, compiler=False)
    assert out.returncode == 0, out.stderr
    assert eval(out.stdout) == first.tolist()


def test_cache_key_is_the_documented_sha256():
    """The one cache's key (ptensor/Cache/DiskCache.h) is SHA-256 of its
    NUL-separated parts; sources of every length around the 64-byte block
    and its 56-byte padding limit check the hash itself."""
    for n in list(range(0, 140)) + [1000, 4097]:
        source = "x" * n
        parts = ["ptensor-cache", _core.CACHE_FORMAT_VERSION, "shared-library", "cuda",
                 "sm_90", "", source]
        expected = hashlib.sha256("\0".join(parts).encode()).hexdigest()
        assert _core.cache_key("shared-library", "cuda", "sm_90", "", source) == expected, n


def test_cache_directory_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("PTENSOR_DISABLE_CACHE", raising=False)
    monkeypatch.setenv("PTENSOR_CACHE_DIR", str(tmp_path / "c"))
    assert _core.cache_directory() == str(tmp_path / "c")
    monkeypatch.delenv("PTENSOR_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _core.cache_directory() == str(tmp_path / "xdg" / "ptensor")
    monkeypatch.setenv("PTENSOR_DISABLE_CACHE", "1")
    assert _core.cache_directory() == ""


def test_cache_entry_lock_makes_another_process_wait(tmp_path):
    # Processes compiling one entry at once (an mpirun's ranks): the second
    # takes the entry's lock only once the first has written the entry and
    # released it, and then finds the entry.
    path = str(tmp_path / "d" / "k.so")
    lock = _core.CacheEntryLock(path)  # creates the directory and k.so.lock
    assert os.path.exists(path + ".lock")
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import os, sys; from ptensor import _core; "
         "_core.CacheEntryLock(sys.argv[1]); print(os.path.exists(sys.argv[1]))",
         path], stdout=subprocess.PIPE, text=True)
    time.sleep(0.5)  # the child reaches the lock meanwhile (or later)
    _core.cache_write(path, "code")
    lock.release()
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 0 and out.strip() == "True"


def test_cache_entries_are_current_for_their_build(tmp_path):
    path = _core.cache_entry_path(str(tmp_path / "d"), "k", "so")
    assert path == str(tmp_path / "d" / "k.so")
    assert not _core.cache_is_current(path, "")
    _core.cache_write(path, "code")  # creates the directory
    assert _core.cache_is_current(path, "")  # no compiler here: any build
    assert not _core.cache_is_current(path, "build 1")  # no .id yet
    _core.cache_record_build_id(path, "build 1")
    assert _core.cache_is_current(path, "build 1")
    assert not _core.cache_is_current(path, "build 2")
    assert sorted(os.listdir(tmp_path / "d")) == ["k.id", "k.so"]  # no temporaries
    ident = path[:-3] + ".id"
    libc, version = platform.libc_ver()
    assert libc == "glibc"
    with open(ident) as f:  # the build, the code's checksum, the C library, the CPU
        assert f.read() == "build 1\nsha256 %s\nglibc %s\n%s\n" % (
            hashlib.sha256(b"code").hexdigest(), version,
            " ".join(["cpu"] + list(_core.host_cpu_features())))
    # An entry compiled beside a newer glibc may call what this one lacks
    # (libmvec): not current. An older glibc, or none recorded: current.
    lines = open(ident).read().splitlines()
    for recorded, current in (("glibc 99.0", False), ("glibc 2.99", False),
                              ("glibc 2.17", True), ("glibc %s" % version, True),
                              (None, True)):
        with open(ident, "w") as f:
            f.write("\n".join(lines[:2] + ([recorded] if recorded else [])) + "\n")
        assert _core.cache_is_current(path, "build 1") == current, recorded
    # Code changed after the .id was written (corrupted, truncated, replaced):
    # not current, for any build.
    _core.cache_write(path, "cod3")
    assert not _core.cache_is_current(path, "build 1")
    assert not _core.cache_is_current(path, "")
    with pytest.raises(RuntimeError, match="cannot"):
        _core.cache_write(os.path.join(path, "x"), "")  # a file as directory


@needs_compiler
def test_stale_cache_entries_are_rebuilt(fresh_cache, rng):
    a = rand(rng, (5,), "f32")
    pt.negative(a)
    (so,) = [f for f in os.listdir(fresh_cache) if f.endswith(".so")]
    path = os.path.join(fresh_cache, so)
    ident = path[:-3] + ".id"
    with open(ident) as f:  # the compiler's build identity, then the checksum
        assert f.readline().strip() == _compiler.compiler_build_id()
    # Made by another build of the compiler: rebuilt, the identity rewritten.
    with open(ident, "w") as f:
        f.write("another build\n")
    os.utime(path, (1, 1))
    _compiler._loaded.clear()
    from ptensor import _exec
    _exec.clear_kernel_tables()
    assert_matches(pt.negative(a), -a, "f32")
    assert os.path.getmtime(path) > 1
    with open(ident) as f:
        assert f.readline().strip() != "another build"


@needs_compiler
def test_corrupted_cache_entries_are_rebuilt(fresh_cache):
    """A truncated library (a disk full, a copy cut short) or one with a
    changed byte no longer has the checksum its .id records and is compiled
    again; so is an entry without its .id (a
    compile killed before it finished). Each step is a new process (a
    library stays mapped in the process that loaded it)."""
    env = dict(os.environ, PTENSOR_CACHE_DIR=str(fresh_cache))
    code = ("import numpy as np, ptensor as pt; a = np.arange(5, dtype=np.float32); "
            "np.testing.assert_allclose(pt.sqrt(a), np.sqrt(a), rtol=1e-6); print('ok')")

    def run():
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True)
        assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr

    run()
    (so,) = [f for f in os.listdir(fresh_cache) if f.endswith(".so")]
    path = os.path.join(fresh_cache, so)
    with open(path, "r+b") as f:
        f.truncate(100)
    run()
    assert os.path.getsize(path) > 100
    # One byte changed in place: the library may still load, but its
    # checksum (in KEY.id) no longer matches, so it is compiled again.
    with open(path, "r+b") as f:
        f.seek(os.path.getsize(path) // 2)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 0xFF]))
    corrupted = open(path, "rb").read()
    run()
    assert open(path, "rb").read() != corrupted
    os.unlink(path[:-3] + ".id")
    run()
    assert os.path.exists(path[:-3] + ".id")


_TWO_KERNELS = ("import numpy as np, ptensor as pt; a = np.arange(1, 6, dtype=np.float32); "
                "np.testing.assert_allclose(pt.sqrt(a), np.sqrt(a), rtol=1e-6); "
                "np.testing.assert_allclose(pt.log(a) * 2, np.log(a) * 2, rtol=1e-6); "
                "np.testing.assert_array_equal(pt.maximum(a, 3), np.maximum(a, 3)); print('ok')")


@needs_compiler
def test_unwritable_cache_directory_compiles_in_the_process(tmp_path):
    """A cache directory that cannot be created or written (here: below a
    regular file) costs speed, not results: kernels are compiled into a
    directory of the process, with one warning for the whole process."""
    (tmp_path / "file").write_text("")
    env = dict(os.environ, PTENSOR_CACHE_DIR=str(tmp_path / "file" / "cache"))
    out = subprocess.run([sys.executable, "-c", _TWO_KERNELS], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    assert out.stderr.count("cannot write the kernel cache") == 1, out.stderr
    assert "compiling into a directory of this process instead" in out.stderr


@needs_compiler
def test_processes_filling_one_cache_at_once(tmp_path):
    """Two, then four processes compile the same kernels into one empty
    cache at the same time: every process gets right results (no process
    loads a half-written entry) and the entries left are current."""
    for n in (2, 4):
        cache = tmp_path / ("c%d" % n)
        env = dict(os.environ, PTENSOR_CACHE_DIR=str(cache))
        procs = [subprocess.Popen([sys.executable, "-c", _TWO_KERNELS], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(n)]
        for p in procs:
            stdout, stderr = p.communicate(timeout=300)
            assert p.returncode == 0 and stdout.strip() == "ok", stderr
        entries = [f for f in os.listdir(cache) if f.endswith(".so")]
        assert len(entries) == 3, os.listdir(cache)
        for f in entries:
            assert _core.cache_is_current(str(cache / f), _compiler.compiler_build_id())
        assert not [f for f in os.listdir(cache) if f.startswith(".")]  # no temporaries left


def test_disable_cache_keeps_nothing_on_disk(tmp_path):
    """PTENSOR_DISABLE_CACHE=1: nothing is written to PTENSOR_CACHE_DIR."""
    env = dict(os.environ, PTENSOR_DISABLE_CACHE="1", PTENSOR_CACHE_DIR=str(tmp_path))
    code = "import numpy as np, ptensor as pt; print(pt.add(np.ones(3), 1.5).tolist())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if "has no compiler" in out.stderr:
        pytest.skip("needs the compiler")
    assert out.returncode == 0, out.stderr
    assert eval(out.stdout) == [2.5, 2.5, 2.5]
    assert os.listdir(tmp_path) == []


@needs_compiler
def test_compiler_errors_carry_its_diagnostics(fresh_cache):
    bad = MODULE.replace("-> !ptensor.ptensor<4x?xi1>\n", "-> !ptensor.ptensor<4x?xi32>\n", 1)
    with pytest.raises(pt.CompileError) as e:
        pt.compile_module(bad)
    msg = str(e.value)
    assert "failed" in msg and "error:" in msg
    assert "expects different type than prior uses" in e.value.stderr
    assert e.value.ir == bad
    # Diagnostics name the IR file kept in the cache, which can be inspected.
    path = re.search(r"(\S+\.mlir):\d+:\d+: error", e.value.stderr).group(1)
    assert os.path.exists(path) and open(path).read() == bad


@needs_compiler
def test_result_dtype_mismatch_is_caught_by_the_compiler(fresh_cache):
    # The frontend writes result types; the compiler verifies them.
    ir = textwrap.dedent("""\
        func.func @f(%x: !ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xi32> {
          %r = ptensor.elementwise_unary exp %x : (!ptensor.ptensor<?xi32>) -> !ptensor.ptensor<?xi32>
          return %r : !ptensor.ptensor<?xi32>
        }
        """)
    with pytest.raises(pt.CompileError, match="inferred type"):
        pt.compile_module(ir)


@needs_compiler
def test_run_time_broadcast_failure_is_an_exception(fresh_cache, rng):
    # Sizes known only at run time that do not broadcast: BroadcastError
    # naming both shapes with their real sizes; the process goes on and the
    # same function still runs on sizes that fit.
    lib = pt.compile_module(MODULE)
    x = rand(rng, (3,), "f32")
    with pytest.raises(pt.BroadcastError,
                       match=r"@axpy: .*cannot broadcast shape \[4\] to shape \[3\]"):
        lib.axpy(x, rand(rng, (4,), "f32"), np.float32(2))
    y = rand(rng, (1,), "f32")
    assert_matches(lib.axpy(x, y, np.float32(2)), x * 2 + y, "f32")


@needs_compiler
def test_run_time_slice_out_of_bounds_is_a_check_error(fresh_cache):
    # A slice size known only at run time that reads past the source is an
    # invalid argument (CheckError naming the source's shape and the
    # elements read), not a broadcast failure; sizes that fit still run.
    ir = textwrap.dedent("""\
        func.func @rows(%a: !ptensor.ptensor<?x3xf32>, %n: index) -> !ptensor.ptensor<?x3xf32> {
          %0 = ptensor.extract_slice %a [1, 0] [%n, 3] [2, 1] : !ptensor.ptensor<?x3xf32> -> !ptensor.ptensor<?x3xf32>
          return %0 : !ptensor.ptensor<?x3xf32>
        }
        """)
    lib = pt.compile_module(ir)
    a = np.arange(15, dtype=np.float32).reshape(5, 3)
    with pytest.raises(pt.CheckError, match=r"extract_slice of shape \[5, 3\]: "
                       r"slice of dimension 0 reads elements 1 to 5, outside \[0, 5\)") as e:
        lib.rows(a, 3)
    assert not isinstance(e.value, pt.BroadcastError)
    assert_matches(lib.rows(a, 2), a[1:4:2], "f32", rtol=0, atol=0)


@needs_compiler
def test_cuda_module_without_gpu_is_an_exception(fresh_cache):
    if pt.cuda_available():
        pytest.skip("a GPU is present")
    ir = MODULE.split("func.func @split")[0].replace(
        "xf32>", 'xf32, device = "cuda:0">')
    with pytest.raises((pt.DeviceError, pt.RuntimeUnavailableError)):
        pt.compile_module(ir, target="cuda")


@pytest.mark.skipif(not HAVE_COMPILER, reason="needs the compiler")
def test_version_is_the_compilers():
    """One version: the package's is the one its compiler names in its build
    identity (CMakeLists.txt's project VERSION)."""
    ident = pt.compiler_version()
    assert ("ptensor %s" % pt.__version__) in ident, ident


@needs_compiler
def test_build_id_without_loading_the_compiler(fresh_cache):
    """The cache is checked against the compiler's build identity, which
    ptensor._core computes from the compiler extension's file (its GNU
    build-id, ptensor's and LLVM's versions): the same text the compiler
    gives, so a process whose kernels are all cached never loads the
    compiler (and LLVM); a cache miss loads it."""
    from ptensor import _compile

    assert _compiler.compiler_build_id() == _compile.build_id()
    assert _core.compiler_build_id(_compile.__file__) == _compile.build_id()
    assert re.search(r" build-id:[0-9a-f]+ LLVM ", _compile.build_id())
    # A file without a build-id note is identified by path, size and time.
    plain = fresh_cache / "plain.bin"
    plain.write_bytes(b"not an ELF file")
    assert re.search(r"plain\.bin:15:[0-9]+ LLVM ", _core.compiler_build_id(str(plain)))
    code = ("import sys, numpy as np, ptensor as pt; x = np.arange(4, dtype=np.float32); "
            "np.testing.assert_array_equal(pt.%s(x, x), x %s x); "
            "print('ptensor._compile' in sys.modules)")
    env = dict(os.environ, PTENSOR_CACHE_DIR=str(fresh_cache))

    def compiler_loaded(op, symbol):
        out = subprocess.run([sys.executable, "-c", code % (op, symbol)], env=env,
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip() == "True"

    assert compiler_loaded("multiply", "*")  # compiled: the compiler is loaded
    assert not compiler_loaded("multiply", "*")  # cached: it is not
    assert compiler_loaded("subtract", "-")


def test_shared_libraries_that_do_not_load_raise(tmp_path):
    """The package's dlopen gives the loader's message as an OSError."""
    missing = str(tmp_path / "missing.so")
    with pytest.raises(OSError, match="missing.so"):
        _core.load_shared_library(missing, lazy=True, global_=False)
    junk = tmp_path / "junk.so"
    junk.write_bytes(b"not a library")
    with pytest.raises(OSError, match="junk.so"):
        _core.load_shared_library(str(junk), lazy=False, global_=False)
    # A library without a function the caller needs (another version).
    libm = "libm.so.6"
    _core.load_shared_library(libm, lazy=True, global_=False, required=["cos"])
    with pytest.raises(OSError, match="undefined symbol ptensor_rt_alloc"):
        _core.load_shared_library(libm, lazy=True, global_=False,
                                  required=["cos", "ptensor_rt_alloc"])


def test_loaded_libraries_are_found_by_file_name(tmp_path):
    """loaded_library_path answers from the loader's list: the file of a
    loaded library by its file name, None for one never loaded (even when
    a file of that name exists where the loader would search)."""
    import shutil

    assert _core.loaded_library_path("libptensor_no_such_library.so") is None
    if shutil.which("cc") is None:
        pytest.skip("needs a C compiler")
    src = tmp_path / "probe.c"
    src.write_text("int ptensor_probe(void) { return 7; }\n")
    lib = tmp_path / "libptensor_probe.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    assert _core.loaded_library_path(lib.name) is None
    handle = _core.load_shared_library(str(lib), lazy=False, global_=False)
    assert _core.loaded_library_path(lib.name) == str(lib)
    assert _core.library_symbol(handle, str(lib), "ptensor_probe") != 0


def test_library_of_another_abi_version_is_refused(tmp_path):
    """A library whose signature names another ABI version (docs/ABI.md) is
    refused with both versions named, never called with the wrong layout."""
    import shutil

    from ptensor import _ffi

    if shutil.which("cc") is None:
        pytest.skip("needs a C compiler")
    src = tmp_path / "old.c"
    src.write_text('const char ptensor_module_signature[] = '
                   '"{\\"abi\\": 0, \\"target\\": \\"cpu\\", \\"functions\\": []}";\n')
    lib = tmp_path / "old.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    with pytest.raises(pt.CompileError, match=r"module ABI version 0; this ptensor reads "
                       r"version %d" % _ffi.MODULE_ABI_VERSION):
        _ffi.Library(str(lib), "cpu")


def test_library_without_an_entry_point_is_refused(tmp_path):
    """A library whose signature names a function it has no packed entry
    point for is refused with OSError naming the library and the symbol
    (compile_ir then compiles the entry again)."""
    import shutil

    from ptensor import _ffi

    if shutil.which("cc") is None:
        pytest.skip("needs a C compiler")
    src = tmp_path / "lacking.c"
    src.write_text('const char ptensor_module_signature[] = "{\\"abi\\": %d, '
                   '\\"target\\": \\"cpu\\", \\"team_size\\": 1, \\"functions\\": '
                   '[{\\"name\\": \\"f\\", \\"args\\": [], \\"results\\": []}]}";\n'
                   % _ffi.MODULE_ABI_VERSION)
    lib = tmp_path / "lacking.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    with pytest.raises(OSError, match=r"lacking\.so: undefined symbol _ptensor_packed_f "):
        _ffi.Library(str(lib), "cpu")


@needs_compiler
def test_compiles_are_logged_with_stage_times(fresh_cache, caplog):
    """At INFO the package logs each compile with the compiler's time per
    stage (ptensor-compile -v)."""
    import logging

    with caplog.at_level(logging.INFO, logger="ptensor"):
        pt.subtract(np.ones(3, np.float32), np.float32(0.25))
    (record,) = [r for r in caplog.records if r.name == "ptensor"]
    assert record.levelno == logging.INFO
    message = record.getMessage()
    assert "(cpu) in " in message and "parse " in message and "codegen " in message, message


def _kernels_in(library, function):
    """The names of `function`'s CUDA kernels embedded in `library`."""
    with open(library, "rb") as f:
        data = f.read()
    return set(re.findall(rb"[\x00.](" + function.encode() + rb"_kernel(?:_\d+)?)\x00", data))


@needs_compiler
def test_contiguous_gpu_calls_compile_two_kernels(fresh_cache, caplog):
    """A CUDA elementwise call whose operands are all contiguous (one
    coalesced dimension of stride 1) is compiled with the kernel option
    strided-paths=0: two kernels, the flat vector path and one general
    path, against six for every path; a strided call of the same op
    compiles every path under a key of its own (compile-only mode on
    array descriptions: no GPU needed)."""
    import logging

    if not shutil.which("ptxas", path=os.environ.get("PATH", "") + os.pathsep
                        + "/usr/local/cuda/bin"):
        pytest.skip("needs ptxas")
    from ptensor import _dtypes

    f32 = _dtypes.from_numpy(np.dtype(np.float32))

    def described(strides, ptr):
        return pt.Tensor(f32, "cuda:0", ptr, (64, 32), strides, "torch", None)

    rows, columns = described((32, 1), 1 << 40), described((1, 64), 1 << 41)
    with caplog.at_level(logging.INFO, logger="ptensor"), pt.compile_only():
        pt.add(rows, rows)
        pt.add(rows, columns)
        pt.add(rows, rows)  # the first call's kernel, from the process's table
    messages = [r.getMessage() for r in caplog.records if r.name == "ptensor"]
    assert len(messages) == 2, messages
    assert "(cuda, strided-paths=0) in " in messages[0], messages[0]
    assert "(cuda) in " in messages[1], messages[1]
    libraries = [os.path.join(fresh_cache, m.split()[1]) for m in messages]
    assert len(_kernels_in(libraries[0], "ptensor_add")) == 2
    assert len(_kernels_in(libraries[1], "ptensor_add")) == 6


FILL_CUDA = """
func.func @fill(%n: index) -> !ptensor.ptensor<?xf32, device = "cuda:0"> {
  %v = arith.constant 1.0 : f32
  %t = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?xf32, device = "cuda:0">
  return %t : !ptensor.ptensor<?xf32, device = "cuda:0">
}
"""

_OOM_CHILD = """
import sys
import ptensor as pt
fill = pt.compile_module(sys.argv[1], target="cuda")["fill"]
for n, cls in ((1 << 20, pt.OutOfMemoryError), (-3, pt.CheckError)):
    try:
        fill(n)
    except cls as e:
        print(type(e).__name__, e)
print("the process goes on")
"""

# A GPU fill copied to the host: the result needs neither torch nor CuPy
# (the stand-in driver's memory is host memory).
FILL_CUDA_TO_HOST = """
func.func @fill(%n: index) -> !ptensor.ptensor<?xf32> {
  %v = arith.constant 1.0 : f32
  %t = ptensor.create (%n) fill %v : f32 -> !ptensor.ptensor<?xf32, device = "cuda:0">
  %h = ptensor.copy %t : !ptensor.ptensor<?xf32, device = "cuda:0"> -> !ptensor.ptensor<?xf32>
  return %h : !ptensor.ptensor<?xf32>
}
"""

_FAULT_CHILD = """
import sys
import ptensor as pt
fill = pt.compile_module(sys.argv[1], target="cuda")["fill"]
for i in range(3):
    try:
        r = fill(10)
        print(i, "ok" if r.shape == (10,) else "shape %s" % (r.shape,))
    except pt.PTensorError as e:
        print(i, type(e).__name__, e)
"""


def test_device_allocation_failures_raise(tmp_path):
    """On the stand-in CUDA driver (runtime/tests/fake_cuda.c) with a 1 KiB
    device, a compiled function's device allocation that does not fit raises
    OutOfMemoryError and a negative size CheckError (checked in host code
    before the allocation); the process goes on
    (the runtime leaves the compiled code through the call's trap)."""
    build = os.environ.get("PTENSOR_BUILD_DIR", "")
    fake = os.path.join(build, "lib", "libptensor_fake_cuda.so")
    if not build or not os.path.exists(fake) or not shutil.which("ptxas", path=os.environ.get(
            "PATH", "") + os.pathsep + "/usr/local/cuda/bin"):
        pytest.skip("needs the build's libptensor_fake_cuda.so and ptxas")
    env = dict(os.environ, PTENSOR_CUDA_DRIVER_LIBRARY=fake, PTENSOR_FAKE_CUDA_MAX_ALLOC="1024",
               PTENSOR_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", _OOM_CHILD, FILL_CUDA], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "OutOfMemoryError @fill: ptensor runtime: out of memory allocating 4194304 bytes" \
        in out.stdout, out.stdout + out.stderr
    assert "CheckError @fill: ptensor runtime: create: invalid size -3 at dimension 0 of " \
        "shape [-3] (expected >= 0)" in out.stdout
    assert "the process goes on" in out.stdout


@pytest.mark.parametrize("fault, cls, message", [
    ("device-alloc:1", "OutOfMemoryError", "injected fault: device-alloc #1 (device allocation) fails"),
    ("launch:2", "ExecutionError", "injected fault: launch #2 (kernel launch) fails"),
    ("module-load:1", "ExecutionError", "the GPU kernels of this code were not loaded when it was "
                                        "loaded: injected fault: module-load #1"),
])
def test_injected_device_faults_are_exceptions(tmp_path, fault, cls, message):
    """PTENSOR_RT_FAULT on the stand-in CUDA driver: a failed device
    allocation or launch raises in that call and the next call works; a
    failed module load (when the library is loaded, outside any call) is
    kept and raised by every call of that library, and the process goes
    on."""
    build = os.environ.get("PTENSOR_BUILD_DIR", "")
    fake = os.path.join(build, "lib", "libptensor_fake_cuda.so")
    if not build or not os.path.exists(fake) or not shutil.which("ptxas", path=os.environ.get(
            "PATH", "") + os.pathsep + "/usr/local/cuda/bin"):
        pytest.skip("needs the build's libptensor_fake_cuda.so and ptxas")
    env = dict(os.environ, PTENSOR_CUDA_DRIVER_LIBRARY=fake, PTENSOR_RT_FAULT=fault,
               PTENSOR_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", _FAULT_CHILD, FILL_CUDA_TO_HOST], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 3, out.stdout + out.stderr
    failing = [l for l in lines if not l.endswith(" ok")]
    expected_failures = 3 if fault.startswith("module-load") else 1
    assert len(failing) == expected_failures, out.stdout
    for line in failing:
        assert cls in line and message in line, line
