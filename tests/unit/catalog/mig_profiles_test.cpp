// The MIG profile tables both the simulated NVML and hwsim's -lgip answer from:
// every SKU's table must be one a real GPU could have (placements inside the 8
// memory slices, one placement per instance, the 7g spanning the GPU), and its
// MiB must print as the GiB the public -lgip outputs show.
#include "src/catalog/mig_profiles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

namespace hwaccel::mig {
namespace {

bool media_extended(const GiProfile& p) {
  return std::string(p.name).find("+me") != std::string::npos;
}

TEST(MigProfiles, EveryTableIsSelfConsistent) {
  ASSERT_EQ(all_mig_tables().size(), 5u);
  for (const MigTable* t : all_mig_tables()) {
    SCOPED_TRACE(t->family);
    EXPECT_EQ(t->memory_slices, 8u);
    ASSERT_EQ(t->profiles.size(), 7u);
    std::set<unsigned> indices, ids;
    std::set<std::string> names;
    for (const GiProfile& p : t->profiles) {
      SCOPED_TRACE(p.name);
      EXPECT_TRUE(indices.insert(p.index).second);
      EXPECT_TRUE(ids.insert(p.id).second);
      EXPECT_TRUE(names.insert(p.name).second);
      // "3g.40gb": the name's first number is the compute slices.
      EXPECT_EQ(std::string(p.name).substr(0, 2), std::to_string(p.slices) + "g");
      ASSERT_FALSE(p.starts.empty());
      for (unsigned start : p.starts) EXPECT_LE(start + p.placement_size, t->memory_slices);
      if (!media_extended(p))
        EXPECT_EQ(p.instances, p.starts.size());
      else
        EXPECT_EQ(p.instances, 1u);       // one media-extended slice per GPU
      EXPECT_EQ(p.memory_mib % 128, 0u);  // memory comes in 1/8 GiB steps
      EXPECT_GE(p.sms, 14u * p.slices);
    }
    const GiProfile* whole = gi_profile_by_id(*t, 0);
    ASSERT_NE(whole, nullptr);
    EXPECT_EQ(whole->index, 4u);  // NVML_GPU_INSTANCE_PROFILE_7_SLICE
    EXPECT_EQ(whole->slices, 7u);
    EXPECT_EQ(whole->placement_size, t->memory_slices);
    EXPECT_EQ(whole->starts, std::vector<unsigned>{0});
    for (const GiProfile& p : t->profiles) {
      EXPECT_LE(p.memory_mib, whole->memory_mib) << p.name;
      EXPECT_LE(p.sms, whole->sms) << p.name;
    }
  }
}

TEST(MigProfiles, MibPrintsAsGibAndReadsBackExactly) {
  for (const MigTable* t : all_mig_tables())
    for (const GiProfile& p : t->profiles) {
      const std::string text = gib_text(p.memory_mib);
      // Two decimals name an eighth of a GiB exactly: the nearest eighth is the MiB.
      const double gib = std::stod(text);
      EXPECT_EQ(static_cast<std::uint64_t>(std::lround(gib * 8)) * 128, p.memory_mib)
          << t->family << " " << p.name << " " << text;
    }
  // Ties go to the even digit, as nvidia-smi prints them.
  EXPECT_EQ(gib_text(20096), "19.62");
  EXPECT_EQ(gib_text(40320), "39.38");
  EXPECT_EQ(gib_text(4864), "4.75");
  EXPECT_EQ(gib_text(80896), "79.00");
  EXPECT_EQ(gib_text(47232), "46.12");
  EXPECT_EQ(gib_text(94848), "92.62");
  EXPECT_EQ(gib_text(0), "0.00");
}

TEST(MigProfiles, LookupByNameAndMemory) {
  constexpr std::uint64_t MiB = 1ull << 20;
  auto family = [](const MigTable* t) { return t ? std::string(t->family) : std::string("none"); };
  EXPECT_EQ(family(mig_table_for("NVIDIA A100-SXM4-40GB", 40960 * MiB)), "A100 40GB");
  EXPECT_EQ(family(mig_table_for("NVIDIA A100-SXM4-80GB", 81920 * MiB)), "A100 80GB");
  EXPECT_EQ(family(mig_table_for("NVIDIA H100 80GB HBM3", 81559 * MiB)), "H100 80GB");
  EXPECT_EQ(family(mig_table_for("NVIDIA H100 NVL", 95830 * MiB)), "H100 NVL");
  EXPECT_EQ(family(mig_table_for("NVIDIA H100 NVL", std::nullopt)), "H100 NVL");
  // The PCIe A100s print other 7g figures; a name with the wrong memory is not trusted.
  EXPECT_EQ(mig_table_for("NVIDIA A100 80GB PCIe", 81920 * MiB), nullptr);
  EXPECT_EQ(mig_table_for("NVIDIA A100-PCIE-40GB", 40960 * MiB), nullptr);
  EXPECT_EQ(mig_table_for("NVIDIA H100 80GB HBM3", 95830 * MiB), nullptr);
  // H200 (mig-parted issue 120's -lgip): its own table; not the GH200's or the NVL's.
  EXPECT_EQ(family(mig_table_for("NVIDIA H200", 143771 * MiB)), "H200 141GB");
  EXPECT_EQ(mig_table_for("NVIDIA GH200 144G HBM3e", 146831 * MiB), nullptr);
  EXPECT_EQ(mig_table_for("NVIDIA H200 NVL", 143771 * MiB), nullptr);
  const MigTable* h200 = mig_table_for("NVIDIA H200", 143771 * MiB);
  ASSERT_NE(h200, nullptr);
  ASSERT_NE(gi_profile_by_name(*h200, "1g.18gb"), nullptr);
  EXPECT_EQ(gi_profile_by_name(*h200, "1g.18gb")->memory_mib, 16384u);  // "16.00" GiB
  EXPECT_EQ(gib_text(gi_profile_by_name(*h200, "3g.71gb")->memory_mib), "69.50");
  EXPECT_EQ(gib_text(gi_profile_by_name(*h200, "7g.141gb")->memory_mib), "139.75");
  const MigTable* nvl = mig_table_for("NVIDIA H100 NVL", 95830 * MiB);
  ASSERT_NE(nvl, nullptr);
  EXPECT_EQ(gi_profile_by_name(*nvl, "MIG 3g.47gb"), gi_profile_by_id(*nvl, 9));
  EXPECT_EQ(gi_profile_by_name(*nvl, "1c.3g.47gb"), gi_profile_by_index(*nvl, 2));
  EXPECT_EQ(gi_profile_by_name(*nvl, "3g.40gb"), nullptr);
}

// The partial tables: only mig_sizes_table_for finds them (the simulated NVML
// and -lgip need every row); each gives the MiB its public -lgip prints.
TEST(MigProfiles, PartialTablesSizeOnly) {
  constexpr std::uint64_t MiB = 1ull << 20;
  auto family = [](const MigTable* t) { return t ? std::string(t->family) : std::string("none"); };
  EXPECT_EQ(mig_table_for("NVIDIA B200", 183359 * MiB), nullptr);
  EXPECT_EQ(family(mig_sizes_table_for("NVIDIA B200", 183359 * MiB)), "B200 180GB");
  EXPECT_EQ(family(mig_sizes_table_for("NVIDIA GB200", 189471 * MiB)), "GB200 186GB");
  EXPECT_EQ(family(mig_sizes_table_for("NVIDIA GH200 144G HBM3e", 146831 * MiB)), "GH200 144GB");
  EXPECT_EQ(mig_sizes_table_for("NVIDIA GH200 480GB", 97871 * MiB), nullptr);  // 96 GB: none
  EXPECT_EQ(family(mig_sizes_table_for("NVIDIA H200", 143771 * MiB)), "H200 141GB");
  auto gib = [&](const char* gpu, std::uint64_t mib, const char* profile) {
    const MigTable* t = mig_sizes_table_for(gpu, mib * MiB);
    const GiProfile* p = t ? gi_profile_by_name(*t, profile) : nullptr;
    return p ? gib_text(p->memory_mib) : std::string("none");
  };
  // gpu-operator pull 1351 (B200), mig-parted issue 227 (GB200), pull 139 (GH200 144G).
  EXPECT_EQ(gib("NVIDIA B200", 183359, "1g.23gb"), "20.50");
  EXPECT_EQ(gib("NVIDIA B200", 183359, "2g.45gb"), "44.25");
  EXPECT_EQ(gib("NVIDIA GB200", 189471, "1g.23gb"), "22.00");
  EXPECT_EQ(gib("NVIDIA GB200", 189471, "2g.47gb"), "45.50");
  EXPECT_EQ(gib("NVIDIA GH200 144G HBM3e", 146831, "1g.18gb"), "17.50");
  EXPECT_EQ(gib("NVIDIA GH200 144G HBM3e", 146831, "1g.36gb"), "35.25");
  EXPECT_EQ(gib("NVIDIA B200", 183359, "7g.180gb"), "none");  // not seen: estimated
  for (const MigTable* t : partial_mig_tables()) {
    SCOPED_TRACE(t->family);
    EXPECT_EQ(gi_profile_by_id(*t, 0), nullptr);  // no whole-GPU row seen
    for (const GiProfile& p : t->profiles) {
      EXPECT_EQ(p.memory_mib % 128, 0u);
      EXPECT_EQ(std::string(p.name).substr(0, 2), std::to_string(p.slices) + "g");
      for (unsigned start : p.starts) EXPECT_LE(start + p.placement_size, t->memory_slices);
    }
  }
}

}  // namespace
}  // namespace hwaccel::mig
