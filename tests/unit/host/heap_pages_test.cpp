// prefer_huge_heap_pages (src/host/heap_pages.h): only memory advice; what is
// allocated after it is as usable as before, whatever the kernel allows.
#include "src/host/heap_pages.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace hwaccel {
namespace {

TEST(HeapPages, RefusesNothingAndTooMuch) {
  EXPECT_FALSE(prefer_huge_heap_pages(0));
  EXPECT_FALSE(prefer_huge_heap_pages(kHugeHeapMmapMax + 1));
}

TEST(HeapPages, AllocationsAfterItAreUsable) {
  (void)prefer_huge_heap_pages(std::size_t{4} << 20);  // taken or not: the same below
  std::vector<std::string> many;
  for (int i = 0; i < 20000; ++i) many.push_back("/sys/devices/system/cpu/cpu" + std::to_string(i));
  EXPECT_EQ(many[12345], "/sys/devices/system/cpu/cpu12345");
  auto big = std::make_unique<char[]>(std::size_t{3} << 20);
  std::memset(big.get(), 7, std::size_t{3} << 20);
  EXPECT_EQ(big[(std::size_t{3} << 20) - 1], 7);
}

}  // namespace
}  // namespace hwaccel
