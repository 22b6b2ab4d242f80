// A recorded H200 host with monitoring figures, for the NVML and nvidia-smi tests:
// fixtures/hosts/h200-firecracker.yaml (a real recording: one H200 at 0000:00:06.0)
// plus the idle `nvidia-smi -q` and `--query-gpu=<every field> --format=csv` of
// another real H200 (fixtures/real/nvidia-smi__...-h200__590.48.01.txt), its bus id
// 83:00.0 rewritten to the fixture's so that both describe the one GPU.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "src/host/snapshot_host.h"
#include "src/snapshot/snapshot_codec.h"
#include "tests/support/test_support.h"

namespace hwaccel::testing {

inline void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

inline void add_tool(Snapshot& s, std::vector<std::string> argv, std::string out) {
  ToolEntry entry;
  entry.argv = argv;
  entry.run.out = std::move(out);
  s.tools[argv] = entry;
}

// The snapshot; nullopt (with a test failure) where a file is missing.
inline std::optional<Snapshot> recorded_h200() {
  auto loaded = load_snapshot_file(source_path("fixtures/hosts/h200-firecracker.yaml"));
  auto text = slurp(real_capture_path("nvidia-smi__linux-x86_64__nvidia-h200__590.48.01.txt"));
  EXPECT_TRUE(loaded.snapshot && text);
  if (!loaded.snapshot || !text) return std::nullopt;
  auto q = capture_section(*text, "nvidia-smi -q").value_or("");
  auto csv = capture_section(*text, "nvidia-smi --query-gpu=timestamp").value_or("");
  for (auto* part : {&q, &csv}) {
    while (!part->empty() && part->back() == '\n') part->pop_back();
    *part += "\n";
    replace_all(*part, "00000000:83:00.0", "00000000:00:06.0");
  }
  std::string fields = csv.substr(0, csv.find('\n'));
  replace_all(fields, ", ", ",");
  for (const char* unit : {" [MiB]", " [W]", " [%]", " [MHz]", " [us]", " [ms]"})
    replace_all(fields, unit, "");
  Snapshot s = *loaded.snapshot;
  add_tool(s, {"nvidia-smi", "-q"}, q);
  add_tool(s, {"nvidia-smi", "--query-gpu=" + fields, "--format=csv"}, csv);
  return s;
}

// The snapshot written under the build folder, for a program that reads a file.
// The host above as a snapshot file, one per test process: ctest runs each case
// in its own process, in parallel, and a file shared between them was read by one
// while another rewrote it (NvmlMonitor.SamplesCarryTheRecordedTime failed so).
inline std::string recorded_h200_file() {
  auto s = recorded_h200();
  if (!s) return "";
  const std::string path =
      HWACCEL_BIN_DIR "/recorded-h200-monitoring-" + std::to_string(::getpid()) + ".yaml";
  std::ofstream(path + ".tmp") << write_snapshot(*s);
  std::rename((path + ".tmp").c_str(), path.c_str());
  return path;
}

}  // namespace hwaccel::testing
