#include "sim/snapshot_diff.h"

#include <gtest/gtest.h>

#include "sim/report_diff.h"

namespace hwaccel::sim {
namespace {

using Lines = std::vector<std::string>;

Snapshot base() {
  Snapshot s;
  s.host.label = "gx10";
  s.facts = {"linux", "aarch64", "6.17.0-1014-nvidia", 4096, 20, "spark"};
  s.env = {{"PATH", "/usr/bin"}};
  s.files["/proc/meminfo"] = FileEntry::of_content("MemTotal: 1 kB\nMemFree: 1 kB\nEnd: 0\n");
  s.files["/dev/nvidia0"] = FileEntry::of_node(FileKind::char_device);
  ToolEntry t;
  t.argv = {"nvidia-smi", "-L"};
  t.run.out = "GPU 0: NVIDIA GB10\n";
  s.tools[t.argv] = t;
  return s;
}

TEST(SnapshotDiff, EqualSnapshotsHaveNoLines) {
  EXPECT_TRUE(diff_snapshots(base(), base()).empty());
}

TEST(SnapshotDiff, NamesEveryKindOfChangeInOrder) {
  Snapshot a = base(), b = base();
  b.facts.cpus = 16;
  b.env["CUDA_VISIBLE_DEVICES"] = "0";
  b.files["/proc/meminfo"] = FileEntry::of_content("MemTotal: 1 kB\nMemFree: 2 kB\nEnd: 0\n");
  b.files.erase("/dev/nvidia0");
  b.files["/sys/x"] = FileEntry::of_error(EACCES);
  b.tools.begin()->second.run.exit_code = 9;
  b.tools.begin()->second.run.ms = 1234;  // wall time: not a difference
  ToolEntry hang;
  hang.argv = {"rocm-smi", "--showid"};
  hang.run.outcome = ToolOutcome::timeout;
  b.tools[hang.argv] = hang;
  EXPECT_EQ(diff_snapshots(a, b),
            (Lines{"facts.cpus: 20 -> 16", "env: + CUDA_VISIBLE_DEVICES=0",
                   "files: - /dev/nvidia0 (node char)",
                   "files: ~ /proc/meminfo: line 2: -MemFree: 1 kB | +MemFree: 2 kB",
                   "files: + /sys/x (error EACCES)", "tools: ~ nvidia-smi -L: exit 0 -> exit 9",
                   "tools: + rocm-smi --showid (timeout)"}));
}

TEST(SnapshotDiff, TextChanges) {
  EXPECT_EQ(describe_text_change("a\nb\n", "a\nc\nd\n"), "line 2: -b | +c +d");
  EXPECT_EQ(describe_text_change("a", "a\n"), "only the final newline differs");
  EXPECT_EQ(describe_text_change(std::string("\xff\x01", 2), std::string("\xff\x02", 2)),
            "binary, first difference at byte 1");
  EXPECT_EQ(describe_text_change("x\tx\n", "x\x1b[0m\n"), "line 1: -x\\tx | +x\\x1b[0m");
}

TEST(ReportDiff, BackendsByNameDevicesById) {
  auto a = nlohmann::json::parse(R"({
    "schema": "hwaccel-detect/1",
    "backends": [{"name": "cuda", "status": "ready"}, {"name": "cpu", "status": "ready"}],
    "devices": [{"backend": "cuda", "index": 0, "name": "NVIDIA GB10", "memory": {"free_bytes": 5}},
                {"backend": "cpu", "index": 0, "name": "Arm"}],
    "warnings": [{"source": "host", "message": "x"}]})");
  auto b = nlohmann::json::parse(R"({
    "schema": "hwaccel-detect/1",
    "backends": [{"name": "cpu", "status": "ready"}, {"name": "cuda", "status": "unavailable"}],
    "devices": [{"backend": "cpu", "index": 0, "name": "Arm"},
                {"backend": "cuda", "index": 0, "name": "NVIDIA GB10", "memory": {"free_bytes": 7}},
                {"backend": "cuda", "index": 1, "name": "NVIDIA GB10"}],
    "warnings": []})");
  EXPECT_EQ(diff_reports(a, b),
            (Lines{"backends[cuda].status: \"ready\" -> \"unavailable\"",
                   "devices: + cuda:1 (NVIDIA GB10)", "devices[cuda:0].memory.free_bytes: 5 -> 7",
                   "warnings: - {\"message\":\"x\",\"source\":\"host\"}"}));
  EXPECT_TRUE(diff_reports(a, a).empty());
}

}  // namespace
}  // namespace hwaccel::sim
