//===- TestUtil.h - Minimal check macros for runtime tests -----*- C++ -*-===//
///
/// \file
/// Checks print "FAILED: file:line: expression (details)" to stdout and count
/// failures; a suite returns the count, and main() exits non-zero if any.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_TESTS_TESTUTIL_H
#define PTENSOR_RUNTIME_TESTS_TESTUTIL_H

#include "ptensor/Runtime/Status.h"

#include <climits>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace ptensor::rt::test {

/// Failures recorded by the current suite.
inline int &failureCount() {
  static int count = 0;
  return count;
}

inline void reportFailure(const char *file, int line, const std::string &what) {
  std::printf("FAILED: %s:%d: %s\n", file, line, what.c_str());
  std::fflush(stdout);
  ++failureCount();
}

template <typename A, typename B>
void checkEqual(const A &actual, const B &expected, const char *actualText,
                const char *expectedText, const char *file, int line) {
  if (actual == expected)
    return;
  std::ostringstream os;
  os << actualText << " == " << expectedText << " (got " << actual
     << ", expected " << expected << ")";
  reportFailure(file, line, os.str());
}

/// True if `text` contains `needle`.
inline bool contains(const std::string &text, const std::string &needle) {
  return text.find(needle) != std::string::npos;
}

/// What a forked child did.
struct ChildResult {
  int exitCode = -1; // -1 if killed by a signal.
  int signal = 0;
  std::string output; // stdout and stderr together.
};

/// Runs `body` in a forked child with stdout/stderr captured; `body`'s
/// return value becomes the exit code if it returns.
template <typename Fn> ChildResult runInChild(Fn body) {
  ChildResult result;
  int fds[2];
  if (pipe(fds) != 0)
    return result;
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    int code = body();
    std::fflush(stdout);
    _exit(code);
  }
  close(fds[1]);
  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0)
    result.output.append(buffer, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.signal = WTERMSIG(status);
  while (!result.output.empty() && result.output.back() == '\n')
    result.output.pop_back();
  return result;
}

/// "OUT_OF_MEMORY" for PTENSOR_RT_ERROR_OUT_OF_MEMORY, ...
inline const char *statusName(ptensor_rt_status status) {
  switch (status) {
  case PTENSOR_RT_SUCCESS:
    return "SUCCESS";
  case PTENSOR_RT_ERROR_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case PTENSOR_RT_ERROR_NO_DRIVER:
    return "NO_DRIVER";
  case PTENSOR_RT_ERROR_OUT_OF_MEMORY:
    return "OUT_OF_MEMORY";
  case PTENSOR_RT_ERROR_CUDA:
    return "CUDA";
  case PTENSOR_RT_ERROR_UNSUPPORTED:
    return "UNSUPPORTED";
  case PTENSOR_RT_ERROR_BROADCAST:
    return "BROADCAST";
  case PTENSOR_RT_ERROR_CHECK_FAILED:
    return "CHECK_FAILED";
  }
  return "?";
}

/// The stand-in CUDA driver (runtime/tests/fake_cuda.c) built next to the
/// test binary (build/lib), or "".
inline std::string fakeDriverPath() {
  char self[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0)
    return "";
  std::string path(self, size_t(length));
  path = path.substr(0, path.rfind('/')) + "/../lib/libptensor_fake_cuda.so";
  return access(path.c_str(), R_OK) == 0 ? path : "";
}

// Suites, one per subcommand; each returns its failure count.
int runAllocatorTests();
int runNoDriverTests();
int runDLPackTests();
int runCheckTests();
int runGemmTests();
int runMgpuTrapTests();
int runMemorySourceTests();
int runSortTests();
int runCompactTests();
int runThreadTests();
int runOpenMPTests();

} // namespace ptensor::rt::test

#define EXPECT_TRUE(cond)                                                      \
  do {                                                                         \
    if (!(cond))                                                               \
      ::ptensor::rt::test::reportFailure(__FILE__, __LINE__, #cond);           \
  } while (0)

#define EXPECT_EQ(actual, expected)                                            \
  ::ptensor::rt::test::checkEqual((actual), (expected), #actual, #expected,    \
                                  __FILE__, __LINE__)

#define EXPECT_CONTAINS(text, needle)                                          \
  do {                                                                         \
    std::string text_ = (text);                                                \
    if (!::ptensor::rt::test::contains(text_, (needle)))                       \
      ::ptensor::rt::test::reportFailure(                                      \
          __FILE__, __LINE__,                                                  \
          std::string(#text " contains \"") + (needle) + "\" (got \"" +        \
              text_ + "\")");                                                  \
  } while (0)

#endif // PTENSOR_RUNTIME_TESTS_TESTUTIL_H
