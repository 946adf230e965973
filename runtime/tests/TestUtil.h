//===- TestUtil.h - Minimal check macros for runtime tests -----*- C++ -*-===//
///
/// \file
/// Checks print "FAILED: file:line: expression (details)" to stdout and count
/// failures; a suite returns the count, and main() exits non-zero if any.
///
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_TESTS_TESTUTIL_H
#define PTENSOR_RUNTIME_TESTS_TESTUTIL_H

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

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

// Suites, one per subcommand; each returns its failure count.
int runAllocatorTests();
int runNoDriverTests();
int runDLPackTests();

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
