// Transparent huge pages under the heap a big plan is about to fill (`hwsim run`'s
// cold path: a DGX's filled snapshot, plan and lists, some 12 MB in small pieces).
// Each 4 KiB page touched first costs a page fault with its own allocation (about
// 4,000 of them there, docs/performance.md); a 2 MiB page costs one. Only where the
// kernel's THP setting lets a program ask (`madvise` or `always` in
// /sys/kernel/mm/transparent_hugepage/enabled); nothing else changes: what the
// program computes is the same. A fault in an advised range may wait for the
// kernel to compact memory into a free 2 MiB page (its `defrag` setting).
#pragma once

#include <cstddef>

namespace hwaccel {

// Grows the heap by at least `bytes` (at most kHugeHeapMmapMax) at once, keeps
// allocations up to kHugeHeapMmapMax in it (not each its own mapping), trims it
// only past 4 x `bytes`, and advises the grown range MADV_HUGEPAGE. True when the
// advice was taken. For a process about to allocate that much that exits soon
// after (the memory stays the process's); call it once.
bool prefer_huge_heap_pages(std::size_t bytes);

// The largest allocation kept in the heap after the call (glibc's own limit for
// its mmap threshold, DEFAULT_MMAP_THRESHOLD_MAX on 64-bit: 32 MiB, malloc/malloc.c).
inline constexpr std::size_t kHugeHeapMmapMax = std::size_t{32} << 20;

}  // namespace hwaccel
