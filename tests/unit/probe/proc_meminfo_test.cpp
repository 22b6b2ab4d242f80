#include "src/probe/proc_meminfo.h"

#include <gtest/gtest.h>

#include "src/vocabulary/text_util.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kKiB = 1024;

// One file out of a ttar text archive ("Path: P", "Lines: N", then N lines).
std::optional<std::string> ttar_file(const std::string& archive, const std::string& path) {
  auto at = archive.find("Path: " + path + "\nLines: ");
  if (at == std::string::npos) return std::nullopt;
  auto count_at = archive.find("Lines: ", at) + 7;
  auto body = archive.find('\n', count_at);
  if (body == std::string::npos) return std::nullopt;
  auto lines = parse_u64(archive.substr(count_at, body - count_at));
  if (!lines) return std::nullopt;
  std::size_t end = body + 1;
  for (std::uint64_t i = 0; i < *lines && end < archive.size(); ++i)
    end = archive.find('\n', end) + 1;
  return archive.substr(body + 1, end - body - 1);
}

TEST(ProcMeminfo, ReadsMemTotalAndMemAvailableInBytes) {
  // A DGX Spark / GB10: 128 GB of LPDDR5X shared by CPU and GPU.
  auto info = parse_proc_meminfo(
      "MemTotal:       125508468 kB\n"
      "MemFree:        101234567 kB\n"
      "MemAvailable:   119000000 kB\n"
      "Buffers:           12345 kB\n"
      "Cached:          9876543 kB\n"
      "HugePages_Total:       0\n"
      "Hugepagesize:       2048 kB\n");
  EXPECT_EQ(info.total_bytes, 125508468 * kKiB);
  EXPECT_EQ(info.total_bytes, 128520671232u);
  EXPECT_EQ(info.available_bytes, 119000000 * kKiB);
  EXPECT_FALSE(info.available_estimated);
}

TEST(ProcMeminfo, EstimatesAvailableOnKernelsWithoutMemAvailable) {
  // The Prometheus procfs fixture is such a file: no MemAvailable line.
  auto archive = testing::slurp(testing::real_capture_path("procfs-fixtures.ttar"));
  if (!archive) GTEST_FAIL() << "real captures not found at " << testing::real_capture_path("");
  auto text = ttar_file(*archive, "fixtures/proc/meminfo");
  ASSERT_TRUE(text) << "fixtures/proc/meminfo missing from procfs-fixtures.ttar";
  auto info = parse_proc_meminfo(*text);
  EXPECT_EQ(info.total_bytes, 15666184 * kKiB);
  // MemFree 440324 + Buffers 1020128 + Cached 12007640 kB
  EXPECT_EQ(info.available_bytes, (440324 + 1020128 + 12007640) * kKiB);
  EXPECT_TRUE(info.available_estimated);
}

TEST(ProcMeminfo, EstimateNeedsMemFree) {
  auto info = parse_proc_meminfo("MemTotal: 1000 kB\nBuffers: 10 kB\nCached: 20 kB\n");
  EXPECT_EQ(info.total_bytes, 1000 * kKiB);
  EXPECT_FALSE(info.available_bytes);
  EXPECT_FALSE(info.available_estimated);
}

TEST(ProcMeminfo, FirstLineWinsAndCrlfIsTolerated) {
  auto info =
      parse_proc_meminfo("MemTotal: 2048 kB\r\nMemTotal: 4096 kB\r\nMemAvailable: 1024 kB\r\n");
  EXPECT_EQ(info.total_bytes, 2048 * kKiB);
  EXPECT_EQ(info.available_bytes, 1024 * kKiB);
}

TEST(ProcMeminfo, NumbersWithoutTheirUnitOrTooLargeAreNoValue) {
  EXPECT_FALSE(parse_proc_meminfo("MemTotal:       1566").total_bytes);  // cut short
  EXPECT_FALSE(parse_proc_meminfo("MemTotal: 12 MB\n").total_bytes);
  EXPECT_FALSE(parse_proc_meminfo("MemTotal: -12 kB\n").total_bytes);
  EXPECT_FALSE(parse_proc_meminfo("MemTotal: 99999999999999999999 kB\n").total_bytes);
  // 2^54 kB is 2^64 bytes: one past what fits.
  EXPECT_FALSE(parse_proc_meminfo("MemTotal: 18014398509481984 kB\n").total_bytes);
  EXPECT_EQ(parse_proc_meminfo("MemTotal: 18014398509481983 kB\n").total_bytes,
            18014398509481983u * kKiB);
}

TEST(ProcMeminfo, GarbageGivesNothingAndNeverThrows) {
  for (std::string text :
       {std::string(), std::string("\n\n\n"), std::string(":::: kB"), std::string("MemTotal"),
        std::string("\0\xff\xfe:\x01 kB", 8), std::string(100000, 'x'), std::string(100000, ':')}) {
    auto info = parse_proc_meminfo(text);
    EXPECT_FALSE(info.total_bytes);
    EXPECT_FALSE(info.available_bytes);
  }
}

}  // namespace
}  // namespace hwaccel
