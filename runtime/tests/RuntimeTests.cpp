//===- RuntimeTests.cpp - ptensor-runtime-tests driver --------------------===//
///
/// \file
/// GPU-free tests of libptensor_runtime. Usage:
///   ptensor-runtime-tests
///       allocator|no-driver|dlpack|checks|gemm|mgpu-traps|memory-source|
///       sort|compact|threads|openmp|all
/// Each suite prints its observations (checked by lit/FileCheck in
/// test/Runtime) and "PASSED <suite>" or "FAILED <suite>: N check(s)".
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cstdio>
#include <cstring>

using namespace ptensor::rt::test;

namespace {
struct Suite {
  const char *name;
  int (*run)();
};
const Suite kSuites[] = {{"allocator", runAllocatorTests},
                         {"no-driver", runNoDriverTests},
                         {"dlpack", runDLPackTests},
                         {"checks", runCheckTests},
                         {"gemm", runGemmTests},
                         {"mgpu-traps", runMgpuTrapTests},
                         {"memory-source", runMemorySourceTests},
                         {"sort", runSortTests},
                         {"compact", runCompactTests},
                         {"threads", runThreadTests},
                         {"openmp", runOpenMPTests}};

int runSuite(const Suite &suite) {
  failureCount() = 0;
  int failures = suite.run();
  if (failures == 0)
    std::printf("PASSED %s\n", suite.name);
  else
    std::printf("FAILED %s: %d check(s)\n", suite.name, failures);
  std::fflush(stdout);
  return failures;
}

int usage(const char *argv0) {
  std::fprintf(stderr, "usage: %s <suite>\nsuites:", argv0);
  for (const Suite &suite : kSuites)
    std::fprintf(stderr, " %s", suite.name);
  std::fprintf(stderr, " all\n");
  return 2;
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 2)
    return usage(argv[0]);
  int failures = 0;
  bool found = false;
  for (const Suite &suite : kSuites) {
    if (std::strcmp(argv[1], suite.name) == 0 ||
        std::strcmp(argv[1], "all") == 0) {
      failures += runSuite(suite);
      found = true;
    }
  }
  if (!found) {
    std::fprintf(stderr, "unknown suite '%s'\n", argv[1]);
    return usage(argv[0]);
  }
  return failures == 0 ? 0 : 1;
}
