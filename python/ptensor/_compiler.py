"""Compiling generated IR in process, and the kernels in the disk cache.

`compile_ir(ir, target, chip)` returns a loaded `Library` (see _ffi.py) for
the IR text. Compiled libraries are cached

  * in memory, per process, by the same key, and
  * on disk, in the one cache of compiled code that the JIT and the tools
    share (ptensor/Cache/DiskCache.h, through ptensor._core): `cache_dir()`
    ($PTENSOR_CACHE_DIR, else $XDG_CACHE_HOME/ptensor or ~/.cache/ptensor)
    holds `<key>.so` next to `<key>.mlir` (the IR, for inspection) and
    `<key>.id` (the build identity of the compiler that made it).

The key (SHA-256 of the cache format, "shared-library", the target, the
chip and the IR text) does not depend on the machine or the compiler
build, so a cache filled on a machine with the compiler can be copied to
(or shared with) a machine without one, e.g. a GPU host without LLVM.
Where the compiler is present, an entry made by another build of it is
rebuilt, so that a development cache never serves code of an old compiler;
so is an entry that cannot be loaded (truncated, corrupted, another ABI),
and one whose `.id` records CPU features this CPU lacks (host code is
compiled for the compiling CPU; without a compiler that is an error naming
them, see cache_why_not_current).
PTENSOR_DISABLE_CACHE=1 keeps compiled libraries in a directory of the
process only.

Every file is written atomically and the `.id` last, so concurrent
processes may share one cache directory and a compile killed halfway leaves
no entry that a later run uses.
"""

import atexit
import importlib
import importlib.util
import logging
import os
import shutil
import tempfile
import threading
import time

from . import _core
from . import _runtime as R
from ._errors import CompileError, DeviceError

#: The compiler extension, ptensor._compile (static LLVM/MLIR), imported on
#: the first compile: a process whose kernels are all in the disk cache
#: never loads it (see compiler_build_id). Absent where only kernels run.
_COMPILE_SPEC = importlib.util.find_spec("ptensor._compile")
_compile_module = None

#: The version of the disk cache's format (part of every key).
CACHE_VERSION = _core.CACHE_FORMAT_VERSION

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


def find_compiler():
    """The in-process compiler (ptensor._compile), or None where the package
    was installed without it or PTENSOR_NO_COMPILER=1: then only kernels
    already in the cache run (a runtime-only installation)."""
    global _COMPILE_SPEC, _compile_module, _build_id
    if _compiler_file() is None:
        return None
    if _compile_module is None:
        with _lock:
            if _compile_module is None:
                try:
                    module = importlib.import_module("ptensor._compile")
                except ImportError as e:  # a broken installation: runs cached kernels
                    log.warning("cannot load the compiler %s: %s", _COMPILE_SPEC.origin, e)
                    _COMPILE_SPEC = None
                    return None
                # The loaded compiler's own identity from now on (the file
                # may have been rebuilt since compiler_build_id read it).
                _build_id = module.build_id()
                _compile_module = module
    return _compile_module


def _compiler_file():
    """The compiler extension's file, or None where there is no compiler
    (PTENSOR_NO_COMPILER=1, a runtime-only installation, or one that failed
    to load)."""
    spec = _COMPILE_SPEC
    if os.environ.get("PTENSOR_NO_COMPILER") == "1" or spec is None:
        return None
    return spec.origin


_private_cache = None
_unwritable = {}  # cache directory -> why it cannot be written
_warned = set()  # cache directories whose warning was given


def _private_dir():
    """A temporary directory of this process, removed at exit."""
    global _private_cache
    if _private_cache is None:
        _private_cache = tempfile.mkdtemp(prefix="ptensor-nocache-")
        atexit.register(shutil.rmtree, _private_cache, True)
    return _private_cache


def cache_dir():
    """The disk cache's directory (created on demand): $PTENSOR_CACHE_DIR,
    else $XDG_CACHE_HOME/ptensor or ~/.cache/ptensor; with
    PTENSOR_DISABLE_CACHE=1 a temporary directory of this process, removed
    at exit. A directory that cannot be created is read as empty (see
    _writable_dir for where kernels are then compiled)."""
    path = _core.cache_directory()
    if not path:
        return _private_dir()
    if os.path.isdir(path):  # one stat on every library lookup
        return path
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        _unwritable.setdefault(path, str(e))
    return path


def _cache_unwritable(path, why):
    """Notes that the cache directory `path` cannot be written, and warns
    once: kernels are compiled into a directory of this process."""
    _unwritable.setdefault(path, why)
    if path not in _warned:
        _warned.add(path)
        log.warning("cannot write the kernel cache %s (%s): compiling into a directory of "
                    "this process instead (set PTENSOR_CACHE_DIR to a writable directory)",
                    path, _unwritable[path])


def _writable_dir(path):
    """`path` if kernels can be written there (a probe file is created and
    removed once per directory), else a directory of this process."""
    if path == _private_cache:
        return path
    if path not in _unwritable:
        try:
            fd, probe = tempfile.mkstemp(prefix=".probe-", dir=path)
            os.close(fd)
            os.unlink(probe)
            return path
        except OSError as e:
            _unwritable[path] = str(e)
    _cache_unwritable(path, _unwritable[path])
    return _private_dir()


_build_id = None


def compiler_build_id():
    """The compiler's build identity (ptensor's version and commit, the
    compiler binary's build-id, LLVM's version), which a cached library
    records beside it (KEY.id): an entry made by another build is rebuilt.
    Computed by ptensor._core from the compiler extension's file, so that
    checking a warm cache does not load the compiler; the same text as
    ptensor._compile.build_id(). None without a compiler."""
    global _build_id
    path = _compiler_file()
    if path is None:
        return None
    if _build_id is None:
        build_id = _core.compiler_build_id(path)
        if build_id is None:
            # A binding built without the compiler's version: loading the
            # compiler sets _build_id from the loaded module.
            find_compiler()
        else:
            # Another thread may have loaded the compiler meanwhile: its
            # module's own id stands.
            _build_id = _build_id or build_id
    return _build_id


def _is_current(path):
    """Whether the cached library `path` can be used: it exists and, when a
    compiler is at hand, was built by this build of it."""
    return _core.cache_is_current(path, compiler_build_id() or "")


def chip_for(target):
    if target != "cuda":
        return ""
    return os.environ.get("PTENSOR_CUDA_CHIP", DEFAULT_CHIP)


def cache_key(ir, target, chip=None, host_cpu=None, team_size=1, gpu_options=""):
    """The machine-independent key of a compiled library: its IR, target,
    GPU chip, the CPU its host code is compiled for when one is named
    (`host_cpu`, by default PTENSOR_HOST_CPU's; this machine's CPU is
    recorded in KEY.id instead, and checked where the entry is used), the
    processes its team tensors are split over when more than one, and the
    GPU pipeline's options when any (`gpu_options`, e.g. the kernel option
    "strided-paths=0" that the elementwise calls choose)."""
    if chip is None:
        chip = chip_for(target)
    if host_cpu is None:
        host_cpu = _core.requested_host_cpu()
    options = ["host-cpu=" + host_cpu] if host_cpu else []
    if team_size > 1:
        options.append("team-size=%d" % team_size)
    if gpu_options:
        options.append("gpu-options=" + gpu_options)
    options = ",".join(options)
    return _core.cache_key("shared-library", target, chip if target == "cuda" else "", options,
                           ir)


def _host_code_features(compiler, ir, host_cpu):
    """The CPU features that host code compiled for `host_cpu` ("": this
    CPU) may use; CompileError naming a CPU that LLVM does not know."""
    try:
        return compiler.host_code_cpu_features(host_cpu)
    except compiler.CompileFailed as e:
        raise CompileError(str(e), str(e), ir) from None


def _run_compiler(compiler, ir, target, chip, host_cpu, dest, team_size, gpu_options):
    """Compiles `ir` to the shared library `dest` (atomically) in process."""
    start = time.perf_counter()
    name = _core.cache_companion_path(dest, "mlir")
    try:
        stages = compiler.compile_library(ir, target, chip if target == "cuda" else "",
                                          host_cpu, dest, R.library_dir(), name,
                                          team_size, gpu_options)
    except compiler.CompileFailed as e:
        raise CompileError("compiling %s failed:\n%s" % (name, e), str(e), ir) from None
    log.info("compiled %s (%s) in %.0f ms: %s", os.path.basename(dest),
             target + (", " + gpu_options if gpu_options else ""),
             1e3 * (time.perf_counter() - start), stages)


def _compile_into_cache(compiler, ir, target, chip, host_cpu, path, features=None,
                        team_size=1, gpu_options=""):
    """Compiles `ir` into the cache entry `path` (KEY.so) with its IR
    (KEY.mlir) and the compiler's build identity (KEY.id), each written
    atomically; the .id is written last, so a compile killed halfway leaves
    an entry that is not current. The .id records the CPU features the
    host code may use (`features`, asked of the compiler when None): this
    CPU's, or those of `host_cpu`."""
    if features is None:
        features = _host_code_features(compiler, ir, host_cpu)
    _core.cache_write(_core.cache_companion_path(path, "mlir"), ir)
    _run_compiler(compiler, ir, target, chip, host_cpu, path, team_size, gpu_options)
    _core.cache_record_build_id(path, compiler_build_id() or "", features)


def _check_runs_here(ir, host_cpu, features):
    """CompileError when `host_cpu` (PTENSOR_HOST_CPU), whose host code
    may use `features`, has CPU features that this CPU lacks: its code
    would be loaded here and die of an illegal instruction."""
    if not host_cpu:
        return
    lacking = _core.missing_cpu_features(features)
    if lacking:
        raise CompileError(
            "PTENSOR_HOST_CPU=%s names a CPU with %s, which this CPU lacks: code compiled "
            "for it cannot run here (unset PTENSOR_HOST_CPU, or name a CPU whose features "
            "this one has)" % (host_cpu, ", ".join(lacking)), "", ir)


def library_path(ir, target):
    """Where the compiled library of `ir` lives (or would live) in the cache."""
    return _core.cache_entry_path(cache_dir(), cache_key(ir, target), "so")


def compile_ir(ir, target="cpu", load=True, team_size=1, gpu_options=""):
    """The loaded Library of `ir` for `target` ("cpu" or "cuda"), compiling
    it unless a current one is cached. Raises CompileError. With
    load=False (and for "cuda" kernels in compile-only mode) the library
    is only compiled into the cache and its path is returned. Its team
    tensors are split over `team_size` processes (CPU; docs/Teams.md).
    `gpu_options`: more options of ptensor-to-nvvm-pipeline ("cuda")."""
    from ._ffi import Library  # late: _ffi imports this module

    if target not in ("cpu", "cuda"):
        raise ValueError("target must be 'cpu' or 'cuda', got %r" % (target,))
    chip = chip_for(target)
    if target != "cuda":
        gpu_options = ""  # host code has no GPU pipeline
    host_cpu = _core.requested_host_cpu()  # read once: the key and the compile agree
    key = cache_key(ir, target, chip, host_cpu, team_size, gpu_options)
    # Loaded here (CPU code, and CUDA kernels' host code outside
    # compile-only mode): it must run on this CPU.
    loads = load and not (target == "cuda" and _runtime_optional())
    with _lock:
        lib = _loaded.get(key)
        if lib is not None:
            return lib
        directory = cache_dir()
        path = _core.cache_entry_path(directory, key, "so")
        compiler = None
        if not _is_current(path):
            compiler = find_compiler()
            if compiler is None:
                raise CompileError(
                    "this ptensor has no compiler (ptensor._compile), and the cache "
                    "directory %s (PTENSOR_CACHE_DIR) has no usable kernel %s.so (target %s): "
                    "%s; compile it on a machine with the compiler (and a CPU with no more "
                    "features than this one) and copy the cache."
                    % (directory, key, target,
                       _core.cache_why_not_current(path, compiler_build_id() or "")),
                    "", ir)
            # Asked once: the check here and the entry's .id use them.
            features = _host_code_features(compiler, ir, host_cpu)
            if loads:
                _check_runs_here(ir, host_cpu, features)
            writable = _writable_dir(directory)
            if writable != directory:
                path = _core.cache_entry_path(writable, key, "so")
            # Processes compiling the same code at once (the ranks of an
            # mpirun) wait for the first one's entry instead of compiling it
            # again.
            entry_lock = _core.CacheEntryLock(path)
            try:
                if not _is_current(path):
                    try:
                        _compile_into_cache(compiler, ir, target, chip, host_cpu, path,
                                            features, team_size, gpu_options)
                    except RuntimeError as e:  # a write failed (a full disk)
                        if writable == _private_cache or isinstance(e, CompileError):
                            raise
                        _cache_unwritable(directory, str(e))
                        path = _core.cache_entry_path(_private_dir(), key, "so")
                        _compile_into_cache(compiler, ir, target, chip, host_cpu, path,
                                            features, team_size, gpu_options)
            finally:
                entry_lock.release()
        if not loads:
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
            compiler = compiler or find_compiler()
            if compiler is None:
                raise CompileError("the cached library %s cannot be loaded: %s" % (path, e),
                                   str(e), ir) from None
            _compile_into_cache(compiler, ir, target, chip, host_cpu, path,
                                team_size=team_size, gpu_options=gpu_options)
            try:
                lib = Library(path, target)
            except (OSError, ValueError) as e:
                raise CompileError("the compiled library %s cannot be loaded: %s" % (path, e),
                                   str(e), ir) from None
        _loaded[key] = lib
        return lib


def compiler_version():
    """The compiler's identity (as `ptensor-compile --version` prints it
    after "build id:"), or None without a compiler."""
    return compiler_build_id()


def _runtime_optional():
    """Compile-only mode fills a cache of CUDA kernels on a machine that
    may have no GPU."""
    return _core.is_compile_only()
