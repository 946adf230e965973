//===- SupportTestsMain.cpp - Driver for PTensorSupport tests -------------===//
//
// Usage: ptensor-support-tests <command> [args]
//   read FILE             read a .npy file and describe it on stdout
//   print FILE            read a .npy file and print it numpy-style
//   roundtrip IN OUT      read IN and write it to OUT
//   write-views DIR       write strided/transposed/broadcast views to DIR
//   fuzz FILE             feed truncated/corrupted copies of FILE to the
//                         reader (must never crash)
//   selftest              run the built-in unit tests
// Errors go to stderr as "error: <message>" with exit status 1.
//
//===----------------------------------------------------------------------===//

#include "SelfTest.h"

#include "ptensor/Support/ArrayPrinter.h"
#include "ptensor/Support/HostArray.h"
#include "ptensor/Support/Npy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <string>

using namespace ptensor;

static int fail(llvm::Error err) {
  llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
  return 1;
}

static int usage() {
  llvm::errs() << "usage: ptensor-support-tests read FILE | print FILE | "
                  "roundtrip IN OUT | write-views DIR | fuzz FILE | "
                  "selftest\n";
  return 2;
}

static std::string describe(const HostArray &a) {
  return "dtype=" + std::string(dtypeName(a.dtype())) + " shape=" +
         shapeToString(a.shape()) + " strides=" + shapeToString(a.strides()) +
         " contiguous=" + (a.isContiguous() ? "yes" : "no");
}

static int cmdRead(llvm::StringRef path) {
  llvm::Expected<HostArray> a = readNpy(path);
  if (!a)
    return fail(a.takeError());
  llvm::outs() << describe(*a) << "\n";
  return 0;
}

static int cmdPrint(llvm::StringRef path) {
  llvm::Expected<HostArray> a = readNpy(path);
  if (!a)
    return fail(a.takeError());
  printArray(llvm::outs(), *a);
  llvm::outs() << "\n";
  return 0;
}

static int cmdRoundtrip(llvm::StringRef in, llvm::StringRef out) {
  llvm::Expected<HostArray> a = readNpy(in);
  if (!a)
    return fail(a.takeError());
  if (llvm::Error err = writeNpy(out, *a))
    return fail(std::move(err));
  return 0;
}

/// Writes views of arange(24) reshaped to (2, 3, 4) as i32 and f64:
///   <dtype>_transposed.npy  = a.transpose(2, 0, 1)
///   <dtype>_reversed.npy    = a[::-1, :, ::-2]
///   <dtype>_broadcast.npy   = a[1, 2][None, :] broadcast to (3, 4)
///   <dtype>_scalar_view.npy = a[1, 2, 3] as a 0-d view
static int cmdWriteViews(llvm::StringRef dir) {
  for (DType dtype : {DType::I32, DType::F64}) {
    HostArray a = HostArray::allocate(dtype, {2, 3, 4});
    for (int64_t i = 0; i < 24; ++i)
      a.setInt64(i, i);
    struct View {
      const char *name;
      llvm::SmallVector<int64_t, 4> shape, strides;
      int64_t offset;
    } views[] = {
        {"transposed", {4, 2, 3}, {1, 12, 4}, 0},
        {"reversed", {2, 3, 2}, {-12, 4, -2}, 12 + 3},
        {"broadcast", {3, 4}, {0, 1}, 12 + 8},
        {"scalar_view", {}, {}, 12 + 8 + 3},
    };
    for (const View &v : views) {
      llvm::Expected<HostArray> view = a.view(v.shape, v.strides, v.offset);
      if (!view)
        return fail(view.takeError());
      std::string path =
          (dir + "/" + dtypeName(dtype) + "_" + v.name + ".npy").str();
      if (llvm::Error err = writeNpy(path, *view))
        return fail(std::move(err));
    }
  }
  return 0;
}

/// Reads every truncation of FILE and every single-byte corruption (three
/// replacement values per position). Success just means no crash; in ASan
/// builds it also means no out-of-bounds access.
static int cmdFuzz(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path, false, false);
  if (!buf)
    return fail(llvm::createStringError(path + ": " +
                                        buf.getError().message()));
  const std::string original = (*buf)->getBuffer().str();
  unsigned accepted = 0, rejected = 0;
  auto tryParse = [&](const std::string &bytes) {
    // Copy into an exactly-sized heap block so ASan sees overreads.
    std::unique_ptr<char[]> copy(new char[bytes.size() + 1]);
    std::memcpy(copy.get(), bytes.data(), bytes.size());
    llvm::Expected<HostArray> a = readNpyFromBuffer(llvm::MemoryBufferRef(
        llvm::StringRef(copy.get(), bytes.size()), "fuzz"));
    if (!a) {
      llvm::consumeError(a.takeError());
      ++rejected;
      return;
    }
    ++accepted;
    // Touch every element and the printer.
    double sum = 0;
    for (int64_t i = 0, e = a->numElements(); i < e; ++i)
      sum += a->getDouble(i);
    (void)sum;
    (void)arrayToString(*a);
  };
  for (size_t len = 0; len < original.size(); ++len)
    tryParse(original.substr(0, len));
  for (size_t pos = 0; pos < original.size(); ++pos) {
    for (unsigned char repl : {0x00, 0xff, 0x29}) {
      std::string mutated = original;
      mutated[pos] = static_cast<char>(repl == 0x29 ? (mutated[pos] ^ 0x29)
                                                    : repl);
      tryParse(mutated);
    }
  }
  llvm::outs() << "fuzz: " << original.size() << " bytes, " << accepted
               << " accepted, " << rejected << " rejected, no crash\n";
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return usage();
  llvm::StringRef cmd = argv[1];
  if (cmd == "read" && argc == 3)
    return cmdRead(argv[2]);
  if (cmd == "print" && argc == 3)
    return cmdPrint(argv[2]);
  if (cmd == "roundtrip" && argc == 4)
    return cmdRoundtrip(argv[2], argv[3]);
  if (cmd == "write-views" && argc == 3)
    return cmdWriteViews(argv[2]);
  if (cmd == "fuzz" && argc == 3)
    return cmdFuzz(argv[2]);
  if (cmd == "selftest" && argc == 2)
    return runSelfTest();
  return usage();
}
