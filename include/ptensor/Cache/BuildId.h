//===- BuildId.h - the identity of a compiler build -------------*- C++ -*-===//
//
// A cache entry records the build of the compiler that made it (KEY.id).
// The compiler computes its identity from its own loaded binary
// (ptensor/Compiler/Compiler.h: getCompilerBuildId); the Python package
// computes the same text from the compiler extension's file, so that a
// warm cache is checked without loading the compiler (and LLVM) at all.
// Both assemble it here, in plain C++17 (no LLVM).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CACHE_BUILDID_H
#define PTENSOR_CACHE_BUILDID_H

#include <cstddef>
#include <string>

namespace ptensor::cache {

/// The GNU build-id (NT_GNU_BUILD_ID) in the ELF note area `notes` of
/// `size` bytes (a PT_NOTE segment), as lowercase hex; "" when there is
/// none.
std::string gnuBuildIdInNotes(const char *notes, size_t size);

/// The identity of a binary that has no build-id note: its path, size and
/// modification time in nanoseconds ("PATH:SIZE:MTIME"); "unknown-binary"
/// when it cannot be read.
std::string fileStatusIdentity(const std::string &path);

/// The identity of the ELF binary at `path` as getCompilerBuildId records
/// it when that binary is the one running: "build-id:HEX" from its
/// PT_NOTE segments, else fileStatusIdentity(path).
std::string binaryIdentityOfFile(const std::string &path);

/// The compiler's build identity: ptensor's version and commit, the
/// identity of the binary holding the compiler (the linker hashes the linked
/// contents into the build-id, so any rebuild changes it) and LLVM's
/// version.
std::string formatCompilerBuildId(const std::string &version,
                                  const std::string &commit,
                                  const std::string &binaryIdentity,
                                  const std::string &llvmVersion);

} // namespace ptensor::cache

#endif // PTENSOR_CACHE_BUILDID_H
