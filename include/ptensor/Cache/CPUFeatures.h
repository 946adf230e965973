//===- CPUFeatures.h - instruction sets that cached host code needs -*- C++ -*-===//
//
// Host code is compiled for the CPU of the machine that compiles it (LLVM's
// host CPU and features: AVX-512 where it has it), or for the CPU that
// PTENSOR_HOST_CPU names. A cache entry records those of the features below
// that the CPU it was compiled for has, and a machine that lacks one of
// them does not use the entry (it is rebuilt where a
// compiler is, and named in the error where none is) instead of dying of
// an illegal instruction. Plain C++17 (CPUID), like the rest of the cache:
// the Python binding asks it where no LLVM is.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_CACHE_CPUFEATURES_H
#define PTENSOR_CACHE_CPUFEATURES_H

#include <string>
#include <vector>

namespace ptensor::cache {

/// The instruction-set extensions that LLVM's x86-64 code generator may use
/// in code it generates for a CPU that has them (no intrinsics needed),
/// by LLVM's feature names; empty on other architectures.
const std::vector<std::string> &knownCPUFeatures();

/// Those of knownCPUFeatures() that this CPU has and the OS enables (AVX
/// and AVX-512 register state saved, XGETBV), in knownCPUFeatures()' order.
const std::vector<std::string> &hostCPUFeatures();

/// The CPU that host code is compiled for when the environment names one
/// (PTENSOR_HOST_CPU, an LLVM CPU name such as `x86-64-v3`, surrounding
/// blanks dropped), or "" for this machine's CPU. Read in one place: the
/// Python package's compiles and cache keys, and ptensor-compile's --cpu
/// default.
std::string requestedHostCPU();

/// KEY.id's line for `features`: "cpu" and the names, space-separated.
std::string cpuFeaturesLine(const std::vector<std::string> &features);

/// The features of the recorded line `recorded` that `host` lacks (none
/// when `recorded` is not a "cpu" line: entries of older ptensors).
std::vector<std::string>
missingCPUFeatures(const std::string &recorded,
                   const std::vector<std::string> &host);

} // namespace ptensor::cache

#endif // PTENSOR_CACHE_CPUFEATURES_H
