// The compute processes a recorded `nvidia-smi --query-compute-apps` lists, as the
// simulated libnvidia-ml and the nvidia-smi stand-in report them: the real H200 capture's three
// processes under load, and hostile rows left out rather than guessed.
#include "src/probe/nvidia_smi_processes.h"

#include <gtest/gtest.h>

#include "src/host/snapshot_host.h"
#include "tests/support/test_support.h"

namespace hwaccel {
namespace {

// The recorded output in fixtures/hosts/h200-load.yaml (the capture's load section).
std::string h200_load_apps() {
  auto loaded = load_snapshot_file(testing::source_path("fixtures/hosts/h200-load.yaml"));
  EXPECT_TRUE(loaded.snapshot);
  if (!loaded.snapshot) return "";
  for (const auto& [argv, tool] : loaded.snapshot->tools)
    if (argv.size() > 1 && argv[1].rfind("--query-compute-apps=", 0) == 0) return tool.run.out;
  ADD_FAILURE() << "no recorded --query-compute-apps";
  return "";
}

TEST(RecordedProcesses, TheH200UnderLoadRunsThreeComputeProcesses) {
  auto by_bus = recorded_processes(h200_load_apps());
  ASSERT_EQ(by_bus.size(), 1u);
  const auto& list = by_bus["0000:83:00.0"];
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].pid, 10291u);
  EXPECT_EQ(list[0].name, "/root/tools/memhog");
  EXPECT_EQ(list[0].used_bytes, 2566ull << 20);
  EXPECT_EQ(list[1].pid, 10293u);
  EXPECT_EQ(list[1].used_bytes, 1542ull << 20);
  EXPECT_EQ(list[2].pid, 10309u);
  EXPECT_EQ(list[2].name, "./gpu_burn");
  EXPECT_EQ(list[2].used_bytes, 28234ull << 20);
}

TEST(RecordedProcesses, AnIdleGpuHasTheHeaderAndNoRows) {
  EXPECT_TRUE(recorded_processes("pid, process_name, used_gpu_memory [MiB], gpu_bus_id\n").empty());
  EXPECT_TRUE(recorded_processes("").empty());
}

TEST(RecordedProcesses, HostileRowsAreLeftOutNotGuessed) {
  const std::string csv =
      "gpu_bus_id, pid, process_name, used_gpu_memory [MiB]\n"
      "00000000:1B:00.0, 7, a, [N/A]\n"               // memory not recorded: stays unknown
      "00000000:1B:00.0, 7, again, 5 MiB\n"           // the same pid twice: kept once
      "not a bus, 8, b, 1 MiB\n"                      // no bus id
      "00000000:1B:00.0, -3, c, 1 MiB\n"              // no pid
      "00000000:1B:00.0, 0, d, 1 MiB\n"               // pid 0 is no process
      "00000000:1B:00.0, 99999999999, e, 1 MiB\n"     // past a pid's 32 bits
      "00000000:1B:00.0, 9, f, 99999999999999 MiB\n"  // past any GPU: unknown
      "00000000:1B:00.0, 10\n";                       // a short row
  auto by_bus = recorded_processes(csv);
  ASSERT_EQ(by_bus.size(), 1u);
  const auto& list = by_bus["0000:1b:00.0"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].pid, 7u);
  EXPECT_EQ(list[0].name, "a");
  EXPECT_FALSE(list[0].used_bytes);
  EXPECT_EQ(list[1].pid, 9u);
  EXPECT_FALSE(list[1].used_bytes);
}

TEST(RecordedProcesses, WithoutABusIdOrPidColumnNothingIsRead) {
  EXPECT_TRUE(recorded_processes("pid, used_gpu_memory [MiB]\n1, 5 MiB\n").empty());
  EXPECT_TRUE(recorded_processes("gpu_bus_id, used_gpu_memory [MiB]\n00:1B:00.0, 5 MiB\n").empty());
}

}  // namespace
}  // namespace hwaccel
