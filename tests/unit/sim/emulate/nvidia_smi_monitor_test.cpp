// nvidia-smi's dmon, pmon, --query-compute-apps and -h on simulated hosts, against
// the real tool's layouts in the captures (fixtures/real/nvidia-smi__...__590.48.01.txt):
// header lines byte for byte, columns at the same widths, the recorded figures in
// dmon ('-' where none), the recorded processes in pmon and --query-compute-apps
// (none where none was recorded), and the time of the recording.
#include <gtest/gtest.h>

#include "tests/unit/nvml/recorded_h200.h"
#include "tests/unit/sim/emulate/nvsmi_host.h"

namespace hwaccel::sim {
namespace {

using testing_nvsmi::Host;
using testing_nvsmi::lines;

std::string capture(const char* command) {
  auto text = testing::slurp(
      testing::real_capture_path("nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt"));
  EXPECT_TRUE(text);
  return testing::capture_section(text.value_or(""), command).value_or("");
}

ToolAnswer ask_recorded_h200(std::vector<std::string> args) {
  auto s = testing::recorded_h200();
  if (!s) return {};
  SnapshotHost host(*s);
  Detection d = detect(host);
  args.insert(args.begin(), "nvidia-smi");
  return emulate_nvidia_smi(EmulatedHost{host.snapshot(), d}, args);
}

TEST(NvidiaSmiMonitor, DmonIsTheRealLayoutWithTheRecordedFigures) {
  auto real = lines(capture("nvidia-smi dmon -c 5"));
  ASSERT_GE(real.size(), 3u);
  auto a = ask_recorded_h200({"dmon", "-c", "1"});
  EXPECT_EQ(a.exit_code, 0);
  auto got = lines(a.out);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], real[0]);
  EXPECT_EQ(got[1], real[1]);
  // The figures of the recorded query (power.draw 77.71 W, 28 C, 32 C memory, 0 %,
  // 3201 / 345 MHz); the capture's dmon ran a moment later (77 W, 31 C).
  EXPECT_EQ(got[2],
            "    0     77     28     32      0      0      0      0      0      0   3201    345 ");
  EXPECT_EQ(got[2].size(), real[2].size());
  EXPECT_EQ(lines(ask_recorded_h200({"dmon", "-c", "3"}).out).size(), 5u);
}

TEST(NvidiaSmiMonitor, DmonPrintsDashesForWhatWasNotRecordedAndInMigMode) {
  Host dgx("dgx-h100");
  auto rows = lines(dgx.ask({"dmon", "-c", "1", "-i", "2"}).out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2],
            "    2      -      -      -      -      -      -      -      -      -      -      - ");
  EXPECT_EQ(lines(dgx.ask({"dmon", "-c", "2"}).out).size(), 2u + 16u);
  // Without -c the real tool samples until interrupted: not emulated, and said so.
  auto forever = dgx.ask({"dmon"});
  EXPECT_EQ(forever.exit_code, 2);
  EXPECT_NE(forever.err.find("not emulated"), std::string::npos);
}

TEST(NvidiaSmiMonitor, PmonWithNoProcessIsTheRealDashRow) {
  auto real = lines(capture("nvidia-smi pmon -c 5"));
  ASSERT_GE(real.size(), 3u);
  auto got = lines(ask_recorded_h200({"pmon", "-c", "1"}).out);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], real[0]);
  EXPECT_EQ(got[1], real[1]);
  EXPECT_EQ(got[2], real[2]);  // the capture's idle GPU ran nothing either
  Host dgx("dgx-h100");
  EXPECT_EQ(lines(dgx.ask({"pmon", "-c", "1"}).out).size(), 2u + 8u);
}

TEST(NvidiaSmiMonitor, QueryComputeAppsIsTheHeaderAndNoRows) {
  const std::string fields =
      "timestamp,gpu_name,gpu_bus_id,gpu_serial,gpu_uuid,pid,process_name,used_gpu_memory";
  auto a = ask_recorded_h200({"--query-compute-apps=" + fields, "--format=csv"});
  EXPECT_EQ(a.exit_code, 0);
  std::string real = capture("nvidia-smi --query-compute-apps=");
  while (!real.empty() && real.back() == '\n') real.pop_back();
  EXPECT_EQ(a.out, real + "\n");
  Host dgx("dgx-h100");
  EXPECT_EQ(dgx.ask({"--query-compute-apps=pid,used_memory", "--format=csv"}).out,
            "pid, used_gpu_memory [MiB]\n");
  EXPECT_EQ(dgx.ask({"--query-compute-apps=pid", "--format=csv,noheader"}).out, "");
  auto bad = dgx.ask({"--query-compute-apps=pid,colour", "--format=csv"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.out.find("Field \"colour\" is not a valid field to query."), std::string::npos);
}

// h200-load recorded --query-compute-apps under load (three processes) and pmon
// -c 5 verbatim: other argvs answer from the recorded processes, in the layout
// of the recorded pmon's rows, each process's utilisation '-' (not recorded per
// process).
TEST(NvidiaSmiMonitor, ProcessesAreTheRecordedOnes) {
  Host load("h200-load");
  auto a = load.ask({"--query-compute-apps=pid,process_name,used_memory", "--format=csv"});
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out,
            "pid, process_name, used_gpu_memory [MiB]\n"
            "10291, /root/tools/memhog, 2566 MiB\n"
            "10293, /root/tools/memhog, 1542 MiB\n"
            "10309, ./gpu_burn, 28234 MiB\n");
  EXPECT_EQ(load.ask({"--query-compute-apps=gpu_bus_id,pid,used_gpu_memory",
                      "--format=csv,noheader,nounits", "-i", "0"})
                .out,
            "00000000:83:00.0, 10291, 2566\n"
            "00000000:83:00.0, 10293, 1542\n"
            "00000000:83:00.0, 10309, 28234\n");
  // The recording's time, in nvidia-smi's form.
  EXPECT_EQ(load.ask({"--query-compute-apps=timestamp", "--format=csv,noheader"}).out,
            "2026/07/03 22:11:09.000\n2026/07/03 22:11:09.000\n2026/07/03 22:11:09.000\n");
  auto pmon = lines(load.ask({"pmon", "-c", "2"}).out);
  ASSERT_EQ(pmon.size(), 2u + 6u);
  EXPECT_EQ(pmon[2],
            "    0      10291     C      -      -      -      -      -      -    memhog         ");
  EXPECT_EQ(pmon[4],
            "    0      10309     C      -      -      -      -      -      -    gpu_burn       ");
  // The same columns as the recorded pmon's rows.
  auto recorded = lines(load.ask({"pmon", "-c", "5"}).out);
  ASSERT_GE(recorded.size(), 3u);
  EXPECT_EQ(pmon[2], recorded[2]);
  EXPECT_EQ(pmon[4].size(), recorded[4].size());
}

TEST(NvidiaSmiMonitor, HelpSaysItIsHwsimsStandIn) {
  Host dgx("dgx-h100");
  for (const char* h : {"-h", "--help"}) {
    auto a = dgx.ask({h});
    EXPECT_EQ(a.exit_code, 0);
    EXPECT_EQ(a.out.rfind("NVIDIA System Management Interface -- v", 0), 0u);
    EXPECT_NE(a.out.find("hwsim's stand-in"), std::string::npos);
    for (const char* form : {"--query-gpu", "dmon -c N", "pmon -c N", "--query-compute-apps",
                             "topo -m", "mig -lgi", "not emulated"})
      EXPECT_NE(a.out.find(form), std::string::npos) << form;
  }
}

TEST(NvidiaSmiMonitor, TimestampIsTheRecordingsWhereRecordedAtIsMissing) {
  auto s = testing::recorded_h200();
  ASSERT_TRUE(s);
  s->host.recorded_at.clear();
  SnapshotHost host(*s);
  Detection d = detect(host);
  auto a = emulate_nvidia_smi(EmulatedHost{host.snapshot(), d}, {"nvidia-smi", "-q"});
  // A recorded output's own time (the first in argv order: the query's timestamp
  // cell, 2026/07/03 22:10:46.109), not 1970.
  EXPECT_NE(a.out.find("Fri Jul  3 22:10:46 2026"), std::string::npos);
}

}  // namespace
}  // namespace hwaccel::sim
