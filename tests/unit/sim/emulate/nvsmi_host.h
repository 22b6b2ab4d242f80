// A fixture host for the nvidia-smi emulator's tests: the snapshot, its replayed
// detection, and one call that asks the emulator an argv.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/emulate/nvidia_smi.h"
#include "src/host/snapshot_host.h"
#include "src/registry/detection.h"
#include "tests/support/test_support.h"

namespace hwaccel::sim::testing_nvsmi {

struct Host {
  std::unique_ptr<SnapshotHost> host;
  Detection detection;

  explicit Host(const std::string& fixture) {
    auto loaded =
        load_snapshot_file(hwaccel::testing::source_path("fixtures/hosts/" + fixture + ".yaml"));
    EXPECT_TRUE(loaded.snapshot) << fixture;
    host = std::make_unique<SnapshotHost>(*loaded.snapshot);
    detection = detect(*host);
  }
  EmulatedHost emulated() const { return {host->snapshot(), detection}; }
  ToolAnswer ask(std::vector<std::string> args) const {
    args.insert(args.begin(), "nvidia-smi");
    return emulate_nvidia_smi(emulated(), args);
  }
};

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto nl = text.find('\n', at);
    out.push_back(text.substr(at, nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return out;
}

}  // namespace hwaccel::sim::testing_nvsmi
