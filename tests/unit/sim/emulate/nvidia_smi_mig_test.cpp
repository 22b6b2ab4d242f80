// nvidia-smi mig -lgi/-lgip/-lci and --help-query-gpu from the host model: the
// boxes read back through hwaccel's own -lgi/-lgip parsers with the host's MIG
// facts, rows as wide as public outputs', the refusals in the tool's words, and
// the field list in the real capture's order.
#include <gtest/gtest.h>

#include "sim/emulate/nvidia_smi_fields.h"
#include "src/probe/nvidia_smi_mig.h"
#include "tests/unit/sim/emulate/nvsmi_host.h"

namespace hwaccel::sim {
namespace {

using testing_nvsmi::Host;
using testing_nvsmi::lines;

TEST(NvidiaSmiMig, LgiListsTheHostsGpuInstancesAndReadsBack) {
  Host h("h100-mig");
  auto a = h.ask({"mig", "-lgi"});
  ASSERT_EQ(a.exit_code, 0) << a.out << a.err;
  auto parsed = parse_nvidia_smi_mig_lgi(a.out);
  EXPECT_TRUE(parsed.problems.empty()) << parsed.problems.front();
  // One row per GPU instance the detection holds (GI ids 2, 3, 9, 10 in the fixture).
  std::set<int> want;
  for (const auto& e : h.detection.entries)
    if (e.backend == "cuda" && e.partition && e.partition->gpu_instance_id)
      want.insert(*e.partition->gpu_instance_id);
  std::set<int> got;
  for (const auto& gi : parsed.instances) got.insert(gi.instance);
  EXPECT_EQ(got, want);
  ASSERT_EQ(parsed.instances.size(), 4u);
  // Highest profile id first (1g.10gb is 19), as the real tool orders them.
  EXPECT_EQ(parsed.instances[0].profile, "1g.10gb");
  EXPECT_EQ(parsed.instances[0].profile_id, 19);
  EXPECT_EQ(parsed.instances.back().profile, "3g.40gb");
  EXPECT_EQ(parsed.instances.back().profile_id, 9);
  // Placed where the GI ids say (as the simulated NVML places them): GI 2 the upper
  // half, GI 3 the first quarter, GIs 9 and 10 slices 2 and 3.
  EXPECT_EQ(parsed.instances.back().placement, "4:4");
  EXPECT_EQ(parsed.instances[0].placement, "2:1");
  EXPECT_EQ(parsed.instances[2].placement, "0:2");
  // Driver 590: the 59-column box of recent drivers; placements do not overlap.
  unsigned used = 0;
  for (const auto& gi : parsed.instances) {
    auto colon = gi.placement.find(':');
    ASSERT_NE(colon, std::string::npos);
    int start = std::stoi(gi.placement.substr(0, colon)),
        size = std::stoi(gi.placement.substr(colon + 1));
    unsigned bits = ((1u << size) - 1u) << start;
    EXPECT_EQ(used & bits, 0u) << gi.placement;
    used |= bits;
  }
  for (const auto& line : lines(a.out)) {
    if (!line.empty()) {
      EXPECT_EQ(line.size(), 59u) << line;
    }
  }
  // -i selects; an unknown GPU is "No devices were found".
  EXPECT_EQ(h.ask({"mig", "-lgi", "-i", "0"}).out, a.out);
  EXPECT_EQ(h.ask({"mig", "--list-gpu-instances"}).out, a.out);
  EXPECT_EQ(h.ask({"mig", "-lgi", "-i", "7"}).exit_code, 6);
}

TEST(NvidiaSmiMig, LgipIsTheSkusProfileTableWithWhatTheInstancesLeaveFree) {
  Host h("h100-mig");
  auto a = h.ask({"mig", "-lgip"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  auto parsed = parse_nvidia_smi_mig_lgip(a.out);
  EXPECT_TRUE(parsed.problems.empty()) << parsed.problems.front();
  ASSERT_EQ(parsed.profiles.size(), 7u);  // H100 80GB: 1g.10gb .. 7g.80gb
  EXPECT_EQ(parsed.profiles[0].name, "1g.10gb");
  EXPECT_EQ(parsed.profiles[0].id, 19);
  EXPECT_EQ(parsed.profiles[0].memory_text, "9.75");
  EXPECT_EQ(parsed.profiles[0].total_instances, 7);
  // 3g+2g+1g+1g fill all 8 memory slices: nothing is free.
  for (const auto& p : parsed.profiles) EXPECT_EQ(p.free_instances, 0) << p.name;
  EXPECT_EQ(parsed.profiles[6].name, "7g.80gb");
  EXPECT_EQ(parsed.profiles[6].memory_text, "79.25");
  for (const auto& line : lines(a.out)) {
    if (!line.empty()) {
      EXPECT_EQ(line.size(), 81u) << line;
    }
  }
}

TEST(NvidiaSmiMig, LgipOfTheOlderDriverIsThe79ColumnBoxOfItsCapture) {
  // dgx-h100 records driver 550: the H100 NVL public output's widths (79).
  Host h("dgx-h100");
  auto a = h.ask({"mig", "-lgip", "-i", "0"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  auto l = lines(a.out);
  EXPECT_EQ(l[2],
            "| GPU   Name             ID    Instances   Memory     P2P    SM    DEC   ENC  |");
  EXPECT_EQ(l[3],
            "|                              Free/Total   GiB              CE    JPEG  OFA  |");
  EXPECT_EQ(l[5],
            "|   0  MIG 1g.10gb       19     0/7        9.75       No     16     1     0   |");
  EXPECT_EQ(l[6],
            "|                                                             1     1     0   |");
  // MIG is off on these GPUs: -lgi and -lci refuse in the tool's words.
  auto lgi = h.ask({"mig", "-lgi"});
  EXPECT_EQ(lgi.out, "No MIG-enabled devices found.\n");
  EXPECT_EQ(lgi.exit_code, 6);
  EXPECT_EQ(h.ask({"mig", "-lci"}).out, "No MIG-enabled devices found.\n");
}

TEST(NvidiaSmiMig, GpusWithoutMigSayNoMigEnabledDevices) {
  Host h("ws-4090-busy");
  for (auto list : {"-lgi", "-lgip", "-lci"}) {
    auto a = h.ask({"mig", list});
    EXPECT_EQ(a.out, "No MIG-enabled devices found.\n") << list;
    EXPECT_EQ(a.exit_code, 6);
  }
  EXPECT_EQ(h.ask({"--query-gpu=mig.mode.current", "--format=csv,noheader"}).out, "[N/A]\n");
}

TEST(NvidiaSmiMig, LciListsOneComputeInstancePerDevice) {
  Host h("h100-mig");
  auto a = h.ask({"mig", "-lci"});
  ASSERT_EQ(a.exit_code, 0);
  auto l = lines(a.out);
  EXPECT_EQ(l[1], "| Compute instances:                                                 |");
  // GI 9 (a 1g.10gb): CI profile 0, CI 0, placement 0:1.
  EXPECT_EQ(l[6], "|   0      9       MIG 1g.10gb          0         0          0:1     |");
  for (const auto& line : l) {
    if (!line.empty()) {
      EXPECT_EQ(line.size(), 70u) << line;
    }
  }
}

TEST(NvidiaSmiMig, NoDriverAnswersEveryMigArgvAsTheToolFails) {
  Host h("nvidia-no-driver");
  for (std::vector<std::string> argv :
       {std::vector<std::string>{"mig", "-lgi"}, {"mig", "-lgip"}, {"--help-query-gpu"}, {"-L"}}) {
    auto a = h.ask(argv);
    EXPECT_EQ(a.exit_code, 9) << argv[0];
    EXPECT_EQ(a.out.rfind("NVIDIA-SMI has failed because it couldn't communicate", 0), 0u);
  }
}

TEST(NvidiaSmiHelpQueryGpu, ListsTheCapturesFieldsInItsOrder) {
  auto capture = hwaccel::testing::slurp(hwaccel::testing::real_capture_path(
      "nvidia-smi__linux-x86_64__nvidia-h100-mig__590.48.01.txt"));
  if (!capture) GTEST_FAIL() << "real capture not found";
  auto real = hwaccel::testing::capture_section(*capture, "nvidia-smi --help-query-gpu\n");
  ASSERT_TRUE(real);
  // The quoted-name lines that follow a blank line: what peers read for the list.
  auto names = [](const std::string& text) {
    std::vector<std::string> out;
    std::string prev;
    for (const auto& line : lines(text)) {
      if (!line.empty() && line[0] == '"' && prev.empty()) out.push_back(line);
      if (line.rfind("Section about ", 0) == 0 && prev.empty()) out.push_back(line);
      prev = line;
    }
    return out;
  };
  Host h("h100-mig");
  auto a = h.ask({"--help-query-gpu"});
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(lines(a.out)[0], lines(*real)[0]);
  EXPECT_EQ(names(a.out), names(*real));
  // A driver without kmd_version refuses it as the tool words it; one that has it answers.
  auto refused = h.ask({"--query-gpu=kmd_version", "--format=csv"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.out.rfind("Field \"kmd_version\" is not a valid field to query.", 0), 0u);
  EXPECT_FALSE(is_query_gpu_field("compute_cap", "470.82.01"));
  EXPECT_TRUE(is_query_gpu_field("kmd_version", "595.80"));
  EXPECT_FALSE(is_query_gpu_field("0: Default"));  // a value, not a field
  EXPECT_EQ(query_field_unit("clocks_event_reasons_counters.sw_power_cap"), "us");
}

}  // namespace
}  // namespace hwaccel::sim
