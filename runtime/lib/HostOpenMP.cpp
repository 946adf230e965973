//===- HostOpenMP.cpp - the OpenMP runtime, loaded on the first fork ------===//
//
// Parallel host code calls OpenMP's runtime (LLVM's libomp) through these
// forwarders: the compiler names each `__kmpc_X` call `ptensor_rt_omp_X`
// (lib/Compiler/OpenMPCalls.cpp), so a kernel library does not link libomp
// and loading it does not load libomp (0.4-0.7 ms of a process's first call
// on the 2-core build machine, with the loader's search for it along the
// library's RUNPATH). Loop nests too small to fork (ptensor-parallel-threshold)
// call none of them; the first one that forks loads libomp, from
// PTENSOR_OPENMP_LIBRARY if set, else the library the runtime was built
// beside, else by its soname. Without one, the regions run on the calling
// thread (a parallel region of one thread, which is what the code computes
// either way) and the runtime says so once on stderr.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/PTensorRuntime.h"

#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include <dlfcn.h>

namespace {

using Microtask = ptensor_rt_omp_microtask;

/// libomp's entry points, or all null when it could not be loaded.
struct OpenMP {
  int32_t (*globalThreadNum)(void *) = nullptr;
  void (*pushNumThreads)(void *, int32_t, int32_t) = nullptr;
  void (*forkCall)(void *, int32_t, Microtask, ...) = nullptr;
  void (*forStaticInit8u)(void *, int32_t, int32_t, int32_t *, uint64_t *,
                          uint64_t *, int64_t *, int64_t, int64_t) = nullptr;
  void (*forStaticFini)(void *, int32_t) = nullptr;
  void (*barrier)(void *, int32_t) = nullptr;

  static const OpenMP &get() {
    static const OpenMP openMP = load();
    return openMP;
  }

private:
  /// Where libomp is looked for, in order.
  static std::array<std::string, 2> candidates() {
    if (const char *path = std::getenv("PTENSOR_OPENMP_LIBRARY"))
      return {path, ""};
#ifdef PTENSOR_RT_OPENMP_LIBRARY
    return {PTENSOR_RT_OPENMP_LIBRARY, "libomp.so.5"};
#else
    return {"libomp.so.5", ""};
#endif
  }

  template <typename Fn> static bool bind(void *library, const char *name,
                                          Fn &fn) {
    fn = reinterpret_cast<Fn>(dlsym(library, name));
    return fn != nullptr;
  }

  static OpenMP load() {
    std::string errors;
    for (const std::string &path : candidates()) {
      if (path.empty())
        continue;
      void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!library) {
        const char *error = dlerror();
        errors += std::string(errors.empty() ? "" : "; ") +
                  (error ? error : path.c_str());
        continue;
      }
      OpenMP o;
      if (bind(library, "__kmpc_global_thread_num", o.globalThreadNum) &&
          bind(library, "__kmpc_push_num_threads", o.pushNumThreads) &&
          bind(library, "__kmpc_fork_call", o.forkCall) &&
          bind(library, "__kmpc_for_static_init_8u", o.forStaticInit8u) &&
          bind(library, "__kmpc_for_static_fini", o.forStaticFini) &&
          bind(library, "__kmpc_barrier", o.barrier))
        return o;
      errors += std::string(errors.empty() ? "" : "; ") + path +
                " lacks one of libomp's __kmpc_ functions";
      dlclose(library);
    }
    std::fprintf(stderr,
                 "ptensor runtime: no OpenMP runtime (%s); parallel loops run "
                 "on the calling thread (install libomp, or set "
                 "PTENSOR_OPENMP_LIBRARY to its path)\n",
                 errors.c_str());
    return OpenMP();
  }
};

/// The outlined region's arguments, read from a forwarder's `...`: OpenMP
/// passes each as a pointer-sized value.
using Arguments = std::array<void *, PTENSOR_RT_OMP_MAX_FORK_ARGUMENTS>;

/// libomp's fork of `task` with the first N of `args`, for each N: a
/// variadic call cannot be forwarded, so each count is a call of its own.
template <size_t... I>
void forkWith(void *loc, Microtask task, const Arguments &args,
              std::index_sequence<I...>) {
  OpenMP::get().forkCall(loc, int32_t(sizeof...(I)), task, args[I]...);
}

/// The region on the calling thread alone (thread 0 of a team of one).
template <size_t... I>
void runOnCallingThread(Microtask task, const Arguments &args,
                        std::index_sequence<I...>) {
  int32_t globalThread = 0, boundThread = 0;
  task(&globalThread, &boundThread, args[I]...);
}

using Fork = void (*)(void *, Microtask, const Arguments &);
using Serial = void (*)(Microtask, const Arguments &);

template <size_t... N>
constexpr std::array<Fork, sizeof...(N)> forkTable(std::index_sequence<N...>) {
  return {[](void *loc, Microtask task, const Arguments &args) {
    forkWith(loc, task, args, std::make_index_sequence<N>());
  }...};
}

template <size_t... N>
constexpr std::array<Serial, sizeof...(N)>
serialTable(std::index_sequence<N...>) {
  return {[](Microtask task, const Arguments &args) {
    runOnCallingThread(task, args, std::make_index_sequence<N>());
  }...};
}

constexpr auto kForks =
    forkTable(std::make_index_sequence<PTENSOR_RT_OMP_MAX_FORK_ARGUMENTS + 1>());
constexpr auto kSerial = serialTable(
    std::make_index_sequence<PTENSOR_RT_OMP_MAX_FORK_ARGUMENTS + 1>());

} // namespace

extern "C" {

PTENSOR_RT_EXPORT int32_t ptensor_rt_omp_global_thread_num(void *loc) {
  const OpenMP &openMP = OpenMP::get();
  return openMP.globalThreadNum ? openMP.globalThreadNum(loc) : 0;
}

PTENSOR_RT_EXPORT void ptensor_rt_omp_push_num_threads(void *loc,
                                                       int32_t globalThread,
                                                       int32_t threads) {
  const OpenMP &openMP = OpenMP::get();
  if (openMP.pushNumThreads)
    openMP.pushNumThreads(loc, globalThread, threads);
}

PTENSOR_RT_EXPORT void ptensor_rt_omp_fork_call(void *loc, int32_t argc,
                                                Microtask task, ...) {
  if (argc < 0 || argc > PTENSOR_RT_OMP_MAX_FORK_ARGUMENTS) {
    // The compiler forwards no fork with more (OpenMPCalls.cpp).
    std::fprintf(stderr,
                 "ptensor runtime: a parallel region with %d arguments (at "
                 "most %d are forwarded)\n",
                 int(argc), PTENSOR_RT_OMP_MAX_FORK_ARGUMENTS);
    std::abort();
  }
  Arguments args{};
  va_list list;
  va_start(list, task);
  for (int32_t i = 0; i < argc; ++i)
    args[size_t(i)] = va_arg(list, void *);
  va_end(list);
  if (OpenMP::get().forkCall)
    kForks[size_t(argc)](loc, task, args);
  else
    kSerial[size_t(argc)](task, args);
}

PTENSOR_RT_EXPORT void
ptensor_rt_omp_for_static_init_8u(void *loc, int32_t globalThread,
                                  int32_t schedule, int32_t *lastIteration,
                                  uint64_t *lower, uint64_t *upper,
                                  int64_t *stride, int64_t increment,
                                  int64_t chunk) {
  const OpenMP &openMP = OpenMP::get();
  if (openMP.forStaticInit8u) {
    openMP.forStaticInit8u(loc, globalThread, schedule, lastIteration, lower,
                           upper, stride, increment, chunk);
    return;
  }
  // As libomp's static schedule for a team of one: the calling thread
  // takes the whole range [*lower, *upper] (inclusive bounds); an empty one
  // (past its end already) is left as it is, with no last iteration and
  // the increment as the stride.
  bool empty = increment > 0 ? *upper < *lower : *lower < *upper;
  if (empty) {
    *lastIteration = 0;
    *stride = increment;
    return;
  }
  *lastIteration = 1;
  *stride = increment > 0 ? int64_t(*upper - *lower) + 1
                          : -int64_t(*lower - *upper + 1);
}

PTENSOR_RT_EXPORT void ptensor_rt_omp_for_static_fini(void *loc,
                                                      int32_t globalThread) {
  const OpenMP &openMP = OpenMP::get();
  if (openMP.forStaticFini)
    openMP.forStaticFini(loc, globalThread);
}

PTENSOR_RT_EXPORT void ptensor_rt_omp_barrier(void *loc,
                                              int32_t globalThread) {
  const OpenMP &openMP = OpenMP::get();
  if (openMP.barrier)
    openMP.barrier(loc, globalThread);
}

} // extern "C"
