//===- Threads.cpp - how many threads parallel host code uses -------------===//

#include "ptensor/Semantics/Threads.h"

#include <cstdlib>
#include <sched.h>
#include <thread>

namespace ptensor::semantics {

/// The CPUs of this process's affinity mask (hardware_concurrency where it
/// cannot be read).
static unsigned availableCPUs() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0)
      return static_cast<unsigned>(count);
  }
  unsigned count = std::thread::hardware_concurrency();
  return count ? count : 1;
}

unsigned hostThreadCount(unsigned processes) {
  static const unsigned fromEnvironment = [] {
    if (const char *value = std::getenv("PTENSOR_NUM_THREADS")) {
      char *end = nullptr;
      unsigned long n = std::strtoul(value, &end, 10);
      if (end != value && *end == '\0' && n >= 1 && n <= 4096)
        return static_cast<unsigned>(n);
    }
    return 0u;
  }();
  if (fromEnvironment)
    return fromEnvironment;
  static const unsigned cpus = availableCPUs();
  unsigned share = cpus / (processes ? processes : 1);
  return share ? share : 1;
}

} // namespace ptensor::semantics
