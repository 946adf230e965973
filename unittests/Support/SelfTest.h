//===- SelfTest.h - Built-in unit tests for PTensorSupport -----*- C++ -*-===//

#ifndef PTENSOR_UNITTESTS_SUPPORT_SELFTEST_H
#define PTENSOR_UNITTESTS_SUPPORT_SELFTEST_H

/// Runs all unit checks; prints failures and a summary line. Returns the
/// process exit status (0 if everything passed).
int runSelfTest();

#endif // PTENSOR_UNITTESTS_SUPPORT_SELFTEST_H
