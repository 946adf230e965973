//===- CPUFeatures.cpp - instruction sets that cached host code needs -----===//

#include "ptensor/Cache/CPUFeatures.h"

#include <algorithm>
#include <cstdlib>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define PTENSOR_HAVE_CPUID 1
#endif

using namespace ptensor::cache;

namespace {
/// Where CPUID reports a feature, and which register state it needs.
enum class Register { EAX, EBX, ECX, EDX };
enum class State { None, AVX, AVX512 };
struct FeatureBit {
  const char *name; // LLVM's
  unsigned leaf, subleaf;
  Register reg;
  unsigned bit;
  State state;
};

/// Intel SDM vol. 2A and AMD's CPUID specification; the state rules and the
/// names are LLVM's (llvm::sys::getHostCPUFeatures). Not listed: features
/// LLVM emits only for intrinsics (prefetchw, rdrand, ...), and SSE4A: LLVM
/// lowers a few 128-bit shuffles to its EXTRQ/INSERTQ only where there is
/// no AVX (btver1), so no entry compiled on an AVX-era AMD CPU uses it.
constexpr FeatureBit kFeatureBits[] = {
    {"sse3", 1, 0, Register::ECX, 0, State::None},
    {"pclmul", 1, 0, Register::ECX, 1, State::None},
    {"ssse3", 1, 0, Register::ECX, 9, State::None},
    {"fma", 1, 0, Register::ECX, 12, State::AVX},
    {"cx16", 1, 0, Register::ECX, 13, State::None},
    {"sse4.1", 1, 0, Register::ECX, 19, State::None},
    {"sse4.2", 1, 0, Register::ECX, 20, State::None},
    {"movbe", 1, 0, Register::ECX, 22, State::None},
    {"popcnt", 1, 0, Register::ECX, 23, State::None},
    {"aes", 1, 0, Register::ECX, 25, State::None},
    {"avx", 1, 0, Register::ECX, 28, State::AVX},
    {"f16c", 1, 0, Register::ECX, 29, State::AVX},
    {"bmi", 7, 0, Register::EBX, 3, State::None},
    {"avx2", 7, 0, Register::EBX, 5, State::AVX},
    {"bmi2", 7, 0, Register::EBX, 8, State::None},
    {"avx512f", 7, 0, Register::EBX, 16, State::AVX512},
    {"avx512dq", 7, 0, Register::EBX, 17, State::AVX512},
    {"adx", 7, 0, Register::EBX, 19, State::None},
    {"avx512ifma", 7, 0, Register::EBX, 21, State::AVX512},
    {"avx512cd", 7, 0, Register::EBX, 28, State::AVX512},
    {"sha", 7, 0, Register::EBX, 29, State::None},
    {"avx512bw", 7, 0, Register::EBX, 30, State::AVX512},
    {"avx512vl", 7, 0, Register::EBX, 31, State::AVX512},
    {"avx512vbmi", 7, 0, Register::ECX, 1, State::AVX512},
    {"avx512vbmi2", 7, 0, Register::ECX, 6, State::AVX512},
    {"gfni", 7, 0, Register::ECX, 8, State::None},
    {"vaes", 7, 0, Register::ECX, 9, State::AVX},
    {"vpclmulqdq", 7, 0, Register::ECX, 10, State::AVX},
    {"avx512vnni", 7, 0, Register::ECX, 11, State::AVX512},
    {"avx512bitalg", 7, 0, Register::ECX, 12, State::AVX512},
    {"avx512vpopcntdq", 7, 0, Register::ECX, 14, State::AVX512},
    {"avx512fp16", 7, 0, Register::EDX, 23, State::AVX512},
    {"avxvnni", 7, 1, Register::EAX, 4, State::AVX},
    {"avx512bf16", 7, 1, Register::EAX, 5, State::AVX512},
    {"avxifma", 7, 1, Register::EAX, 23, State::AVX},
    {"avxvnniint8", 7, 1, Register::EDX, 4, State::AVX},
    {"avxneconvert", 7, 1, Register::EDX, 5, State::AVX},
    {"sahf", 0x80000001, 0, Register::ECX, 0, State::None},
    {"lzcnt", 0x80000001, 0, Register::ECX, 5, State::None},
    {"xop", 0x80000001, 0, Register::ECX, 11, State::AVX},
    {"fma4", 0x80000001, 0, Register::ECX, 16, State::AVX},
    {"tbm", 0x80000001, 0, Register::ECX, 21, State::None},
};

#ifdef PTENSOR_HAVE_CPUID
/// The registers of one CPUID (leaf, sub-leaf); `valid` is false when the
/// CPU does not report the leaf (or leaf 7's sub-leaf).
struct LeafRegisters {
  unsigned leaf, subleaf;
  bool valid;
  unsigned regs[4];
};

/// The registers of (leaf, subleaf) among `leaves`, or null.
const LeafRegisters *findLeaf(const std::vector<LeafRegisters> &leaves,
                              unsigned leaf, unsigned subleaf) {
  for (const LeafRegisters &l : leaves)
    if (l.leaf == leaf && l.subleaf == subleaf)
      return &l;
  return nullptr;
}

/// Asks the CPU for each (leaf, sub-leaf) of kFeatureBits once. Every CPUID
/// traps to the hypervisor in a virtual machine (measured here: asking once
/// per feature bit, about 150 CPUIDs, took 0.5 ms of a Python process's
/// first kernel call; the distinct leaves are four).
std::vector<LeafRegisters> readFeatureLeaves() {
  std::vector<LeafRegisters> leaves;
  unsigned maxBasic = __get_cpuid_max(0, nullptr);
  unsigned maxExtended = __get_cpuid_max(0x80000000, nullptr);
  // Leaf 7's sub-leaf 0 EAX is its last sub-leaf (some CPUs do not answer
  // zeros for the others); kept, for the features it holds.
  unsigned maxLeaf7Subleaf = 0;
  bool hasLeaf7 = maxBasic >= 7;
  if (hasLeaf7) {
    LeafRegisters l{7, 0, true, {0, 0, 0, 0}};
    __cpuid_count(7, 0, l.regs[0], l.regs[1], l.regs[2], l.regs[3]);
    maxLeaf7Subleaf = l.regs[0];
    leaves.push_back(l);
  }
  for (const FeatureBit &f : kFeatureBits) {
    if (findLeaf(leaves, f.leaf, f.subleaf))
      continue;
    LeafRegisters l{f.leaf, f.subleaf, false, {0, 0, 0, 0}};
    if (f.leaf >= 0x80000000)
      l.valid = maxExtended >= f.leaf;
    else if (f.leaf == 7)
      l.valid = hasLeaf7 && maxLeaf7Subleaf >= f.subleaf;
    else
      l.valid = maxBasic >= f.leaf;
    if (l.valid)
      __cpuid_count(f.leaf, f.subleaf, l.regs[0], l.regs[1], l.regs[2],
                    l.regs[3]);
    leaves.push_back(l);
  }
  return leaves;
}

/// Whether the CPU has AVX and the OS saves its (XMM, YMM) register state,
/// and the AVX-512 one too (opmask, ZMM): XCR0 read by XGETBV where leaf 1's
/// OSXSAVE (among `leaves`) says it may be.
std::pair<bool, bool>
enabledVectorState(const std::vector<LeafRegisters> &leaves) {
  const LeafRegisters *leaf1 = findLeaf(leaves, 1, 0);
  unsigned c = leaf1 && leaf1->valid ? leaf1->regs[2] : 0;
  if (!(c & (1u << 27)) || !(c & (1u << 28)))
    return {false, false};
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  bool avx = (lo & 0x6) == 0x6;
  return {avx, avx && (lo & 0xe0) == 0xe0};
}

bool hasFeature(const FeatureBit &f, const std::vector<LeafRegisters> &leaves,
                bool avx, bool avx512) {
  if ((f.state == State::AVX && !avx) || (f.state == State::AVX512 && !avx512))
    return false;
  const LeafRegisters *l = findLeaf(leaves, f.leaf, f.subleaf);
  return l && l->valid && ((l->regs[static_cast<int>(f.reg)] >> f.bit) & 1u);
}
#endif
} // namespace

const std::vector<std::string> &ptensor::cache::knownCPUFeatures() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
#ifdef PTENSOR_HAVE_CPUID
    for (const FeatureBit &f : kFeatureBits)
      all.push_back(f.name);
#endif
    return all;
  }();
  return names;
}

const std::vector<std::string> &ptensor::cache::hostCPUFeatures() {
  static const std::vector<std::string> host = [] {
    std::vector<std::string> found;
#ifdef PTENSOR_HAVE_CPUID
    std::vector<LeafRegisters> leaves = readFeatureLeaves();
    auto [avx, avx512] = enabledVectorState(leaves);
    for (const FeatureBit &f : kFeatureBits)
      if (hasFeature(f, leaves, avx, avx512))
        found.push_back(f.name);
#endif
    return found;
  }();
  return host;
}

std::string ptensor::cache::requestedHostCPU() {
  const char *value = std::getenv("PTENSOR_HOST_CPU");
  std::string name = value ? value : "";
  size_t first = name.find_first_not_of(" \t");
  if (first == std::string::npos)
    return "";
  size_t last = name.find_last_not_of(" \t");
  return name.substr(first, last - first + 1);
}

std::string
ptensor::cache::cpuFeaturesLine(const std::vector<std::string> &features) {
  std::string line = "cpu";
  for (const std::string &f : features)
    line += " " + f;
  return line;
}

std::vector<std::string>
ptensor::cache::missingCPUFeatures(const std::string &recorded,
                                   const std::vector<std::string> &host) {
  // Split by hand: a process's first string stream costs tens of
  // microseconds (the locale's facets), and this runs on a first call.
  std::vector<std::string> words;
  const char *blanks = " \t\r\n";
  for (size_t start = recorded.find_first_not_of(blanks);
       start != std::string::npos;) {
    size_t end = recorded.find_first_of(blanks, start);
    words.push_back(recorded.substr(start, end - start));
    start = recorded.find_first_not_of(blanks, end);
  }
  std::vector<std::string> missing;
  if (words.empty() || words[0] != "cpu")
    return missing;
  for (size_t i = 1; i < words.size(); ++i)
    if (std::find(host.begin(), host.end(), words[i]) == host.end())
      missing.push_back(words[i]);
  return missing;
}
