"""Compiling generated IR with ptensor-compile, and the on-disk kernel cache.

`compile_ir(ir, target, chip)` returns a loaded `Library` (see _ffi.py) for
the IR text. Compiled libraries are cached

  * in memory, per process, by the same key, and
  * on disk, in `cache_dir()` (PTENSOR_CACHE_DIR, or ~/.cache/ptensor/python),
    as `<key>.so` next to `<key>.mlir` (the IR, for inspection) and
    `<key>.id` (the build identity of the compiler that made it).

The key is sha256 of the IR text, the target ("cpu"/"cuda"), the chip (cuda
only) and CACHE_VERSION, a constant of this package: it does not depend on
the machine or the compiler build, so a cache filled on a machine with the
compiler can be copied to (or shared with) a machine without one, e.g. a GPU
host without LLVM. Where the compiler is present, a cached library made by
another build of it (its `--version` "build id": the binary's GNU build-id,
version, commit and LLVM version) is rebuilt, so that a development cache
never serves code of an old compiler; so is an entry that cannot be loaded
(truncated, corrupted, another ABI). PTENSOR_DISABLE_CACHE=1 keeps compiled
libraries in a directory of the process only.

Writes are atomic (temporary file + os.replace), and the `.id` is written
last, so concurrent processes may share one cache directory and a compile
killed halfway leaves no entry that a later run uses.
"""

import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
import threading
import time

from . import _core
from ._errors import CompileError, DeviceError

#: Bump when the generated IR's meaning or the library ABI changes in a way
#: the IR text does not show (e.g. a new calling convention).
CACHE_VERSION = "2"

#: The CUDA architecture kernels are compiled for, unless PTENSOR_CUDA_CHIP
#: (the compiler's default, KernelConfig.h).
DEFAULT_CHIP = _core.DEFAULT_CHIP

#: Compiles are logged at INFO (kernel, target, the compiler's time per
#: stage). PTENSOR_LOG=info (or debug) turns this on without configuring
#: logging, like the tools' -v.
log = logging.getLogger("ptensor")
if os.environ.get("PTENSOR_LOG", "").lower() in ("info", "debug") and not log.handlers:
    log.setLevel(logging.DEBUG if os.environ["PTENSOR_LOG"].lower() == "debug"
                 else logging.INFO)
    log.addHandler(logging.StreamHandler())

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_lock = threading.RLock()
_loaded = {}  # key -> Library


def _executable(path):
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)


#: The build/ of the source tree this package lives in (python/ptensor).
_SOURCE_BUILD_DIR = os.path.normpath(os.path.join(_PKG_DIR, "..", "..", "build"))


def find_compiler():
    """Path of ptensor-compile, or None: $PTENSOR_COMPILE, then
    $PTENSOR_BUILD_DIR/bin, then the one installed in the package (pip),
    then PATH, then the source tree's build/bin."""
    env = os.environ.get("PTENSOR_COMPILE")
    if env:
        # An explicit setting wins; a wrong one is not silently replaced.
        return env if _executable(env) else None
    build = os.environ.get("PTENSOR_BUILD_DIR")
    if build and _executable(os.path.join(build, "bin", "ptensor-compile")):
        return os.path.join(build, "bin", "ptensor-compile")
    packaged = os.path.join(_PKG_DIR, "bin", "ptensor-compile")
    if _executable(packaged):
        return packaged
    found = shutil.which("ptensor-compile")
    if found:
        return found
    p = os.path.join(_SOURCE_BUILD_DIR, "bin", "ptensor-compile")
    return p if _executable(p) else None


_private_cache = None


def cache_dir():
    """The on-disk kernel cache directory (created on demand):
    $PTENSOR_CACHE_DIR, else ~/.cache/ptensor/python; with
    PTENSOR_DISABLE_CACHE=1 a directory of this process only, removed at
    exit (nothing is shared with other processes)."""
    global _private_cache
    if os.environ.get("PTENSOR_DISABLE_CACHE") == "1":
        if _private_cache is None:
            import atexit

            _private_cache = tempfile.mkdtemp(prefix="ptensor-nocache-")
            atexit.register(shutil.rmtree, _private_cache, True)
        return _private_cache
    d = os.environ.get("PTENSOR_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "ptensor", "python")
    os.makedirs(d, exist_ok=True)
    return d


_build_ids = {}


def compiler_build_id(compiler):
    """The build identity `compiler --version` reports ("build id: ..."),
    which a cached library records beside it (KEY.id): an entry made by
    another build of the compiler is rebuilt. None if it cannot be read."""
    if compiler not in _build_ids:
        ident = None
        try:
            out = subprocess.run([compiler, "--version"], capture_output=True, text=True,
                                 timeout=60).stdout
            for line in out.splitlines():
                if line.strip().startswith("build id:"):
                    ident = line.split(":", 1)[1].strip()
        except (OSError, subprocess.TimeoutExpired):
            ident = None
        _build_ids[compiler] = ident
    return _build_ids[compiler]


def _is_current(path, compiler):
    """Whether the cached library `path` can be used: it exists and, when a
    compiler is at hand, was built by this build of it."""
    if not os.path.exists(path):
        return False
    if compiler is None:
        return True  # a cache filled elsewhere (the GPU machine)
    try:
        with open(path[:-3] + ".id") as f:
            recorded = f.read().strip()
    except OSError:
        return False
    return recorded == compiler_build_id(compiler)


def chip_for(target):
    if target != "cuda":
        return ""
    return os.environ.get("PTENSOR_CUDA_CHIP", DEFAULT_CHIP)


def cache_key(ir, target, chip=None):
    """The machine-independent key of a compiled library."""
    if chip is None:
        chip = chip_for(target)
    h = hashlib.sha256()
    for part in ("ptensor-python-cache", CACHE_VERSION, target, chip if target == "cuda" else ""):
        h.update(part.encode())
        h.update(b"\0")
    h.update(ir.encode())
    return h.hexdigest()


def _run_compiler(compiler, ir, target, chip, dest):
    """Compiles `ir` to the shared library `dest` (atomically)."""
    d = os.path.dirname(dest)
    fd, src = tempfile.mkstemp(prefix=".ptensor-", suffix=".mlir", dir=d)
    tmp_so = src[:-5] + ".so"
    try:
        with os.fdopen(fd, "w") as f:
            f.write(ir)
        cmd = [compiler, src, "-o", tmp_so, "--target=" + target]
        if target == "cuda":
            cmd.append("--chip=" + chip)
        verbose = log.isEnabledFor(logging.INFO)
        if verbose:
            cmd.append("-v")
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        except OSError as e:
            raise CompileError("could not run %s: %s" % (compiler, e), "", ir, cmd) from None
        except subprocess.TimeoutExpired:
            raise CompileError("ptensor-compile timed out after 900 s", "", ir, cmd) from None
        if proc.returncode != 0 or not os.path.exists(tmp_so):
            stderr = (proc.stderr or "").strip()
            # Name the diagnostics by the cached IR path, not the temporary one.
            stderr = stderr.replace(src, os.path.join(d, os.path.basename(dest)[:-3] + ".mlir"))
            raise CompileError(
                "ptensor-compile failed (exit status %d):\n%s" % (proc.returncode, stderr),
                stderr, ir, cmd)
        os.replace(tmp_so, dest)
        if verbose:
            stages = [line.split(": ", 2)[-1] for line in (proc.stderr or "").splitlines()
                      if line.startswith("ptensor-compile: ")]
            log.info("compiled %s (%s) in %.0f ms%s", os.path.basename(dest), target,
                     1e3 * (time.perf_counter() - start),
                     ": " + stages[-1] if stages else "")
    finally:
        for p in (src, tmp_so):
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass


def _compile_into_cache(compiler, ir, target, chip, path):
    """Compiles `ir` into the cache entry `path` (KEY.so) with its IR
    (KEY.mlir) and the compiler's build identity (KEY.id), each written
    atomically; the .id is written last, so a compile killed halfway leaves
    an entry that is not current."""
    _write_atomic(path[:-3] + ".mlir", ir)
    _run_compiler(compiler, ir, target, chip, path)
    _write_atomic(path[:-3] + ".id", (compiler_build_id(compiler) or "") + "\n")


def _write_atomic(path, text):
    fd, tmp = tempfile.mkstemp(prefix=".ptensor-", dir=os.path.dirname(path))
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def library_path(ir, target):
    """Where the compiled library of `ir` lives (or would live) in the cache."""
    return os.path.join(cache_dir(), cache_key(ir, target) + ".so")


def compile_ir(ir, target="cpu", load=True):
    """The loaded Library of `ir` for `target` ("cpu" or "cuda"), compiling
    it unless a current one is cached. Raises CompileError. With
    load=False (and for "cuda" kernels in compile-only mode) the library
    is only compiled into the cache and its path is returned."""
    from ._ffi import Library  # late: _ffi imports this module

    if target not in ("cpu", "cuda"):
        raise ValueError("target must be 'cpu' or 'cuda', got %r" % (target,))
    chip = chip_for(target)
    key = cache_key(ir, target, chip)
    with _lock:
        lib = _loaded.get(key)
        if lib is not None:
            return lib
        path = os.path.join(cache_dir(), key + ".so")
        compiler = find_compiler()
        if not _is_current(path, compiler):
            if compiler is None:
                raise CompileError(
                    "ptensor-compile not found; set PTENSOR_COMPILE to its path, set "
                    "PTENSOR_BUILD_DIR to a build directory containing bin/ptensor-compile, "
                    "or put it on PATH. No cached kernel %s.so (target %s) is in the cache "
                    "directory %s (PTENSOR_CACHE_DIR); compile it on a machine with the "
                    "compiler and copy the cache." % (key, target, cache_dir()), "", ir)
            _compile_into_cache(compiler, ir, target, chip, path)
        if not load or (target == "cuda" and _runtime_optional()):
            # Loading CUDA kernels runs their module constructors, which
            # need a driver: compile-only mode never loads them.
            return path
        try:
            lib = Library(path, target)
        except DeviceError:  # CUDA kernels without a GPU: the entry is fine
            raise
        except (OSError, ValueError, CompileError) as e:
            # A truncated or corrupted entry, or one of another ABI: rebuilt
            # once when the compiler is at hand.
            if compiler is None:
                raise CompileError("the cached library %s cannot be loaded: %s" % (path, e),
                                   str(e), ir) from None
            _compile_into_cache(compiler, ir, target, chip, path)
            try:
                lib = Library(path, target)
            except (OSError, ValueError) as e:
                raise CompileError("the compiled library %s cannot be loaded: %s" % (path, e),
                                   str(e), ir) from None
        _loaded[key] = lib
        return lib


def compiler_version():
    """`ptensor-compile --version`, or None without a compiler."""
    c = find_compiler()
    if c is None:
        return None
    try:
        return subprocess.run([c, "--version"], capture_output=True, text=True,
                              timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None


def _runtime_optional():
    """Compile-only mode fills a cache of CUDA kernels on a machine that
    may have no GPU."""
    from . import _exec
    return getattr(_exec._mode, "compile_only", False)
