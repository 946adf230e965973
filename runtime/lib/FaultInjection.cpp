//===- FaultInjection.cpp - failures on request, for tests ----------------===//

#include "FaultInjection.h"

#include "Errors.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace ptensor::rt;

namespace {

struct Site {
  const char *name;
  ErrorKind kind;
};

constexpr Site kSites[] = {{"host-alloc", ErrorKind::OutOfMemory},
                           {"device-alloc", ErrorKind::OutOfMemory},
                           {"module-load", ErrorKind::Cuda},
                           {"launch", ErrorKind::Cuda}};
constexpr int kNumSites = sizeof(kSites) / sizeof(kSites[0]);

/// The event number to fail at each site (0: none) and the events so far.
struct Plan {
  long long failAt[kNumSites] = {};
  std::atomic<long long> count[kNumSites] = {};
  bool any = false;

  Plan() {
    const char *spec = std::getenv("PTENSOR_RT_FAULT");
    if (!spec)
      return;
    std::string text(spec);
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find(',', start);
      if (end == std::string::npos)
        end = text.size();
      parseEntry(text.substr(start, end - start));
      start = end + 1;
    }
  }

  void parseEntry(const std::string &entry) {
    if (entry.empty())
      return;
    size_t colon = entry.find(':');
    std::string name = entry.substr(0, colon);
    char *end = nullptr;
    long long n = colon == std::string::npos
                      ? 0
                      : std::strtoll(entry.c_str() + colon + 1, &end, 10);
    for (int i = 0; i < kNumSites; ++i) {
      if (name == kSites[i].name && n > 0 && end && *end == '\0') {
        failAt[i] = n;
        any = true;
        return;
      }
    }
    std::fprintf(stderr,
                 "%sPTENSOR_RT_FAULT: ignoring '%s' (expected SITE:N with N "
                 ">= 1 and SITE one of host-alloc, device-alloc, "
                 "module-load, launch)\n",
                 kMessagePrefix, entry.c_str());
  }
};

Plan &plan() {
  static Plan p;
  return p;
}

} // namespace

bool ptensor::rt::injectFault(FaultSite site, const char *what) {
  Plan &p = plan();
  if (!p.any)
    return false;
  int i = static_cast<int>(site);
  if (p.failAt[i] == 0)
    return false;
  long long n = p.count[i].fetch_add(1) + 1;
  if (n != p.failAt[i])
    return false;
  return !setErrorf(kSites[i].kind,
                    "injected fault: %s #%lld (%s) fails "
                    "(PTENSOR_RT_FAULT=%s:%lld)",
                    kSites[i].name, n, what, kSites[i].name, n);
}
