// The MIG profile tables both the simulated NVML and hwsim's -lgip answer from:
// every SKU's table must be one a real GPU could have (placements inside its 8
// memory slices, 4 on an A30, one placement per instance, the largest profile
// spanning the GPU), and its MiB must print as the GiB the public -lgip outputs show.
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
  ASSERT_EQ(all_mig_tables().size(), 8u);
  for (const MigTable* t : all_mig_tables()) {
    SCOPED_TRACE(t->family);
    // 8 memory slices and 7 compute slices (A100, H100, H200, GH200), or the A30's
    // 4 and 4: five profiles, no 3g, a +me 2g as well as a +me 1g.
    const bool quarters = t->memory_slices == 4;
    EXPECT_EQ(t->memory_slices, quarters ? 4u : 8u);
    const unsigned compute_slices = quarters ? 4u : 7u;
    ASSERT_EQ(t->profiles.size(), quarters ? 5u : 7u);
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
        EXPECT_EQ(p.instances, 1u);  // one media-extended slice per GPU
      // Memory comes in 1/8 GiB steps (1/16 on the A30: 5952, 11968 MiB).
      EXPECT_EQ(p.memory_mib % (quarters ? 64 : 128), 0u);
      EXPECT_GE(p.sms, 14u * p.slices);
      EXPECT_LE(p.slices, compute_slices);
    }
    const GiProfile* whole = gi_profile_by_id(*t, 0);
    ASSERT_NE(whole, nullptr);
    // NVML_GPU_INSTANCE_PROFILE_7_SLICE, or 4_SLICE on the A30.
    EXPECT_EQ(whole->index, quarters ? 3u : 4u);
    EXPECT_EQ(whole->slices, compute_slices);
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
      // Two decimals name a sixteenth of a GiB exactly: the nearest one is the MiB.
      const double gib = std::stod(text);
      EXPECT_EQ(static_cast<std::uint64_t>(std::lround(gib * 16)) * 64, p.memory_mib)
          << t->family << " " << p.name << " " << text;
    }
  // Ties go to the even digit, as nvidia-smi prints them.
  EXPECT_EQ(gib_text(20096), "19.62");
  EXPECT_EQ(gib_text(40320), "39.38");
  EXPECT_EQ(gib_text(4864), "4.75");
  EXPECT_EQ(gib_text(80896), "79.00");
  EXPECT_EQ(gib_text(47232), "46.12");
  EXPECT_EQ(gib_text(94848), "92.62");
  EXPECT_EQ(gib_text(5952), "5.81");
  EXPECT_EQ(gib_text(24000), "23.44");
  EXPECT_EQ(gib_text(0), "0.00");
}

// Each new table prints the GiB of the public -lgip it comes from, row by row (in
// the table's order, which is -lgip's), and its names pick it.
TEST(MigProfiles, NewTablesPrintTheirPublicLgip) {
  constexpr std::uint64_t MiB = 1ull << 20;
  auto lgip = [](const MigTable* t) {
    std::string out;
    if (!t) return std::string("none");
    for (const GiProfile& p : t->profiles)
      out += std::string(out.empty() ? "" : " ") + p.name + "=" + gib_text(p.memory_mib) + "/" +
             std::to_string(p.id) + "/" + std::to_string(p.sms);
    return out;
  };
  // A Scaleway H100 PCIe, driver 570.169.
  EXPECT_EQ(lgip(mig_table_for("NVIDIA H100 PCIe", 81559 * MiB)),
            "1g.10gb=9.75/19/14 1g.10gb+me=9.75/20/14 1g.20gb=19.62/15/14 2g.20gb=19.62/14/30 "
            "3g.40gb=39.50/9/46 4g.40gb=39.50/5/62 7g.80gb=79.25/0/114");
  // A GH200 96GB (kf-cuanschutz/NVIDIA_Grace_Hopper_benchmarking_logs_).
  EXPECT_EQ(lgip(mig_table_for("NVIDIA GH200 480GB", 97871 * MiB)),
            "1g.12gb=11.00/19/16 1g.12gb+me=11.00/20/16 1g.24gb=23.00/15/26 2g.24gb=23.00/14/32 "
            "3g.48gb=46.50/9/60 4g.48gb=46.50/5/64 7g.96gb=93.00/0/132");
  // An A30, driver 535.183.01: 4 memory slices, -lgipp {0,1,2,3}:1, {0,2}:2, {0}:4.
  const MigTable* a30 = mig_table_for("NVIDIA A30", 24576 * MiB);
  EXPECT_EQ(lgip(a30),
            "1g.6gb=5.81/14/14 1g.6gb+me=5.81/21/14 2g.12gb=11.69/5/28 "
            "2g.12gb+me=11.69/6/28 4g.24gb=23.44/0/56");
  ASSERT_NE(a30, nullptr);
  EXPECT_EQ(a30->memory_slices, 4u);
  EXPECT_EQ(gi_profile_by_id(*a30, 14)->starts, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(gi_profile_by_id(*a30, 5)->starts, (std::vector<unsigned>{0, 2}));
  EXPECT_EQ(gi_profile_by_id(*a30, 6)->index, 8u);  // NVML_GPU_INSTANCE_PROFILE_2_SLICE_REV1
  EXPECT_EQ(gi_profile_by_name(*a30, "1g.6gb")->memory_mib, 5952u);    // its MIG devices
  EXPECT_EQ(gi_profile_by_name(*a30, "2g.12gb")->memory_mib, 11968u);  // print these
  EXPECT_EQ(gi_profile_by_name(*a30, "1c.2g.12gb"), gi_profile_by_id(*a30, 5));
  EXPECT_EQ(mig_table_for("A30", std::nullopt), a30);  // pre-R470 names have no "NVIDIA "

  // Near misses: other names, or the right name with another memory size.
  EXPECT_EQ(mig_table_for("NVIDIA A30X", 24576 * MiB), nullptr);
  EXPECT_EQ(mig_table_for("NVIDIA A30", 40960 * MiB), nullptr);
  EXPECT_EQ(mig_table_for("NVIDIA A3000", std::nullopt), nullptr);
  EXPECT_EQ(mig_table_for("NVIDIA H100 PCIe", 95830 * MiB), nullptr);
  EXPECT_EQ(mig_table_for("NVIDIA GH200 480GB", 146831 * MiB), nullptr);
  EXPECT_EQ(mig_table_for("NVIDIA GH200 144G HBM3e", 97871 * MiB), nullptr);
  // The H100 names still pick their own tables.
  auto family = [](const MigTable* t) { return t ? std::string(t->family) : std::string("none"); };
  EXPECT_EQ(family(mig_table_for("NVIDIA H100 PCIe", std::nullopt)), "H100 PCIe");
  EXPECT_EQ(family(mig_table_for("NVIDIA H100 80GB HBM3", 81559 * MiB)), "H100 80GB");
  EXPECT_EQ(family(mig_table_for("NVIDIA GH200 480GB", std::nullopt)), "GH200 96GB");
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
  EXPECT_EQ(family(mig_sizes_table_for("NVIDIA GH200 480GB", 97871 * MiB)), "GH200 96GB");
  // The PCIe A100s: every row but the 7g (public A100 outputs disagree on it).
  EXPECT_EQ(mig_table_for("NVIDIA A100-PCIE-40GB", 40960 * MiB), nullptr);
  EXPECT_EQ(family(mig_sizes_table_for("NVIDIA A100-PCIE-40GB", 40960 * MiB)), "A100 PCIe 40GB");
  EXPECT_EQ(family(mig_sizes_table_for("NVIDIA A100 80GB PCIe", 81920 * MiB)), "A100 PCIe 80GB");
  EXPECT_EQ(mig_sizes_table_for("NVIDIA A100-PCIE-40GB", 81920 * MiB), nullptr);
  EXPECT_EQ(mig_sizes_table_for("NVIDIA A100 80GB PCIe", 40960 * MiB), nullptr);
  EXPECT_EQ(family(mig_sizes_table_for("NVIDIA A100-SXM4-40GB", 40960 * MiB)), "A100 40GB");
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
  EXPECT_EQ(gib("NVIDIA A100-PCIE-40GB", 40960, "1g.10gb"), "9.75");
  EXPECT_EQ(gib("NVIDIA A100-PCIE-40GB", 40960, "4g.20gb"), "19.62");
  EXPECT_EQ(gib("NVIDIA A100-PCIE-40GB", 40960, "7g.40gb"), "none");
  EXPECT_EQ(gib("NVIDIA A100 80GB PCIe", 81920, "1g.10gb"), "9.50");
  EXPECT_EQ(gib("NVIDIA A100 80GB PCIe", 81920, "3g.40gb"), "39.25");
  EXPECT_EQ(gib("NVIDIA A100 80GB PCIe", 81920, "7g.80gb"), "none");
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
