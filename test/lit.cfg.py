# -*- Python -*-
"""lit configuration of the ptensor test suite."""

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "PTENSOR"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".py"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "conftest.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptensor_obj_root, "test")

llvm_config.with_system_environment(["HOME", "TMPDIR", "CUDA_HOME"])

# ptensor-compile and ptensor._compile carry the static LLVM/MLIR
# (PTENSOR_STATIC_COMPILERS).
if config.ptensor_static_compilers:
    config.available_features.add("static-compilers")

# The sanitizer build (scripts/setup.sh sanitize): every finding fails its test.
# Leak checking is off: LLVM's and MLIR's global registries (cl::opt,
# dialect registrations) are reported at exit by LeakSanitizer.
if config.ptensor_sanitize:
    config.available_features.add("sanitize")
    # allow_user_poisoning=0: LLVM's allocators poison and unpoison their
    # slabs by hand only where LLVM_ADDRESS_SANITIZER_BUILD is set; ptensor
    # is, the Debian LLVM/LLD archives are not, so the linker may pick an
    # instrumented copy of BumpPtrAllocator's inline code for memory that the
    # uninstrumented copy never unpoisons (use-after-poison inside LLD's
    # link). Compiler-inserted checks (heap, stack, scope) stay on.
    # allocator_may_return_null=1: a failed malloc returns null, as without
    # ASan (which otherwise aborts on requests beyond its 1 TiB limit), so
    # the out-of-memory paths (a 4 TiB result in capi.test) are tested here
    # too.
    config.environment["ASAN_OPTIONS"] = ("detect_leaks=0:abort_on_error=0:"
                                          "detect_stack_use_after_return=1:"
                                          "allow_user_poisoning=0:"
                                          "allocator_may_return_null=1")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    # MPICH's UCX patches mmap in place when libptensor_team loads (its
    # "bistro" hooks), which crashes under ASan's interceptors; UCX works
    # without the hooks.
    config.environment["UCX_MEM_MMAP_HOOK_MODE"] = "none"

# %sanitized_host runs an uninstrumented program (Python) that loads code
# linked against ptensor's instrumented libraries (a module calling the
# runtime's failed-check functions): the ASan runtime is preloaded, as the
# instrumented executables have it linked in.
_sanitized_host = ""
if config.ptensor_sanitize:
    import glob
    _asan = sorted(glob.glob(os.path.join(
        config.llvm_tools_dir, "..", "lib", "clang", "*", "lib", "linux",
        "libclang_rt.asan-x86_64.so")))
    if _asan:
        _sanitized_host = "env LD_PRELOAD=%s" % os.path.realpath(_asan[-1])
config.substitutions.append(("%sanitized_host", _sanitized_host))
llvm_config.use_default_substitutions()

# ptensor's own tools first, then FileCheck/not/count from LLVM 22.
llvm_config.with_environment("PATH", config.ptensor_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PTENSOR_BUILD_DIR", config.ptensor_obj_root)
# Compiled-kernel caches of tests stay inside the build tree.
llvm_config.with_environment(
    "PTENSOR_CACHE_DIR", os.path.join(config.ptensor_obj_root, "test", "cache"))

# lit's defaults map %python to lit's own interpreter; tests need the one
# CMake found (with numpy).
config.substitutions = [(k, v) for (k, v) in config.substitutions if k != "%python"]
config.substitutions.insert(0, ("%python", config.python_executable))
config.substitutions.append(("%ptensor_src", config.ptensor_src_root))
config.substitutions.append(("%ptensor_lib", config.ptensor_lib_dir))
# ptensor's tools by path, for RUN lines that replace PATH.
config.substitutions.append(("%ptensor_tools", config.ptensor_tools_dir))

# Team tests run under mpirun with libptensor_team (MPI).
if shutil.which("mpirun") and os.path.exists(
        os.path.join(config.ptensor_lib_dir, "libptensor_team.so")):
    config.available_features.add("mpi")

config.substitutions.append(("%cuda_home", config.cuda_home or "/usr/local/cuda"))
if shutil.which("ptxas", path=os.path.join(config.cuda_home or "/usr/local/cuda", "bin")):
    config.available_features.add("ptxas")

# The libFuzzer target exists in the Clang sanitizer build only.
if shutil.which("ptensor-fuzz-parse", path=config.ptensor_tools_dir):
    config.available_features.add("libfuzzer")

# Host math is vectorized through glibc's vector math library where the
# system has it (x86-64 glibc 2.35+).
import ctypes
with open("/proc/cpuinfo") as cpuinfo:
    cpu_flags = cpuinfo.read()
# Code compiled for x86-64-v3 (AVX2 and FMA) runs here.
if " avx2" in cpu_flags and " fma" in cpu_flags:
    config.available_features.add("x86-64-v3")
try:
    ctypes.CDLL("libmvec.so.1")._ZGVbN4v_tanhf
    config.available_features.add("libmvec")
    # ... and its AVX-512 variants where this CPU runs them.
    ctypes.CDLL("libmvec.so.1")._ZGVeN16v_tanhf
    if " avx512f" in cpu_flags:
        config.available_features.add("libmvec-avx512")
except (OSError, AttributeError):
    pass
