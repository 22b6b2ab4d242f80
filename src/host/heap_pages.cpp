#include "src/host/heap_pages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace hwaccel {

bool prefer_huge_heap_pages(std::size_t bytes) {
  // A transparent huge page: the PMD size on x86-64 and arm64 with 4 KiB pages
  // (the kernel's Documentation/admin-guide/mm/transhuge.rst; hpage_pmd_size there).
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  if (bytes == 0 || bytes > kHugeHeapMmapMax) return false;
  // glibc's mallopt: M_TOP_PAD grows the heap by this much beyond each request;
  // M_TRIM_THRESHOLD and M_MMAP_THRESHOLD keep freed and large blocks in it
  // (man 3 mallopt).
  if (mallopt(M_TOP_PAD, static_cast<int>(bytes)) != 1) return false;
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(bytes) * 4);
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kHugeHeapMmapMax));
  const auto start = reinterpret_cast<std::uintptr_t>(sbrk(0));
  // An allocation past what the heap holds: the heap grows by it and the pad
  // (address space only: a page is the process's once touched).
  void* grow = std::malloc(bytes);
  if (!grow) return false;
  std::free(grow);
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t from = (start + kHuge - 1) & ~(kHuge - 1);
  if (start == static_cast<std::uintptr_t>(-1) || end <= from + kHuge) return false;
  return madvise(reinterpret_cast<void*>(from), end - from, MADV_HUGEPAGE) == 0;
}

}  // namespace hwaccel
