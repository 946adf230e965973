//===- BoundedText.h - A fixed-size, trivially destructible message -------===//
//
// The per-thread last-error text of libptensor_runtime (Errors.cpp) and of
// libptensor_team (Team.cpp). Both libraries are still called after the
// thread's thread_local destructors have run (at process exit, MLIR's
// module-unload global destructor reports a deinitialized driver through
// the runtime's error path), so the text lives in a plain array: a
// std::string there was written after being freed.
//
//===----------------------------------------------------------------------===//

#ifndef PTENSOR_RUNTIME_LIB_BOUNDEDTEXT_H
#define PTENSOR_RUNTIME_LIB_BOUNDEDTEXT_H

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace ptensor::rt {

/// Text of at most kCapacity - 1 characters, always null-terminated. Text
/// that does not fit is cut and ends in kCutMarker, so a reader sees that
/// it was cut.
struct BoundedText {
  static constexpr size_t kCapacity = 4096;
  static constexpr std::string_view kCutMarker = " [...]";
  size_t length;
  char text[kCapacity];

  void assign(std::string_view s) {
    length = 0;
    text[0] = '\0';
    append(s);
  }

  void append(std::string_view more) {
    size_t room = kCapacity - 1 - length;
    if (more.size() > room) {
      std::memcpy(text + length, more.data(), room);
      length = kCapacity - 1;
      markCut();
      return;
    }
    std::memcpy(text + length, more.data(), more.size());
    length += more.size();
    text[length] = '\0';
  }

  /// Appends printf-style text.
  void appendf(const char *format, va_list args) {
    size_t room = kCapacity - length; // With the terminator.
    int written = std::vsnprintf(text + length, room, format, args);
    if (written < 0) {
      text[length] = '\0';
      return;
    }
    if (size_t(written) >= room) {
      length = kCapacity - 1;
      markCut();
      return;
    }
    length += size_t(written);
  }

private:
  /// Ends the full text in kCutMarker.
  void markCut() {
    std::memcpy(text + length - kCutMarker.size(), kCutMarker.data(),
                kCutMarker.size());
    text[length] = '\0';
  }
};

static_assert(std::is_trivially_destructible_v<BoundedText>,
              "read after the thread's destructors have run");

} // namespace ptensor::rt

#endif // PTENSOR_RUNTIME_LIB_BOUNDEDTEXT_H
