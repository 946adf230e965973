//===- FileIO.h - reading files in the disk cache library -------*- C++ -*-===//
//
// One way to read a file descriptor fully (retrying EINTR), for the cache
// entries' checksums (DiskCache.cpp) and the compiler binary's build-id
// note (BuildId.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_LIB_CACHE_FILEIO_H
#define PTENSOR_LIB_CACHE_FILEIO_H

#include <cerrno>
#include <cstddef>
#include <sys/types.h>
#include <unistd.h>

namespace ptensor::cache::detail {

/// Reads up to `size` bytes at `offset` of `fd` into `buffer`; returns how
/// many were read (fewer at the end of the file), or -1 on an error.
inline ssize_t readFully(int fd, void *buffer, size_t size, off_t offset) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd, static_cast<char *>(buffer) + done, size - done,
                        offset + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return -1;
    if (n == 0)
      break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

} // namespace ptensor::cache::detail

#endif // PTENSOR_LIB_CACHE_FILEIO_H
