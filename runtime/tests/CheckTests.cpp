//===- CheckTests.cpp - failed run-time checks of compiled code -----------===//
///
/// \file
/// What compiled code's failed checks do: under ptensor_rt_call_checked
/// they become a status and a message (nested calls each get their own),
/// and with no trap they print the message and abort.
///
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "BoundedText.h"

#include "ptensor/Runtime/PTensorRuntime.h"

#include <csignal>
#include <cstdarg>
#include <cstdlib>
#include <string>

using namespace ptensor::rt::test;
using ptensor::rt::BoundedText;

namespace {

/// Packed entry points standing in for compiled functions.
void failsBroadcast(void **) {
  int64_t source[2] = {3, 4}, target[6] = {-1, 2, -1, 5, -1, 4};
  // The target's sizes are every other element (stride 2, offset 1).
  ptensor_rt_broadcast_failed(source, source, 0, 2, 1, target, target, 1, 3,
                              2);
}

void failsCheck(void **) { ptensor_rt_check_failed("ptensor: sizes differ"); }

void succeeds(void **args) { *static_cast<int *>(args[0]) = 7; }

/// Calls failsCheck through a nested checked call, then fails itself.
void nested(void **args) {
  ptensor_rt_status inner = ptensor_rt_call_checked(failsCheck, nullptr);
  *static_cast<int *>(args[0]) = inner;
  failsBroadcast(nullptr);
}

const char *name(ptensor_rt_status s) {
  return s == PTENSOR_RT_SUCCESS              ? "SUCCESS"
         : s == PTENSOR_RT_ERROR_BROADCAST    ? "BROADCAST"
         : s == PTENSOR_RT_ERROR_CHECK_FAILED ? "CHECK_FAILED"
                                              : "?";
}

void testTrappedFailures() {
  ptensor_rt_status s = ptensor_rt_call_checked(failsBroadcast, nullptr);
  std::printf("broadcast -> %s: %s\n", name(s), ptensor_rt_last_error());
  EXPECT_EQ(s, PTENSOR_RT_ERROR_BROADCAST);
  EXPECT_CONTAINS(ptensor_rt_last_error(),
                  "cannot broadcast shape [3, 4] to shape [2, 5, 4]: size 3 "
                  "of source dimension 0 is neither 1 nor 5");

  s = ptensor_rt_call_checked(failsCheck, nullptr);
  std::printf("check -> %s: %s\n", name(s), ptensor_rt_last_error());
  EXPECT_EQ(s, PTENSOR_RT_ERROR_CHECK_FAILED);
  EXPECT_EQ(std::string(ptensor_rt_last_error()),
            std::string("ptensor runtime: sizes differ"));

  int value = 0;
  void *args[] = {&value};
  s = ptensor_rt_call_checked(succeeds, args);
  std::printf("success -> %s, value %d\n", name(s), value);
  EXPECT_EQ(s, PTENSOR_RT_SUCCESS);
  EXPECT_EQ(value, 7);

  int inner = -1;
  void *nestedArgs[] = {&inner};
  s = ptensor_rt_call_checked(nested, nestedArgs);
  std::printf("nested -> inner %s, outer %s\n",
              name(static_cast<ptensor_rt_status>(inner)), name(s));
  EXPECT_EQ(inner, PTENSOR_RT_ERROR_CHECK_FAILED);
  EXPECT_EQ(s, PTENSOR_RT_ERROR_BROADCAST);
}

void testUntrappedFailureAborts() {
  ChildResult child = runInChild([] {
    failsCheck(nullptr);
    return 42; // Not reached.
  });
  std::printf("no trap: signal %s, output: %s\n",
              child.signal == SIGABRT ? "SIGABRT" : "other",
              child.output.c_str());
  EXPECT_EQ(child.signal, SIGABRT);
  EXPECT_CONTAINS(child.output, "ptensor runtime: sizes differ");
}

/// A message longer than the runtime keeps is cut, with a marker.
void testLongMessageIsCut() {
  static std::string message;
  message = "ptensor: " + std::string(5000, 'x');
  ptensor_rt_status s = ptensor_rt_call_checked(
      [](void **) { ptensor_rt_check_failed(message.c_str()); }, nullptr);
  std::string kept = ptensor_rt_last_error();
  std::printf("long message -> %s, %zu characters, ending '%s'\n", name(s),
              kept.size(), kept.substr(kept.size() - 8).c_str());
  EXPECT_EQ(s, PTENSOR_RT_ERROR_CHECK_FAILED);
  EXPECT_EQ(kept.size(), size_t(4095));
  EXPECT_EQ(kept.substr(kept.size() - 6), std::string(" [...]"));
}

/// An error recorded after the thread's thread_local destructors have run,
/// as MLIR's module-unload global destructor does at exit when the driver
/// is gone: the message is kept and nothing freed is written (the
/// sanitizer build reported a heap-use-after-free here).
void testErrorAfterThreadDestructors() {
  ChildResult child = runInChild([] {
    // A first message too long for any small-string buffer.
    ptensor_rt_free(reinterpret_cast<void *>(0x1000), nullptr);
    std::atexit([] {
      ptensor_rt_free(reinterpret_cast<void *>(0x2000), nullptr);
      std::printf("at exit: %s\n", ptensor_rt_last_error());
    });
    std::exit(0); // thread_local destructors first, then the handler
    return 1;
  });
  std::printf("after thread destructors: exit %d, %s\n", child.exitCode,
              child.output.c_str());
  EXPECT_EQ(child.exitCode, 0);
  EXPECT_CONTAINS(child.output, "at exit: ptensor runtime: free of pointer "
                                "0x2000, which is not a live allocation");
}

/// Formats into `text` through BoundedText::appendf.
void appendFormatted(BoundedText &text, const char *format, ...) {
  va_list args;
  va_start(args, format);
  text.appendf(format, args);
  va_end(args);
}

/// BoundedText (the last-error text of the runtime and of the team
/// library): text that fits is kept whole, to the last character; longer
/// text, appended or formatted, is cut and ends in " [...]".
void testBoundedText() {
  static BoundedText text;
  const size_t most = BoundedText::kCapacity - 1;
  std::string fits(most - 3, 'a');
  text.assign("abc");
  text.append(fits);
  bool whole = text.length == most && std::string(text.text) == "abc" + fits;
  text.assign("abc");
  appendFormatted(text, "%s", fits.c_str());
  bool wholeFormatted =
      text.length == most && std::string(text.text) == "abc" + fits;
  text.assign("abc");
  text.append(fits + "b");
  std::string appended = text.text;
  text.assign("abc");
  appendFormatted(text, "%s%d", fits.c_str(), 42);
  std::string formatted = text.text;
  std::printf("bounded text: fits %s, fits formatted %s, cut %zu '%s', cut "
              "formatted %zu '%s'\n",
              whole ? "whole" : "CHANGED", wholeFormatted ? "whole" : "CHANGED",
              appended.size(), appended.substr(appended.size() - 8).c_str(),
              formatted.size(), formatted.substr(formatted.size() - 8).c_str());
  EXPECT_EQ(whole, true);
  EXPECT_EQ(wholeFormatted, true);
  EXPECT_EQ(appended, "abc" + fits.substr(0, fits.size() - 6) + " [...]");
  EXPECT_EQ(formatted, appended);
}

} // namespace

int ptensor::rt::test::runCheckTests() {
  testTrappedFailures();
  testUntrappedFailureAborts();
  testLongMessageIsCut();
  testErrorAfterThreadDestructors();
  testBoundedText();
  return failureCount();
}
