//===- CpuSort.cpp - host sort along a dim ---------------------------------===//
//
// ptensor_rt_cpu_sort (Sort.h), on Highway's vectorized quicksort (VQSort,
// Debian's libhwy: AVX2/AVX-512 with run-time dispatch; as fast as numpy's
// sort, which uses the same family of SIMD sorts; loaded on the first
// sort, HostSort.h). Each input line is read
// once into unsigned keys whose unsigned order is the sort's (SortKeys.h):
//  - argsort: each key is made unique and stable by its position —
//    (key << 32 | position) in 64 bits, or (key, position) as a 128-bit
//    number for 64-bit keys and lines of 2^32 elements or more — and the
//    sorted composites give the positions: a stable sort in both directions
//    whatever VQSort does with ties;
//  - sorted values: the keys alone are sorted (1-byte keys by counting), and
//    the key gives the bits back, except for floats' zeros and NaNs (the key
//    makes -0.0 equal to 0.0 and every NaN one largest key): when there are
//    any, their blocks are rewritten with the input's zeros and NaNs in
//    input order (one more pass over the input), so the result is that of a
//    stable sort bit for bit.
// Lines are independent: long work is split over threads
// (PTENSOR_NUM_THREADS, default the hardware's), one Scratch each; a line of
// 2^20 or more elements where there are fewer lines than threads (a 1-D
// sort) is sorted in chunks on the threads left, and the chunks merged.
//
//===----------------------------------------------------------------------===//

#include "ptensor/Runtime/PTensorRuntime.h"
#include "ptensor/Runtime/Sort.h"
#include "ptensor/Semantics/Threads.h"

#include "Errors.h"
#include "HostAllocator.h"
#include "HostSort.h"
#include "SortArguments.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace ptensor::rt;

namespace {

/// A strided line of `n` elements of type T.
template <typename T> struct Line {
  T *base;
  int64_t stride;
  T &operator[](int64_t i) const { return base[i * stride]; }
};

/// Calls fn(i, element i) over the line; contiguous lines in a loop the
/// compiler can vectorize.
template <typename T, typename Fn> void readLine(Line<T> l, int64_t n, Fn fn) {
  if (l.stride == 1) {
    const T *p = l.base;
    for (int64_t i = 0; i < n; ++i)
      fn(i, p[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    fn(i, l[i]);
}

/// Sets element j of the line to fn(j), likewise.
template <typename T, typename Fn>
void writeLine(Line<T> l, int64_t n, Fn fn) {
  if (l.stride == 1) {
    T *p = l.base;
    for (int64_t j = 0; j < n; ++j)
      p[j] = fn(j);
    return;
  }
  for (int64_t j = 0; j < n; ++j)
    l[j] = fn(j);
}

/// Line `line` of a buffer at `base` with `strides` (line: row-major over
/// the dims but `dim`).
template <typename T>
Line<T> lineOf(const SortArguments &c, const void *base,
               const int64_t *strides, int64_t line) {
  int64_t offset = sortLineOffset(c.rank, c.dim, c.sizes, strides, line);
  return {const_cast<T *>(static_cast<const T *>(base)) + offset,
          strides[c.dim]};
}

/// Gives scratch back to the host caching allocator.
struct HostFree {
  void operator()(void *p) const { ptensor_rt_host_free(p); }
};

/// An uninitialized array (no zeroing pass over scratch that is written
/// before it is read) from the host caching allocator (compiled code's:
/// after the first sort of a size its scratch costs no page faults, which
/// on a fresh allocation cost as much as a merge of the line); empty when
/// `n` is 0, null when out of memory. T is trivial.
template <typename T> struct Array {
  std::unique_ptr<T[], HostFree> data;
  bool allocate(int64_t n) {
    if (n == 0)
      return true;
    void *block = nullptr;
    std::string error;
    if (hostAllocator().allocate(size_t(n) * sizeof(T), /*stream=*/nullptr,
                                 &block, &error) != AllocStatus::Ok)
      return false;
    data.reset(static_cast<T *>(block));
    return true;
  }
  T &operator[](int64_t i) const { return data[i]; }
};

/// Scratch of one thread, reused from line to line.
template <typename U> struct Scratch {
  Array<U> keys;
  Array<uint64_t> composite;  ///< argsort, narrow keys
  Array<Key128> wide; ///< argsort, 64-bit keys
  Array<U> bits; ///< values gathered by position; an input line kept
  /// Where a line sorted on several threads is merged (keys or composites).
  Array<U> spareKeys;
  Array<uint64_t> spareComposite;
  Array<Key128> spareWide;
};

/// Runs fn(t) for t in [0, threads), on threads of their own (those that
/// cannot be started run on the calling thread), and returns when all have.
/// An exception ends that t's work there instead of the process: only
/// sortAll's work throws (out of memory for a line's bookkeeping), and its
/// flag then stays false (an out-of-memory error); the chunk sorts and the
/// merges do not throw.
template <typename Fn> void runOnThreads(int64_t threads, Fn fn) {
  auto guarded = [&fn](int64_t t) {
    try {
      fn(t);
    } catch (const std::exception &) {
    }
  };
  std::vector<std::thread> workers;
  int64_t started = 1;
  try {
    for (; started < threads; ++started)
      workers.emplace_back(guarded, started);
  } catch (const std::exception &) {
    // No thread for the rest: they run here.
  }
  guarded(int64_t(0));
  for (int64_t t = started; t < threads; ++t)
    guarded(t);
  for (std::thread &w : workers)
    w.join();
}

/// The order VQSort sorts keys in (Key128: by hi, then lo).
template <typename K> bool keyLess(const K &a, const K &b) { return a < b; }
template <> bool keyLess<Key128>(const Key128 &a, const Key128 &b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

/// How many of the first d elements of the stable merge of the sorted a
/// (na) and b (nb) come from a (ties: a's first).
template <typename K>
int64_t mergeCoRank(int64_t d, const K *a, int64_t na, const K *b,
                    int64_t nb) {
  int64_t lo = std::max<int64_t>(0, d - nb), hi = std::min(d, na);
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (!keyLess(b[d - mid - 1], a[mid]))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// Merges the sorted [a, aEnd) and [b, bEnd) into out, ties from a first,
/// without a branch on the data (a select per element: about twice
/// std::merge's speed on random keys, which mispredicts half the time).
template <typename K>
void mergeRuns(const K *a, const K *aEnd, const K *b, const K *bEnd, K *out) {
  while (a < aEnd && b < bEnd) {
    K x = *a, y = *b;
    bool takeB = keyLess(y, x);
    *out++ = takeB ? y : x;
    a += !takeB;
    b += takeB;
  }
  out = std::copy(a, aEnd, out);
  std::copy(b, bEnd, out);
}

/// The lanes of mergePart: independent merges stepped together.
constexpr int kMergeLanes = 4;

/// Output elements [d0, d1) of the stable merge of the sorted a (na) and
/// b (nb), into out (element d0 first): split by merge path into
/// kMergeLanes equal parts merged in one loop, a step of each part per
/// iteration. One merge waits on its last compare before its next load;
/// the lanes' chains overlap (2.5-3x one chain's speed). The steps that no
/// lane's runs can run out in go without bounds checks; the last few of
/// each lane through mergeRuns.
template <typename K>
void mergePart(const K *a, int64_t na, const K *b, int64_t nb, int64_t d0,
               int64_t d1, K *out) {
  const K *ap[kMergeLanes], *aEnd[kMergeLanes], *bp[kMergeLanes],
      *bEnd[kMergeLanes];
  K *op[kMergeLanes];
  int64_t d = d0, i = mergeCoRank(d0, a, na, b, nb);
  for (int l = 0; l < kMergeLanes; ++l) {
    int64_t next = d0 + (d1 - d0) * (l + 1) / kMergeLanes;
    int64_t j = mergeCoRank(next, a, na, b, nb);
    ap[l] = a + i;
    aEnd[l] = a + j;
    bp[l] = b + (d - i);
    bEnd[l] = b + (next - j);
    op[l] = out + (d - d0);
    d = next;
    i = j;
  }
  constexpr int64_t kLeastSteps = 16;
  for (;;) {
    // Steps every lane can take: each takes one element of a or of b.
    int64_t steps = INT64_MAX;
    for (int l = 0; l < kMergeLanes; ++l)
      steps = std::min({steps, int64_t(aEnd[l] - ap[l]),
                        int64_t(bEnd[l] - bp[l])});
    if (steps < kLeastSteps)
      break;
    for (int64_t k = 0; k < steps; ++k)
      for (int l = 0; l < kMergeLanes; ++l) {
        K x = *ap[l], y = *bp[l];
        bool takeB = keyLess(y, x);
        *op[l]++ = takeB ? y : x;
        ap[l] += !takeB;
        bp[l] += takeB;
      }
  }
  for (int l = 0; l < kMergeLanes; ++l)
    mergeRuns(ap[l], aEnd[l], bp[l], bEnd[l], op[l]);
}

/// One merge round: the sorted runs [bounds[r], bounds[r + 1]) of `from`
/// merged pairwise into `to` (a last odd run copied), the round's output
/// split evenly over `threads` by merge path: one start of threads per
/// round, whatever the number of runs.
template <typename K>
void mergeRound(const K *from, K *to, const std::vector<int64_t> &bounds,
                int64_t threads) {
  int64_t n = bounds.back();
  runOnThreads(threads, [&](int64_t t) {
    int64_t lo = n * t / threads, hi = n * (t + 1) / threads;
    for (size_t r = 0; r + 1 < bounds.size(); r += 2) {
      int64_t begin = bounds[r], middle = bounds[r + 1];
      int64_t end = r + 2 < bounds.size() ? bounds[r + 2] : middle;
      if (end <= lo || begin >= hi)
        continue;
      const K *a = from + begin, *b = from + middle;
      int64_t na = middle - begin, nb = end - middle;
      int64_t d0 = std::max(lo, begin) - begin, d1 = std::min(hi, end) - begin;
      mergePart(a, na, b, nb, d0, d1, to + begin + d0);
    }
  });
}

/// Lines shorter than this sort on one thread: a merge pass costs more
/// than the threads save.
constexpr int64_t kParallelLineMinimum = int64_t(1) << 20;

/// The least chunk a thread sorts of a long line.
constexpr int64_t kParallelChunkMinimum = int64_t(1) << 18;

/// The threads a line of `n` keys is split over, of `threads` offered: 1
/// below kParallelLineMinimum, else one per chunk of at least
/// kParallelChunkMinimum keys.
int64_t chunkThreads(int64_t n, int64_t threads) {
  if (n < kParallelLineMinimum)
    return 1;
  return std::max<int64_t>(1, std::min(threads, n / kParallelChunkMinimum));
}

/// Merges the sorted runs [bounds[r], bounds[r + 1]) of `keys` (bounds
/// from 0 to n) pairwise in rounds between `keys` and `spare` (n more
/// keys), every round on `threads` threads. Returns where the merged keys
/// are: `keys`, or `spare` after an odd number of rounds.
template <typename K>
K *mergeRounds(K *keys, K *spare, std::vector<int64_t> bounds,
               int64_t threads) {
  int64_t n = bounds.back();
  K *from = keys, *to = spare;
  while (bounds.size() > 2) {
    mergeRound(from, to, bounds, threads);
    std::vector<int64_t> merged;
    for (size_t r = 0; r < bounds.size(); r += 2)
      merged.push_back(bounds[r]);
    if (merged.back() != n)
      merged.push_back(n);
    bounds = std::move(merged);
    std::swap(from, to);
  }
  return from;
}

/// Sorts `keys` (n of them) ascending with VQSort on chunkThreads(n,
/// threads) threads: one chunk each, then the sorted chunks merged
/// (mergeRounds, on all the threads). Returns where the sorted keys are:
/// `keys`, or `spare` (n more keys).
template <typename K>
K *sortInParallel(K *keys, K *spare, int64_t n, int64_t threads) {
  threads = chunkThreads(n, threads);
  if (!spare || threads == 1) {
    sortAscending(keys, size_t(n));
    return keys;
  }
  std::vector<int64_t> bounds;
  for (int64_t t = 0; t <= threads; ++t)
    bounds.push_back(n * t / threads);
  runOnThreads(threads, [&](int64_t t) {
    sortAscending(keys + bounds[t], size_t(bounds[t + 1] - bounds[t]));
  });
  return mergeRounds(keys, spare, std::move(bounds), threads);
}

/// Where a line's sorted runs are (the sort's `runs` hint): bounds from 0
/// to the line's size, or none.
struct RunBounds {
  const int64_t *bounds = nullptr;
  int64_t count = 0;
  bool given() const { return count > 2; }
};

/// Sorts `keys` (n of them) ascending: with runs given, `spare` there and
/// every run sorted, by merging the runs (on up to `threads` threads, one
/// per kParallelChunkMinimum keys); else sortInParallel. Returns where the
/// sorted keys are.
template <typename K>
K *sortOrMerge(K *keys, K *spare, int64_t n, int64_t threads,
               RunBounds runs) {
  auto runSorted = [&](int64_t r) {
    return std::is_sorted(keys + runs.bounds[r], keys + runs.bounds[r + 1],
                          keyLess<K>);
  };
  bool merge = runs.given() && spare;
  for (int64_t r = 0; merge && r + 1 < runs.count; ++r)
    merge = runSorted(r);
  if (!merge)
    return sortInParallel(keys, spare, n, threads);
  int64_t mergeThreads =
      std::max<int64_t>(1, std::min(threads, n / kParallelChunkMinimum));
  return mergeRounds(keys, spare,
                     std::vector<int64_t>(runs.bounds, runs.bounds + runs.count),
                     mergeThreads);
}

/// Sorts `keys` (n of them) ascending: VQSort or a merge of the `runs`
/// (sortOrMerge, on `threads` threads, with `spare` room for n more keys),
/// or counting for bytes. Returns where the sorted keys are.
template <typename U>
U *sortKeys(U *keys, U *spare, int64_t n, int64_t threads, RunBounds runs) {
  if constexpr (sizeof(U) == 1) {
    std::array<int64_t, 256> counts{};
    for (int64_t i = 0; i < n; ++i)
      ++counts[keys[i]];
    int64_t at = 0;
    for (int v = 0; v < 256; ++v)
      for (int64_t k = 0; k < counts[v]; ++k)
        keys[at++] = U(v);
    return keys;
  } else {
    return sortOrMerge(keys, spare, n, threads, runs);
  }
}

/// Whether argsort's composites of `n` keys of type U fit 64 bits.
template <typename U> bool narrowComposite(int64_t n) {
  return sizeof(U) <= 4 && n <= int64_t(UINT32_MAX);
}

/// Sets composite i from key `key` of element i: (key << 32 | i) in 64
/// bits, or (key, i) as a 128-bit number; unique, so their order is the
/// stable order of the keys.
template <typename U>
void setComposite(Scratch<U> &s, bool narrow, int64_t i, U key) {
  if (narrow) {
    s.composite[i] = (uint64_t(key) << 32) | uint64_t(i);
  } else {
    s.wide[i].hi = uint64_t(key);
    s.wide[i].lo = uint64_t(i);
  }
}

/// Sorts the n composites (on `threads` threads; a stable sort's runs stay
/// sorted runs of composites) and writes their positions to `out`.
template <typename U>
void sortPositions(Scratch<U> &s, bool narrow, int64_t n, Line<int64_t> out,
                   int64_t threads, RunBounds runs) {
  if (narrow) {
    const uint64_t *sorted =
        sortOrMerge(s.composite.data.get(), s.spareComposite.data.get(), n,
                    threads, runs);
    writeLine(out, n,
              [&](int64_t j) { return int64_t(sorted[j] & 0xFFFFFFFFu); });
    return;
  }
  const Key128 *sorted = sortOrMerge(s.wide.data.get(), s.spareWide.data.get(),
                                     n, threads, runs);
  writeLine(out, n, [&](int64_t j) { return int64_t(sorted[j].lo); });
}

/// A block of sorted keys whose bits the keys do not give back (floats'
/// zeros or NaNs): [begin, end) and the key.
template <typename U> struct SpecialBlock {
  int64_t begin, end;
  U key;
};

/// The blocks of zeros and NaNs among the sorted `keys` (empty ones too).
template <typename U>
std::array<SpecialBlock<U>, 2> specialBlocks(const SortArguments &c,
                                             const U *keys, int64_t n) {
  std::array<SpecialBlock<U>, 2> blocks;
  const U special[2] = {sortKeyOf(U(0), c.format, c.descending),
                        sortNaNKey<U>(c.descending)};
  for (int b = 0; b < 2; ++b) {
    auto [begin, end] = std::equal_range(keys, keys + n, special[b]);
    blocks[b] = {begin - keys, end - keys, special[b]};
  }
  return blocks;
}

/// Rewrites the special blocks of a sorted output line with the input's
/// zeros and NaNs in input order (a stable sort's).
template <typename U>
void rewriteSpecialBlocks(const SortArguments &c,
                          const std::array<SpecialBlock<U>, 2> &blocks,
                          Line<U> in, Line<U> out, int64_t n) {
  for (const SpecialBlock<U> &block : blocks) {
    int64_t at = block.begin;
    for (int64_t i = 0; i < n && at < block.end; ++i)
      if (sortKeyOf(in[i], c.format, c.descending) == block.key)
        out[at++] = in[i];
  }
}

/// Lines at least this long are sorted in their (contiguous) output
/// instead of a scratch line: a pass less over memory, where short lines
/// sort faster in a scratch line the cache keeps.
constexpr int64_t kInOutputMinimum = int64_t(1) << 16;

/// Whether the contiguous line `out` may hold the keys while `in` is still
/// read: the two do not overlap.
template <typename U> bool disjoint(Line<U> in, Line<U> out, int64_t n) {
  const U *first = in.base, *last = in.base + (n - 1) * in.stride;
  if (first > last)
    std::swap(first, last);
  return out.base + n <= first || out.base > last;
}

/// Sorts lines [first, last) of the call, whose elements order as O, each
/// on `lineThreads` threads; false when out of memory.
template <typename U, SortOrder O>
bool sortLines(const SortArguments &c, int64_t first, int64_t last,
               int64_t lineThreads) {
  int64_t n = c.sizes[c.dim];
  bool narrow = narrowComposite<U>(n);
  // With both outputs the values are gathered through the positions.
  bool gather = c.values && c.indices;
  Scratch<U> s;
  if (!s.keys.allocate(c.indices ? 0 : n) ||
      !s.composite.allocate(c.indices && narrow ? n : 0) ||
      !s.wide.allocate(c.indices && !narrow ? n : 0) ||
      !s.bits.allocate(c.values ? n : 0))
    return false;
  // Room to merge a line sorted on several threads or made of sorted
  // runs; without it (out of memory) the line is sorted on one thread
  // (sortInParallel).
  RunBounds runs{c.runBounds, c.runBoundCount};
  if (chunkThreads(n, lineThreads) > 1 || runs.given()) {
    if (c.indices)
      (void)(narrow ? s.spareComposite.allocate(n) : s.spareWide.allocate(n));
    else if (sizeof(U) > 1) // bytes are counted, not merged
      (void)s.spareKeys.allocate(n);
  }
  const U exponent = U(c.format.exponent), mantissa = U(c.format.mantissa);
  // XOR with all ones complements: the descending keys.
  const U flip = c.descending ? U(~U(0)) : U(0);
  for (int64_t line = first; line < last; ++line) {
    Line<U> in = lineOf<U>(c, c.input, c.inputStrides, line);
    Line<U> out{nullptr, 0};
    if (c.values)
      out = lineOf<U>(c, c.values, c.valueStrides, line);
    // Long lines of sorted values are sorted in the output itself where it
    // is contiguous and apart from the input: no scratch.
    if (c.indices) {
      readLine(in, n, [&](int64_t i, U b) {
        setComposite(s, narrow, i,
                     U(ascendingKey<O>(b, exponent, mantissa) ^ flip));
        if (gather)
          s.bits[i] = b;
      });
      Line<int64_t> positions =
          lineOf<int64_t>(c, c.indices, c.indexStrides, line);
      sortPositions(s, narrow, n, positions, lineThreads, runs);
      if (gather)
        writeLine(out, n, [&](int64_t j) { return s.bits[positions[j]]; });
      continue;
    }
    bool inOutput = n >= kInOutputMinimum && out.stride == 1 &&
                    disjoint(in, out, n);
    U *keys = inOutput ? out.base : s.keys.data.get();
    readLine(in, n, [&](int64_t i, U b) {
      keys[i] = U(ascendingKey<O>(b, exponent, mantissa) ^ flip);
    });
    keys = sortKeys(keys, s.spareKeys.data.get(), n, lineThreads, runs);
    std::array<SpecialBlock<U>, 2> blocks{};
    // The special blocks are rewritten from the input line: kept in
    // scratch first when the output overwrites it (an output may be the
    // input itself).
    Line<U> source = in;
    if (O == SortOrder::Float && !disjoint(in, out, n)) {
      readLine(in, n, [&](int64_t i, U b) { s.bits[i] = b; });
      source = {s.bits.data.get(), 1};
    }
    if constexpr (O == SortOrder::Float)
      blocks = specialBlocks(c, keys, n);
    writeLine(out, n, [&](int64_t j) {
      return bitsOfAscendingKey<O>(U(keys[j] ^ flip));
    });
    if constexpr (O == SortOrder::Float)
      rewriteSpecialBlocks(c, blocks, source, out, n);
  }
  return true;
}

/// sortLines for the call's order.
template <typename U>
bool sortLinesOf(const SortArguments &c, int64_t first, int64_t last,
                 int64_t lineThreads) {
  switch (c.format.order) {
  case SortOrder::Unsigned:
    return sortLines<U, SortOrder::Unsigned>(c, first, last, lineThreads);
  case SortOrder::Signed:
    return sortLines<U, SortOrder::Signed>(c, first, last, lineThreads);
  case SortOrder::Bool:
    return sortLines<U, SortOrder::Bool>(c, first, last, lineThreads);
  case SortOrder::Float:
    return sortLines<U, SortOrder::Float>(c, first, last, lineThreads);
  }
  return false;
}

/// The threads available to one call.
int64_t availableThreads() {
  static const int64_t available =
      int64_t(ptensor::semantics::hostThreadCount());
  return available;
}

/// The threads a call of `work` elements uses.
int64_t threadsFor(int64_t lines, int64_t work) {
  constexpr int64_t kWorkPerThread = int64_t(1) << 16;
  return std::max<int64_t>(
      1, std::min({availableThreads(), lines, work / kWorkPerThread}));
}

/// Lines run on threads of their own; where there are fewer lines than
/// threads (a 1-D sort), each long line is split over the rest
/// (sortInParallel).
template <typename U> bool sortAll(const SortArguments &c) {
  int64_t lines = c.lines();
  int64_t threads = threadsFor(lines, lines * c.sizes[c.dim]);
  int64_t lineThreads = std::max<int64_t>(1, availableThreads() / threads);
  std::vector<char> ok(threads, 0);
  runOnThreads(threads, [&](int64_t t) {
    ok[t] = sortLinesOf<U>(c, lines * t / threads, lines * (t + 1) / threads,
                           lineThreads);
  });
  return std::all_of(ok.begin(), ok.end(), [](char v) { return v != 0; });
}

/// The bounds of the runs that `ends` (`count` of them, `stride` apart)
/// mark in lines of `n` elements: 0, the ends, n (n added when the last
/// end is short of it; empty runs dropped). False with the error recorded
/// for ends out of order or past the line.
bool runBoundsOf(const int64_t *ends, int64_t stride, int64_t count,
                 int64_t n, std::vector<int64_t> &bounds) {
  bounds.assign(1, 0);
  for (int64_t r = 0; r < count; ++r) {
    int64_t end = ends[r * stride];
    if (end < bounds.back() || end > n)
      return setErrorf(ErrorKind::CheckFailed,
                       "ptensor_rt_cpu_sort_runs: run end %lld is %lld, "
                       "expected it in [%lld, %lld] (non-decreasing, within "
                       "lines of %lld)",
                       static_cast<long long>(r), static_cast<long long>(end),
                       static_cast<long long>(bounds.back()),
                       static_cast<long long>(n), static_cast<long long>(n));
    if (end != bounds.back())
      bounds.push_back(end);
  }
  if (bounds.back() != n)
    bounds.push_back(n);
  return true;
}

/// Runs the call; false with the error recorded.
bool runSort(const SortArguments &c) {
  if (c.lines() == 0 || c.sizes[c.dim] == 0)
    return true;
  bool ok = false;
  switch (c.format.bytes) {
  case 1: ok = sortAll<uint8_t>(c); break;
  case 2: ok = sortAll<uint16_t>(c); break;
  case 4: ok = sortAll<uint32_t>(c); break;
  default: ok = sortAll<uint64_t>(c); break;
  }
  if (!ok)
    return setErrorf(ErrorKind::OutOfMemory,
                     "out of host memory for the scratch of a sort of "
                     "lines of %lld elements",
                     static_cast<long long>(c.sizes[c.dim]));
  return true;
}

/// Runs the call with the runs hint `ends`; false with the error
/// recorded.
bool runSortOfRuns(SortArguments c, const int64_t *ends, int64_t stride,
                   int64_t count) {
  std::vector<int64_t> bounds;
  try {
    if (!runBoundsOf(ends, stride, count, c.sizes[c.dim], bounds))
      return false;
  } catch (const std::bad_alloc &) {
    return setErrorf(ErrorKind::OutOfMemory,
                     "out of host memory for the %lld runs of a sort",
                     static_cast<long long>(count));
  }
  c.runBounds = bounds.data();
  c.runBoundCount = static_cast<int64_t>(bounds.size());
  return runSort(c);
}

} // namespace

extern "C" void ptensor_rt_cpu_sort(int64_t keyType, int64_t flags,
                                    int64_t rank, int64_t dim, intptr_t sizes,
                                    intptr_t input, int64_t inputOffset,
                                    intptr_t inputStrides, intptr_t values,
                                    int64_t valuesOffset,
                                    intptr_t valuesStrides, intptr_t indices,
                                    int64_t indicesOffset,
                                    intptr_t indexStrides) {
  // No object with a destructor is alive here: the jump skips this frame.
  SortArguments c;
  if (!decodeSortArguments("ptensor_rt_cpu_sort", keyType, flags, rank, dim,
                           sizes, input, inputOffset, inputStrides, values,
                           valuesOffset, valuesStrides, indices,
                           indicesOffset, indexStrides, c) ||
      !loadHostSort() || !runSort(c))
    leaveCompiledCode();
}

extern "C" void ptensor_rt_cpu_sort_runs(
    int64_t keyType, int64_t flags, int64_t rank, int64_t dim, intptr_t sizes,
    intptr_t input, int64_t inputOffset, intptr_t inputStrides,
    intptr_t values, int64_t valuesOffset, intptr_t valuesStrides,
    intptr_t indices, int64_t indicesOffset, intptr_t indexStrides,
    intptr_t runEnds, int64_t runEndStride, int64_t runEndCount) {
  // No object with a destructor is alive here: the jump skips this frame.
  SortArguments c;
  if (!decodeSortArguments("ptensor_rt_cpu_sort_runs", keyType, flags, rank,
                           dim, sizes, input, inputOffset, inputStrides,
                           values, valuesOffset, valuesStrides, indices,
                           indicesOffset, indexStrides, c) ||
      !loadHostSort() ||
      !runSortOfRuns(c, reinterpret_cast<const int64_t *>(runEnds),
                     runEndStride, runEndCount))
    leaveCompiledCode();
}
