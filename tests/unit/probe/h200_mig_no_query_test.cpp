// An H200 in MIG mode whose snapshot holds no MIG query (no -q, table or -lgip
// figures; fixtures/mig/README.md): each MIG device's size comes from the H200
// profile table, to the MiB nvidia-smi prints, not from the profile name's GB.
#include <gtest/gtest.h>

#include <map>

#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

TEST(CudaMigSizes, H200MigHostWithoutAQuery) {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/mig/h200-mig-no-query.yaml"));
  ASSERT_TRUE(loaded.snapshot);
  SnapshotHost host(*loaded.snapshot);
  const Detection detection = detect(host);
  std::multimap<std::string, std::uint64_t> mib;
  for (const auto& e : detection.entries) {
    if (e.backend != "cuda" || !e.partition) continue;
    EXPECT_EQ(e.status, EntryStatus::ready) << e.name;
    ASSERT_TRUE(e.memory.total_bytes) << e.name;
    EXPECT_EQ(*e.memory.total_bytes % (1024 * 1024), 0u) << e.name;
    EXPECT_NE(e.memory.source.find("H200 141GB MIG profile table"), std::string::npos)
        << e.name << ": " << e.memory.source;
    mib.emplace(e.partition->profile, *e.memory.total_bytes / (1024 * 1024));
  }
  // The profile names' GB would give 71168 -> 67711, 33024 -> 33379, 16384 -> 17166.
  const std::multimap<std::string, std::uint64_t> want = {
      {"3g.71gb", 71168}, {"2g.35gb", 33024}, {"1g.18gb", 16384}, {"1g.18gb", 16384}};
  EXPECT_EQ(mib, want);
}

}  // namespace
}  // namespace hwaccel
