//===- Npy.cpp - Reading and writing numpy .npy files ---------------------===//

#include "ptensor/Support/Npy.h"
#include "NpyHeader.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace ptensor;

static_assert(llvm::sys::IsLittleEndianHost,
              "ptensor's .npy support assumes a little-endian host");

namespace {
constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr size_t kArrayAlign = 64;
/// Same limit as numpy 2 (NPY_MAXDIMS); also bounds recursion in printing.
constexpr size_t kMaxRank = 64;

/// Formats up to 8 leading bytes of `bytes` with C-style escapes.
std::string escapeBytes(llvm::StringRef bytes) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::printEscapedString(bytes.take_front(8), os);
  if (bytes.size() > 8)
    os << "...";
  return out;
}
} // namespace

llvm::Expected<HostArray>
ptensor::readNpyFromBuffer(llvm::MemoryBufferRef buffer) {
  llvm::StringRef name = buffer.getBufferIdentifier();
  llvm::StringRef file = buffer.getBuffer();
  auto fail = [&](const llvm::Twine &what) {
    return llvm::createStringError(name + ": " + what);
  };

  // Magic string.
  llvm::StringRef magic(kMagic, kMagicLen);
  if (!file.starts_with(magic)) {
    if (file.size() < kMagicLen && magic.starts_with(file))
      return fail("truncated header: file is only " +
                  llvm::Twine(file.size()) +
                  " bytes, too short for the .npy magic string");
    return fail("not a .npy file: bad magic string (expected "
                "\"\\93NUMPY\", got \"" +
                escapeBytes(file.take_front(kMagicLen)) + "\")");
  }

  // Version and header length.
  if (file.size() < kMagicLen + 2)
    return fail("truncated header: file ends inside the version field");
  unsigned major = static_cast<uint8_t>(file[6]);
  unsigned minor = static_cast<uint8_t>(file[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return fail("unsupported .npy format version " + llvm::Twine(major) +
                "." + llvm::Twine(minor) + " (supported: 1.0, 2.0, 3.0)");
  const size_t lenSize = major == 1 ? 2 : 4;
  const size_t prefixLen = kMagicLen + 2 + lenSize;
  if (file.size() < prefixLen)
    return fail("truncated header: file ends inside the header length field");
  const auto *lenBytes =
      reinterpret_cast<const unsigned char *>(file.data() + kMagicLen + 2);
  uint64_t headerLen =
      lenSize == 2
          ? llvm::support::endian::read16le(lenBytes)
          : static_cast<uint64_t>(llvm::support::endian::read32le(lenBytes));
  if (headerLen > file.size() - prefixLen)
    return fail("truncated header: header length field says " +
                llvm::Twine(headerLen) + " bytes but only " +
                llvm::Twine(file.size() - prefixLen) + " bytes follow");

  // Header dict.
  llvm::StringRef headerText = file.substr(prefixLen, headerLen);
  llvm::Expected<detail::NpyHeaderDict> dict =
      detail::parseNpyHeaderDict(headerText);
  if (!dict)
    return fail(llvm::toString(dict.takeError()));

  std::optional<DType> dtype = npyDescrToDType(dict->descr);
  if (!dtype) {
    if (!dict->descr.empty() && dict->descr.front() == '>')
      return fail("unsupported dtype descr '" + dict->descr +
                  "': big-endian data is not supported (re-save it with "
                  "arr.astype(arr.dtype.newbyteorder('<')))");
    return fail("unsupported dtype descr '" + dict->descr +
                "' (supported: " + supportedNpyDescrList() + ")");
  }

  if (dict->shape.size() > kMaxRank)
    return fail("array rank " + llvm::Twine(dict->shape.size()) +
                " exceeds the supported maximum of " + llvm::Twine(kMaxRank));

  llvm::Expected<HostArray> array = HostArray::tryAllocate(*dtype,
                                                           dict->shape);
  if (!array)
    return fail(llvm::toString(array.takeError()));

  // Data.
  const uint64_t available = file.size() - prefixLen - headerLen;
  const uint64_t needed = array->numBytes();
  if (needed > available)
    return fail("data too short: shape " + shapeToString(dict->shape) +
                " of dtype " + dtypeName(*dtype) + " needs " +
                llvm::Twine(needed) + " bytes but only " +
                llvm::Twine(available) + " bytes follow the header");
  if (needed)
    std::memcpy(array->data(), file.data() + prefixLen + headerLen, needed);

  if (dict->fortranOrder && array->rank() > 1) {
    llvm::Expected<HostArray> view = array->view(
        dict->shape, HostArray::columnMajorStrides(dict->shape), 0);
    if (!view)
      return fail(llvm::toString(view.takeError()));
    return std::move(*view);
  }
  return array;
}

llvm::Expected<HostArray> ptensor::readNpy(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   path + ": cannot open file: " +
                                       buffer.getError().message());
  // Use `path` as the identifier so every message names the file as given.
  return readNpyFromBuffer(
      llvm::MemoryBufferRef((*buffer)->getBuffer(), path));
}

void ptensor::writeNpyToStream(llvm::raw_ostream &os, const HostArray &array) {
  std::string header = detail::formatNpyHeaderDict(
      dtypeToNpyDescr(array.dtype()), /*fortranOrder=*/false, array.shape());
  // Pad like numpy's _wrap_header: magic + version + length + header +
  // padding + '\n' is a multiple of 64 (a full 64 bytes of padding when
  // already aligned). Version 2.0 only if the length does not fit 16 bits.
  const size_t hlen = header.size() + 1;
  size_t padLen = kArrayAlign - ((kMagicLen + 2 + 2 + hlen) % kArrayAlign);
  unsigned major = 1;
  if (hlen + padLen > 0xffff) {
    major = 2;
    padLen = kArrayAlign - ((kMagicLen + 2 + 4 + hlen) % kArrayAlign);
  }
  os.write(kMagic, kMagicLen);
  os << static_cast<char>(major) << static_cast<char>(0);
  const uint32_t total = static_cast<uint32_t>(hlen + padLen);
  char lenBytes[4];
  llvm::support::endian::write32le(lenBytes, total);
  os.write(lenBytes, major == 1 ? 2 : 4);
  os << header;
  os.indent(padLen);
  os << '\n';

  if (array.isContiguous()) {
    os.write(reinterpret_cast<const char *>(array.data()), array.numBytes());
    return;
  }
  const size_t elemSize = array.elementByteSize();
  array.forEachElement([&](const std::byte *p) {
    os.write(reinterpret_cast<const char *>(p), elemSize);
  });
}

llvm::Error ptensor::writeNpy(llvm::StringRef path, const HostArray &array) {
  if (array.isNull())
    return llvm::createStringError(path + ": cannot write a null array");
  llvm::SmallString<256> tmpPath;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          path + ".tmp-%%%%%%%%", fd, tmpPath))
    return llvm::createStringError(
        ec, path + ": cannot create a temporary file next to it: " +
                ec.message());
  llvm::sys::RemoveFileOnSignal(tmpPath);
  auto discard = [&](const llvm::Twine &what, std::error_code ec) {
    llvm::sys::fs::remove(tmpPath);
    llvm::sys::DontRemoveFileOnSignal(tmpPath);
    return llvm::createStringError(ec, path + ": " + what + ": " +
                                           ec.message());
  };
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    writeNpyToStream(os, array);
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      return discard("cannot write temporary file '" + tmpPath + "'", ec);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmpPath, path))
    return discard("cannot rename temporary file '" + tmpPath + "' to it", ec);
  llvm::sys::DontRemoveFileOnSignal(tmpPath);
  return llvm::Error::success();
}
