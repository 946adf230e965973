//===- SelfTest.cpp - Built-in unit tests for PTensorSupport --------------===//

#include "SelfTest.h"

#include "Sha256Blocks.h"

#include "ptensor/Cache/BuildId.h"
#include "ptensor/Cache/CPUFeatures.h"
#include "ptensor/Cache/DiskCache.h"

#include "ptensor/Support/ArrayPrinter.h"
#include "ptensor/Support/DType.h"
#include "ptensor/Support/FloatConversion.h"
#include "ptensor/Support/HostArray.h"
#include "ptensor/Support/Npy.h"

#include "ptensor/Semantics/Manipulation.h"
#include "ptensor/Semantics/Teams.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace ptensor;

namespace {

unsigned numChecks = 0;
unsigned numFailures = 0;

void check(bool ok, const std::string &what, int line) {
  ++numChecks;
  if (!ok) {
    ++numFailures;
    llvm::errs() << "FAILED (SelfTest.cpp:" << line << "): " << what << "\n";
  }
}
#define CHECK(cond) check((cond), #cond, __LINE__)
#define CHECK_EQ_STR(actual, expected)                                         \
  check((actual) == (expected),                                                \
        std::string(#actual) + "\n  got:      \"" + (actual) +                 \
            "\"\n  expected: \"" + (expected) + "\"",                          \
        __LINE__)

/// Builds an in-memory .npy image (version 1.0) with the given dict text.
std::string npyImage(const std::string &dict, size_t dataBytes,
                     unsigned major = 1) {
  std::string header = dict + "\n";
  std::string out = std::string("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  uint32_t len = static_cast<uint32_t>(header.size());
  for (unsigned i = 0; i < (major == 1 ? 2u : 4u); ++i)
    out += static_cast<char>((len >> (8 * i)) & 0xff);
  out += header;
  out.append(dataBytes, '\x01');
  return out;
}

llvm::Expected<HostArray> parse(const std::string &image) {
  return readNpyFromBuffer(llvm::MemoryBufferRef(image, "mem.npy"));
}

/// Returns the error message of `e` ("" on success).
std::string errorOf(llvm::Expected<HostArray> e) {
  if (e)
    return "";
  return llvm::toString(e.takeError());
}

void testDTypes() {
  for (DType d : allDTypes()) {
    CHECK(parseDTypeName(dtypeName(d)) == d);
    CHECK(npyDescrToDType(dtypeToNpyDescr(d)) == d);
  }
  CHECK(dtypeByteSize(DType::Bool) == 1 && dtypeByteSize(DType::BF16) == 2 &&
        dtypeByteSize(DType::U64) == 8);
  CHECK(llvm::StringRef(dtypeName(DType::U16)) == "ui16" &&
        llvm::StringRef(dtypeName(DType::Bool)) == "i1");
  CHECK(!parseDTypeName("f128"));
  CHECK(npyDescrToDType("=f4") == DType::F32);
  CHECK(npyDescrToDType("<u1") == DType::U8);
  CHECK(npyDescrToDType("bfloat16") == DType::BF16);
  CHECK(!npyDescrToDType(">f4"));
  CHECK(!npyDescrToDType("|f4"));
  CHECK(!npyDescrToDType("<c8"));
  CHECK(!npyDescrToDType("<V4"));
  CHECK(!npyDescrToDType(""));
}

void testFloatConversions() {
  unsigned bad = 0;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    auto b = static_cast<uint16_t>(bits);
    float h = halfBitsToFloat(b);
    float bf = bfloat16BitsToFloat(b);
    if (std::isnan(h) ? !std::isnan(halfBitsToFloat(doubleToHalfBits(h)))
                      : doubleToHalfBits(h) != b)
      ++bad;
    if (std::isnan(bf) ? !std::isnan(bfloat16BitsToFloat(
                             doubleToBFloat16Bits(bf)))
                       : doubleToBFloat16Bits(bf) != b)
      ++bad;
  }
  CHECK(bad == 0);
  CHECK(halfBitsToFloat(0x3c00) == 1.0f);
  CHECK(halfBitsToFloat(0x0001) == std::ldexp(1.0f, -24));
  CHECK(halfBitsToFloat(0x7bff) == 65504.0f);
  CHECK(doubleToHalfBits(1.0 + std::ldexp(1.0, -11)) == 0x3c00); // tie->even
  CHECK(doubleToHalfBits(1.0 + 3 * std::ldexp(1.0, -11)) == 0x3c02);
  CHECK(doubleToHalfBits(1e6) == 0x7c00);
  CHECK(doubleToBFloat16Bits(1.0) == 0x3f80);
  // 1 + 2^-8 + 2^-30 is just above the bf16 tie: rounding directly from
  // double must round up, double rounding through float would not.
  CHECK(doubleToBFloat16Bits(1.0 + std::ldexp(1.0, -8) +
                             std::ldexp(1.0, -30)) == 0x3f81);
}

void testHostArray() {
  HostArray a = HostArray::allocate(DType::I32, {2, 3});
  CHECK(a.numElements() == 6 && a.rank() == 2 && a.isContiguous());
  CHECK(reinterpret_cast<uintptr_t>(a.data()) % AlignedBuffer::kAlignment ==
        0);
  for (int64_t i = 0; i < 6; ++i)
    a.setInt64(i, i * 10);
  CHECK(a.getInt64(4) == 40 && a.getDouble(5) == 50.0);
  CHECK(a.strides() == llvm::ArrayRef<int64_t>({3, 1}));

  // Transpose: shape (3, 2), strides (1, 3).
  llvm::Expected<HostArray> t = a.view({3, 2}, {1, 3}, 0);
  CHECK(bool(t));
  if (t) {
    CHECK(!t->isContiguous() && t->isFortranContiguous());
    CHECK(t->getInt64(1) == 30 && t->getInt64(2) == 10);
    HostArray c = t->toContiguous();
    CHECK(c.isContiguous() && c.buffer() != a.buffer());
    CHECK(c.getInt64(1) == 30);
    CHECK(bitwiseEqual(c, *t));
  }
  // Negative strides: a[::-1, ::-1].
  llvm::Expected<HostArray> r = a.view({2, 3}, {-3, -1}, 5);
  CHECK(bool(r));
  if (r) {
    CHECK(r->getInt64(0) == 50 && r->getInt64(5) == 0);
    CHECK_EQ_STR(arrayToString(*r), "[[50 40 30]\n [20 10  0]]");
  }
  // Zero strides: broadcast row 1 to (4, 3).
  llvm::Expected<HostArray> b = a.view({4, 3}, {0, 1}, 3);
  CHECK(bool(b));
  if (b) {
    CHECK(b->getInt64(9) == 30 && b->getInt64(11) == 50);
    CHECK(b->toContiguous().numElements() == 12);
  }
  // Views reaching outside the buffer are rejected.
  CHECK(errorOf(a.view({2, 3}, {3, 1}, 1)).find("outside the buffer") !=
        std::string::npos);
  CHECK(!errorOf(a.view({2, 3}, {-3, 1}, 0)).empty());
  CHECK(!errorOf(a.view({2}, {1, 1}, 0)).empty());
  CHECK(errorOf(a.view({0, 7}, {100, 100}, 6)).empty()); // empty: any strides
  CHECK(!errorOf(HostArray::tryAllocate(DType::F32, {-1})).empty());
  CHECK(!errorOf(HostArray::tryAllocate(DType::F64, {1LL << 40, 1LL << 40}))
             .empty());

  // Scalar and empty arrays.
  HostArray s = HostArray::allocate(DType::F64, {});
  CHECK(s.numElements() == 1 && s.isContiguous());
  s.setDouble(0, 2.5);
  CHECK_EQ_STR(arrayToString(s), "2.5");
  HostArray e = HostArray::allocate(DType::F32, {2, 0});
  CHECK(e.numElements() == 0 && e.isContiguous());
  CHECK_EQ_STR(arrayToString(e), "[]");

  // Conversions saturate.
  HostArray u = HostArray::allocate(DType::U8, {2});
  u.setDouble(0, 300.0);
  u.setDouble(1, -5.0);
  CHECK(u.getInt64(0) == 255 && u.getInt64(1) == 0);
  HostArray f = HostArray::allocate(DType::F32, {1});
  f.setDouble(0, NAN);
  CHECK(f.getInt64(0) == 0 && f.getUInt64(0) == 0);
  HostArray u64 = HostArray::allocate(DType::U64, {1});
  u64.setInt64(0, -1);
  CHECK(u64.getUInt64(0) == UINT64_MAX &&
        u64.getInt64(0) == INT64_MAX);
  CHECK_EQ_STR(arrayToString(u64), "[18446744073709551615]");
}

void testHeaderVariants() {
  // Accepted spellings.
  CHECK(errorOf(parse(npyImage(
            "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
            24)))
            .empty());
  CHECK(errorOf(parse(npyImage(
            "{\"shape\": (2,3), \"fortran_order\": True, \"descr\": \"<f4\"}",
            24)))
            .empty());
  CHECK(errorOf(parse(npyImage(
            "{'descr': '<i8', 'fortran_order': False, 'shape': (3L,), }", 24)))
            .empty());
  CHECK(errorOf(parse(npyImage(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 8, 2)))
            .empty());
  CHECK(errorOf(parse(npyImage(
            "{'descr': '|u1', 'fortran_order': False, 'shape': (0, 5), }", 0,
            3)))
            .empty());

  auto rejects = [](const std::string &dict, const char *needle, int line) {
    std::string msg = errorOf(parse(npyImage(dict, 64)));
    check(msg.find(needle) != std::string::npos,
          "header " + dict + " should fail with '" + needle + "', got '" +
              msg + "'",
          line);
  };
  rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (3), }",
          "not a tuple", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (03,), }",
          "leading zero", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }",
          "non-negative integer", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'",
          __LINE__);
  rejects("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
          "'shape': ()}",
          "duplicate key 'descr'", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}",
          "unexpected key 'x'", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}",
          "expected True or False", __LINE__);
  rejects("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': ()}",
          "structured dtype", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': False, 'shape': ()} x",
          "unexpected text after", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': False, 'shape': "
          "(99999999999999999999,)}",
          "does not fit in int64", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': False, 'shape': "
          "(4294967296, 4294967296)}",
          "invalid array shape", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (1000,)}",
          "data too short", __LINE__);
  rejects("{'descr': '<f4', 'fortran_order': False, 'shape': (0, "
          "4611686018427387904, 4611686018427387904)}",
          "invalid array shape", __LINE__);
}

void testWriteAndRead(const std::string &dir) {
  // A strided view is materialized in C order.
  HostArray a = HostArray::allocate(DType::F16, {3, 4});
  for (int64_t i = 0; i < 12; ++i)
    a.setDouble(i, 0.5 * i);
  llvm::Expected<HostArray> t = a.view({4, 3}, {1, 4}, 0);
  CHECK(bool(t));
  if (!t)
    return;
  std::string path = dir + "/view.npy";
  CHECK(!llvm::errorToBool(writeNpy(path, *t)));
  llvm::Expected<HostArray> back = readNpy(path);
  CHECK(bool(back));
  if (back) {
    CHECK(back->isContiguous() && bitwiseEqual(*back, *t));
    CHECK_EQ_STR(arrayToString(*back), "[[0.  2.  4. ]\n [0.5 2.5 4.5]\n"
                                       " [1.  3.  5. ]\n [1.5 3.5 5.5]]");
  } else {
    llvm::consumeError(back.takeError());
  }

  // Headers over 64 KiB (only possible for huge ranks) switch to format 2.0
  // with a 4-byte length; data stays 64-byte aligned.
  HostArray deep = HostArray::allocate(
      DType::I16, llvm::SmallVector<int64_t>(25000, 1));
  std::string image;
  llvm::raw_string_ostream imageOS(image);
  writeNpyToStream(imageOS, deep);
  CHECK(image.size() > 0x10000 && image[6] == 2 && image[7] == 0);
  uint32_t hlen = 0;
  std::memcpy(&hlen, image.data() + 8, 4);
  CHECK((12 + hlen) % 64 == 0 && image.size() == 12 + hlen + 2);
  CHECK(image[12 + hlen - 1] == '\n');
  CHECK(image.compare(12, 44, "{'descr': '<i2', 'fortran_order': False, 'sh") ==
        0);

  // Failed writes leave nothing behind.
  std::string missing = dir + "/no/such/dir/x.npy";
  llvm::Error err = writeNpy(missing, a);
  CHECK(bool(err));
  std::string msg = llvm::toString(std::move(err));
  CHECK(msg.find(missing) != std::string::npos);
  std::string subdir = dir + "/is_a_dir.npy";
  CHECK(!llvm::sys::fs::create_directory(subdir));
  err = writeNpy(subdir, a);
  CHECK(bool(err));
  llvm::consumeError(std::move(err));
  unsigned entries = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    ++entries;
  CHECK(entries == 2); // view.npy and is_a_dir.npy only, no temp files.

  // Missing files name the path.
  std::string nofile = dir + "/missing.npy";
  std::string readErr = errorOf(readNpy(nofile));
  CHECK(readErr.find(nofile + ": cannot open file") != std::string::npos);
}

void testPrinting() {
  HostArray f = HostArray::allocate(DType::F64, {2, 2});
  for (int64_t i = 0; i < 4; ++i)
    f.setDouble(i, i + 1);
  CHECK_EQ_STR(arrayToString(f), "[[1. 2.]\n [3. 4.]]");
  f.setDouble(0, 1e-5);
  CHECK_EQ_STR(arrayToString(f),
               "[[1.e-05 2.e+00]\n [3.e+00 4.e+00]]");
  f.setDouble(0, NAN);
  f.setDouble(1, -INFINITY);
  f.setDouble(2, 0.25);
  CHECK_EQ_STR(arrayToString(f), "[[ nan -inf]\n [0.25 4.  ]]");
  HostArray b = HostArray::allocate(DType::Bool, {3});
  b.setInt64(1, 1);
  CHECK_EQ_STR(arrayToString(b), "[False  True False]");
  HostArray i = HostArray::allocate(DType::I8, {2001});
  for (int64_t k = 0; k < 2001; ++k)
    i.setInt64(k, k);
  CHECK_EQ_STR(arrayToString(i), "[  0   1   2 ... -50 -49 -48]");
  HostArray bf = HostArray::allocate(DType::BF16, {3});
  bf.setDouble(0, 0.1);
  bf.setDouble(1, 3000);
  bf.setDouble(2, -1.5);
  CHECK_EQ_STR(arrayToString(bf), "[0.100098 3008 -1.5]");
}

/// SHA-256 (the disk cache's keys and checksums): FIPS 180-4's examples, and
/// the SHA-extension block function equal to the portable one on random
/// blocks and states (where the CPU has the extensions).
void testSha256() {
  CHECK_EQ_STR(cache::sha256Hex(""),
               "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK_EQ_STR(cache::sha256Hex("abc"),
               "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK_EQ_STR(
      cache::sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  std::mt19937 random(7);
  for (size_t blocks : {1, 2, 3, 17}) {
    std::string data(64 * blocks, '\0');
    for (char &c : data)
      c = static_cast<char>(random());
    uint32_t portable[8], hardware[8];
    for (int i = 0; i < 8; ++i)
      portable[i] = hardware[i] = static_cast<uint32_t>(random());
    const auto *bytes = reinterpret_cast<const unsigned char *>(data.data());
    cache::detail::sha256BlocksPortable(portable, bytes, blocks);
    if (!cache::detail::sha256BlocksWithShaExtensions(hardware, bytes, blocks))
      return; // no SHA extensions here: sha256Hex uses the portable code
    CHECK(std::memcmp(portable, hardware, sizeof(portable)) == 0);
  }
}

/// The build-id in an ELF note area: found after another note, and every
/// truncation or odd size is "" without reading past the area (the ASan
/// build checks the reads).
void testBuildIdNotes() {
  auto note = [](uint32_t type, const std::string &name,
                 const std::string &desc) {
    std::string out(12, '\0');
    uint32_t header[3] = {static_cast<uint32_t>(name.size()),
                          static_cast<uint32_t>(desc.size()), type};
    std::memcpy(out.data(), header, sizeof(header));
    auto padded = [](std::string s) {
      s.resize((s.size() + 3) / 4 * 4, '\0');
      return s;
    };
    return out + padded(name) + padded(desc);
  };
  std::string id = "\x01\x23\x45\x67\x89\xab\xcd\xef";
  std::string area = note(1, std::string("GNU\0", 4), "xyz") +
                     note(3 /*NT_GNU_BUILD_ID*/, std::string("GNU\0", 4), id);
  CHECK_EQ_STR(cache::gnuBuildIdInNotes(area.data(), area.size()),
               "0123456789abcdef");
  for (size_t size = 0; size < area.size(); ++size) {
    std::string cut = area.substr(0, size);
    std::vector<char> exact(cut.begin(), cut.end()); // no slack after it
    CHECK_EQ_STR(cache::gnuBuildIdInNotes(exact.data(), exact.size()), "");
  }
  // A descriptor size that is not a multiple of 4, ending the area.
  std::string odd = note(1, std::string("GNU\0", 4), "x");
  odd.resize(odd.size() - 3);
  std::vector<char> exact(odd.begin(), odd.end());
  CHECK_EQ_STR(cache::gnuBuildIdInNotes(exact.data(), exact.size()), "");
}

} // namespace

/// The cache's CPUID reading (plain C++, for machines without LLVM) agrees
/// with LLVM's host features on every feature it knows, and a recorded
/// "cpu" line names exactly what a CPU lacks.
void testCPUFeatures() {
  llvm::StringMap<bool> llvmFeatures = llvm::sys::getHostCPUFeatures();
  const std::vector<std::string> &host = cache::hostCPUFeatures();
  for (const std::string &name : cache::knownCPUFeatures()) {
    bool ours = std::find(host.begin(), host.end(), name) != host.end();
    bool llvms = llvmFeatures.lookup(name);
    check(ours == llvms,
          "CPU feature " + name + ": CPUID says " + (ours ? "yes" : "no") +
              ", LLVM says " + (llvms ? "yes" : "no"),
          __LINE__);
  }
  CHECK(cache::cpuFeaturesLine({"avx", "avx2"}) == "cpu avx avx2");
  CHECK(cache::missingCPUFeatures("cpu avx avx2", {"avx2", "avx"}).empty());
  CHECK(cache::missingCPUFeatures("cpu avx avx512f avx2", {"avx", "avx2"}) ==
        std::vector<std::string>{"avx512f"});
  CHECK(cache::missingCPUFeatures("glibc 2.36", {}).empty());
  CHECK(cache::missingCPUFeatures("", {}).empty());
  // Words split at any blanks, as a stream would split them.
  CHECK(cache::missingCPUFeatures("  cpu\tavx  sha \n", {"avx"}) ==
        std::vector<std::string>{"sha"});
  CHECK(cache::missingCPUFeatures("cpux avx", {}).empty());
}

/// The cache's paths are joined as std::filesystem would join them.
void testCachePaths() {
  namespace fs = std::filesystem;
  for (const char *dir : {"", "/", "c", "/tmp/c", "/tmp/c/", "./c"})
    CHECK_EQ_STR(cache::entryPath(dir, "k", "so"),
                 (fs::path(dir) / "k.so").string());
  for (const char *code : {"/c/k.so", "k.so", "/c.d/k", "/c/k.tar.so",
                           "/c/.so", "/c/..", "/c/.", "k", "/c/k."})
    CHECK_EQ_STR(cache::companionPath(code, "id"),
                 fs::path(code).replace_extension(".id").string());
}

/// Which entries of the disk cache are current, and why the others are not
/// (the .id read line by line, the code's checksum, a directory in the
/// code's place).
void testCacheEntries(const std::string &dir) {
  std::string code = cache::entryPath(dir, "k", "so");
  auto contains = [](const std::string &text, const char *part) {
    return text.find(part) != std::string::npos;
  };
  CHECK(contains(cache::whyNotCurrent(code, ""), "there is no"));
  CHECK(cache::writeAtomically(code, "compiled code").empty());
  CHECK(cache::whyNotCurrent(code, "").empty()); // no .id: filled elsewhere
  CHECK(contains(cache::whyNotCurrent(code, "b1"), "records no build"));
  CHECK(cache::recordBuildId(code, "b1", {"avx"}).empty());
  CHECK(cache::whyNotCurrent(code, "b1").empty());
  CHECK(cache::whyNotCurrent(code, "").empty());
  CHECK(contains(cache::whyNotCurrent(code, "b2"), "another build"));
  CHECK(cache::writeAtomically(code, "compiled cod").empty()); // truncated
  CHECK(contains(cache::whyNotCurrent(code, "b1"), "recorded checksum"));
  std::string id = cache::companionPath(code, "id");
  // A build line without a newline and no checksum line.
  CHECK(cache::writeAtomically(id, "b1").empty());
  CHECK(contains(cache::whyNotCurrent(code, "b1"), "records no checksum"));
  CHECK(cache::whyNotCurrent(code, "").empty());
  // The lines after the checksum: a CPU feature this CPU may lack.
  CHECK(cache::writeAtomically(
            id, "b1\nsha256 " + cache::sha256Hex("compiled cod") +
                    "\n\ncpu no-such-feature\n")
            .empty());
  CHECK(contains(cache::whyNotCurrent(code, "b1"), "no-such-feature"));
  std::string directory = cache::entryPath(dir, "d", "so");
  CHECK(!llvm::sys::fs::create_directory(directory));
  CHECK(contains(cache::whyNotCurrent(directory, ""), "there is no"));
}

/// teamSliceRowsSent against the definition: every row i of every slice in
/// bounds (steps of both signs, the lowest int64, blocks of no rows), placed
/// at row `at` of a result with rows before and after it or none, is sent
/// once, by the owner of source row offset + i * step to the owner of
/// result row at + i, and each pair's rows are one range; the rows
/// teamSliceRowsHeld gives a process are those it owns.
void testTeamSliceRows() {
  namespace sem = ptensor::semantics;
  auto owner = [](int64_t rows, int64_t row, int64_t processes) {
    for (int64_t p = 0; p < processes; ++p) {
      sem::TeamBlock b = sem::teamBlock(rows, p, processes);
      if (row >= b.start && row < b.start + b.rows)
        return p;
    }
    return int64_t(-1);
  };
  unsigned wrong = 0, slices = 0;
  for (int64_t processes = 1; processes <= 5; ++processes)
    for (int64_t n = 0; n <= 11; ++n)
      for (int64_t step :
           std::initializer_list<int64_t>{1, 2, 3, 7, -1, -2, -4, INT64_MIN})
        for (int64_t offset = 0; offset <= n; ++offset)
          for (int64_t size = 0; size <= n + 1; ++size)
            for (auto [at, after] : {std::pair<int64_t, int64_t>{0, 0},
                                     {0, 3}, {2, 0}, {5, 1}}) {
              if (sem::sliceBoundsError(0, n, offset, size, step))
                continue;
              ++slices;
              int64_t resultRows = at + size + after;
              std::vector<int64_t> sent(size, 0);
              for (int64_t from = 0; from < processes; ++from)
                for (int64_t to = 0; to < processes; ++to) {
                  sem::RowRange r = sem::teamSliceRowsSent(
                      n, offset, step, size, resultRows, at, from, to,
                      processes);
                  for (int64_t i = r.begin; i < r.end; ++i) {
                    if (i < 0 || i >= size) {
                      ++wrong;
                      continue;
                    }
                    ++sent[i];
                    int64_t row = offset + i * step; // one row when INT64_MIN
                    wrong += owner(n, row, processes) != from ||
                             owner(resultRows, at + i, processes) != to;
                  }
                }
              wrong += std::count_if(sent.begin(), sent.end(),
                                     [](int64_t c) { return c != 1; });
              // What each process holds is exactly the rows it sends.
              for (int64_t from = 0; from < processes; ++from) {
                sem::RowRange held =
                    sem::teamSliceRowsHeld(n, offset, step, size, from,
                                           processes);
                for (int64_t i = 0; i < size; ++i) {
                  bool holds = i >= held.begin && i < held.end;
                  wrong += holds != (owner(n, offset + i * step,
                                           processes) == from);
                }
              }
            }
  CHECK(slices > 1000);
  CHECK(wrong == 0);
}

int runSelfTest() {
  testCPUFeatures();
  testTeamSliceRows();
  testSha256();
  testBuildIdNotes();
  testDTypes();
  testFloatConversions();
  testHostArray();
  testHeaderVariants();
  testPrinting();

  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("ptensor-selftest", dir)) {
    llvm::errs() << "cannot create temp dir: " << ec.message() << "\n";
    return 1;
  }
  testWriteAndRead(std::string(dir));
  testCachePaths();
  testCacheEntries(std::string(dir));
  llvm::sys::fs::remove_directories(dir);

  llvm::outs() << "selftest: " << numChecks - numFailures << " of "
               << numChecks << " checks passed\n";
  return numFailures == 0 ? 0 : 1;
}
