// MIG sizes where nvidia-smi -q has none: the bare table's MIG block (the real
// H100 capture in fixtures/real), `nvidia-smi mig -lgip` and `-lgi`
// (public outputs' shapes: A100 40GB, H100 NVL), and the probe using them in
// that order, with the argv it ran recorded.
#include "src/probe/nvidia_smi_mig.h"

#include <gtest/gtest.h>

#include "src/probe/cuda_mig_sizes.h"
#include "src/probe/cuda_probe.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

constexpr std::uint64_t kMiB = 1048576;
const std::string kCapture = "nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt";

std::optional<std::string> section(const std::string& prefix) {
  auto text = testing::slurp(testing::real_capture_path(kCapture));
  if (!text) return std::nullopt;
  return testing::capture_section(*text, prefix);
}

// Driver 470's table: "Memory-Usage", no "Shared".
constexpr std::string_view kOldTable =
    "+-----------------------------------------------------------------------------+\n"
    "| MIG devices:                                                                |\n"
    "+------------------+----------------------+-----------+-----------------------+\n"
    "| GPU  GI  CI  MIG |         Memory-Usage |        Vol|         Shared        |\n"
    "|      ID  ID  Dev |           BAR1-Usage | SM     Unc| CE  ENC  DEC  OFA  JPG|\n"
    "|                  |                      |        ECC|                       |\n"
    "|==================+======================+===========+=======================|\n"
    "|  0    1   0   0  |     19MiB / 40192MiB | 98      0 |  7   0    5    1    1 |\n"
    "|                  |      0MiB / 65535MiB |           |                       |\n"
    "+------------------+----------------------+-----------+-----------------------+\n"
    "\n"
    "+-----------------------------------------------------------------------------+\n"
    "| Processes:                                                                  |\n";

// An H100 NVL's -lgip (driver 570), first rows.
constexpr std::string_view kLgip =
    "+-----------------------------------------------------------------------------+\n"
    "| GPU instance profiles:                                                      |\n"
    "| GPU   Name             ID    Instances   Memory     P2P    SM    DEC   ENC  |\n"
    "|                              Free/Total   GiB              CE    JPEG  OFA  |\n"
    "|=============================================================================|\n"
    "|   0  MIG 1g.12gb       19     7/7        10.62      No     16     1     0   |\n"
    "|                                                             1     1     0   |\n"
    "+-----------------------------------------------------------------------------+\n"
    "|   0  MIG 1g.12gb+me    20     1/1        10.62      No     16     1     0   |\n"
    "|                                                             1     1     1   |\n"
    "+-----------------------------------------------------------------------------+\n"
    "|   0  MIG 1g.24gb       15     4/4        21.50      No     26     1     0   |\n"
    "|                                                             1     1     0   |\n"
    "+-----------------------------------------------------------------------------+\n";

// An A100 40GB's -lgi with three GPU instances.
constexpr std::string_view kLgi =
    "+----------------------------------------------------+\n"
    "| GPU instances:                                     |\n"
    "| GPU   Name          Profile  Instance   Placement  |\n"
    "|                       ID       ID       Start:Size |\n"
    "|====================================================|\n"
    "|   0  MIG 1g.5gb       19       13          6:1     |\n"
    "+----------------------------------------------------+\n"
    "|   0  MIG 2g.10gb      14        5          4:2     |\n"
    "+----------------------------------------------------+\n"
    "|   0  MIG 4g.20gb       5        1          0:4     |\n"
    "+----------------------------------------------------+\n";

TEST(NvidiaSmiMig, TheRealH100TablesMigBlock) {
  auto table_text = section("nvidia-smi \n");
  if (!table_text) GTEST_FAIL() << "real capture not found: " << kCapture;
  auto table = parse_nvidia_smi_table_mig(*table_text);
  EXPECT_TRUE(table.has_block);
  EXPECT_TRUE(table.problems.empty()) << table.problems.front();
  ASSERT_EQ(table.devices.size(), 4u);
  const auto& d = table.devices[0];
  EXPECT_EQ(d.gpu, 0);
  EXPECT_EQ(d.gpu_instance, 2);
  EXPECT_EQ(d.compute_instance, 0);
  EXPECT_EQ(d.device, 0);
  EXPECT_EQ(d.used_bytes, 26 * kMiB);
  EXPECT_EQ(d.total_bytes, 40448 * kMiB);                 // 3g.40gb
  EXPECT_EQ(table.devices[1].total_bytes, 20096 * kMiB);  // 2g.20gb
  EXPECT_EQ(table.devices[3].gpu_instance, 10);
  EXPECT_EQ(table.devices[3].total_bytes, 9984 * kMiB);  // 1g.10gb
}

TEST(NvidiaSmiMig, OlderTableAndNoBlock) {
  auto table = parse_nvidia_smi_table_mig(kOldTable);
  ASSERT_EQ(table.devices.size(), 1u);
  EXPECT_EQ(table.devices[0].total_bytes, 40192 * kMiB);
  EXPECT_FALSE(parse_nvidia_smi_table_mig("| GPU  Name |\n").has_block);
  auto bad = parse_nvidia_smi_table_mig(
      "| MIG devices: |\n|====|\n|  0    x   0   0  | 1MiB / 2MiB |\n|  0 1 0 0 | 3MiB / 2MiB |\n");
  EXPECT_TRUE(bad.devices.empty());
  EXPECT_EQ(bad.problems.size(), 2u);  // a non-number, and more used than there is
}

TEST(NvidiaSmiMig, ProfilesAndInstances) {
  auto lgip = parse_nvidia_smi_mig_lgip(kLgip);
  EXPECT_TRUE(lgip.problems.empty());
  ASSERT_EQ(lgip.profiles.size(), 3u);
  EXPECT_EQ(lgip.profiles[0].name, "1g.12gb");
  EXPECT_EQ(lgip.profiles[0].id, 19);
  EXPECT_EQ(lgip.profiles[0].free_instances, 7);
  EXPECT_EQ(lgip.profiles[0].memory_text, "10.62");
  EXPECT_EQ(lgip.profiles[0].memory_bytes, 10875 * kMiB);  // 10.62 GiB, to the MiB
  EXPECT_EQ(lgip.profiles[1].name, "1g.12gb+me");
  EXPECT_EQ(lgip.profiles[2].memory_bytes, 22016 * kMiB);  // 21.50 GiB

  auto lgi = parse_nvidia_smi_mig_lgi(kLgi);
  ASSERT_EQ(lgi.instances.size(), 3u);
  EXPECT_EQ(lgi.instances[0].profile, "1g.5gb");
  EXPECT_EQ(lgi.instances[0].profile_id, 19);
  EXPECT_EQ(lgi.instances[0].instance, 13);
  EXPECT_EQ(lgi.instances[0].placement, "6:1");
  EXPECT_EQ(lgi.instances[2].profile, "4g.20gb");

  auto bad = parse_nvidia_smi_mig_lgip(
      "|   0  MIG 1g.5gb  x  7/7  4.75 |\n|   0  MIG 1g.5gb 19 7/7 4.755 |\n");
  EXPECT_TRUE(bad.profiles.empty());
  EXPECT_EQ(bad.problems.size(), 2u);
  EXPECT_TRUE(parse_nvidia_smi_mig_lgi("No MIG-enabled devices found.\n").instances.empty());
}

ToolRun ok(std::string out) {
  ToolRun run;
  run.out = std::move(out);
  return run;
}

ToolRun refused() {
  ToolRun run;
  run.exit_code = 4;
  run.out = "Insufficient Permissions\n";
  return run;
}

// The real H100 with MIG on, where nvidia-smi -q fails: the table's block
// gives the exact sizes and the argv is recorded; -lgip is not asked.
TEST(NvidiaSmiMig, TheProbeTakesTheTableWhereDashQFails) {
  auto query = section("nvidia-smi --query-gpu=");
  auto list = section("nvidia-smi -L");
  auto table = section("nvidia-smi \n");
  if (!query || !list || !table) GTEST_FAIL() << "real capture not found: " << kCapture;
  testing::FakeHost host;
  host.tools[cuda_query_argv(cuda_query_fields())] = ok(*query);
  host.tools[cuda_list_argv()] = ok(*list);
  host.tools[cuda_addressing_mode_argv()] = ok(*query);
  host.tools[cuda_q_argv()] = refused();
  host.tools[cuda_table_argv()] = ok(*table);
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 5u);
  const Entry& mig = result.entries[1];
  ASSERT_TRUE(mig.partition);
  EXPECT_EQ(mig.partition->profile, "3g.40gb");
  EXPECT_EQ(mig.memory.total_bytes, 40448 * kMiB);
  EXPECT_EQ(mig.memory.free_bytes, (40448 - 26) * kMiB);
  EXPECT_EQ(mig.partition->gpu_instance_id, 2);
  EXPECT_EQ(mig.memory.source,
            "nvidia-smi's table (MIG devices, GPU instance 2: 26 MiB of 40448 MiB used; free = "
            "total - used)");
  EXPECT_NE(std::find(mig.provenance.begin(), mig.provenance.end(), "tool:nvidia-smi"),
            mig.provenance.end());
  EXPECT_EQ(result.entries[4].memory.total_bytes, 9984 * kMiB);
  for (const auto& argv : host.runs) EXPECT_NE(argv, cuda_mig_lgip_argv());
}

// No -q, a table without the block: -lgip's profile sizes, then the profile table.
TEST(NvidiaSmiMig, TheProbeFallsBackToLgipThenToTheProfileTable) {
  testing::FakeHost host;
  host.tools[cuda_query_argv(cuda_query_fields())] =
      ok("index, uuid, pci.bus_id, name, memory.total [MiB], memory.used [MiB], memory.free [MiB], "
         "compute_cap, driver_version\n"
         "0, GPU-0aaa, 00000000:98:00.0, NVIDIA H100 NVL, 95830 MiB, 0 MiB, 95000 MiB, 9.0, "
         "570.86.15\n");
  host.tools[cuda_list_argv()] =
      ok("GPU 0: NVIDIA H100 NVL (UUID: GPU-0aaa)\n"
         "  MIG 1g.24gb     Device  0: (UUID: MIG-0bbb)\n"
         "  MIG 3g.47gb     Device  1: (UUID: MIG-1bbb)\n");
  host.tools[cuda_q_argv()] = refused();
  host.tools[cuda_table_argv()] = ok("| GPU  Name |\n");
  host.tools[cuda_mig_lgip_argv()] = ok(std::string(kLgip));
  auto result = CudaProbe().run(host);
  ASSERT_EQ(result.entries.size(), 3u);
  EXPECT_EQ(result.entries[1].memory.total_bytes, 22016 * kMiB);
  EXPECT_FALSE(result.entries[1].memory.free_bytes);
  EXPECT_EQ(result.entries[1].memory.source,
            "nvidia-smi mig -lgip (profile 1g.24gb: 21.50 GiB, to 0.01 GiB; free unknown)");
  // 3g.47gb is not in these rows: the H100 NVL's profile table (the full -lgip's 46.12 GiB).
  EXPECT_EQ(result.entries[2].memory.total_bytes, 47232 * kMiB);
  EXPECT_EQ(
      result.entries[2].memory.source.rfind("the H100 NVL MIG profile table (profile 3g.47gb", 0),
      0u);
  for (const auto& w : result.warnings)
    EXPECT_EQ(w.message.find("MIG sizes estimated"), std::string::npos) << w.message;
}

}  // namespace
}  // namespace hwaccel
